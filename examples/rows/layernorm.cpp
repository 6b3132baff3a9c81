//===- examples/rows/layernorm.cpp - LayerNorm with weight and bias -------===//
//
// y = (x - mean) / sqrt(var + eps) * w + b along each row of a bf16 matrix,
// in f32 (rows.hpp: the whole-row and the loop forms): the mean first, then
// the variance as the mean of (x - mean)^2 (no E[x^2] - E[x]^2
// cancellation); the columns beyond the row are masked to 0 after the mean
// is taken, so they add nothing to the variance.
//  - layernorm_rows: rows up to BN, one row tile per warp, both reductions
//    across the warp from the same registers; 6 resident CTAs per SM (85
//    registers a thread at most: it holds its centered row, weight and
//    bias; the copy of the program for whole rows takes 80 without a
//    spill, and 6 CTAs moved 0.97 of the copy bandwidth at 65536 x 1024 on
//    an H100 where 4 moved 0.93);
//  - layernorm_cta<Cols, Threads>: rows up to Cols, the whole row in one
//    CTA's registers (read once; layernorm_cta_kernels lists the tiles,
//    rows::cta_kernel picks the smallest that holds a row), the two
//    reductions across the CTA's warps;
//  - layernorm_loop: any row, one per CTA: three loops over column
//    tiles (the sums, the centered squares, each thread's own, then one
//    reduction across the CTA after each; the outputs).
// The weight is read before the reductions, its loads in flight while the
// row is summed, where after them they waited alone (with the bias too, at
// 4000 x 5000 on an H100, 0.83 of the copy bandwidth instead of 0.77); the
// bias is read after them in layernorm_cta: both early, the whole-row copy
// of the 8192-column program spilled 16 bytes.
// `layernorm [ROWS COLS]` runs them on the CPU.
//
//===----------------------------------------------------------------------===//
#include "check.hpp"
#include "rows.hpp"

#include <cmath>

namespace rows {

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128), tf::resident_ctas(6))]]
void layernorm_rows(Matrix x, Vector w, Vector b, Matrix y, float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), BM), 1)) {
    [[tf::mesh(threads)]] {
      auto tile = x.tile<BM, BN>(m * BM, n * BN);
      auto regs = tf::empty<RowTile>();
      tf::copy(tile, regs);
      auto weight = tf::cast<float>(tf::broadcast<0>(w.tile<BN>(n * BN), regs));
      auto bias = tf::cast<float>(tf::broadcast<0>(b.tile<BN>(n * BN), regs));
      auto row = tf::cast<float>(regs);
      auto mean = tf::mul(tf::reduce_sum<1>(row), 1.0f / x.extent(1));
      auto centered = tf::where(tf::in_bounds(tile),
                                tf::sub(row, tf::broadcast<1>(mean, row)), 0.0f);
      auto var = tf::mul(tf::reduce_sum<1>(tf::mul(centered, centered)),
                         1.0f / x.extent(1));
      auto scale = tf::rsqrt(tf::add(var, eps));
      auto normed = tf::mul(centered, tf::broadcast<1>(scale, centered));
      auto out = tf::add(tf::mul(normed, weight), bias);
      tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, BN>(m * BM, n * BN));
    }
  }
}

template <int Cols, int Threads>
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", Threads), tf::resident_ctas(1024 / Threads))]]
void layernorm_cta(Matrix x, Vector w, Vector b, Matrix y, float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, x.extent(0), 1)) {
    [[tf::mesh(cta_threads<Threads>)]] {
      auto tile = x.tile<1, Cols>(m, 0);
      auto regs = tf::empty<CtaRowTile<Cols, Threads>>();
      tf::copy(tile, regs);
      auto weight = tf::cast<float>(tf::broadcast<0>(w.tile<Cols>(0), regs));
      auto row = tf::cast<float>(regs);
      auto mean = tf::mul(tf::reduce_sum<1>(row), 1.0f / x.extent(1));
      auto centered = tf::where(tf::in_bounds(tile),
                                tf::sub(row, tf::broadcast<1>(mean, row)), 0.0f);
      auto var = tf::mul(tf::reduce_sum<1>(tf::mul(centered, centered)),
                         1.0f / x.extent(1));
      auto scale = tf::rsqrt(tf::add(var, eps));
      auto bias = tf::cast<float>(tf::broadcast<0>(b.tile<Cols>(0), regs));
      auto normed = tf::mul(centered, tf::broadcast<1>(scale, centered));
      auto out = tf::add(tf::mul(normed, weight), bias);
      tf::copy(tf::cast<tf::bf16>(out), y.tile<1, Cols>(m, 0));
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 256), tf::resident_ctas(8))]]
void layernorm_loop(Matrix x, Vector w, Vector b, Matrix y, float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, x.extent(0), 1)) {
    [[tf::mesh(row_threads)]] {
      auto regs = tf::empty<LoopTile>();
      // Each thread sums its columns; one reduction across the CTA.
      auto sums = tf::zeros<LoopSums>();
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BW)) {
        tf::copy(x.tile<1, BW>(m, k), regs);
        sums = tf::add(sums, tf::cast<float>(regs));
      }
      auto mean = tf::mul(tf::reduce_sum<1>(sums), 1.0f / x.extent(1));
      // The variance from x - mean, a second pass: no E[x^2] - E[x]^2
      // cancellation.
      auto squares = tf::zeros<LoopSums>();
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BW)) {
        auto tile = x.tile<1, BW>(m, k);
        tf::copy(tile, regs);
        auto part = tf::cast<float>(regs);
        auto centered = tf::where(tf::in_bounds(tile),
                                  tf::sub(part, tf::broadcast<1>(mean, part)), 0.0f);
        squares = tf::add(squares, tf::mul(centered, centered));
      }
      auto var = tf::mul(tf::reduce_sum<1>(squares), 1.0f / x.extent(1));
      auto scale = tf::rsqrt(tf::add(var, eps));
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BW)) {
        tf::copy(x.tile<1, BW>(m, k), regs);
        auto part = tf::cast<float>(regs);
        auto centered = tf::sub(part, tf::broadcast<1>(mean, part));
        auto weight = tf::cast<float>(tf::broadcast<0>(w.tile<BW>(k), regs));
        auto bias = tf::cast<float>(tf::broadcast<0>(b.tile<BW>(k), regs));
        auto normed = tf::mul(centered, tf::broadcast<1>(scale, centered));
        auto out = tf::add(tf::mul(normed, weight), bias);
        tf::copy(tf::cast<tf::bf16>(out), y.tile<1, BW>(m, k));
      }
    }
  }
}

