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

} // namespace tf::cli

#endif // TF_CLI_COMMANDS_H
