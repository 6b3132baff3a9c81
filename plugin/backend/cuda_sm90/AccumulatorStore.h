//===- plugin/backend/cuda_sm90/AccumulatorStore.h - Pairs -*- C++ -*-===//
//
// The staged epilogue's store (LIR StoreFragment) as the CUDA backend emits
// it: every thread converts pairs of its WGMMA accumulator registers and
// stores each pair as one 32-bit word into the staged shared-memory view.
// The addresses are computed here, at compile time, from the view's layout:
// the pre-swizzle byte offset of a pair is a per-thread base (a linear
// function of the thread's coordinates in its warpgroup) plus a constant per
// pair; the emitted code adds the two and applies the view's swizzle, so no
// layout is evaluated on the GPU. The CUDA emitter uses it;
// test/emit/AccumulatorStoreTest.cpp and test/plugin/emit/ check its output.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_BACKEND_CUDA_SM90_ACCUMULATORSTORE_H
#define TF_PLUGIN_BACKEND_CUDA_SM90_ACCUMULATORSTORE_H

#include "lower/LIR.h"
#include "lower/RegisterFragment.h"

#include "tf/layout/swizzle.hpp"

#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace tf::backend::sm90 {

/// The store of the warpgroups' accumulator blocks (each one m64nN atom's
/// C) into a view.
struct AccumulatorStore {
  /// Bytes per unit of each coordinate of the thread: the warpgroup (the
  /// spatial M axis: 64 rows per block row each), the warp in it, lane / 4
  /// and lane % 4.
  std::int64_t GroupBytes = 0, WarpBytes = 0, RowBytes = 0, QuadBytes = 0;
  /// Register pairs per block (a block's registers 2p, 2p + 1).
  std::int64_t Pairs = 0;
  /// Per block b and register pair p, at b * Pairs + p: the offset added to
  /// the thread's base, in bytes, before the swizzle.
  std::vector<std::int64_t> PairBytes;
  /// The view's swizzle on byte offsets (identity: none).
  Swizzle Sw;

  /// Where a thread's elements are in the tile (what a fused epilogue
  /// reads other tensors at): row and column per unit of each thread
  /// coordinate, as for the bytes above, and of each register pair's first
  /// register (the second is the next column), indexed as PairBytes.
  struct Coord {
    std::int64_t Row = 0, Col = 0;
  };
  Coord Group, Warp, Lane8, Lane4;
  std::vector<Coord> Pair;
};

/// The store of accumulators whose registers \p Acc places in each M x N
/// atom block (the WGMMA contract's fragment of C in PTX's register order,
/// lower/RegisterFragment.h), issued by \p Groups warpgroups holding
/// \p Blocks each (lower/LIR.h: group g holds rows [g Rows M, (g + 1) Rows
/// M)), converted to \p View's element type.
/// Fails when the view's layout does not split into a thread base plus a
/// pair constant, splits a pair of columns across words, or a register pair
/// is not two adjacent columns.
llvm::Expected<AccumulatorStore>
accumulatorStore(const lower::Region &View, const lower::RegisterFragment &Acc,
                 const lower::AccumulatorBlocks &Blocks, std::int64_t Groups);

} // namespace tf::backend::sm90

#endif // TF_PLUGIN_BACKEND_CUDA_SM90_ACCUMULATORSTORE_H
