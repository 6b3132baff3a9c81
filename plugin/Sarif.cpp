//===- Sarif.cpp - Diagnostics as a SARIF 2.1.0 log -----------------------===//
//
// The forwarding consumer behind `-fplugin-arg-tf-sarif=FILE` (Sarif.h) and
// the log it writes:
//
//   {"$schema": ..., "version": "2.1.0", "runs": [{
//     "tool": {"driver": {"name": "tf", "version": ..., "rules": [...]},
//              "extensions": [{"name": "clang", "version": "22.1.8"}]},
//     "columnKind": "unicodeCodePoints",
//     "results": [{"ruleId": "tf:repeat-mismatch", "ruleIndex": 0,
//                  "level": "error", "message": {"text": ...},
//                  "locations": [...], "relatedLocations": [...],
//                  "fixes": [...]}, ...]}]}
//
// One result per error, warning or remark, in the order Clang reports them;
// its notes become relatedLocations, and the fix-its of the diagnostic and
// of each note a fix. A tf diagnostic's rule is its stable code ("tf:" +
// diagCode(), the [tf:code] suffix, which the message drops), with the
// message template of Diagnostics.def; a Clang diagnostic's rule is
// "clang:-W<option>" when a warning option controls it, else "clang:" and
// its numeric id, with Clang's format string. Rules are listed in the order
// of first use. File URIs are relative to the current directory when the
// file lies under it, else absolute file:// URIs; nothing else in the log
// depends on the machine or the time, so it is reproducible byte for byte.
//
//===----------------------------------------------------------------------===//

#include "Sarif.h"
#include "AtomicFile.h"
#include "Diagnostics.h"

#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#ifndef TF_VERSION
#error "TF_VERSION (tf's version, plugin/CMakeLists.txt) must be defined"
#endif

using namespace clang;

namespace tf::plugin {
namespace {

//===- What is recorded ---------------------------------------------------===//

/// A SARIF region: 1-based lines and columns (in Unicode code points),
/// EndColumn one past the last character.
struct Region {
  unsigned StartLine = 0, StartColumn = 0, EndLine = 0, EndColumn = 0;
};

struct Location {
  std::string Uri;
  Region R;
};

struct Replacement {
  Location Deleted;
  std::string Inserted;
};

/// The fix-its of one diagnostic, applied together.
struct Fix {
  std::string Description;
  std::vector<Replacement> Replacements;
};

struct Related {
  std::optional<Location> Loc;
  std::string Message;
};

struct Result {
  std::string RuleId;
  unsigned RuleIndex = 0;
  const char *Level = "error";
  std::string Message;
  std::optional<Location> Loc;
  std::vector<Related> Notes;
  std::vector<Fix> Fixes;
};

struct Rule {
  std::string Id;
  /// Diagnostics.def's id (err_tf_repeat_mismatch); empty for Clang's.
  std::string Name;
  std::string Template;
  const char *DefaultLevel = "error";
  /// False for a Clang warning that only a flag turns on.
  bool EnabledByDefault = true;
};

//===- tf's diagnostics table ---------------------------------------------===//

struct TfEntry {
  std::string Name;
  std::string Message;
  const char *Level;
};

/// Diagnostics.def by stable code.
const std::map<std::string, TfEntry> &tfEntries() {
  static const std::map<std::string, TfEntry> Entries = [] {
    std::map<std::string, TfEntry> M;
    // The .def's class and group columns name Diagnostics.cpp's constants;
    // only the class matters here.
    enum ClassName { Error, Warning, Note };
    auto Level = [](ClassName C) {
      return C == Error ? "error" : C == Warning ? "warning" : "note";
    };
#define TF_DIAG(Id, Class, Group, Message)                                     \
  M[diagCode(DiagId::Id)] = TfEntry{#Id, Message, Level(Class)};
#include "Diagnostics.def"
    return M;
  }();
  return Entries;
}

/// The code of a tf error or warning from its message's `[tf:code]` or
/// `[-Werror,tf:code]` suffix, which is dropped from \p Message.
std::optional<std::string> takeTfCode(std::string &Message) {
  llvm::StringRef M(Message);
  if (!M.ends_with("]"))
    return std::nullopt;
  std::size_t Open = M.rfind(" [");
  if (Open == llvm::StringRef::npos)
    return std::nullopt;
  llvm::StringRef Tag = M.slice(Open + 2, M.size() - 1);
  Tag.consume_front("-Werror,");
  if (!Tag.consume_front("tf:") || !tfEntries().count(Tag.str()))
    return std::nullopt;
  std::string Code = Tag.str();
  Message.resize(Open);
  return Code;
}

//===- Locations ----------------------------------------------------------===//

/// \p Path as a URI reference: relative to \p Cwd when it lies under it,
/// else an absolute file:// URI; characters outside RFC 3986's unreserved
/// set and '/' are percent-encoded.
std::string fileUri(llvm::StringRef Path, llvm::StringRef Cwd) {
  llvm::SmallString<256> Abs(Path);
  bool Relative = false;
  if (!llvm::sys::path::is_absolute(Abs) && !Cwd.empty()) {
    llvm::SmallString<256> Joined(Cwd);
    llvm::sys::path::append(Joined, Abs);
    Abs = Joined;
  }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  llvm::StringRef Rest = Abs;
  if (!Cwd.empty() && Rest.consume_front(Cwd) && Rest.consume_front("/"))
    Relative = true;
  else
    Rest = Abs;
  std::string Out = Relative ? "" : "file://";
  for (char C : Rest) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C)) {
      Out += C;
      continue;
    }
    static const char Hex[] = "0123456789ABCDEF";
    unsigned char U = static_cast<unsigned char>(C);
    Out += '%';
    Out += Hex[U >> 4];
    Out += Hex[U & 15];
  }
  return Out;
}

