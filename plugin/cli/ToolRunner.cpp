//===- plugin/cli/ToolRunner.cpp - Compiling files for tf's queries -------===//
//
// ToolRunner.h. One ClangTool per file, so that each file's diagnostics are
// counted apart and the per-command tf arguments of a compilation database
// apply to that file only.
//
//===----------------------------------------------------------------------===//
#include "ToolRunner.h"
#include "PrefixHeader.h"
#include "QueryOutput.h"
#include "Diagnostics.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

#ifndef TF_CLANG_DRIVER
#error "TF_CLANG_DRIVER (the clang++ of TF_LLVM_ROOT) must be defined"
#endif
#ifndef TF_CLANG_RESOURCE_DIR
#error "TF_CLANG_RESOURCE_DIR (clang++ -print-resource-dir) must be defined"
#endif

using namespace llvm;
using namespace clang;
using namespace clang::tooling;

namespace tf::cli {
namespace {

/// The flags after `--`, when there was one.
std::optional<std::vector<std::string>> CompilerFlags;

int fail(const ToolOptions &Opts, const Twine &Message) {
  return usageError(Opts.Command, Message.str(), Opts.Json);
}

/// Prints diagnostics as clang++ does (a TextDiagnosticPrinter with the
/// command line's diagnostic options), counts them and records them
/// (DiagnosticLog.h). It sees the driver's diagnostics too, which ClangTool
/// prints but does not count as a failure; those, and any other without a
/// source location, read `tf COMMAND: error: ...`.
class CountingPrinter : public DiagnosticConsumer {
public:
  explicit CountingPrinter(std::string Prefix) : Prefix(std::move(Prefix)) {}

  void BeginSourceFile(const LangOptions &LO,
                       const Preprocessor *PP) override {
    InSource = true;
    LangOpts = LO;
    if (PP)
      printer(PP->getDiagnostics()).BeginSourceFile(LO, PP);
  }

  void EndSourceFile() override {
    InSource = false;
    if (Printer)
      Printer->EndSourceFile();
  }

  const plugin::DiagnosticLog &log() const { return Log; }

  void finish() override {
    if (Printer)
      Printer->finish();
  }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    TextDiagnosticPrinter &P = printer(*Info.getDiags());
    // Without a place in the source (the driver's, an unknown tf
    // argument's), the line names the command.
    P.setPrefix(InSource && Info.getLocation().isValid() ? "" : Prefix);
    P.HandleDiagnostic(Level, Info);
    Log.record(Level, Info, LangOpts);
  }

private:
  /// The printer, made with a copy of the first engine's options (the
  /// engines of one command line have the same ones).
  TextDiagnosticPrinter &printer(const DiagnosticsEngine &Engine) {
    if (!Printer) {
      Opts = Engine.getDiagnosticOptions();
      Printer = std::make_unique<TextDiagnosticPrinter>(errs(), Opts);
    }
    return *Printer;
  }

  std::string Prefix;
  DiagnosticOptions Opts;
  std::unique_ptr<TextDiagnosticPrinter> Printer;
  bool InSource = false;
  /// The source file's, for where a token ends; the driver's diagnostics
  /// have no location.
  LangOptions LangOpts;
  plugin::DiagnosticLog Log;
};

/// Runs the tf consumer with the options of its compile command. Its
/// unknown tf arguments are reported as the plugin reports them, through
/// Clang's engine (so the file's recorded diagnostics and error count have
/// them), and the file is not analysed, as the plugin's compile would stop.
class TfAction : public ASTFrontendAction {
public:
  TfAction(plugin::Options Opts, std::vector<std::string> Unknown)
      : Opts(std::move(Opts)), Unknown(std::move(Unknown)) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    for (const std::string &Arg : Unknown)
      plugin::report(CI.getDiagnostics(), SourceLocation(),
                     plugin::DiagId::err_tf_plugin_unknown_argument)
          << Arg << plugin::knownArguments();
    if (!Unknown.empty())
      return nullptr;
    return plugin::makeConsumer(Opts, outs());
  }

private:
  plugin::Options Opts;
  std::vector<std::string> Unknown;
};

/// Creates one TfAction per compile command. The argument adjuster fills
/// Opts (and the unknown tf arguments) from the command's
/// -fplugin-arg-tf-* right before create() runs.
class TfActionFactory : public FrontendActionFactory {
public:
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<TfAction>(Opts, Unknown);
  }

  plugin::Options Opts;
  std::vector<std::string> Unknown;
};

bool isTfPlugin(StringRef Path) { return sys::path::filename(Path) == "tf.so"; }

