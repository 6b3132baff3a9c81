//===- examples/rows/rmsnorm.cpp - RMSNorm with weight, and fused residual -===//
//
// y = x / sqrt(mean(x^2) + eps) * w along each row of a bf16 matrix, f32
// inside (rows.hpp: the whole-row and the loop forms):
//  - rmsnorm_rows: rows up to BN, one row tile per warp: the sum of
//    squares is reduced across the warp, and the tile is scaled from the
//    same registers (the columns beyond the row read as 0 and add nothing);
//  - rmsnorm_loop: longer rows, one per CTA: a loop over column tiles
//    where each thread sums the squares of its columns, one reduction
//    across the CTA's warps, then a second loop scales and writes;
//  - residual_rmsnorm_rows / _loop: the fused residual add of a
//    transformer block: h = x + r is written back as the new residual
//    (bf16), and y = RMSNorm(h) * w; the loop form reads h back from the
//    residual it wrote.
// The weight is read straight into the row tile's layout
// (tf::broadcast<0>(w.tile<BN>(...), regs): each warp reads the row's
// weights). The whole-row kernels ask for 6 resident CTAs per SM (80
// registers without a spill; ptxas takes 219 when not asked, 2 CTAs).
// `rmsnorm [ROWS COLS]` runs them on the CPU.
//
//===----------------------------------------------------------------------===//
#include "check.hpp"
#include "rows.hpp"

#include <cmath>

namespace rows {

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128), tf::resident_ctas(6))]]
void rmsnorm_rows(Matrix x, Vector w, Matrix y, float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), BM), 1)) {
    [[tf::mesh(threads)]] {
      auto regs = tf::empty<RowTile>();
      tf::copy(x.tile<BM, BN>(m * BM, n * BN), regs);
      auto row = tf::cast<float>(regs);
      auto squares = tf::reduce_sum<1>(tf::mul(row, row));
      auto scale = tf::rsqrt(tf::add(tf::mul(squares, 1.0f / x.extent(1)), eps));
      auto weight = tf::cast<float>(tf::broadcast<0>(w.tile<BN>(n * BN), regs));
      auto out = tf::mul(tf::mul(row, tf::broadcast<1>(scale, row)), weight);
      tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, BN>(m * BM, n * BN));
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 256), tf::resident_ctas(6))]]
void rmsnorm_loop(Matrix x, Vector w, Matrix y, float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, x.extent(0), 1)) {
    [[tf::mesh(row_threads)]] {
      auto regs = tf::empty<LoopTile>();
      // Each thread sums the squares of its columns; one reduction across
      // the CTA after the loop.
      auto squares = tf::zeros<LoopSums>();
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BW)) {
        tf::copy(x.tile<1, BW>(m, k), regs);
        auto part = tf::cast<float>(regs);
        squares = tf::add(squares, tf::mul(part, part));
      }
      auto mean = tf::mul(tf::reduce_sum<1>(squares), 1.0f / x.extent(1));
      auto scale = tf::rsqrt(tf::add(mean, eps));
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BW)) {
        tf::copy(x.tile<1, BW>(m, k), regs);
        auto part = tf::cast<float>(regs);
        auto weight = tf::cast<float>(tf::broadcast<0>(w.tile<BW>(k), regs));
        auto out = tf::mul(tf::mul(part, tf::broadcast<1>(scale, part)), weight);
        tf::copy(tf::cast<tf::bf16>(out), y.tile<1, BW>(m, k));
      }
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128), tf::resident_ctas(6))]]
void residual_rmsnorm_rows(Matrix x, Matrix residual, Vector w, Matrix y,
                           float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), BM), 1)) {
    [[tf::mesh(threads)]] {
      auto xs = tf::empty<RowTile>();
      auto rs = tf::empty<RowTile>();
      tf::copy(x.tile<BM, BN>(m * BM, n * BN), xs);
      tf::copy(residual.tile<BM, BN>(m * BM, n * BN), rs);
      // The new residual is the bf16 sum; the norm reads it as stored.
      auto h = tf::cast<tf::bf16>(tf::add(tf::cast<float>(xs), tf::cast<float>(rs)));
      tf::copy(h, residual.tile<BM, BN>(m * BM, n * BN));
      auto row = tf::cast<float>(h);
      auto squares = tf::reduce_sum<1>(tf::mul(row, row));
      auto scale = tf::rsqrt(tf::add(tf::mul(squares, 1.0f / x.extent(1)), eps));
      auto weight = tf::cast<float>(tf::broadcast<0>(w.tile<BN>(n * BN), xs));
      auto out = tf::mul(tf::mul(row, tf::broadcast<1>(scale, row)), weight);
      tf::copy(tf::cast<tf::bf16>(out), y.tile<BM, BN>(m * BM, n * BN));
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 256), tf::resident_ctas(4))]]
void residual_rmsnorm_loop(Matrix x, Matrix residual, Vector w, Matrix y,
                           float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, x.extent(0), 1)) {
    [[tf::mesh(row_threads)]] {
      auto xs = tf::empty<LoopTile>();
      auto rs = tf::empty<LoopTile>();
      auto squares = tf::zeros<LoopSums>();
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BW)) {
        tf::copy(x.tile<1, BW>(m, k), xs);
        tf::copy(residual.tile<1, BW>(m, k), rs);
        auto h = tf::cast<tf::bf16>(tf::add(tf::cast<float>(xs), tf::cast<float>(rs)));
        tf::copy(h, residual.tile<1, BW>(m, k));
        auto part = tf::cast<float>(h);
        squares = tf::add(squares, tf::mul(part, part));
      }
      auto mean = tf::mul(tf::reduce_sum<1>(squares), 1.0f / x.extent(1));
      auto scale = tf::rsqrt(tf::add(mean, eps));
      for (std::int64_t k : tf::tile_offsets(x.extent(1), BW)) {
        tf::copy(residual.tile<1, BW>(m, k), rs);
        auto part = tf::cast<float>(rs);
        auto weight = tf::cast<float>(tf::broadcast<0>(w.tile<BW>(k), rs));
        auto out = tf::mul(tf::mul(part, tf::broadcast<1>(scale, part)), weight);
        tf::copy(tf::cast<tf::bf16>(out), y.tile<1, BW>(m, k));
      }
    }
  }
}

} // namespace rows