/// SARIF's level of a Clang diagnostic: remarks and stray notes are notes.
const char *levelName(DiagnosticsEngine::Level Level) {
  switch (Level) {
  case DiagnosticsEngine::Warning:
    return "warning";
  case DiagnosticsEngine::Error:
  case DiagnosticsEngine::Fatal:
    return "error";
  default:
    return "note";
  }
}

/// SARIF's level of a Clang diagnostic's default mapping; one that only a
/// flag enables (-Wunused-variable, -pedantic's extensions) is a warning.
const char *defaultLevelName(DiagnosticMapping Mapping) {
  switch (Mapping.getSeverity()) {
  case diag::Severity::Ignored:
    return "warning";
  case diag::Severity::Remark:
    return "note";
  case diag::Severity::Warning:
    return "warning";
  default:
    return "error";
  }
}

class Recorder : public DiagnosticConsumer {
public:
  Recorder(CompilerInstance &CI, std::string Path, DiagnosticConsumer *Next,
           std::unique_ptr<DiagnosticConsumer> OwnedNext)
      : Diags(CI.getDiagnostics()), LangOpts(CI.getLangOpts()),
        Path(std::move(Path)), Next(Next), OwnedNext(std::move(OwnedNext)) {
    llvm::SmallString<256> Dir;
    if (!llvm::sys::fs::current_path(Dir))
      Cwd = std::string(Dir);
  }

  // Everything goes on to the original client; the counts are its own, so
  // that -verify (whose counts are mismatches) and "N errors generated"
  // read as without the recorder.
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Next->BeginSourceFile(LO, PP);
  }

  void EndSourceFile() override {
    // While the original client is still in the source file, so that a
    // failed write can be reported through it.
    write();
    Next->EndSourceFile();
    syncCounts();
  }

  void finish() override {
    if (Dirty)
      write();
    Next->finish();
    syncCounts();
  }

  void clear() override {
    Next->clear();
    syncCounts();
  }

  bool IncludeInDiagnosticCounts() const override {
    return Next->IncludeInDiagnosticCounts();
  }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    Next->HandleDiagnostic(Level, Info);
    syncCounts();
    if (!Writing)
      record(Level, Info);
  }

