//===- plugin/cli/PrefixHeader.cpp - Precompiled tf headers for queries ---===//
//
// PrefixHeader.h. The header is built in this process, by the same Clang that
// reads it back, so the PCH always matches the reader's version.
//
//===----------------------------------------------------------------------===//
#include "PrefixHeader.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/FileManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/HeaderSearch.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace tf::cli {
namespace {

/// \p Text with its comments replaced by spaces, newlines kept.
std::string withoutComments(StringRef Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (std::size_t I = 0; I < Text.size();) {
    if (Text.substr(I).starts_with("//")) {
      while (I < Text.size() && Text[I] != '\n')
        ++I;
    } else if (Text.substr(I).starts_with("/*")) {
      std::size_t End = Text.find("*/", I + 2);
      End = End == StringRef::npos ? Text.size() : End + 2;
      for (; I < End; ++I)
        Out += Text[I] == '\n' ? '\n' : ' ';
    } else {
      Out += Text[I++];
    }
  }
  return Out;
}

/// A header that cannot hold a kernel: tf's own, or the standard library's.
bool precompilable(StringRef Header) {
  return Header.starts_with("tf/") ||
         (!Header.contains('/') && !Header.contains('.'));
}

/// The files a Make-style dependency file lists after its target.
std::vector<std::string> dependencies(StringRef DepFile) {
  std::vector<std::string> Files;
  ErrorOr<std::unique_ptr<MemoryBuffer>> Buffer =
      MemoryBuffer::getFile(DepFile);
  if (!Buffer)
    return Files;
  StringRef Text = (*Buffer)->getBuffer();
  Text = Text.split(':').second;
  std::string Current;
  for (std::size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '\\' && I + 1 < Text.size()) {
      char Next = Text[++I];
      if (Next != '\n' && Next != '\r')
        Current += Next;
      continue;
    }
    if (isSpace(C)) {
      if (!Current.empty())
        Files.push_back(std::move(Current));
      Current.clear();
      continue;
    }
    Current += C;
  }
  if (!Current.empty())
    Files.push_back(std::move(Current));
  return Files;
}

/// Whether \p Pch exists and no file it was built from changed after it.
bool upToDate(StringRef Pch, StringRef DepFile) {
  sys::fs::file_status PchStatus;
  if (sys::fs::status(Pch, PchStatus))
    return false;
  std::vector<std::string> Files = dependencies(DepFile);
  if (Files.empty())
    return false;
  for (const std::string &File : Files) {
    sys::fs::file_status Status;
    if (sys::fs::status(File, Status) ||
        Status.getLastModificationTime() > PchStatus.getLastModificationTime())
      return false;
  }
  return true;
}

/// Builds the PCH and notes the first header of the prefix that has no
/// include guard: the source includes the prefix again after the PCH, so an
/// unguarded header would be read twice. (ToolInvocation destroys the
/// action when it has run, hence the out-parameter.)
class PrefixAction : public clang::GeneratePCHAction {
public:
  explicit PrefixAction(std::string &Unguarded) : Unguarded(Unguarded) {}

private:
  class Includes : public clang::PPCallbacks {
  public:
    Includes(const clang::SourceManager &SM,
             std::vector<clang::FileEntryRef> &Files)
        : SM(SM), Files(Files) {}

    void InclusionDirective(clang::SourceLocation HashLoc, const clang::Token &,
                            StringRef, bool, clang::CharSourceRange,
                            clang::OptionalFileEntryRef File, StringRef,
                            StringRef, const clang::Module *, bool,
                            clang::SrcMgr::CharacteristicKind) override {
      if (File && SM.isInMainFile(HashLoc))
        Files.push_back(*File);
    }

  private:
    const clang::SourceManager &SM;
    std::vector<clang::FileEntryRef> &Files;
  };

  bool BeginSourceFileAction(clang::CompilerInstance &CI) override {
    CI.getPreprocessor().addPPCallbacks(
        std::make_unique<Includes>(CI.getSourceManager(), Direct));
    return clang::GeneratePCHAction::BeginSourceFileAction(CI);
  }

  void EndSourceFileAction() override {
    clang::HeaderSearch &HS =
        getCompilerInstance().getPreprocessor().getHeaderSearchInfo();
    for (clang::FileEntryRef File : Direct)
      if (Unguarded.empty() && !HS.isFileMultipleIncludeGuarded(File))
        Unguarded = File.getName().str();
    clang::GeneratePCHAction::EndSourceFileAction();
  }

  std::string &Unguarded;
  std::vector<clang::FileEntryRef> Direct;
};

Error writeFile(StringRef Path, StringRef Contents) {
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (EC)
    return createStringError(EC, "cannot write '%s': %s", Path.str().c_str(),
                             EC.message().c_str());
  OS << Contents;
  return Error::success();
}

} // namespace