namespace {

constexpr float eps = 1e-6f;

/// RMSNorm of one row `x` (cols values) with weight `w`, in double.
void reference(const double *x, const std::vector<tf::bf16> &w, std::int64_t cols,
               std::vector<double> &out) {
  double squares = 0;
  for (std::int64_t c = 0; c < cols; ++c)
    squares += x[c] * x[c];
  const double scale = 1 / std::sqrt(squares / double(cols) + eps);
  for (std::int64_t c = 0; c < cols; ++c)
    out[static_cast<std::size_t>(c)] = x[c] * scale * rows_example::at(w, c);
}

/// The references of the kernels' outputs for inputs x and r0 (the
/// residual before the fused kernel) of `cols` columns and weight w, row by
/// row: the norm of x, the new residual (x + r0 rounded to bf16) and the
/// norm of that.
class References {
public:
  References(const std::vector<tf::bf16> &x, const std::vector<tf::bf16> &r0,
             const std::vector<tf::bf16> &w, std::int64_t cols)
      : x(x), r0(r0), w(w), cols(cols), row(static_cast<std::size_t>(cols)) {}

  rows_example::RowReference norm() {
    return [this](std::int64_t r, std::vector<double> &out) {
      for (std::int64_t c = 0; c < cols; ++c)
        row[static_cast<std::size_t>(c)] = rows_example::at(x, r * cols + c);
      reference(row.data(), w, cols, out);
    };
  }
  rows_example::RowReference residual() {
    return [this](std::int64_t r, std::vector<double> &out) {
      sum_row(r);
      out = row;
    };
  }
  rows_example::RowReference fused() {
    return [this](std::int64_t r, std::vector<double> &out) {
      sum_row(r);
      reference(row.data(), w, cols, out);
    };
  }

private:
  void sum_row(std::int64_t r) {
    for (std::int64_t c = 0; c < cols; ++c)
      row[static_cast<std::size_t>(c)] = tf::widen(tf::convert<tf::bf16>(
          float(rows_example::at(x, r * cols + c) + rows_example::at(r0, r * cols + c))));
  }

  const std::vector<tf::bf16> &x, &r0, &w;
  std::int64_t cols;
  std::vector<double> row;
};

} // namespace

int main(int argc, char **argv) {
  const rows_example::Shape s = rows_example::parse_shape(argc, argv);
  const std::vector<tf::bf16> x = rows_example::random_bf16(s.Rows * s.Cols, 1);
  const std::vector<tf::bf16> r0 = rows_example::random_bf16(s.Rows * s.Cols, 2);
  const std::vector<tf::bf16> w = rows_example::random_bf16(s.Cols, 3, 0.5f, 1.5f);
  rows::Matrix xs(const_cast<tf::bf16 *>(x.data()), {s.Rows, s.Cols});
  rows::Vector ws(const_cast<tf::bf16 *>(w.data()), {s.Cols});
  References refs(x, r0, w, s.Cols);
  const rows_example::RowReference norm_ref = refs.norm(),
                                   residual_ref = refs.residual(),
                                   fused_ref = refs.fused();

  int status = 0;
  for (bool whole : {true, false}) {
    if (whole && s.Cols > rows::BN)
      continue; // one row tile spans rows up to BN
    std::vector<tf::bf16> y = rows_example::poisoned(s.Rows * s.Cols);
    const tf::Grid grid = whole ? rows::whole_row_grid(s.Rows) : rows::loop_grid(s.Rows);
    tf::launch(whole ? rows::rmsnorm_rows : rows::rmsnorm_loop, grid, xs, ws,
               rows::Matrix(y.data(), {s.Rows, s.Cols}), eps);
    status |= rows_example::report(whole ? "rmsnorm_rows" : "rmsnorm_loop", s, y, norm_ref);

    std::vector<tf::bf16> residual = r0;
    std::vector<tf::bf16> fused = rows_example::poisoned(s.Rows * s.Cols);
    tf::launch(whole ? rows::residual_rmsnorm_rows : rows::residual_rmsnorm_loop, grid, xs,
               rows::Matrix(residual.data(), {s.Rows, s.Cols}), ws,
               rows::Matrix(fused.data(), {s.Rows, s.Cols}), eps);
    status |= rows_example::report(whole ? "residual_rmsnorm_rows.residual"
                                         : "residual_rmsnorm_loop.residual",
                                   s, residual, residual_ref);
    status |= rows_example::report(whole ? "residual_rmsnorm_rows" : "residual_rmsnorm_loop",
                                   s, fused, fused_ref);
  }
  return status;
}