private:
  void syncCounts() {
    NumErrors = Next->getNumErrors();
    NumWarnings = Next->getNumWarnings();
  }

  //===- Recording --------------------------------------------------------===//

  void record(DiagnosticsEngine::Level Level, const Diagnostic &Info) {
    if (Level == DiagnosticsEngine::Ignored)
      return;
    llvm::SmallString<256> Text;
    Info.FormatDiagnostic(Text);
    std::string Message(Text);
    std::optional<Location> Loc;
    const SourceManager *SM =
        Info.hasSourceManager() ? &Info.getSourceManager() : nullptr;
    if (SM && Info.getLocation().isValid())
      Loc = location(*SM, Info);
    Dirty = true;
    bool IsNote = Level == DiagnosticsEngine::Note && !Results.empty();
    Result R;
    if (!IsNote) {
      R.Level = levelName(Level);
      R.RuleIndex = rule(Info, Message, R.Level);
      R.RuleId = Rules[R.RuleIndex].Id;
    }

    Fix Fixes;
    Fixes.Description = Message;
    if (SM)
      for (const FixItHint &H : Info.getFixItHints())
        if (std::optional<Replacement> Rep = replacement(*SM, H))
          Fixes.Replacements.push_back(std::move(*Rep));

    Result &Target = IsNote ? Results.back() : R;
    if (!Fixes.Replacements.empty())
      Target.Fixes.push_back(std::move(Fixes));
    if (IsNote) {
      Target.Notes.push_back({std::move(Loc), std::move(Message)});
      return;
    }
    R.Message = std::move(Message);
    R.Loc = std::move(Loc);
    Results.push_back(std::move(R));
  }

  /// The index of the rule of \p Info, added on first use; drops a tf code
  /// from \p Message.
  unsigned rule(const Diagnostic &Info, std::string &Message,
                const char *Level) {
    Rule R;
    unsigned ID = Info.getID();
    if (DiagnosticIDs::IsCustomDiag(ID)) {
      if (std::optional<std::string> Code = takeTfCode(Message)) {
        const TfEntry &E = tfEntries().at(*Code);
        R = {"tf:" + *Code, E.Name, E.Message, E.Level};
      }
    }
    if (R.Id.empty()) {
      DiagnosticIDs &IDs = *Diags.getDiagnosticIDs();
      llvm::StringRef Option = DiagnosticIDs::IsCustomDiag(ID)
                                   ? llvm::StringRef()
                                   : IDs.getWarningOptionForDiag(ID);
      R.Id = Option.empty() ? "clang:" + std::to_string(ID)
                            : "clang:-W" + Option.str();
      R.Template = IDs.getDescription(ID).str();
      if (DiagnosticIDs::IsCustomDiag(ID)) {
        R.DefaultLevel = Level;
      } else {
        DiagnosticMapping Mapping = IDs.getDefaultMapping(ID);
        R.DefaultLevel = defaultLevelName(Mapping);
        R.EnabledByDefault = Mapping.getSeverity() != diag::Severity::Ignored;
      }
    }
    auto [It, New] = RuleIndex.try_emplace(R.Id, Rules.size());
    if (New)
      Rules.push_back(std::move(R));
    return It->second;
  }

  /// The column of \p Loc (a file location) in Unicode code points.
  static unsigned codePointColumn(const SourceManager &SM, SourceLocation Loc) {
    auto [File, Offset] = SM.getDecomposedLoc(Loc);
    bool Invalid = false;
    unsigned ByteColumn = SM.getColumnNumber(File, Offset, &Invalid);
    llvm::StringRef Buffer = SM.getBufferData(File, &Invalid);
    if (Invalid || ByteColumn == 0 || Offset > Buffer.size())
      return ByteColumn;
    llvm::StringRef Line = Buffer.slice(Offset - (ByteColumn - 1), Offset);
    unsigned Column = 1;
    for (char C : Line)
      Column += (static_cast<unsigned char>(C) & 0xC0) != 0x80;
    return Column;
  }

  /// The region from \p Begin to \p End (file locations in one file; End
  /// one past the last character), or nothing.
  std::optional<Location> span(const SourceManager &SM, SourceLocation Begin,
                               SourceLocation End) const {
    PresumedLoc PB = SM.getPresumedLoc(Begin);
    if (PB.isInvalid())
      return std::nullopt;
    Location L;
    L.Uri = fileUri(PB.getFilename(), Cwd);
    L.R.StartLine = PB.getLine();
    L.R.StartColumn = codePointColumn(SM, Begin);
    PresumedLoc PE = End.isValid() && SM.isWrittenInSameFile(Begin, End) &&
                             !SM.isBeforeInTranslationUnit(End, Begin)
                         ? SM.getPresumedLoc(End)
                         : PresumedLoc();
    if (PE.isInvalid()) {
      L.R.EndLine = L.R.StartLine;
      L.R.EndColumn = L.R.StartColumn;
    } else {
      L.R.EndLine = PE.getLine();
      L.R.EndColumn = codePointColumn(SM, End);
    }
    return L;
  }

  /// One past the end of \p R, a file location.
  SourceLocation endOf(const SourceManager &SM,
                       const CharSourceRange &R) const {
    SourceLocation End = SM.getFileLoc(R.getEnd());
    if (R.isTokenRange())
      End = Lexer::getLocForEndOfToken(End, 0, SM, LangOpts);
    return End;
  }

  /// The caret of \p Info up to the end of the first highlighted range that
  /// holds it, else of the caret's token.
  std::optional<Location> location(const SourceManager &SM,
                                   const Diagnostic &Info) const {
    SourceLocation Caret = SM.getFileLoc(Info.getLocation());
    for (const CharSourceRange &R : Info.getRanges()) {
      if (R.isInvalid())
        continue;
      SourceLocation Begin = SM.getFileLoc(R.getBegin());
      SourceLocation End = endOf(SM, R);
      if (End.isInvalid() || !SM.isWrittenInSameFile(Begin, Caret) ||
          !SM.isWrittenInSameFile(End, Caret) ||
          SM.isBeforeInTranslationUnit(Caret, Begin) ||
          !SM.isBeforeInTranslationUnit(Caret, End))
        continue;
      return span(SM, Caret, End);
    }
    return span(SM, Caret, Lexer::getLocForEndOfToken(Caret, 0, SM, LangOpts));
  }

  std::optional<Replacement> replacement(const SourceManager &SM,
                                         const FixItHint &H) const {
    if (H.RemoveRange.isInvalid())
      return std::nullopt;
    SourceLocation Begin = SM.getFileLoc(H.RemoveRange.getBegin());
    std::optional<Location> Deleted = span(SM, Begin, endOf(SM, H.RemoveRange));
    if (!Deleted)
      return std::nullopt;
    Replacement R{std::move(*Deleted), H.CodeToInsert};
    if (H.InsertFromRange.isValid())
      R.Inserted = Lexer::getSourceText(H.InsertFromRange, SM, LangOpts).str();
    return R;
  }

  //===- Writing ----------------------------------------------------------===//

  void write() {
    Dirty = false;
    std::string Log;
    llvm::raw_string_ostream OS(Log);
    print(OS);
    OS << '\n';
    Writing = true;
    if (std::error_code EC = writeFileAtomically(Path, Log))
      Diags.Report(diag::err_fe_unable_to_open_output) << Path << EC.message();
    Writing = false;
  }

  void print(llvm::raw_ostream &OS) const {
    llvm::json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
      J.attribute("version", "2.1.0");
      J.attributeArray("runs", [&] {
        J.object([&] {
          J.attributeObject("tool", [&] {
            J.attributeObject("driver", [&] {
              J.attribute("name", "tf");
              J.attribute("version", TF_VERSION);
              J.attributeArray("rules", [&] {
                for (const Rule &R : Rules)
                  rule(J, R);
              });
            });
            J.attributeArray("extensions", [&] {
              J.object([&] {
                J.attribute("name", "clang");
                J.attribute("version", CLANG_VERSION_STRING);
              });
            });
          });
          J.attribute("columnKind", "unicodeCodePoints");
          J.attributeArray("results", [&] {
            for (const Result &R : Results)
              result(J, R);
          });
        });
      });
    });
  }

  static void message(llvm::json::OStream &J, llvm::StringRef Text) {
    J.attributeObject("message", [&] { J.attribute("text", Text); });
  }

  static void rule(llvm::json::OStream &J, const Rule &R) {
    J.object([&] {
      J.attribute("id", R.Id);
      if (!R.Name.empty())
        J.attribute("name", R.Name);
      J.attributeObject("shortDescription",
                        [&] { J.attribute("text", R.Template); });
      J.attributeObject("defaultConfiguration", [&] {
        if (!R.EnabledByDefault)
          J.attribute("enabled", false);
        J.attribute("level", R.DefaultLevel);
      });
    });
  }

  static void region(llvm::json::OStream &J, const Region &R) {
    J.attributeObject("region", [&] {
      J.attribute("startLine", R.StartLine);
      J.attribute("startColumn", R.StartColumn);
      J.attribute("endLine", R.EndLine);
      J.attribute("endColumn", R.EndColumn);
    });
  }

  static void artifact(llvm::json::OStream &J, const std::string &Uri) {
    J.attributeObject("artifactLocation", [&] { J.attribute("uri", Uri); });
  }

  static void physical(llvm::json::OStream &J, const Location &L) {
    J.attributeObject("physicalLocation", [&] {
      artifact(J, L.Uri);
      region(J, L.R);
    });
  }

  static void result(llvm::json::OStream &J, const Result &R) {
    J.object([&] {
      J.attribute("ruleId", R.RuleId);
      J.attribute("ruleIndex", R.RuleIndex);
      J.attribute("level", R.Level);
      message(J, R.Message);
      J.attributeArray("locations", [&] {
        if (R.Loc)
          J.object([&] { physical(J, *R.Loc); });
      });
      if (!R.Notes.empty())
        J.attributeArray("relatedLocations", [&] {
          for (std::size_t I = 0; I < R.Notes.size(); ++I)
            J.object([&] {
              J.attribute("id", I);
              if (R.Notes[I].Loc)
                physical(J, *R.Notes[I].Loc);
              message(J, R.Notes[I].Message);
            });
        });
      if (!R.Fixes.empty())
        J.attributeArray("fixes", [&] {
          for (const Fix &F : R.Fixes)
            fix(J, F);
        });
    });
  }

  /// The replacements grouped by file, in the order of first use.
  static void fix(llvm::json::OStream &J, const Fix &F) {
    std::vector<std::string> Uris;
    for (const Replacement &R : F.Replacements)
      if (llvm::find(Uris, R.Deleted.Uri) == Uris.end())
        Uris.push_back(R.Deleted.Uri);
    J.object([&] {
      J.attributeObject("description",
                        [&] { J.attribute("text", F.Description); });
      J.attributeArray("artifactChanges", [&] {
        for (const std::string &Uri : Uris)
          J.object([&] {
            artifact(J, Uri);
            J.attributeArray("replacements", [&] {
              for (const Replacement &R : F.Replacements) {
                if (R.Deleted.Uri != Uri)
                  continue;
                J.object([&] {
                  J.attributeObject("deletedRegion", [&] {
                    J.attribute("startLine", R.Deleted.R.StartLine);
                    J.attribute("startColumn", R.Deleted.R.StartColumn);
                    J.attribute("endLine", R.Deleted.R.EndLine);
                    J.attribute("endColumn", R.Deleted.R.EndColumn);
                  });
                  J.attributeObject("insertedContent",
                                    [&] { J.attribute("text", R.Inserted); });
                });
              }
            });
          });
      });
    });
  }

  DiagnosticsEngine &Diags;
  const LangOptions &LangOpts;
  std::string Path;
  std::string Cwd;
  DiagnosticConsumer *Next;
  std::unique_ptr<DiagnosticConsumer> OwnedNext;

  std::vector<Rule> Rules;
  llvm::StringMap<unsigned> RuleIndex;
  std::vector<Result> Results;
  /// Something was recorded since the last write.
  bool Dirty = true;
  /// Reporting a failed write: not recorded.
  bool Writing = false;
};

} // namespace

void installSarifWriter(CompilerInstance &CI, llvm::StringRef Path) {
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  DiagnosticConsumer *Next = Diags.getClient();
  std::unique_ptr<DiagnosticConsumer> Owned = Diags.takeClient();
  Diags.setClient(new Recorder(CI, Path.str(), Next, std::move(Owned)),
                  /*ShouldOwnClient=*/true);
}

} // namespace tf::plugin
