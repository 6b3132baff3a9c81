//===- plugin/cli/main.cpp - The tf command-line tool ---------------------===//
//
// `tf` answers questions about layouts, targets, contracts and kernels from
// the same implementation the plugin uses. Each subcommand is one file.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ToolRunner.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

#ifndef TF_VERSION
#error "TF_VERSION (tf's version, project() in CMakeLists.txt) must be defined"
#endif

int main(int argc, char **argv) {
  InitLLVM X(argc, argv);
  // `tf hir FILE... -- FLAGS` (and the other commands that compile files):
  // the flags are the compiler's, not tf's.
  if (argc > 1 &&
      is_contained({"hir", "candidates", "analyze", "finalize"}, StringRef(argv[1])))
    argc = tf::cli::takeCompilerFlags(argc, argv);
  // The Clang the plugin was built for is the one that can load it.
  cl::SetVersionPrinter([](raw_ostream &OS) {
    OS << "tf " TF_VERSION " (built with Clang/LLVM " LLVM_VERSION_STRING ")\n";
  });
  cl::ParseCommandLineOptions(
      argc, argv,
      "tf: queries and tools for the tf kernel compiler\n\n"
      "  tf layout VERB ARGS...   the layout algebra (tf layout --help)\n"
      "  tf targets [show ID]     the target fact documents (tf targets --help)\n"
      "  tf facts ATOM [--target ID]\n"
      "                           an atom's instruction contract (tf facts --help)\n"
      "  tf hir FILE... -- FLAGS  the HIR of the kernels in C++ files (tf hir --help)\n"
      "  tf candidates FILE... -- FLAGS\n"
      "                           the instructions each undecided op could use\n"
      "                           (tf candidates --help)\n"
      "  tf analyze FILE... [--memory] [--shape a=MxK,...] -- FLAGS\n"
      "                           waves, flop, bytes, capacities, roofline\n"
      "                           (tf analyze --help)\n"
      "  tf finalize FILE... [-o OUT] -- FLAGS\n"
      "                           the lowered form of every kernel, verified\n"
      "                           (tf finalize --help)\n");
  if (tf::cli::LayoutSubcommand)
    return tf::cli::runLayoutCommand();
  if (tf::cli::TargetsSubcommand)
    return tf::cli::runTargetsCommand();
  if (tf::cli::FactsSubcommand)
    return tf::cli::runFactsCommand();
  if (tf::cli::HirSubcommand)
    return tf::cli::runHirCommand();
  if (tf::cli::CandidatesSubcommand)
    return tf::cli::runCandidatesCommand();
  if (tf::cli::AnalyzeSubcommand)
    return tf::cli::runAnalyzeCommand();
  if (tf::cli::FinalizeSubcommand)
    return tf::cli::runFinalizeCommand();
  errs() << "tf: error: no subcommand given; see 'tf --help'\n";
  return 1;
}
