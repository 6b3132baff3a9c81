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
/// The commands that compile files take their compiler flags after `--`
/// (ToolRunner.h, takeCompilerFlags).
extern llvm::cl::SubCommand HirSubcommand;
/// Runs `tf hir`; returns the process exit code.
int runHirCommand();

/// `tf candidates FILE... [-p BUILD_DIR] [--site LINE] [--json] -- FLAGS`:
/// the instructions an undecided op could use, accepted and refused.
extern llvm::cl::SubCommand CandidatesSubcommand;
/// Runs `tf candidates`; returns the process exit code.
int runCandidatesCommand();

/// `tf analyze FILE... [--memory] [--rank] [--shape NAME=DxD,...] [--json] --
/// FLAGS`: waves, flop, bytes per memory level, capacity peaks, reuse
/// windows, the roofline and the estimated time of each kernel on its
/// target; --rank orders the kernels by that estimate.
extern llvm::cl::SubCommand AnalyzeSubcommand;
/// Runs `tf analyze`; returns the process exit code.
int runAnalyzeCommand();

/// `tf finalize FILE... [-o OUT] [-p BUILD_DIR] -- FLAGS`: the lowered form
/// (LIR) of every kernel, verified; undecided sites are refused.
extern llvm::cl::SubCommand FinalizeSubcommand;
/// Runs `tf finalize`; returns the process exit code.
int runFinalizeCommand();

} // namespace tf::cli

#endif // TF_CLI_COMMANDS_H