/// The layernorm_cta kernels by tile (rows::cta_kernel picks), the tiles of
/// rmsnorm_cta_kernels: 32 columns a thread from 8192 on. The row, the
/// weight and the bias fit 64 registers in the copy of the program that
/// runs where the whole row lies inside the tensor (the emitter writes it
/// beside the checked copy, whose fallbacks would not fit).
using LayerNormKernel = void (*)(Matrix, Vector, Vector, Matrix, float);
inline constexpr std::array<CtaForm<LayerNormKernel>, 5> layernorm_cta_kernels = {{
    {2048, layernorm_cta<2048, 128>},
    {4096, layernorm_cta<4096, 256>},
    {8192, layernorm_cta<8192, 256>},
    {16384, layernorm_cta<16384, 512>},
    {32768, layernorm_cta<32768, 1024>},
}};

} // namespace rows

namespace {

constexpr float eps = 1e-5f;

/// LayerNorm of row r of x (cols values) with weight w and bias b, in
/// double.
void reference(const std::vector<tf::bf16> &x, const std::vector<tf::bf16> &w,
               const std::vector<tf::bf16> &b, std::int64_t cols, std::int64_t r,
               std::vector<double> &out) {
  double mean = 0, var = 0;
  for (std::int64_t c = 0; c < cols; ++c)
    mean += rows_example::at(x, r * cols + c);
  mean /= double(cols);
  for (std::int64_t c = 0; c < cols; ++c) {
    double d = rows_example::at(x, r * cols + c) - mean;
    var += d * d;
  }
  var /= double(cols);
  for (std::int64_t c = 0; c < cols; ++c)
    out[static_cast<std::size_t>(c)] =
        (rows_example::at(x, r * cols + c) - mean) / std::sqrt(var + eps) *
            rows_example::at(w, c) +
        rows_example::at(b, c);
}

} // namespace

int main(int argc, char **argv) {
  const rows_example::Shape s = rows_example::parse_shape(argc, argv);
  std::vector<tf::bf16> x = rows_example::random_bf16(s.Rows * s.Cols, 1);
  std::vector<tf::bf16> w = rows_example::random_bf16(s.Cols, 2, 0.5f, 1.5f);
  std::vector<tf::bf16> b = rows_example::random_bf16(s.Cols, 3, -1.0f, 1.0f);
  auto ref = [&](std::int64_t r, std::vector<double> &out) {
    reference(x, w, b, s.Cols, r, out);
  };
  int status = 0;
  // Each form where it takes the shape: one row per warp (rows up to BN),
  // a whole row per CTA (up to the largest tile), the loop (any row).
  auto run = [&](const char *name, rows::LayerNormKernel kernel, tf::Grid grid) {
    std::vector<tf::bf16> y = rows_example::poisoned(s.Rows * s.Cols);
    tf::launch(kernel, grid, rows::Matrix(x.data(), {s.Rows, s.Cols}),
               rows::Vector(w.data(), {s.Cols}), rows::Vector(b.data(), {s.Cols}),
               rows::Matrix(y.data(), {s.Rows, s.Cols}), eps);
    // 4 sqrt(32768) 2^-24 ~ 4e-5: see check.hpp.
    status |= rows_example::report(name, s, y, ref, /*floor=*/1e-4);
  };
  if (s.Cols <= rows::BN)
    run("layernorm_rows", rows::layernorm_rows, rows::row_per_warp_grid(s.Rows));
  if (rows::LayerNormKernel kernel = rows::cta_kernel(rows::layernorm_cta_kernels, s.Cols))
    run("layernorm_cta", kernel, rows::row_per_cta_grid(s.Rows));
  run("layernorm_loop", rows::layernorm_loop, rows::row_per_cta_grid(s.Rows));
  return status;
}
