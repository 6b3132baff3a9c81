//===- examples/rows/rows.hpp - What the row kernels share ----------------===//
//
// The meshes and tile types of the row kernels: one CTA per BM = 4 rows
// (a grid sized at launch), four warps of 32 threads, one row per warp. A
// row tile of BM x BN elements lives in registers as tf::row_tile_text
// lays it out: each lane holds runs of 8 contiguous bf16 (one 128-bit load)
// every 256 columns, so a warp's loads of a step are one contiguous span
// and a row's reduction is a reduction across the warp's lanes. BN = 1024
// keeps a row tile at 32 f32 registers per thread; rows up to BN run as
// one tile (the whole-row kernels), longer rows loop over column tiles
// with a running reduction.
// Each kernel says how many CTAs an SM must hold (tf::resident_ctas), which
// caps its registers: more resident warps keep more loads in flight. The
// loop kernels read a row twice and ask for fewer: the more rows resident
// CTAs hold at once, the less of them the L2 still has for the second pass
// (measured on an H100, 2026-12-05: rmsnorm_loop at 32768 x 4096 moved 0.88
// of the copy bandwidth at 4 resident CTAs, 0.70 at 6).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <tf/tf.hpp>

#include <limits>

namespace rows {

constexpr int BM = 4;     // rows per CTA: one warp each
constexpr int BN = 1024;  // columns per row tile

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "rows");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(4,32)">, "warp", "lane");

using Matrix = tf::Tensor<tf::bf16, "(?,?)">;  // row-major, run-time extents
using Vector = tf::Tensor<tf::bf16, "(?)">;
/// A BM x BN row tile in registers, one row per warp, 8 bf16 per lane run.
using RowTile = tf::Tensor<tf::bf16, tf::row_tile_text<BM, BN, 8>(), tf::rmem>;
/// One f32 per row: a row statistic (maximum, sum, scale).
using Stats = tf::Tensor<float, "(4)", tf::rmem>;

/// log2(e): e^t = 2^(t log2 e), the form of the GPU's ex2 instruction.
constexpr float log2e = 1.4426950408889634f;
constexpr float lowest = std::numeric_limits<float>::lowest();
constexpr float infinity = std::numeric_limits<float>::infinity();

} // namespace rows
