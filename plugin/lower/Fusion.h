//===- plugin/lower/Fusion.h - Elementwise ops into fragments ---*- C++ -*-===//
//
// Elementwise ops between a register tensor and the copy that stages it in
// shared memory (`tf::schedule<tf::Copy>(tf::cast<bf16>(tf::relu(acc)),
// staged)`) have no instruction of their own: the store applies them to
// each element of the fragment in registers, in program order, then casts.
// This pass records, per staging copy, the register value it reads and the
// ops on the way (LoweringContext::Fused); the lowering rule of the copy
// writes them into the LIR's fragment store. tf::scale multiplies by a float
// kernel parameter; tf::add adds another operand element by element: a tile
// of a global tensor parameter (C, a residual), or a vector tile broadcast
// along rows or columns (a bias), with unary ops of its own, which the store
// reads from global memory where each accumulator element meets it. An op
// that cannot be applied that way is refused here, at its line -- never
// dropped.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_FUSION_H
#define TF_PLUGIN_LOWER_FUSION_H

#include "lower/Context.h"

namespace tf::lower {

/// Fills Ctx.Fused for every scheduled copy of a register tensor into a
/// shared-memory buffer.
/// @pre infer(K) has run.
void fuseElementwise(LoweringContext &Ctx);

/// The register ops of \p Chain in the order the store applies them (the
/// origins of what its adds load as expressions of Ctx.L).
std::vector<FragmentOp> fragmentOps(LoweringContext &Ctx,
                                    const FusedChain &Chain);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_FUSION_H
