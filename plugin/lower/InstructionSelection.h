//===- plugin/lower/InstructionSelection.h - Ops to instructions -*- C++ -*-===//
//
// Lowers one HIR op of one role: an op without an instruction that needs
// none (a register tensor's tf::zeros), nothing for an elementwise op fused
// into the store that reads it (Fusion.h), and for a scheduled op the
// lowering rule the backend registers for its contract -- with the match
// inference recorded on the op (hir::Schedule::Match), never a new one.
// The rule fills a Selection (the buffers the op hands over and its
// instructions); pipeline synthesis then writes it with its waits and
// releases (PipelineSynthesis.h).
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_INSTRUCTIONSELECTION_H
#define TF_PLUGIN_LOWER_INSTRUCTIONSELECTION_H

#include "lower/Context.h"
#include "lower/PipelineSynthesis.h"

namespace tf::lower {

/// Appends the instructions of op \p Op run by role \p R inside the loops
/// of \p C to \p Out.
/// @pre planViews and fuseElementwise have run; every op of the kernel has
/// its instruction (Lower.cpp refuses undecided sites first).
void selectInstructions(LoweringContext &Ctx, hir::StmtId Op, int R,
                        const LoopClock &C, std::vector<InstId> &Out);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_INSTRUCTIONSELECTION_H
