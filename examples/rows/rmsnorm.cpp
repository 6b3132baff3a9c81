//===- examples/rows/rmsnorm.cpp - RMSNorm with weight, and fused residual -===//
//
// Two row kernels over a bf16 matrix, f32 inside:
//  - rmsnorm<Cols>: y = x / sqrt(mean(x^2) + eps) * w;
//  - residual_rmsnorm<Cols>: h = x + r is written back as the new residual
//    (bf16), and y = RMSNorm(h) * w from the same registers -- the fused
//    residual add of a transformer block, one read of x and r, two writes.
// A row tile spans the row (Cols >= the row length; the columns beyond it
// read as 0 and add nothing to the sum of squares); one warp per row
// reduces across its lanes. `rmsnorm [ROWS COLS]` runs both on the CPU.
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
void rmsnorm(Matrix x, Vector w, Matrix y, float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), BM), 1)) {
    [[tf::mesh(threads)]] {
      auto row = tf::cast<float>(x.tile<BM, Cols>(m * BM, n * Cols));
      auto weight = tf::cast<float>(w.tile<Cols>(n * Cols));
      auto squares = tf::reduce_sum<1>(tf::mul(row, row));
      auto scale = tf::rsqrt(tf::add(tf::mul(squares, 1.0f / x.extent(1)), eps));
      auto out = tf::mul(tf::mul(row, tf::broadcast<1>(scale, row)),
                         tf::broadcast<0>(weight, row));
      tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, Cols>(m * BM, n * Cols));
    }
  }
}

template <int Cols>
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128))]]
void residual_rmsnorm(Matrix x, Matrix residual, Vector w, Matrix y, float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), BM), 1)) {
    [[tf::mesh(threads)]] {
      auto sum = tf::add(tf::cast<float>(x.tile<BM, Cols>(m * BM, n * Cols)),
                         tf::cast<float>(residual.tile<BM, Cols>(m * BM, n * Cols)));
      // The new residual is the bf16 sum; the norm reads it as stored.
      auto h = tf::cast<tf::bf16>(sum);
      tf::copy(h, residual.tile<BM, Cols>(m * BM, n * Cols));
      auto row = tf::cast<float>(h);
      auto weight = tf::cast<float>(w.tile<Cols>(n * Cols));
      auto squares = tf::reduce_sum<1>(tf::mul(row, row));
      auto scale = tf::rsqrt(tf::add(tf::mul(squares, 1.0f / x.extent(1)), eps));
      auto out = tf::mul(tf::mul(row, tf::broadcast<1>(scale, row)),
                         tf::broadcast<0>(weight, row));
      tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, Cols>(m * BM, n * Cols));
    }
  }
}

} // namespace rows

namespace {

constexpr float eps = 1e-6f;

/// RMSNorm of one row of `x` (cols values) with weight `w`, in double.
void reference(const double *x, const std::vector<tf::bf16> &w, std::int64_t cols,
               std::vector<double> &out) {
  double squares = 0;
  for (std::int64_t c = 0; c < cols; ++c)
    squares += x[c] * x[c];
  const double scale = 1 / std::sqrt(squares / double(cols) + eps);
  for (std::int64_t c = 0; c < cols; ++c)
    out[static_cast<std::size_t>(c)] = x[c] * scale * rows_example::at(w, c);
}

/// Runs rmsnorm<Cols> or residual_rmsnorm<Cols> for the smallest Cols that
/// holds the row.
template <int Cols> void run(rows_example::Shape s, const std::vector<tf::bf16> &x,
                             std::vector<tf::bf16> &residual,
                             const std::vector<tf::bf16> &w,
                             std::vector<tf::bf16> &y, bool fused) {
  if constexpr (Cols < 32768)
    if (s.Cols > Cols)
      return run<Cols * 4>(s, x, residual, w, y, fused);
  const tf::Grid grid = tf::grid(tf::ceil_div(s.Rows, rows::BM));
  rows::Matrix xs(const_cast<tf::bf16 *>(x.data()), {s.Rows, s.Cols});
  rows::Vector ws(const_cast<tf::bf16 *>(w.data()), {s.Cols});
  rows::Matrix ys(y.data(), {s.Rows, s.Cols});
  if (fused)
    tf::launch(rows::residual_rmsnorm<Cols>, grid, xs,
               rows::Matrix(residual.data(), {s.Rows, s.Cols}), ws, ys, eps);
  else
    tf::launch(rows::rmsnorm<Cols>, grid, xs, ws, ys, eps);
}

} // namespace

int main(int argc, char **argv) {
  const rows_example::Shape s = rows_example::parse_shape(argc, argv);
  if (s.Cols > 32768) {
    std::fprintf(stderr, "rows longer than 32768 need a column loop\n");
    return 2;
  }
  const std::vector<tf::bf16> x = rows_example::random_bf16(s.Rows * s.Cols, 1);
  const std::vector<tf::bf16> r0 = rows_example::random_bf16(s.Rows * s.Cols, 2);
  const std::vector<tf::bf16> w = rows_example::random_bf16(s.Cols, 3, 0.5f, 1.5f);
  std::vector<double> row(static_cast<std::size_t>(s.Cols));

  std::vector<tf::bf16> y = rows_example::poisoned(s.Rows * s.Cols);
  std::vector<tf::bf16> unused;
  run<1024>(s, x, unused, w, y, false);
  int status = rows_example::report("rmsnorm", s, y, [&](std::int64_t r, std::vector<double> &out) {
    for (std::int64_t c = 0; c < s.Cols; ++c)
      row[static_cast<std::size_t>(c)] = rows_example::at(x, r * s.Cols + c);
    reference(row.data(), w, s.Cols, out);
  });

  std::vector<tf::bf16> residual = r0;
  y = rows_example::poisoned(s.Rows * s.Cols);
  run<1024>(s, x, residual, w, y, true);
  // The new residual is x + r rounded to bf16; the norm is of that.
  std::vector<double> h(static_cast<std::size_t>(s.Cols));
  auto sum_row = [&](std::int64_t r) {
    for (std::int64_t c = 0; c < s.Cols; ++c)
      h[static_cast<std::size_t>(c)] = tf::widen(tf::convert<tf::bf16>(
          float(rows_example::at(x, r * s.Cols + c) + rows_example::at(r0, r * s.Cols + c))));
  };
  status |= rows_example::report("residual_rmsnorm.residual", s, residual,
                                 [&](std::int64_t r, std::vector<double> &out) {
                                   sum_row(r);
                                   out = h;
                                 });
  status |= rows_example::report("residual_rmsnorm", s, y,
                                 [&](std::int64_t r, std::vector<double> &out) {
                                   sum_row(r);
                                   reference(h.data(), w, s.Cols, out);
                                 });
  return status;
}
