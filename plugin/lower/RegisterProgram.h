//===- plugin/lower/RegisterProgram.h - Ops on register tiles ---*- C++ -*-===//
//
// Row kernels (softmax, norms, elementwise ops with broadcasts) keep their
// values in register tiles distributed over a role's threads and need no
// instruction choice beyond what their layouts say: where each register of
// each thread lies in the tile is the value's ShardLayout, and from it
// follow the loads and stores (vectors of the registers that hold
// consecutive elements of the tensor's unit-stride dimension), the
// elementwise math register by register, the broadcasts (which register of
// a row statistic each register reads) and the reductions (a thread folds
// its registers, then the lanes that share an element exchange partials
// with shfl.bfly rounds; where the reduced dimension spans warps too, one
// lane per warp writes the warp's partials to the role's scratch in shared
// memory, the role's threads meet, and each folds the partials of the
// warps that share its elements). hir::isRegisterOp says which ops these
// are; this pass lowers each into the LIR's register statements (LIR.h,
// "Register programs") on the tiles it records in Kernel::Tiles, and
// refuses what it cannot lower at the op: a layout whose registers mix tile
// dimensions, a reduction over warps the role does not all hold, a
// broadcast operand the reading thread does not hold, a scalar tf cannot
// read.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_REGISTERPROGRAM_H
#define TF_PLUGIN_LOWER_REGISTERPROGRAM_H

#include "lower/Context.h"

namespace tf::lower {

/// Lowers register op \p Op (hir::isRegisterOp) of role \p R into \p Out.
void lowerRegisterOp(LoweringContext &Ctx, hir::StmtId Op, int R,
                     std::vector<InstId> &Out);

/// Closes the reductions across warps whose last statements went into
/// \p Body (a scope's or a loop's statements, now complete): where the
/// last one wrote its role's scratch region 0, the meet after which the
/// region may be written again; none after region 1 (two regions
/// alternate: the next reduction's own meet orders those reads).
void closeReductions(LoweringContext &Ctx, std::vector<InstId> &Body);

/// The tile of \p Shard's elements (a ShardLayout over the role \p R's
/// mesh) with \p Extents: where each register of each thread is; an error
/// saying why not when its modes are not the tile's dimensions.
llvm::Expected<RegisterTile> registerTile(const ShardLayout &Shard,
                                          llvm::ArrayRef<std::int64_t> Extents,
                                          const Role &R);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_REGISTERPROGRAM_H
