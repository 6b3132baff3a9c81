//===- plugin/cli/Commands.h - The tf tool's subcommands --------*- C++ -*-===//
//
// Each subcommand of `tf` lives in its own file and exposes its
// llvm::cl::SubCommand and an entry point run after option parsing.
//
//===----------------------------------------------------------------------===//
#ifndef TF_CLI_COMMANDS_H
#define TF_CLI_COMMANDS_H

#include "llvm/Support/CommandLine.h"

namespace tf::cli {

/// `tf layout VERB ARGS...`: the layout algebra for people and agents.
extern llvm::cl::SubCommand LayoutSubcommand;
/// Runs `tf layout`; returns the process exit code.
int runLayoutCommand();

/// `tf targets [show ID] [--json] [--targets-dir DIR]`: the fact documents.
extern llvm::cl::SubCommand TargetsSubcommand;
/// Runs `tf targets`; returns the process exit code.
int runTargetsCommand();

/// `tf facts [ATOM] [--target ID] [--json] [--list]`: instruction contracts.
extern llvm::cl::SubCommand FactsSubcommand;
/// Runs `tf facts`; returns the process exit code.
int runFactsCommand();

/// `tf hir FILE... [-p BUILD_DIR] -- FLAGS`: the HIR of the kernels in FILEs.
extern llvm::cl::SubCommand HirSubcommand;
/// Takes the compiler flags after the first `--` out of `tf hir`'s argv
/// before option parsing (llvm::cl would read them as more files); returns
/// the number of arguments left for llvm::cl.
int takeHirCompilerFlags(int Argc, const char *const *Argv);
/// Runs `tf hir`; returns the process exit code.
int runHirCommand();

} // namespace tf::cli

#endif // TF_CLI_COMMANDS_H
