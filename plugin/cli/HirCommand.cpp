//===- plugin/cli/HirCommand.cpp - `tf hir` -------------------------------===//
//
//   tf hir FILE... [--targets-dir DIR] -- COMPILER FLAGS
//   tf hir FILE... -p BUILD_DIR [--targets-dir DIR] [-- EXTRA FLAGS]
//
// Parses each FILE with Clang (libTooling from the shared libclang-cpp) and
// prints the HIR of its kernels, byte for byte what
//
//   clang++ -fplugin=tf.so -fplugin-arg-tf-dump-hir -fsyntax-only FLAGS FILE
//
// prints, because both run the consumer of plugin/Consumer.h in a compiler
// set up like /usr/lib/llvm-22/bin/clang++: that driver is argv[0] (so the
// C++ standard library is found the same way) and its resource directory
// holds the builtin headers. Clang's diagnostics go to stderr; the exit
// status is 1 when a file had errors. docs/cli.md documents the command;
// test/cli/hir/ tests it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "Consumer.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Preprocessor.h"
#include "clang/Tooling/ArgumentsAdjusters.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

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

cl::SubCommand HirSubcommand(
    "hir",
    "The HIR of the kernels in C++ files: tf hir FILE... -- COMPILER FLAGS\n\n"
    "  tf hir FILE... -- FLAGS        compile FILEs with these clang++ flags\n"
    "  tf hir FILE... -p BUILD_DIR    use BUILD_DIR/compile_commands.json\n"
    "                                 (flags after -- are appended)\n"
    "  tf hir FILE...                 no --, no -p: the flags are "
    "-std=c++20\n\n"
    "Prints what clang++ -fplugin=tf.so -fplugin-arg-tf-dump-hir prints; "
    "Clang's\ndiagnostics go to stderr and the exit status is 1 when a file "
    "has errors.\nThe compiler is " TF_CLANG_DRIVER " (standard library "
    "search, target)\nwith -resource-dir=" TF_CLANG_RESOURCE_DIR " unless "
    "the flags give one.\nA compile command's -fplugin=...tf.so is dropped "
    "and its -fplugin-arg-tf-KEY\narguments are applied (dump-hir always, "
    "report never). See docs/cli.md");

static cl::OptionCategory HirCategory("tf hir options");

static cl::list<std::string> HirFiles(cl::Positional, cl::sub(HirSubcommand),
                                      cl::desc("FILE..."),
                                      cl::cat(HirCategory));
static cl::opt<std::string>
    HirBuildPath("p", cl::sub(HirSubcommand), cl::value_desc("BUILD_DIR"),
                 cl::desc("Take each file's compile command from "
                          "BUILD_DIR/compile_commands.json"),
                 cl::cat(HirCategory));
static cl::opt<std::string>
    HirTargetsDir("targets-dir", cl::sub(HirSubcommand), cl::value_desc("DIR"),
                  cl::desc("Read the fact documents from DIR (default: "
                           "$TF_TARGETS_DIR, else the built-in targets/)"),
                  cl::cat(HirCategory));

namespace {

/// The flags after `--`, when there was one.
std::optional<std::vector<std::string>> CompilerFlags;

int fail(const Twine &Message) {
  errs() << "tf hir: error: " << Message << '\n';
  return 1;
}

/// Prints diagnostics as clang++ does (a TextDiagnosticPrinter with the
/// command line's diagnostic options) and counts them. It sees the driver's
/// diagnostics too, which ClangTool prints but does not count as a failure;
/// those come before any source file and read `tf hir: error: ...`.
class CountingPrinter : public DiagnosticConsumer {
public:
  void BeginSourceFile(const LangOptions &LangOpts,
                       const Preprocessor *PP) override {
    InSource = true;
    if (PP)
      printer(PP->getDiagnostics()).BeginSourceFile(LangOpts, PP);
  }

  void EndSourceFile() override {
    InSource = false;
    if (Printer)
      Printer->EndSourceFile();
  }

  void finish() override {
    if (Printer)
      Printer->finish();
  }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    DiagnosticConsumer::HandleDiagnostic(Level, Info);
    TextDiagnosticPrinter &P = printer(*Info.getDiags());
    P.setPrefix(InSource ? "" : "tf hir");
    P.HandleDiagnostic(Level, Info);
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

  DiagnosticOptions Opts;
  std::unique_ptr<TextDiagnosticPrinter> Printer;
  bool InSource = false;
};

/// Runs the tf consumer with the HIR dump on.
class HirAction : public ASTFrontendAction {
public:
  explicit HirAction(plugin::Options Opts) : Opts(std::move(Opts)) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 StringRef) override {
    return plugin::makeConsumer(Opts, outs());
  }

private:
  plugin::Options Opts;
};