std::string defaultCacheDir() {
  if (std::optional<std::string> Dir = sys::Process::GetEnv("TF_CACHE_DIR"))
    return *Dir;
  SmallString<256> Path;
  if (std::optional<std::string> Xdg = sys::Process::GetEnv("XDG_CACHE_HOME");
      Xdg && !Xdg->empty())
    Path = *Xdg;
  else if (std::optional<std::string> Home = sys::Process::GetEnv("HOME");
           Home && !Home->empty())
    sys::path::append(Path, *Home, ".cache");
  else
    return "";
  sys::path::append(Path, "tf");
  return std::string(Path);
}

std::vector<std::string> precompilableIncludes(StringRef Source) {
  clang::LangOptions Lang;
  Lang.CPlusPlus = Lang.CPlusPlus11 = Lang.CPlusPlus20 = true;
  clang::PreambleBounds Bounds = clang::Lexer::ComputePreamble(Source, Lang);
  std::string Preamble = withoutComments(Source.take_front(Bounds.Size));

  static const Regex Include("^[ \t]*#[ \t]*include[ \t]*<([^>]+)>[ \t]*$");
  std::vector<std::string> Headers;
  bool AnyTf = false;
  SmallVector<StringRef, 32> Lines;
  StringRef(Preamble).split(Lines, '\n');
  for (StringRef Line : Lines) {
    if (Line.trim().empty())
      continue;
    SmallVector<StringRef, 2> Match;
    if (!Include.match(Line.rtrim('\r'), &Match) || !precompilable(Match[1]))
      break;
    AnyTf |= Match[1].starts_with("tf/");
    Headers.push_back(Match[1].str());
  }
  if (!AnyTf)
    Headers.clear();
  return Headers;
}

Expected<std::string> preparePrefixHeader(StringRef CacheDir,
                                          ArrayRef<std::string> CommandLine,
                                          ArrayRef<std::string> Includes,
                                          StringRef WorkingDir) {
  std::string Header;
  for (const std::string &I : Includes)
    Header += "#include <" + I + ">\n";
  // Everything the header's meaning depends on: the reader's version, the
  // flags (relative -I paths included, hence the directory) and the text.
  std::string Key = clang::getClangFullVersion() + '\0' + WorkingDir.str() +
                    '\0' + join(CommandLine, "\n") + '\0' + Header;
  std::string Stem = "prefix-" + utohexstr(xxh3_64bits(Key), true, 16);
  SmallString<256> Base(CacheDir);
  sys::path::append(Base, Stem);
  std::string Pch = (Base + ".pch").str(), Deps = (Base + ".d").str(),
              Source = (Base + ".hpp").str();
  if (upToDate(Pch, Deps))
    return Pch;

  if (std::error_code EC = sys::fs::create_directories(CacheDir))
    return createStringError(EC, "cannot create the cache directory '%s': %s",
                             CacheDir.str().c_str(), EC.message().c_str());
  if (Error E = writeFile(Source, Header))
    return std::move(E);
  // Built under names of this process, renamed into place: a reader sees a
  // whole header and its dependencies, or none.
  std::string Suffix = ".tmp" + std::to_string(sys::Process::getProcessId());
  std::string TmpPch = Pch + Suffix, TmpDeps = Deps + Suffix;
  std::vector<std::string> Args(CommandLine.begin(), CommandLine.end());
  Args.insert(Args.end(), {"-x", "c++-header", Source, "-o", TmpPch, "-MD",
                           "-MF", TmpDeps});

  auto Files = makeIntrusiveRefCnt<clang::FileManager>(
      clang::FileSystemOptions{WorkingDir.str()});
  clang::IgnoringDiagConsumer Quiet;
  std::string Unguarded;
  clang::tooling::ToolInvocation Invocation(
      Args, std::make_unique<PrefixAction>(Unguarded), Files.get());
  Invocation.setDiagnosticConsumer(&Quiet);
  bool Built = Invocation.run() && sys::fs::exists(TmpPch) &&
               sys::fs::exists(TmpDeps);
  std::string Why;
  if (!Built)
    Why = "cannot precompile '" + Source + "'";
  else if (!Unguarded.empty())
    Why = "cannot precompile '" + Unguarded +
          "': it has no include guard";
  if (!Why.empty() || sys::fs::rename(TmpDeps, Deps) ||
      sys::fs::rename(TmpPch, Pch)) {
    sys::fs::remove(TmpPch);
    sys::fs::remove(TmpDeps);
    return createStringError(inconvertibleErrorCode(),
                             Why.empty() ? "cannot move the header into the cache"
                                         : Why);
  }
  return Pch;
}

} // namespace tf::cli
