//===- plugin/cli/FinalizeCommand.cpp - `tf finalize` ---------------------===//
//
//   tf finalize FILE... [-o OUT] [--targets-dir DIR] -- COMPILER FLAGS
//   tf finalize FILE... -p BUILD_DIR [-o OUT] [-- EXTRA FLAGS]
//
// Compiles each FILE as `tf hir` does (ToolRunner.h) and runs the plugin's
// pipeline on it (Pipeline.h: checks, lowering as passes, verification), and
// prints every kernel's LIR (lower/Printer.h) to stdout, or with -o to OUT,
// written whole through a temporary file and a rename, so OUT is never
// half-written and is left as it was when anything fails. A kernel with
// undecided sites is refused with one error per site; a construct the
// lowering cannot lower and a failed check are errors too. They are Clang
// diagnostics on stderr (`FILE:L:C: error: ... [tf:lower-...]`); usage errors
// are `tf finalize: error: ...`. The exit status is 1 then. docs/finalize.md
// describes the lowered form, docs/cli.md the command; test/cli/finalize/
// tests it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ToolRunner.h"

#include "AtomicFile.h"
#include "Pipeline.h"
#include "lower/Printer.h"

#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;

namespace tf::cli {

cl::SubCommand FinalizeSubcommand(
    "finalize",
    "The lowered form (LIR) of the kernels in C++ files: tf finalize FILE... "
    "-- FLAGS\n\n"
    "  tf finalize FILE... -- FLAGS        compile FILEs with these clang++ "
    "flags\n"
    "  tf finalize FILE... -p BUILD_DIR    use "
    "BUILD_DIR/compile_commands.json\n"
    "  tf finalize FILE... -o OUT -- FLAGS write the LIR to OUT (atomically)"
    "\n\n"
    "Lowers every kernel -- shared-memory map, mbarrier pipelines with their "
    "clocks,\nroles over thread ranges, TMA boxes, unrolled WGMMA with "
    "descriptors, the staged\nepilogue -- verifies it and prints it. A kernel "
    "with undecided sites is refused,\nevery site listed with its location "
    "(tf candidates shows their options); so is\na construct finalize cannot "
    "lower or a failed check. Errors go to stderr and\nthe exit status is "
    "1; OUT is then left as it was. See docs/finalize.md and\ndocs/cli.md");

static cl::OptionCategory FinalizeCategory("tf finalize options");

static FileOptions CommonOptions(FinalizeSubcommand, FinalizeCategory);
static cl::opt<std::string>
    Output("o", cl::sub(FinalizeSubcommand), cl::value_desc("OUT"),
           cl::desc("Write the LIR to OUT (a temporary file renamed over "
                    "it; untouched on failure) instead of stdout"),
           cl::cat(FinalizeCategory));
int runFinalizeCommand() {
  std::string Text;
  raw_string_ostream OS(Text);
  ToolOptions Opts = CommonOptions.toolOptions("finalize");
  // The plugin's pipeline lowers and verifies (Pipeline.h); its refusals are
  // diagnostics on stderr that make the run fail.
  Opts.LoweredSink = [&](ArrayRef<plugin::LoweredKernel> Kernels) {
    for (const plugin::LoweredKernel &K : Kernels)
      lower::print(K.LIR, OS);
  };
  if (runOnFiles(Opts) != 0)
    return 1;
  if (Output.empty()) {
    outs() << Text;
    return 0;
  }
  if (std::error_code EC = plugin::writeFileAtomically(Output, Text)) {
    errs() << "tf finalize: error: cannot write '" << Output
           << "': " << EC.message() << '\n';
    return 1;
  }
  return 0;
}

} // namespace tf::cli