/// Creates one HirAction per compile command. The argument adjuster fills
/// Opts from the command's -fplugin-arg-tf-* right before create() runs.
class HirActionFactory : public FrontendActionFactory {
public:
  std::unique_ptr<FrontendAction> create() override {
    return std::make_unique<HirAction>(Opts);
  }

  plugin::Options Opts;
};

bool isTfPlugin(StringRef Path) { return sys::path::filename(Path) == "tf.so"; }

/// The adjuster that makes a compile command what the plugin would have
/// seen: tf.so itself is not loaded (the tool links the same code), the
/// command's tf arguments become \p Factory's options, and --targets-dir
/// wins over a targets-dir= in the command. Unknown tf arguments are
/// reported as the plugin reports them and make the run fail.
ArgumentsAdjuster takeTfArguments(HirActionFactory &Factory,
                                  bool &BadArgument) {
  return [&Factory, &BadArgument](const CommandLineArguments &Args, StringRef) {
    plugin::Options Opts;
    CommandLineArguments Out;
    for (const std::string &Arg : Args) {
      StringRef A(Arg);
      if (A.starts_with("-fplugin=") && isTfPlugin(A.drop_front(9)))
        continue;
      if (A.consume_front("-fplugin-arg-tf-")) {
        if (!plugin::parseArgument(A, Opts)) {
          errs() << "tf hir: error: unknown tf plugin argument '" << A
                 << "' in the compile command; known arguments: "
                 << plugin::knownArguments() << '\n';
          BadArgument = true;
        }
        continue;
      }
      Out.push_back(Arg);
    }
    Opts.DumpHir = true;
    Opts.Report = false;
    if (!HirTargetsDir.empty())
      Opts.TargetsDir = HirTargetsDir;
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

/// Runs the tool on one file; returns whether it compiled without errors.
bool runOne(const CompilationDatabase &DB, const std::string &File,
            bool FixedFlags) {
  HirActionFactory Factory;
  bool BadArgument = false;
  CountingPrinter Diagnostics;
  ClangTool Tool(DB, {File});
  Tool.setPrintErrorMessage(false);
  Tool.setDiagnosticConsumer(&Diagnostics);
  if (FixedFlags) {
    // ClangTool names the file by its absolute path; give the compiler the
    // spelling from the command line, as clang++ has it, so that positions
    // in the dump and in diagnostics read the same.
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
  Tool.appendArgumentsAdjuster(takeTfArguments(Factory, BadArgument));
  Tool.appendArgumentsAdjuster(useClangDriver);
  int RC = Tool.run(&Factory);
  outs().flush();
  return RC == 0 && Diagnostics.getNumErrors() == 0 && !BadArgument;
}

} // namespace

int takeHirCompilerFlags(int Argc, const char *const *Argv) {
  for (int I = 1; I < Argc; ++I)
    if (StringRef(Argv[I]) == "--") {
      CompilerFlags.emplace(Argv + I + 1, Argv + Argc);
      return I;
    }
  return Argc;
}

int runHirCommand() {
  if (HirFiles.empty())
    return fail("no input files; see 'tf hir --help'");
  for (const std::string &File : HirFiles) {
    sys::fs::file_status Status;
    if (std::error_code EC = sys::fs::status(File, Status))
      return fail("cannot open '" + File + "': " + EC.message());
    if (sys::fs::is_directory(Status))
      return fail("'" + File + "' is a directory, not a source file");
  }

  std::unique_ptr<CompilationDatabase> DB;
  bool FixedFlags = HirBuildPath.empty();
  if (FixedFlags) {
    SmallString<256> Cwd;
    if (std::error_code EC = sys::fs::current_path(Cwd))
      return fail("cannot read the working directory: " + EC.message());
    std::vector<std::string> Flags =
        CompilerFlags ? *CompilerFlags : std::vector<std::string>{"-std=c++20"};
    DB = std::make_unique<FixedCompilationDatabase>(Cwd, Flags);
  } else {
    std::string Error;
    DB = CompilationDatabase::loadFromDirectory(HirBuildPath, Error);
    if (!DB) {
      // One reason per kind of database tried, a line each: join them.
      SmallVector<StringRef, 2> Reasons;
      StringRef(Error).trim().split(Reasons, '\n');
      return fail("cannot load a compilation database from '" + HirBuildPath +
                  "': " + join(Reasons, "; "));
    }
  }

  bool OK = true;
  for (const std::string &File : HirFiles)
    OK &= runOne(*DB, File, FixedFlags);
  return OK ? 0 : 1;
}

} // namespace tf::cli
