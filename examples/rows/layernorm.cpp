//===- examples/rows/layernorm.cpp - LayerNorm with weight and bias -------===//
//
// y = (x - mean) / sqrt(var + eps) * w + b along each row of a bf16 matrix,
// in f32: the mean first, then the variance as the mean of (x - mean)^2
// from the same registers (two reductions across the warp, no
// E[x^2] - E[x]^2 cancellation). The columns of the row tile beyond the
// row are masked to 0 after the mean is taken, so they add nothing to the
// variance. `layernorm [ROWS COLS]` runs it on the CPU.
//
//===----------------------------------------------------------------------===//
#include <tf/tf.hpp>

#include "check.hpp"

#include <cmath>

namespace rows {

constexpr int BM = 4;  // rows per CTA: one warp each

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "rows");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(4,32)">, "warp", "lane");

using Matrix = tf::Tensor<tf::bf16, "(?,?)">;  // row-major, run-time extents
using Vector = tf::Tensor<tf::bf16, "(?)">;

template <int Cols>
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128))]]
void layernorm(Matrix x, Vector w, Vector b, Matrix y, float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), BM), 1)) {
    [[tf::mesh(threads)]] {
      auto tile = x.tile<BM, Cols>(m * BM, n * Cols);
      auto row = tf::cast<float>(tile);
      auto mean = tf::mul(tf::reduce_sum<1>(row), 1.0f / x.extent(1));
      auto centered = tf::where(tf::in_bounds(tile),
                                tf::sub(row, tf::broadcast<1>(mean, row)), 0.0f);
      auto var = tf::mul(tf::reduce_sum<1>(tf::mul(centered, centered)),
                         1.0f / x.extent(1));
      auto scale = tf::rsqrt(tf::add(var, eps));
      auto normed = tf::mul(centered, tf::broadcast<1>(scale, centered));
      auto out = tf::add(tf::mul(normed, tf::broadcast<0>(tf::cast<float>(w.tile<Cols>(n * Cols)), row)),
                         tf::broadcast<0>(tf::cast<float>(b.tile<Cols>(n * Cols)), row));
      tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, Cols>(m * BM, n * Cols));
    }
  }
}

} // namespace rows

namespace {

constexpr float eps = 1e-5f;

/// Runs layernorm<Cols> for the smallest Cols that holds the row.
template <int Cols>
void run(rows_example::Shape s, std::vector<tf::bf16> &x, std::vector<tf::bf16> &w,
         std::vector<tf::bf16> &b, std::vector<tf::bf16> &y) {
  if constexpr (Cols < 32768)
    if (s.Cols > Cols)
      return run<Cols * 4>(s, x, w, b, y);
  tf::launch(rows::layernorm<Cols>, tf::grid(tf::ceil_div(s.Rows, rows::BM)),
             rows::Matrix(x.data(), {s.Rows, s.Cols}), rows::Vector(w.data(), {s.Cols}),
             rows::Vector(b.data(), {s.Cols}), rows::Matrix(y.data(), {s.Rows, s.Cols}),
             eps);
}

} // namespace

int main(int argc, char **argv) {
  const rows_example::Shape s = rows_example::parse_shape(argc, argv);
  if (s.Cols > 32768) {
    std::fprintf(stderr, "rows longer than 32768 need a column loop\n");
    return 2;
  }
  std::vector<tf::bf16> x = rows_example::random_bf16(s.Rows * s.Cols, 1);
  std::vector<tf::bf16> w = rows_example::random_bf16(s.Cols, 2, 0.5f, 1.5f);
  std::vector<tf::bf16> b = rows_example::random_bf16(s.Cols, 3, -1.0f, 1.0f);
  std::vector<tf::bf16> y = rows_example::poisoned(s.Rows * s.Cols);
  run<1024>(s, x, w, b, y);
  return rows_example::report("layernorm", s, y, [&](std::int64_t r, std::vector<double> &out) {
    double mean = 0, var = 0;
    for (std::int64_t c = 0; c < s.Cols; ++c)
      mean += rows_example::at(x, r * s.Cols + c);
    mean /= double(s.Cols);
    for (std::int64_t c = 0; c < s.Cols; ++c) {
      double d = rows_example::at(x, r * s.Cols + c) - mean;
      var += d * d;
    }
    var /= double(s.Cols);
    for (std::int64_t c = 0; c < s.Cols; ++c)
      out[static_cast<std::size_t>(c)] =
          (rows_example::at(x, r * s.Cols + c) - mean) / std::sqrt(var + eps) *
              rows_example::at(w, c) +
          rows_example::at(b, c);
  }, /*floor=*/1e-4); // 4 sqrt(32768) 2^-24 ~ 4e-5, see check.hpp
}
