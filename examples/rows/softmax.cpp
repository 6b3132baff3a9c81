//===- examples/rows/softmax.cpp - Row softmax, whole rows and online -----===//
//
// y = softmax(x) along each row of a bf16 matrix, in f32, written as bf16.
// Two kernels (rows.hpp: the whole-row and the loop forms):
//  - softmax_rows: a row tile spans the whole row (rows up to BN; the
//    columns beyond it are masked to -inf, so they add e^-inf = 0): each
//    warp loads its row in 128-bit runs, reduces its maximum and its sum
//    across its lanes, and writes e^(x - max) times 1 / sum (one division
//    per row).
//  - softmax_online: rows longer than a register tile, one per CTA. A loop
//    over column tiles (each tile's maximum and sum reduced across the
//    CTA's warps) keeps a running maximum and a running sum, the sum
//    rescaled by
//    e^(old max - new max) whenever the maximum grows (the online softmax of
//    Milakov and Gimelshein), then a second pass writes the outputs.
// e^t is computed as 2^(t log2 e): the form the GPU's ex2 instruction takes.
// Without the plugin the kernels run on the CPU: `softmax [ROWS COLS]`.
//
//===----------------------------------------------------------------------===//
#include "check.hpp"
#include "rows.hpp"

#include <cmath>

namespace rows {

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128), tf::resident_ctas(8))]]
void softmax_rows(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), BM), 1)) {
    [[tf::mesh(threads)]] {
      auto tile = x.tile<BM, BN>(m * BM, n * BN);
      auto regs = tf::empty<RowTile>();
      tf::copy(tile, regs);
      auto row = tf::where(tf::in_bounds(tile), tf::cast<float>(regs), -infinity);
      auto top = tf::reduce_max<1>(row);
      auto e = tf::exp2(tf::mul(tf::sub(row, tf::broadcast<1>(top, row)), log2e));
      // One division per row, then a product per element.
      auto inverse = tf::div(1.0f, tf::reduce_sum<1>(e));
      auto out = tf::mul(e, tf::broadcast<1>(inverse, e));
      tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, BN>(m * BM, n * BN));
    }
  }
}

template <int Cols, int Threads>
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", Threads), tf::resident_ctas(1024 / Threads))]]
void softmax_cta(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, x.extent(0), 1)) {
    [[tf::mesh(cta_threads<Threads>)]] {
      auto tile = x.tile<1, Cols>(m, 0);
      auto regs = tf::empty<CtaRowTile<Cols, Threads>>();
      tf::copy(tile, regs);
      auto row = tf::where(tf::in_bounds(tile), tf::cast<float>(regs), -infinity);
      auto top = tf::reduce_max<1>(row);
      auto e = tf::exp2(tf::mul(tf::sub(row, tf::broadcast<1>(top, row)), log2e));
      auto inverse = tf::div(1.0f, tf::reduce_sum<1>(e));
      auto out = tf::mul(e, tf::broadcast<1>(inverse, e));
      tf::copy(tf::cast<tf::bf16>(out), y.tile<1, Cols>(m, 0));
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 256), tf::resident_ctas(8))]]
void softmax_online(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, x.extent(0), 1)) {
    [[tf::mesh(row_threads)]] {
      // The running maximum starts at the lowest finite float, not -inf:
      // e^(old - new) stays 0, never e^(-inf + inf).
      auto top = tf::full<LoopStat>(lowest);
      auto sum = tf::zeros<LoopStat>();
      auto regs = tf::empty<LoopTile>();
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BW)) {
        auto tile = x.tile<1, BW>(m, k);
        tf::copy(tile, regs);
        auto part = tf::where(tf::in_bounds(tile), tf::cast<float>(regs), -infinity);
        auto tile_max = tf::reduce_max<1>(part);
        auto grown = tf::maximum(top, tile_max);
        auto rescale = tf::exp2(tf::mul(tf::sub(top, grown), log2e));
        auto e = tf::exp2(tf::mul(tf::sub(part, tf::broadcast<1>(grown, part)), log2e));
        sum = tf::add(tf::mul(sum, rescale), tf::reduce_sum<1>(e));
        top = tf::maximum(top, tile_max);
      }
      auto inverse = tf::div(1.0f, sum);
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BW)) {
        tf::copy(x.tile<1, BW>(m, k), regs);
        auto part = tf::cast<float>(regs);
        auto e = tf::exp2(tf::mul(tf::sub(part, tf::broadcast<1>(top, part)), log2e));
        auto out = tf::mul(e, tf::broadcast<1>(inverse, e));
        tf::copy(tf::cast<tf::bf16>(out), y.tile<1, BW>(m, k));
      }
    }
  }
}

/// The softmax_cta kernels by tile (rows::cta_kernel picks).
using SoftmaxKernel = void (*)(Matrix, Matrix);
inline constexpr std::array<CtaForm<SoftmaxKernel>, 5> softmax_cta_kernels = {{
    {2048, softmax_cta<2048, 128>},
    {4096, softmax_cta<4096, 256>},
    {8192, softmax_cta<8192, 256>},
    {16384, softmax_cta<16384, 512>},
    {32768, softmax_cta<32768, 1024>},
}};

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
  int status = 0;
  // Each form where it takes the shape: one row per warp (rows up to BN),
  // a whole row per CTA (up to the largest tile), online (any row).
  auto run = [&](const char *name, rows::SoftmaxKernel kernel, tf::Grid grid) {
    std::vector<tf::bf16> y = rows_example::poisoned(s.Rows * s.Cols);
    tf::launch(kernel, grid, rows::Matrix(x.data(), {s.Rows, s.Cols}),
               rows::Matrix(y.data(), {s.Rows, s.Cols}));
    status |= rows_example::report(name, s, y, ref);
  };
  if (s.Cols <= rows::BN)
    run("softmax_rows", rows::softmax_rows, rows::row_per_warp_grid(s.Rows));
  if (rows::SoftmaxKernel kernel = rows::cta_kernel(rows::softmax_cta_kernels, s.Cols))
    run("softmax_cta", kernel, rows::row_per_cta_grid(s.Rows));
  run("softmax_online", rows::softmax_online, rows::row_per_cta_grid(s.Rows));
  return status;
}
