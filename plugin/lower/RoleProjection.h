//===- plugin/lower/RoleProjection.h - Mesh scopes as roles -----*- C++ -*-===//
//
// Warp specialization: every mesh scope of threads becomes a role, a
// branch over the contiguous thread range its mesh covers, and each role
// runs its own copy of the loops that hold its ops (a projection of the
// HIR's statement tree), so the loader and the compute warpgroups proceed
// independently and meet only at the barriers pipeline synthesis adds.
// Inside a role's copy, tile loops become the LIR's tile loop (persistent or
// one tile per CTA, in the L2-grouped order of tf::grouped_tile) with its
// iteration clock, tile_offsets the K loop with `it`, and each op is handed
// to instruction selection.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_ROLEPROJECTION_H
#define TF_PLUGIN_LOWER_ROLEPROJECTION_H

#include "lower/Context.h"

namespace tf::lower {

/// Finds the roles (Ctx.Roles in thread order, Ctx.ScopeRole). Refuses a
/// mesh scope that is no contiguous thread range and one that overlaps
/// another's partly.
/// @pre the kernel has two topologies, CTAs and threads (Lower.cpp checks).
void findRoles(LoweringContext &Ctx);

/// Builds each role's program and appends the kernel-level lets and the
/// roles to the LIR's body; sets the launch grid from the tile loop.
/// @pre findRoles, planViews and fuseElementwise have run.
void projectRoles(LoweringContext &Ctx, std::vector<InstId> &Roles);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_ROLEPROJECTION_H
