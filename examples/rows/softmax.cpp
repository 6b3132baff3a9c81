//===- examples/rows/softmax.cpp - Row softmax, whole rows and online -----===//
//
// y = softmax(x) along each row of a bf16 matrix, in f32, written as bf16.
// Two kernels:
//  - softmax_rows<BN>: a row tile spans the whole row (BN >= the row
//    length; the columns beyond it are masked to -inf, so they add e^-inf =
//    0): one warp per row holds it in registers, reduces its maximum and its
//    sum across the warp, and writes e^(x - max) / sum.
//  - softmax_online: rows longer than a register tile. A loop over column
//    tiles keeps a running maximum and a running sum, the sum rescaled by
//    e^(old max - new max) whenever the maximum grows (the online softmax of
//    Milakov and Gimelshein), then a second pass writes the outputs.
// e^t is computed as 2^(t log2 e): the form the GPU's ex2 instruction takes.
// Without the plugin the kernels run on the CPU: `softmax [ROWS COLS]`.
//
//===----------------------------------------------------------------------===//
#include <tf/tf.hpp>

#include "check.hpp"

#include <cmath>
#include <limits>

namespace rows {

constexpr int BM = 4;     // rows per CTA: one warp each
constexpr int BN = 1024;  // the online kernel's column tile
constexpr float log2e = 1.4426950408889634f;

// One CTA per BM rows, sized at launch; four warps of 32 threads.
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "rows");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(4,32)">, "warp", "lane");

using Matrix = tf::Tensor<tf::bf16, "(?,?)">;  // row-major, run-time extents
using Stats = tf::Tensor<float, "(4)", tf::rmem>;  // one value per row

template <int Cols>
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128))]]
void softmax_rows(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), BM), 1)) {
    [[tf::mesh(threads)]] {
      auto tile = x.tile<BM, Cols>(m * BM, n * Cols);
      auto row = tf::where(tf::in_bounds(tile), tf::cast<float>(tile), -std::numeric_limits<float>::infinity());
      auto top = tf::reduce_max<1>(row);
      auto e = tf::exp2(tf::mul(tf::sub(row, tf::broadcast<1>(top, row)), log2e));
      auto sum = tf::reduce_sum<1>(e);
      auto out = tf::div(e, tf::broadcast<1>(sum, e));
      tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, Cols>(m * BM, n * Cols));
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128))]]
void softmax_online(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), BM), 1)) {
    [[tf::mesh(threads)]] {
      // The running maximum starts at the lowest finite float, not -inf:
      // e^(old - new) stays 0, never e^(-inf + inf).
      auto top = tf::full<Stats>(-3.4028234663852886e38f);
      auto sum = tf::zeros<Stats>();
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BN)) {
        auto tile = x.tile<BM, BN>(m * BM, k);
        auto part = tf::where(tf::in_bounds(tile), tf::cast<float>(tile), -std::numeric_limits<float>::infinity());
        auto grown = tf::maximum(top, tf::reduce_max<1>(part));
        auto rescale = tf::exp2(tf::mul(tf::sub(top, grown), log2e));
        auto e = tf::exp2(tf::mul(tf::sub(part, tf::broadcast<1>(grown, part)), log2e));
        sum = tf::add(tf::mul(sum, rescale), tf::reduce_sum<1>(e));
        top = grown;
      }
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BN)) {
        auto part = tf::cast<float>(x.tile<BM, BN>(m * BM, k));
        auto e = tf::exp2(tf::mul(tf::sub(part, tf::broadcast<1>(top, part)), log2e));
        auto out = tf::div(e, tf::broadcast<1>(sum, e));
        tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, BN>(m * BM, k));
      }
    }
  }
}

} // namespace rows

namespace {

/// The reference: e^(x - max) / sum in double.
void reference(const std::vector<tf::bf16> &x, std::int64_t cols, std::int64_t r,
               std::vector<double> &out) {
  double top = -std::numeric_limits<float>::infinity(), sum = 0;
  for (std::int64_t c = 0; c < cols; ++c)
    top = std::fmax(top, rows_example::at(x, r * cols + c));
  for (std::int64_t c = 0; c < cols; ++c)
    sum += std::exp(rows_example::at(x, r * cols + c) - top);
  for (std::int64_t c = 0; c < cols; ++c)
    out[static_cast<std::size_t>(c)] =
        std::exp(rows_example::at(x, r * cols + c) - top) / sum;
}

} // namespace

int main(int argc, char **argv) {
  const rows_example::Shape s = rows_example::parse_shape(argc, argv);
  std::vector<tf::bf16> x = rows_example::random_bf16(s.Rows * s.Cols, 1);
  auto ref = [&](std::int64_t r, std::vector<double> &out) {
    reference(x, s.Cols, r, out);
  };
  const tf::Grid grid = tf::grid(tf::ceil_div(s.Rows, rows::BM));
  int status = 0;
  // The whole-row kernel where one register tile spans the row.
  if (s.Cols <= 4096) {
    std::vector<tf::bf16> y = rows_example::poisoned(s.Rows * s.Cols);
    if (s.Cols <= 1024)
      tf::launch(rows::softmax_rows<1024>, grid, rows::Matrix(x.data(), {s.Rows, s.Cols}),
                 rows::Matrix(y.data(), {s.Rows, s.Cols}));
    else
      tf::launch(rows::softmax_rows<4096>, grid, rows::Matrix(x.data(), {s.Rows, s.Cols}),
                 rows::Matrix(y.data(), {s.Rows, s.Cols}));
    status |= rows_example::report("softmax_rows", s, y, ref);
  }
  std::vector<tf::bf16> y = rows_example::poisoned(s.Rows * s.Cols);
  tf::launch(rows::softmax_online, grid, rows::Matrix(x.data(), {s.Rows, s.Cols}),
             rows::Matrix(y.data(), {s.Rows, s.Cols}));
  status |= rows_example::report("softmax_online", s, y, ref);
  return status;
}
