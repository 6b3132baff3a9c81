//===- plugin/cli/ToolRunner.h - Compiling files for tf's queries -*- C++ -*-===//
//
// The libTooling driver behind every `tf` subcommand that reads C++ files
// (`tf hir`, `tf candidates`, `tf analyze`): each FILE is compiled with
// Clang in a compiler set up like TF_LLVM_ROOT's clang++ (that driver is
// argv[0], so the C++ standard library is found the same way, and its
// resource directory holds the builtin headers) and handed to the consumer
// of plugin/Consumer.h, which builds, infers and checks the HIR and passes
// the module to the command's sink. The compile commands come from the flags
// after `--` (default -std=c++20) or from BUILD_DIR/compile_commands.json
// (`-p`, flags after `--` appended). Clang's diagnostics go to stderr,
// counted; a file with errors makes the run fail. The tf headers a file
// includes first are read precompiled (PrefixHeader.h).
//
//===----------------------------------------------------------------------===//
#ifndef TF_CLI_TOOLRUNNER_H
#define TF_CLI_TOOLRUNNER_H

#include "Consumer.h"
#include "DiagnosticLog.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <optional>
#include <string>
#include <vector>

namespace tf::cli {

/// What to compile and what to do with each translation unit.
struct ToolOptions {
  /// The subcommand's name ("hir"), for messages: `tf hir: error: ...`.
  std::string Command;
  /// The command prints JSON (--json): a usage error (no input files, a
  /// file that cannot be opened) is also {"error": {"message"}} on stdout.
  bool Json = false;
  std::vector<std::string> Files;
  /// -p BUILD_DIR; empty: the flags after `--` (compilerFlags()).
  std::string BuildPath;
  /// --targets-dir DIR; wins over a compile command's targets-dir=.
  std::string TargetsDir;
  /// Where precompiled prefix headers are kept; empty: none are used.
  std::string CacheDir;
  /// Print the HIR of every kernel to stdout (what `tf hir` prints).
  bool DumpHir = false;
  /// With DumpHir: as JSON (`tf hir --json`, docs/schemas/hir.schema.json).
  bool DumpHirJson = false;
  /// Called once per translation unit after the checks (Consumer.h); the
  /// file is the spelling given on the command line.
  std::function<void(llvm::StringRef File, clang::ASTContext &Ctx,
                     hir::Module &M,
                     llvm::ArrayRef<const targets::MergedTarget *> Targets)>
      Sink;
  /// Called once per file, after Sink, with every diagnostic its compile
  /// reported (DiagnosticLog.h) -- also when it had errors, or never
  /// reached the checks; the file is the spelling given on the command
  /// line. The queries' JSON documents carry them ("diagnostics").
  std::function<void(llvm::StringRef File,
                     llvm::ArrayRef<plugin::RecordedDiagnostic>)>
      DiagnosticSink;
  /// Lower every kernel after the checks and pass the lowered kernels here
  /// (Consumer.h, Options::LoweredSink); `tf finalize` prints them.
  std::function<void(llvm::ArrayRef<plugin::LoweredKernel>)> LoweredSink;
};

/// The options of every command that compiles files (FILE..., -p,
/// --targets-dir, --no-prefix-cache), registered for one subcommand.
struct FileOptions {
  FileOptions(llvm::cl::SubCommand &Sub, llvm::cl::OptionCategory &Category);

  /// ToolOptions for `tf Command` with these options filled in.
  ToolOptions toolOptions(llvm::StringRef Command) const;

  llvm::cl::list<std::string> Files;
  llvm::cl::opt<std::string> BuildPath;
  llvm::cl::opt<std::string> TargetsDir;
  llvm::cl::opt<bool> NoPrefixCache;
};

/// Takes the compiler flags after the first `--` out of argv before option
/// parsing (llvm::cl would read them as more files); returns the number of
/// arguments left for llvm::cl.
int takeCompilerFlags(int Argc, const char *const *Argv);

/// The flags after `--`, when there was one.
const std::optional<std::vector<std::string>> &compilerFlags();

/// Compiles every file of \p Opts in order; returns the process exit code:
/// 0, or 1 when a file could not be read, the database could not be loaded
/// or a file had errors (after reporting them on stderr).
int runOnFiles(const ToolOptions &Opts);

} // namespace tf::cli

#endif // TF_CLI_TOOLRUNNER_H
