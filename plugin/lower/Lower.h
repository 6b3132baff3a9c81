//===- plugin/lower/Lower.h - HIR to LIR ------------------------*- C++ -*-===//
//
// `tf finalize`'s lowering (docs/finalize.md): a kernel whose every op site
// has its instruction becomes its LIR (LIR.h) -- the warp-specialized form
// of the GEMM family on sm_90: TMA loads into stage rings guarded by
// full/empty mbarriers, WGMMA over the ring slots, a staged epilogue stored
// by TMA, inside persistent_tiles / grid_tiles and tile_offsets loops.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_LOWER_H
#define TF_PLUGIN_LOWER_LOWER_H

#include "hir/HIR.h"
#include "lower/LIR.h"

#include "llvm/Support/Error.h"

namespace tf::targets {
struct MergedTarget;
} // namespace tf::targets

namespace tf::lower {

/// Lowers \p K on \p Target (its merged target; null: none, refused).
/// Refuses with one error per problem: every undecided site (the op sites
/// `tf candidates` lists, analysis::isUndecided) with its location when
/// there are any; else every construct it cannot lower, named, with its
/// location. The result is not verified (verify, Verify.h).
/// @pre infer(K) and check(K, Target) have run without errors.
llvm::Expected<Kernel> lowerKernel(const hir::Kernel &K,
                                   const targets::MergedTarget *Target);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_LOWER_H
