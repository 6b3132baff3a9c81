//===- test/interp/rows/across_warps.cpp - Reductions across warps --------===//
//
// Register programs whose reductions span warps in shapes the examples do
// not take, for the interpreter test (RowsExampleTest.cpp) and the lowering
// test (test/cli/finalize/across_warps.test):
//  - pair_softmax_rows: two rows per CTA of eight warps, four warps per
//    row: the butterfly over the lanes, then the partials of the row's four
//    warps (a kept thread bit above the reduced ones: each row's warps read
//    their own slots);
//  - standardize_pair_rows: the same two rows per CTA, three reductions a row
//    (the mean, the variance, the largest square): the scratch regions
//    alternate 0, 1, 0, so the third writes region 0 after the second's
//    meet only, and a meet closes the body;
//  - column_sums: y[c] = the sum of column c, a CTA per 256 columns, 64
//    rows per tile in a loop; the rows are the warps' (8 each), the columns
//    the lanes': the reduction spans warps and no lane, so every lane
//    writes its partials, and the scratch is written again each iteration.
//
//===----------------------------------------------------------------------===//
#include <tf/tf.hpp>

namespace rows {

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "tiles");
inline constexpr tf::Mesh pairs =
    tf::mesh("thread", tf::layout<"(2,4,32)">, "pair", "warp", "lane");
inline constexpr tf::Mesh warps =
    tf::mesh("thread", tf::layout<"(8,32)">, "warp", "lane");

using Matrix = tf::Tensor<tf::bf16, "(?,?)">;
using Vector = tf::Tensor<tf::bf16, "(?)">;
using PairTile =
    tf::Tensor<tf::bf16, "(2@pair,(4@warp,32@lane,8)):(1024,(256,8,1))", tf::rmem>;
using ColumnTile =
    tf::Tensor<tf::bf16, "((8@warp,8),(32@lane,8)):((2048,256),(8,1))", tf::rmem>;
/// The column sums as each warp holds them: 8 columns per lane.
using ColumnSums = tf::Tensor<float, "((32@lane,8)):((8,1))", tf::rmem>;

constexpr float log2e = 1.4426950408889634f;
constexpr float infinity = std::numeric_limits<float>::infinity();

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 256))]]
void pair_softmax_rows(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), 2), 1)) {
    [[tf::mesh(pairs)]] {
      auto tile = x.tile<2, 1024>(m * 2, n * 1024);
      auto regs = tf::empty<PairTile>();
      tf::copy(tile, regs);
      auto row = tf::where(tf::in_bounds(tile), tf::cast<float>(regs), -infinity);
      auto top = tf::reduce_max<1>(row);
      auto e = tf::exp2(tf::mul(tf::sub(row, tf::broadcast<1>(top, row)), log2e));
      auto inverse = tf::div(1.0f, tf::reduce_sum<1>(e));
      auto out = tf::mul(e, tf::broadcast<1>(inverse, e));
      tf::copy(tf::cast<tf::bf16>(out), y.tile<2, 1024>(m * 2, n * 1024));
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 256))]]
void standardize_pair_rows(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), 2), 1)) {
    [[tf::mesh(pairs)]] {
      auto tile = x.tile<2, 1024>(m * 2, n * 1024);
      auto regs = tf::empty<PairTile>();
      tf::copy(tile, regs);
      auto row = tf::cast<float>(regs);
      auto mean = tf::mul(tf::reduce_sum<1>(row), 1.0f / x.extent(1));
      auto centered = tf::where(tf::in_bounds(tile),
                                tf::sub(row, tf::broadcast<1>(mean, row)), 0.0f);
      auto squares = tf::mul(centered, centered);
      auto var = tf::mul(tf::reduce_sum<1>(squares), 1.0f / x.extent(1));
      auto peak = tf::reduce_max<1>(squares);
      auto scale = tf::rsqrt(tf::add(tf::add(var, tf::mul(peak, 0.25f)), 1e-3f));
      auto out = tf::mul(centered, tf::broadcast<1>(scale, centered));
      tf::copy(tf::cast<tf::bf16>(out), y.tile<2, 1024>(m * 2, n * 1024));
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 256))]]
void column_sums(Matrix x, Vector y) {
  for (auto [m, n] : tf::grid_tiles(cta, 1, tf::ceil_div(x.extent(1), 256))) {
    [[tf::mesh(warps)]] {
      auto regs = tf::empty<ColumnTile>();
      auto sums = tf::zeros<ColumnSums>();
      for (std::int64_t k : tf::tile_offsets(x.extent(0), 64)) {
        tf::copy(x.tile<64, 256>(k, n * 256), regs);
        sums = tf::add(sums, tf::reduce_sum<0>(tf::cast<float>(regs)));
      }
      tf::copy(tf::cast<tf::bf16>(sums), y.tile<256>(n * 256));
    }
  }
}

} // namespace rows
