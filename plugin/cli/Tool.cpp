//===- plugin/cli/Tool.cpp - The tf tool's command line -------------------===//
//
// Tool.h. Each subcommand is one file (Commands.h).
//
//===----------------------------------------------------------------------===//
#include "Tool.h"
#include "Commands.h"
#include "ToolRunner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"

#ifndef TF_VERSION
#error "TF_VERSION (tf's version, project() in CMakeLists.txt) must be defined"
#endif

using namespace llvm;

namespace tf::cli {

int runTool(int Argc, const char *const *Argv, raw_ostream *ParseErrors) {
  // `tf hir FILE... -- FLAGS` (and the other commands that compile files):
  // the flags are the compiler's, not tf's.
  if (Argc > 1 && is_contained({"hir", "candidates", "analyze", "finalize"},
                               StringRef(Argv[1])))
    Argc = takeCompilerFlags(Argc, Argv);
  // The Clang the plugin was built for is the one that can load it.
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "tf " TF_VERSION " (built with Clang/LLVM " LLVM_VERSION_STRING ")\n";
  });
  if (!cl::ParseCommandLineOptions(
          Argc, Argv,
          "tf: queries and tools for the tf kernel compiler\n\n"
          "  tf layout VERB ARGS...   the layout algebra (tf layout --help)\n"
          "  tf targets [show ID]     the target fact documents (tf targets "
          "--help)\n"
          "  tf facts ATOM [--target ID]\n"
          "                           an atom's instruction contract (tf facts "
          "--help)\n"
          "  tf hir FILE... -- FLAGS  the HIR of the kernels in C++ files (tf "
          "hir --help)\n"
          "  tf candidates FILE... -- FLAGS\n"
          "                           the instructions each undecided op "
          "could use\n"
          "                           (tf candidates --help)\n"
          "  tf analyze FILE... [--memory] [--shape a=MxK,...] -- FLAGS\n"
          "                           waves, flop, bytes, capacities, "
          "roofline\n"
          "                           (tf analyze --help)\n"
          "  tf finalize FILE... [-o OUT] -- FLAGS\n"
          "                           the lowered form of every kernel, "
          "verified\n"
          "                           (tf finalize --help)\n",
          ParseErrors))
    return 1;
  if (LayoutSubcommand)
    return runLayoutCommand();
  if (TargetsSubcommand)
    return runTargetsCommand();
  if (FactsSubcommand)
    return runFactsCommand();
  if (HirSubcommand)
    return runHirCommand();
  if (CandidatesSubcommand)
    return runCandidatesCommand();
  if (AnalyzeSubcommand)
    return runAnalyzeCommand();
  if (FinalizeSubcommand)
    return runFinalizeCommand();
  errs() << "tf: error: no subcommand given; see 'tf --help'\n";
  return 1;
}

} // namespace tf::cli
