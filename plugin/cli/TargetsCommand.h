//===- plugin/cli/TargetsCommand.h - `tf targets` ---------------*- C++ -*-===//
//
// Declarations for the `tf targets` subcommand; merged into Commands.h by the
// integrator.
//
//===----------------------------------------------------------------------===//
#ifndef TF_CLI_TARGETSCOMMAND_H
#define TF_CLI_TARGETSCOMMAND_H

#include "llvm/Support/CommandLine.h"

namespace tf::cli {

/// `tf targets [show ID] [--json] [--targets-dir DIR]`: the fact documents.
extern llvm::cl::SubCommand TargetsSubcommand;
/// Runs `tf targets`; returns the process exit code.
int runTargetsCommand();

} // namespace tf::cli

#endif // TF_CLI_TARGETSCOMMAND_H