/// The adjuster that makes a compile command what the plugin would have
/// seen: tf.so itself is not loaded (the tool links the same code), the
/// command's tf arguments become \p Factory's options (report and sarif=
/// never; the dump and the sink as the command asks), and --targets-dir wins over a
/// targets-dir= in the command. Unknown tf arguments go to the factory,
/// whose action reports them as the plugin does.
ArgumentsAdjuster takeTfArguments(const ToolOptions &TO, StringRef File,
                                  TfActionFactory &Factory) {
  return [&TO, File, &Factory](const CommandLineArguments &Args, StringRef) {
    plugin::Options Opts;
    std::vector<std::string> Unknown;
    CommandLineArguments Out;
    for (const std::string &Arg : Args) {
      StringRef A(Arg);
      if (A.starts_with("-fplugin=") && isTfPlugin(A.drop_front(9)))
        continue;
      if (A.consume_front("-fplugin-arg-tf-")) {
        if (!plugin::parseArgument(A, Opts))
          Unknown.push_back(A.str());
        continue;
      }
      Out.push_back(Arg);
    }
    Factory.Unknown = std::move(Unknown);
    Opts.DumpHir = TO.DumpHir;
    Opts.DumpHirJson = TO.DumpHirJson;
    Opts.Report = false;
    Opts.SarifFile.clear();
    if (!TO.TargetsDir.empty())
      Opts.TargetsDir = TO.TargetsDir;
    if (TO.Sink)
      Opts.Sink = [&TO, File](ASTContext &Ctx, hir::Module &M,
                              ArrayRef<const targets::MergedTarget *> T) {
        TO.Sink(File, Ctx, M, T);
      };
    Opts.LoweredSink = TO.LoweredSink;
    Factory.Opts = std::move(Opts);
    return Out;
  };
}

/// argv[0] becomes tf's clang++, and its resource directory is added unless
/// the command names one (ClangTool would otherwise add one next to tf).
CommandLineArguments useClangDriver(const CommandLineArguments &Args,
                                    StringRef) {
  CommandLineArguments Out = Args;
  if (Out.empty())
    return Out;
  Out[0] = TF_CLANG_DRIVER;
  bool HasResourceDir = false;
  for (const std::string &Arg : Out)
    HasResourceDir |= StringRef(Arg).starts_with("-resource-dir");
  if (!HasResourceDir)
    Out.insert(Out.begin() + 1, "-resource-dir=" TF_CLANG_RESOURCE_DIR);
  return Out;
}

/// Reads the tf headers at the top of the file precompiled, when the cache
/// has or can build them; otherwise the command is left as it is (a slower
/// query, with a note on stderr when the header could not be built).
ArgumentsAdjuster usePrefixHeader(const ToolOptions &TO, StringRef File,
                                  StringRef WorkingDir,
                                  plugin::Options &Opts) {
  return [&TO, File, WorkingDir, &Opts](const CommandLineArguments &Args,
                                        StringRef AbsolutePath) {
    if (TO.CacheDir.empty())
      return Args;
    ErrorOr<std::unique_ptr<MemoryBuffer>> Source =
        MemoryBuffer::getFile(AbsolutePath);
    if (!Source)
      return Args;
    std::vector<std::string> Includes =
        precompilableIncludes((*Source)->getBuffer());
    if (Includes.empty())
      return Args;
    // The command without its input; one that includes files of its own
    // before the source does is left alone.
    CommandLineArguments Prefix;
    for (const std::string &Arg : Args) {
      StringRef A(Arg);
      if (A == "-include" || A == "-imacros" || A.starts_with("-include-pch"))
        return Args;
      if (A != File && A != AbsolutePath && A != "-fsyntax-only")
        Prefix.push_back(Arg);
    }
    Expected<std::string> Pch =
        preparePrefixHeader(TO.CacheDir, Prefix, Includes, WorkingDir);
    if (!Pch) {
      errs() << "tf " << TO.Command << ": note: " << toString(Pch.takeError())
             << "; parsing the headers instead\n";
      return Args;
    }
    Opts.SkipPrecompiled = true;
    CommandLineArguments Out = Args;
    Out.insert(Out.begin() + 1, {"-include-pch", *Pch});
    return Out;
  };
}

