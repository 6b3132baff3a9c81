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
// rmsnorm_cta reads the weight before its reduction across warps, so that
// the load is in flight across the meet (0.98-0.99 of the copy bandwidth
// on an H100 where 0.97-0.98 after it); the residual forms read it after
// their store (the whole-row copy of their program spills 60-80 bytes at
// 32 columns a thread with it read early).
// `rmsnorm [ROWS COLS]` runs them on the CPU.
//
//===----------------------------------------------------------------------===//
#include "check.hpp"
#include "rows.hpp"

#include <cmath>
#include <string>

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

template <int Cols, int Threads>
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", Threads), tf::resident_ctas(1024 / Threads))]]
void rmsnorm_cta(Matrix x, Vector w, Matrix y, float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, x.extent(0), 1)) {
    [[tf::mesh(cta_threads<Threads>)]] {
      auto regs = tf::empty<CtaRowTile<Cols, Threads>>();
      tf::copy(x.tile<1, Cols>(m, 0), regs);
      auto weight = tf::cast<float>(tf::broadcast<0>(w.tile<Cols>(0), regs));
      auto row = tf::cast<float>(regs);
      auto squares = tf::reduce_sum<1>(tf::mul(row, row));
      auto scale = tf::rsqrt(tf::add(tf::mul(squares, 1.0f / x.extent(1)), eps));
      auto out = tf::mul(tf::mul(row, tf::broadcast<1>(scale, row)), weight);
      tf::copy(tf::cast<tf::bf16>(out), y.tile<1, Cols>(m, 0));
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

template <int Cols, int Threads>
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", Threads), tf::resident_ctas(1024 / Threads))]]
void residual_rmsnorm_cta(Matrix x, Matrix residual, Vector w, Matrix y,
                          float eps) {
  for (auto [m, n] : tf::grid_tiles(cta, x.extent(0), 1)) {
    [[tf::mesh(cta_threads<Threads>)]] {
      auto xs = tf::empty<CtaRowTile<Cols, Threads>>();
      auto rs = tf::empty<CtaRowTile<Cols, Threads>>();
      tf::copy(x.tile<1, Cols>(m, 0), xs);
      tf::copy(residual.tile<1, Cols>(m, 0), rs);
      auto h = tf::cast<tf::bf16>(tf::add(tf::cast<float>(xs), tf::cast<float>(rs)));
      tf::copy(h, residual.tile<1, Cols>(m, 0));
      // h is read again after the reduction, not its f32 copy: 32 columns a
      // thread at 32768 keep within 64 registers so.
      auto squares = tf::reduce_sum<1>(tf::mul(tf::cast<float>(h), tf::cast<float>(h)));
      auto scale = tf::rsqrt(tf::add(tf::mul(squares, 1.0f / x.extent(1)), eps));
      auto weight = tf::cast<float>(tf::broadcast<0>(w.tile<Cols>(0), xs));
      auto row = tf::cast<float>(h);
      auto out = tf::mul(tf::mul(row, tf::broadcast<1>(scale, row)), weight);
      tf::copy(tf::cast<tf::bf16>(out), y.tile<1, Cols>(m, 0));
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

/// The `*_cta` kernels by tile (rows::cta_kernel picks).
using NormKernel = void (*)(Matrix, Vector, Matrix, float);
using ResidualNormKernel = void (*)(Matrix, Matrix, Vector, Matrix, float);
inline constexpr std::array<CtaForm<NormKernel>, 5> rmsnorm_cta_kernels = {{
    {2048, rmsnorm_cta<2048, 128>},
    {4096, rmsnorm_cta<4096, 256>},
    {8192, rmsnorm_cta<8192, 256>},
    {16384, rmsnorm_cta<16384, 512>},
    {32768, rmsnorm_cta<32768, 1024>},
}};
inline constexpr std::array<CtaForm<ResidualNormKernel>, 5> residual_rmsnorm_cta_kernels = {{
    {2048, residual_rmsnorm_cta<2048, 128>},
    {4096, residual_rmsnorm_cta<4096, 256>},
    {8192, residual_rmsnorm_cta<8192, 256>},
    {16384, residual_rmsnorm_cta<16384, 512>},
    {32768, residual_rmsnorm_cta<32768, 1024>},
}};

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
  // Each form where it takes the shape: one row per warp (rows up to BN),
  // a whole row per CTA (up to the largest tile), the loop (any row).
  auto run = [&](const std::string &form, rows::NormKernel norm,
                 rows::ResidualNormKernel fused_norm, tf::Grid grid) {
    std::vector<tf::bf16> y = rows_example::poisoned(s.Rows * s.Cols);
    tf::launch(norm, grid, xs, ws, rows::Matrix(y.data(), {s.Rows, s.Cols}), eps);
    status |= rows_example::report(("rmsnorm_" + form).c_str(), s, y, norm_ref);

    std::vector<tf::bf16> residual = r0;
    std::vector<tf::bf16> fused = rows_example::poisoned(s.Rows * s.Cols);
    tf::launch(fused_norm, grid, xs, rows::Matrix(residual.data(), {s.Rows, s.Cols}), ws,
               rows::Matrix(fused.data(), {s.Rows, s.Cols}), eps);
    status |= rows_example::report(("residual_rmsnorm_" + form + ".residual").c_str(), s,
                                   residual, residual_ref);
    status |= rows_example::report(("residual_rmsnorm_" + form).c_str(), s, fused, fused_ref);
  };
  if (s.Cols <= rows::BN)
    run("rows", rows::rmsnorm_rows, rows::residual_rmsnorm_rows, rows::row_per_warp_grid(s.Rows));
  if (rows::NormKernel norm = rows::cta_kernel(rows::rmsnorm_cta_kernels, s.Cols))
    run("cta", norm, rows::cta_kernel(rows::residual_rmsnorm_cta_kernels, s.Cols),
        rows::row_per_cta_grid(s.Rows));
  run("loop", rows::rmsnorm_loop, rows::residual_rmsnorm_loop, rows::row_per_cta_grid(s.Rows));
  return status;
}
