//===- plugin/cli/Tool.h - The tf tool's command line ----------*- C++ -*-===//
//
// What `tf ARGS...` does, apart from the process: main.cpp calls it once;
// the command-line fuzzer (test/fuzz/cli_fuzzer.cpp) calls it in-process
// for every input.
//
//===----------------------------------------------------------------------===//
#ifndef TF_CLI_TOOL_H
#define TF_CLI_TOOL_H

#include "llvm/Support/raw_ostream.h"

namespace tf::cli {

/// Parses \p Argv (argv[0] first) and runs the subcommand it names; returns
/// the process exit code. Option errors go to \p ParseErrors and make it
/// return 1; with null they print to stderr and exit, as llvm::cl does.
int runTool(int Argc, const char *const *Argv,
            llvm::raw_ostream *ParseErrors = nullptr);

} // namespace tf::cli

#endif // TF_CLI_TOOL_H