/// Runs the tool on one file; returns whether it compiled without errors.
bool runOne(const ToolOptions &TO, const CompilationDatabase &DB,
            const std::string &File, bool FixedFlags) {
  TfActionFactory Factory;
  CountingPrinter Diagnostics("tf " + TO.Command);
  ClangTool Tool(DB, {File});
  Tool.setPrintErrorMessage(false);
  Tool.setDiagnosticConsumer(&Diagnostics);
  if (FixedFlags) {
    // ClangTool names the file by its absolute path; give the compiler the
    // spelling from the command line, as clang++ has it, so that positions
    // in the output and in diagnostics read the same.
    Tool.appendArgumentsAdjuster(
        [&File](const CommandLineArguments &Args, StringRef AbsolutePath) {
          CommandLineArguments Out = Args;
          auto It = llvm::find(llvm::reverse(Out), AbsolutePath);
          if (It != Out.rend())
            *It = File;
          return Out;
        });
  } else if (CompilerFlags) {
    Tool.appendArgumentsAdjuster(
        getInsertArgumentAdjuster(*CompilerFlags, ArgumentInsertPosition::END));
  }
  Tool.appendArgumentsAdjuster(takeTfArguments(TO, File, Factory));
  Tool.appendArgumentsAdjuster(useClangDriver);
  // The directory the compiler runs in (its relative -I paths).
  std::vector<CompileCommand> Commands = DB.getCompileCommands(File);
  std::string WorkingDir = Commands.empty() ? "" : Commands.front().Directory;
  if (!WorkingDir.empty())
    Tool.appendArgumentsAdjuster(usePrefixHeader(TO, File, WorkingDir, Factory.Opts));
  int RC = Tool.run(&Factory);
  outs().flush();
  if (TO.DiagnosticSink)
    TO.DiagnosticSink(File, Diagnostics.log().diagnostics());
  return RC == 0 && Diagnostics.getNumErrors() == 0;
}

} // namespace

FileOptions::FileOptions(cl::SubCommand &Sub, cl::OptionCategory &Category)
    : Files(cl::Positional, cl::sub(Sub), cl::desc("FILE..."), cl::cat(Category)),
      BuildPath("p", cl::sub(Sub), cl::value_desc("BUILD_DIR"),
                cl::desc("Take each file's compile command from "
                         "BUILD_DIR/compile_commands.json"),
                cl::cat(Category)),
      TargetsDir("targets-dir", cl::sub(Sub), cl::value_desc("DIR"),
                 cl::desc("Read the fact documents from DIR (default: "
                          "$TF_TARGETS_DIR, else the built-in targets/)"),
                 cl::cat(Category)),
      NoPrefixCache("no-prefix-cache", cl::sub(Sub),
                    cl::desc("Parse the tf headers instead of reading them "
                             "precompiled from $TF_CACHE_DIR (default "
                             "$XDG_CACHE_HOME/tf or ~/.cache/tf)"),
                    cl::cat(Category)) {}

ToolOptions FileOptions::toolOptions(StringRef Command) const {
  ToolOptions Opts;
  Opts.Command = Command.str();
  Opts.Files.assign(Files.begin(), Files.end());
  Opts.BuildPath = BuildPath;
  Opts.TargetsDir = TargetsDir;
  if (!NoPrefixCache)
    Opts.CacheDir = defaultCacheDir();
  return Opts;
}

int takeCompilerFlags(int Argc, const char *const *Argv) {
  CompilerFlags.reset();
  for (int I = 1; I < Argc; ++I)
    if (StringRef(Argv[I]) == "--") {
      CompilerFlags.emplace(Argv + I + 1, Argv + Argc);
      return I;
    }
  return Argc;
}

const std::optional<std::vector<std::string>> &compilerFlags() {
  return CompilerFlags;
}

int runOnFiles(const ToolOptions &Opts) {
  if (Opts.Files.empty())
    return fail(Opts, "no input files; see 'tf " + Opts.Command + " --help'");
  for (const std::string &File : Opts.Files) {
    sys::fs::file_status Status;
    if (std::error_code EC = sys::fs::status(File, Status))
      return fail(Opts, "cannot open '" + File + "': " + EC.message());
    if (sys::fs::is_directory(Status))
      return fail(Opts, "'" + File + "' is a directory, not a source file");
  }

  std::unique_ptr<CompilationDatabase> DB;
  bool FixedFlags = Opts.BuildPath.empty();
  if (FixedFlags) {
    SmallString<256> Cwd;
    if (std::error_code EC = sys::fs::current_path(Cwd))
      return fail(Opts, "cannot read the working directory: " + EC.message());
    std::vector<std::string> Flags =
        CompilerFlags ? *CompilerFlags : std::vector<std::string>{"-std=c++20"};
    DB = std::make_unique<FixedCompilationDatabase>(Cwd, Flags);
  } else {
    std::string Error;
    DB = CompilationDatabase::loadFromDirectory(Opts.BuildPath, Error);
    if (!DB) {
      // One reason per kind of database tried, a line each: join them.
      SmallVector<StringRef, 2> Reasons;
      StringRef(Error).trim().split(Reasons, '\n');
      return fail(Opts, "cannot load a compilation database from '" +
                            Opts.BuildPath + "': " + join(Reasons, "; "));
    }
  }

  bool OK = true;
  for (const std::string &File : Opts.Files)
    OK &= runOne(Opts, *DB, File, FixedFlags);
  return OK ? 0 : 1;
}

} // namespace tf::cli
