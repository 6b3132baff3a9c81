//===- plugin/lower/MemoryPlan.h - The shared-memory map --------*- C++ -*-===//
//
// Places every shared-memory value of the kernel at a fixed byte offset of
// the CTA's dynamic shared memory: each ring stage and buffer as a tensor
// view, aligned as the backend's instructions need it
// (backend::Backend::viewAlignment: on sm_90 a TMA box's alignment, the
// swizzle period when swizzled), and -- once the pipelines are known --
// every barrier object after them, as large and aligned as the hand-off
// protocol says (HandoffProtocol::barrierObject); a role's reductions
// across warps get a scratch region for their partials. Also records
// which ring or buffer backs each op result that lives in one (a ring
// load's result is a slot of its ring; a staging copy's result is its
// buffer), which the lowering rules read to find their operands' memory.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_MEMORYPLAN_H
#define TF_PLUGIN_LOWER_MEMORYPLAN_H

#include "lower/Context.h"

namespace tf::lower {

/// Records Ctx.Backing and places the views of every ring and buffer
/// (Ctx.Views, the LIR's regions). Refuses a ring or buffer filled at two
/// sites, a view with run-time extents and a view the backend cannot align
/// (on sm_90: a swizzle that is no TMA mode).
/// @pre infer(K) has run (every value has its type).
void planViews(LoweringContext &Ctx);

/// Scratch region \p Turn (0 or 1) of role \p Role (RegionKind::Scratch:
/// the partials of its reductions across warps), placed after the regions
/// so far and at least \p Bytes large; two per role at most, which its
/// reductions share, alternating.
/// @pre planViews.
RegionId scratchRegion(LoweringContext &Ctx, int Role, unsigned Turn,
                       std::int64_t Bytes);

/// Places the barriers after the views and sets the kernel's shared-memory
/// size and base alignment; refuses a map larger than the target's
/// cta.shared_memory.max.
/// @pre planViews, and every role is lowered (the barriers are known).
void placeBarriers(LoweringContext &Ctx);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_MEMORYPLAN_H
