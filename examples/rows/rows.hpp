//===- examples/rows/rows.hpp - What the row kernels share ----------------===//
//
// The meshes, tile types and grids of the row kernels, in two forms:
//  - whole-row kernels (`*_rows`, and add_bias): one CTA per BM = 4 rows
//    (a grid sized at launch), four warps of 32 threads, one row per warp.
//    A BM x BN row tile lives in registers as tf::row_tile_text lays it
//    out: each lane holds runs of 8 contiguous bf16 (one 128-bit load)
//    every 256 columns, so a warp's loads of a step are one contiguous span
//    and a row's reduction is a reduction across the warp's lanes. BN =
//    1024 keeps a row tile at 32 f32 registers per thread; rows up to BN
//    run as one tile.
//  - loop kernels (`*_loop`, `softmax_online`): longer rows, one row per
//    CTA of eight warps, which loops over column tiles of BW = 2048 (8
//    contiguous bf16 per thread, warp w holding columns [256 w, 256 w +
//    256) of a tile), keeping running sums or statistics, then reads the
//    row again to write it. A row's reduction spans the CTA's warps: the
//    lanes' butterfly, then the warps' partials through shared memory. One
//    row per CTA keeps what the second pass reads again small: the rows
//    the resident CTAs hold fit in the L2 (a warp per row, as the
//    whole-row kernels, held four rows per CTA, which outgrew it: measured
//    on an H100, 2026-12-05, 0.44-0.84 of the copy bandwidth).
// Each kernel says how many CTAs an SM must hold (tf::resident_ctas), which
// caps its registers: more resident warps keep more loads in flight.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <tf/tf.hpp>

#include <array>
#include <limits>

namespace rows {

constexpr int BM = 4;     // rows per CTA: one warp each
constexpr int BN = 1024;  // columns per row tile

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "rows");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(4,32)">, "warp", "lane");

/// The loop kernels' CTA: one row, eight warps.
constexpr int BW = 2048;  // columns per row tile of a loop kernel
inline constexpr tf::Mesh row_threads =
    tf::mesh("thread", tf::layout<"(8,32)">, "warp", "lane");

using Matrix = tf::Tensor<tf::bf16, "(?,?)">;  // row-major, run-time extents
using Vector = tf::Tensor<tf::bf16, "(?)">;
/// A BM x BN row tile in registers, one row per warp, 8 bf16 per lane run.
using RowTile = tf::Tensor<tf::bf16, tf::row_tile_text<BM, BN, 8>(), tf::rmem>;
/// One f32 per row: a row statistic (maximum, sum, scale).
using Stats = tf::Tensor<float, "(4)", tf::rmem>;

/// A 1 x BW row tile of a loop kernel: 8 contiguous bf16 per thread, the
/// warps side by side, the lanes side by side within each warp's 256
/// columns.
using LoopTile =
    tf::Tensor<tf::bf16, "(1,(8@warp,32@lane,8)):(2048,(256,8,1))", tf::rmem>;
/// The same tile in f32: a loop kernel's running sums, element by element.
using LoopSums =
    tf::Tensor<float, "(1,(8@warp,32@lane,8)):(2048,(256,8,1))", tf::rmem>;
/// The loop kernels' row statistic.
using LoopStat = tf::Tensor<float, "(1)", tf::rmem>;

/// A whole row of up to Cols columns over a CTA of Threads threads (the
/// `*_cta` kernels): 8 contiguous bf16 per thread and step, the warps side
/// by side in a step (tf::cta_row_tile_text).
template <int Cols, int Threads>
using CtaRowTile =
    tf::Tensor<tf::bf16, tf::cta_row_tile_text<Cols, Threads, 8>(), tf::rmem>;
template <int Threads>
inline constexpr tf::Mesh cta_threads =
    tf::mesh("thread", tf::IntTuple{Threads / 32, 32}, "warp", "lane");

/// One `*_cta` kernel: the longest row its tile holds, and the kernel. Each
/// kernel family lists its own (rmsnorm_cta_kernels, ...): 32 columns a
/// thread from 8192 columns on (8192 columns on 256 threads moved 0.97 of
/// the copy bandwidth for RMSNorm on an H100, 0.92 on 512 threads, 0.55 on
/// 1024). Each asks for 1024 / Threads resident CTAs: 1024 threads an SM,
/// 64 registers each.
template <class Kernel> struct CtaForm {
  std::int64_t cols;
  Kernel kernel;
};

/// The kernel of \p forms (by growing tiles) whose tile is the smallest
/// that holds a row of `cols` columns; null past the largest.
template <class Kernel, std::size_t N>
Kernel cta_kernel(const std::array<CtaForm<Kernel>, N> &forms, std::int64_t cols) {
  for (const CtaForm<Kernel> &form : forms)
    if (cols <= form.cols)
      return form.kernel;
  return nullptr;
}

/// The grid of a whole-row kernel on `rows` rows: a CTA per BM rows.
inline tf::Grid row_per_warp_grid(std::int64_t rows) {
  return tf::grid(tf::ceil_div(rows, BM));
}
/// The grid of a `*_cta` or loop kernel: a CTA per row.
inline tf::Grid row_per_cta_grid(std::int64_t rows) { return tf::grid(rows); }

/// log2(e): e^t = 2^(t log2 e), the form of the GPU's ex2 instruction.
constexpr float log2e = 1.4426950408889634f;
constexpr float lowest = std::numeric_limits<float>::lowest();
constexpr float infinity = std::numeric_limits<float>::infinity();

} // namespace rows
