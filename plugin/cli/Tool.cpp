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

/// Removes the options libLLVM registers in every program that links it
/// (each code generator's flags, -opt-bisect, --color, ...) from the top
/// level, where they are: tf's own options belong to its subcommands. What
/// stays there is LLVM's generic category (--help, --version, ...). Left in
/// place, `tf --help` listed some three thousand lines of them, and they
/// were accepted: `tf -opt-bisect=--` exited from inside the parser with
/// LLVM's message (found by cli_fuzzer).
static void removeLibraryOptions() {
  auto &Top = cl::getRegisteredOptions();
  const auto Help = Top.find("help");
  if (Help == Top.end() || Help->second->Categories.empty())
    return; // removed by an earlier call (the fuzzer runs tf in-process)
  const cl::OptionCategory *Generic = Help->second->Categories.front();
  SmallVector<cl::Option *, 0> Library;
  for (auto &Entry : Top)
    if (!is_contained(Entry.second->Categories, Generic))
      Library.push_back(Entry.second);
  for (cl::Option *O : Library)
    O->removeArgument();
}

int runTool(int Argc, const char *const *Argv, raw_ostream *ParseErrors) {
  removeLibraryOptions();
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
          "roofline, estimate\n"
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
