//===- plugin/cli/HirCommand.cpp - `tf hir` -------------------------------===//
//
//   tf hir FILE... [--json] [--targets-dir DIR] -- COMPILER FLAGS
//   tf hir FILE... -p BUILD_DIR [--json] [--targets-dir DIR] [-- EXTRA FLAGS]
//
// Parses each FILE with Clang (libTooling from the shared libclang-cpp) and
// prints the HIR of its kernels, byte for byte what
//
//   clang++ -fplugin=tf.so -fplugin-arg-tf-dump-hir -fsyntax-only FLAGS FILE
//
// (with --json, -fplugin-arg-tf-dump-hir=json) prints, because both run the consumer of plugin/Consumer.h in a compiler
// set up like /usr/lib/llvm-22/bin/clang++: that driver is argv[0] (so the
// C++ standard library is found the same way) and its resource directory
// holds the builtin headers (ToolRunner.h, shared with `tf candidates` and
// `tf analyze`). Clang's diagnostics go to stderr; the exit status is 1 when
// a file had errors. docs/cli.md documents the command; test/cli/hir/ tests
// it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "ToolRunner.h"

#include <string>

#ifndef TF_CLANG_DRIVER
#error "TF_CLANG_DRIVER (the clang++ of TF_LLVM_ROOT) must be defined"
#endif
#ifndef TF_CLANG_RESOURCE_DIR
#error "TF_CLANG_RESOURCE_DIR (clang++ -print-resource-dir) must be defined"
#endif

using namespace llvm;

namespace tf::cli {

cl::SubCommand HirSubcommand(
    "hir",
    "The HIR of the kernels in C++ files: tf hir FILE... -- COMPILER FLAGS\n\n"
    "  tf hir FILE... -- FLAGS        compile FILEs with these clang++ flags\n"
    "  tf hir FILE... -p BUILD_DIR    use BUILD_DIR/compile_commands.json\n"
    "                                 (flags after -- are appended)\n"
    "  tf hir FILE...                 no --, no -p: the flags are "
    "-std=c++20\n\n"
    "Prints what clang++ -fplugin=tf.so -fplugin-arg-tf-dump-hir prints "
    "(--json:\nwhat -fplugin-arg-tf-dump-hir=json prints, "
    "docs/schemas/hir.schema.json);\nClang's diagnostics go to stderr and the "
    "exit status is 1 when a file has errors.\nThe compiler is " TF_CLANG_DRIVER " (standard library "
    "search, target)\nwith -resource-dir=" TF_CLANG_RESOURCE_DIR " unless "
    "the flags give one.\nA compile command's -fplugin=...tf.so is dropped "
    "and its -fplugin-arg-tf-KEY\narguments are applied (dump-hir always, "
    "report and sarif= never). See docs/cli.md");

static cl::OptionCategory HirCategory("tf hir options");

static FileOptions HirFileOptions(HirSubcommand, HirCategory);
static cl::opt<bool>
    HirJson("json", cl::sub(HirSubcommand),
            cl::desc("Print the HIR as JSON, one document per file "
                     "(docs/schemas/hir.schema.json)"),
            cl::cat(HirCategory));
int runHirCommand() {
  ToolOptions Opts = HirFileOptions.toolOptions("hir");
  Opts.DumpHir = true;
  Opts.DumpHirJson = HirJson;
  Opts.Json = HirJson;
  return runOnFiles(Opts);
}

} // namespace tf::cli
