//===- plugin/analysis/Derive.h - What follows from a decision -*- C++ -*-===//
//
// The values and declarations that follow from a kernel's other decisions,
// which the checks offer as fix-its (Check.cpp): the swizzle a written one
// meant, the nearest parameter value the contract allows (and the tile can
// use), the shared-memory tile TMA writes for a box, the accumulator layout
// a contract's register fragment tiles to over a mesh. Each is a candidate;
// the checks offer it only when the site matches with it.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ANALYSIS_DERIVE_H
#define TF_PLUGIN_ANALYSIS_DERIVE_H

#include "tf/contract/match.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace tf::analysis {

/// A swizzle written in units of \p Element (CuTe's convention) as tf
/// writes it, on bytes.
Swizzle inBytes(const Swizzle &InElements, DType Element);

/// The swizzles a layout text may be meant to have when the one written is
/// refused, most likely first: the written one read as counting elements,
/// as CuTe's Swizzle<B,M,S> does (tf's count bytes), then each hardware
/// swizzle of 16-byte units (32, 64, 128 bytes).
std::vector<Swizzle> swizzlesMeant(const Swizzle &Written, DType Element);

/// The valid value nearest the offending one, when it is determined: for
/// an integer range the nearest multiple of the step inside it (n = 260 ->
/// 256 for WGMMA's 8..256 step 8) -- among those that divide \p Tile when it
/// is given (> 0: the tile's extent along the atom mode the parameter sizes,
/// so that the value is one the tile can use: n = 100 on a 256-wide tile ->
/// 128, not 96) -- for a set of integers the nearest member, for a set of
/// choices or dtypes its only member.
std::optional<ParamValue> nearest(const Reason &R, const Contract &C,
                                  std::int64_t Tile = 0);

/// The tile's extent along the atom mode parameter \p P sizes (WGMMA's n is
/// the atom's N), from match report \p R; 0 when P sizes none or the tile
/// is not known.
std::int64_t tileSizedBy(const Contract &C, const MatchReport &R,
                         const Name &P);

/// The top-level mode of \p L that holds its stride-1 leaf (of extent > 1):
/// the dimension a tile is contiguous in. None when no mode or several do.
std::optional<int> contiguousMode(const Layout &L);

/// The static extents of \p Shape's top-level modes; empty when one is
/// dynamic.
std::vector<std::int64_t> staticExtents(const IntTuple &Shape);

/// A shared-memory tile of extents \p Box (R x C, C contiguous) with
/// \p Bytes-byte elements, as TMA writes it under \p Written's swizzle:
/// row-major (R,C):(C,1) when a row fits the swizzle's width (the swizzle
/// narrowed to the row when it is narrower), else row-major panels of that
/// width side by side, (R,(C/P,P)):(P,(R*P,1)) -- the form of the example
/// GEMM's B and staged tiles. None for other ranks or a width the panels
/// do not divide. \p Contiguous 0: the rows are mode 0's (an M- or K-major
/// tile stored column by column), the same panels with the modes swapped.
std::optional<ComposedLayout> panelLayout(const std::vector<std::int64_t> &Box,
                                          int Bytes, Swizzle Written,
                                          int Contiguous = 1);

/// The register layout of a TM x TN accumulator that a contract's
/// register fragment \p Pattern tiles, over \p Where -- the mesh its
/// fragment's units are the trailing axes of (a WGMMA warpgroup's 4 x 8 x 4
/// after the leading group axes): the fragment's leaves for one AM x AN
/// atom, its symbolic leaf solved for the atom's extent; then, outside it,
/// along N the atoms one after another, along M the leading axes side by
/// side and the rest one after another. Each outer leaf's stride is the
/// span of what it repeats (the fragment is compact), and an outer leaf
/// that continues the fragment's outermost leaf merges with it -- the
/// example GEMM's ((2@group,4@warp,2,8@lane8),(32,4@lane4,2)). None when the
/// pattern or the mesh is of another form, or the tile does not divide.
/// How many units of \p Pattern's mesh \p Where runs side by side: the
/// product of its leading top-level modes before the trailing ones the
/// pattern's mesh leaves are (a compute mesh (2,4,8,4) of WGMMA's 4 x 8 x 4
/// warpgroup: 2 groups). 0 when Where is not of that form.
std::int64_t leadingGroups(const ShardLayout &Pattern, const Mesh &Where);

std::optional<ShardLayout>
tiledAccumulator(const ShardLayout &Pattern, const Mesh &Where, std::int64_t AM,
                 std::int64_t AN, std::int64_t TM, std::int64_t TN);

} // namespace tf::analysis

#endif // TF_PLUGIN_ANALYSIS_DERIVE_H
