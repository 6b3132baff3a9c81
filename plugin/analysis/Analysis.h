//===- plugin/analysis/Analysis.h - Inference and contract checks -*- C++ -*-===//
//
// What the plugin derives and checks for one kernel's HIR, in order:
//
//   infer  - the ShardLayouts of register tensors over the mesh that holds
//            them, downstream types of ops, the derived Repeat and operand
//            fragments of every tf::schedule (from the contract; for a TMA
//            copy the boxes it is issued as), extents (static, dynamic,
//            symbolic) through index expressions;
//   check  - every tf::schedule against its contract: the reasons of the
//            match inference recorded (tf's one matching engine,
//            include/tf/contract/match.hpp, run once per site on the
//            target); the written Repeat against the derived one;
//            values used on meshes that do not hold them;
//   capacity - shared memory per CTA, registers per thread, L2 reuse
//            windows against the target's facts (warnings, never errors).
//
// Findings come back in source order; the same HIR gives the same findings.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ANALYSIS_ANALYSIS_H
#define TF_PLUGIN_ANALYSIS_ANALYSIS_H

#include "analysis/Finding.h"
#include "hir/HIR.h"

#include <vector>

namespace tf::targets {
struct MergedTarget;
} // namespace tf::targets

namespace tf::analysis {

/// Derives what follows from the kernel's decisions (see the file comment)
/// into \p K on \p Target (null: none named; capabilities are then not
/// matched) and records every site's match (hir::Schedule::Match); reports
/// what cannot be derived.
std::vector<Finding> infer(hir::Kernel &K,
                           const targets::MergedTarget *Target = nullptr);

/// Checks the inferred kernel \p K on \p Target (null: the kernel names no
/// target; capabilities and capacities are then not checked): the contract
/// checks (Check.cpp), then checkScopes and checkCapacity, in source order.
std::vector<Finding> check(const hir::Kernel &K,
                           const targets::MergedTarget *Target);

/// Meshes outside the kernel's topologies, then values used on meshes that
/// do not hold them (Scopes.cpp). With \p NotHeld, the op statement of each
/// err_tf_scope_not_held finding is appended to it, in the findings' order.
std::vector<Finding> checkScopes(const hir::Kernel &K,
                                 std::vector<hir::StmtId> *NotHeld = nullptr);

/// Meshes (scopes, tile loops' CTA meshes) whose level is not one of the
/// kernel's topologies or that reach past its extent (Scopes.cpp).
std::vector<Finding> checkTopologies(const hir::Kernel &K);

/// Tile loops whose windows leave gaps or overlap along a dimension
/// (Coverage.cpp).
std::vector<Finding> checkCoverage(const hir::Kernel &K);

/// Whether tile \p Window advances along each dimension whose offset steps
/// with a loop index (a.tile<BM, BK>(m * BM, k) in a K loop of step BK) by
/// its own extent (Coverage.cpp).
bool windowFitsItsLoops(const hir::Kernel &K, hir::ValueId Window);

/// Ops whose operands' static extents disagree where the op relates their
/// modes: a tf::broadcast over the wrong mode or extent (Shapes.cpp).
std::vector<Finding> checkShapes(const hir::Kernel &K);

/// Tensors with storage of their own (allocations, ring slots) whose static
/// layout puts two coordinates at one offset (Storage.cpp).
std::vector<Finding> checkStorage(const hir::Kernel &K);

/// Threads per CTA and CTAs per cluster against \p Target's hard launch
/// limits (Launch.cpp): errors.
std::vector<Finding> checkLaunch(const hir::Kernel &K,
                                 const targets::MergedTarget &Target);

/// Shared memory per CTA, registers per thread and L2 reuse windows against
/// \p Target's facts (Capacity.cpp): warnings only.
std::vector<Finding> checkCapacity(const hir::Kernel &K,
                                   const targets::MergedTarget &Target);

} // namespace tf::analysis

#endif // TF_PLUGIN_ANALYSIS_ANALYSIS_H
