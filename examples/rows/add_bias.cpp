//===- examples/rows/add_bias.cpp - Element-wise add with a broadcast bias -===//
//
// y = x + bias over the rows of a bf16 matrix (bias: one value per column),
// in f32, written as bf16: 2-D tiles of BM x BN in registers (rows.hpp:
// one row per warp, 128-bit runs per lane), the bias tile read into the
// tile's layout by an explicit tf::broadcast<0> (every warp reads it).
// Bounded tiles: the elements beyond the matrix read as 0 and are not
// written.
// `add_bias [ROWS COLS]` runs it on the CPU.
//
//===----------------------------------------------------------------------===//
#include "check.hpp"
#include "rows.hpp"

namespace rows {

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128), tf::resident_ctas(8))]]
void add_bias(Matrix x, Vector bias, Matrix y) {
  const std::int64_t GM = tf::ceil_div(x.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(x.extent(1), BN);
  for (auto [m, n] : tf::grid_tiles(cta, GM, GN)) {
    [[tf::mesh(threads)]] {
      auto regs = tf::empty<RowTile>();
      tf::copy(x.tile<BM, BN>(m * BM, n * BN), regs);
      auto b = tf::broadcast<0>(bias.tile<BN>(n * BN), regs);
      auto out = tf::add(tf::cast<float>(regs), tf::cast<float>(b));
      tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, BN>(m * BM, n * BN));
    }
  }
}

} // namespace rows

int main(int argc, char **argv) {
  const rows_example::Shape s = rows_example::parse_shape(argc, argv);
  std::vector<tf::bf16> x = rows_example::random_bf16(s.Rows * s.Cols, 1);
  std::vector<tf::bf16> bias = rows_example::random_bf16(s.Cols, 2);
  std::vector<tf::bf16> y = rows_example::poisoned(s.Rows * s.Cols);
  tf::launch(rows::add_bias,
             tf::grid(tf::ceil_div(s.Rows, rows::BM) * tf::ceil_div(s.Cols, rows::BN)),
             rows::Matrix(x.data(), {s.Rows, s.Cols}), rows::Vector(bias.data(), {s.Cols}),
             rows::Matrix(y.data(), {s.Rows, s.Cols}));
  return rows_example::report("add_bias", s, y, [&](std::int64_t r, std::vector<double> &out) {
    for (std::int64_t c = 0; c < s.Cols; ++c)
      out[static_cast<std::size_t>(c)] =
          rows_example::at(x, r * s.Cols + c) + rows_example::at(bias, c);
  });
}
