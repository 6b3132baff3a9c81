//===- test/gpu/rows_rmsnorm/user.cpp - RMSNorm on the H200 ---------------===//
//
// examples/rows/rmsnorm.cpp (its kernels and double reference; its CPU main
// renamed) on device tensors through the CUDA backend's rmsnorm.tf.cu:
// rmsnorm_rows / residual_rmsnorm_rows where a row fits one tile, the _loop
// forms always. The fused residual kernels write h = x + r back into the
// residual (checked too) and normalise it. rows_harness.hpp checks and times
// them; a timed residual kernel keeps adding x to its residual, which changes
// nothing of its traffic.
//
//===----------------------------------------------------------------------===//
#define main rmsnorm_example_main
#include "../../../examples/rows/rmsnorm.cpp"
#undef main

#include "rows_harness.hpp"

int main(int argc, char **argv) {
  rows_test::Run run(argc, argv, "rows_rmsnorm");
  for (rows_example::Shape s : run.shapes()) {
    const std::vector<tf::bf16> x = rows_example::random_bf16(s.Rows * s.Cols, 1);
    const std::vector<tf::bf16> r0 = rows_example::random_bf16(s.Rows * s.Cols, 2);
    const std::vector<tf::bf16> w = rows_example::random_bf16(s.Cols, 3, 0.5f, 1.5f);
    std::vector<double> row(static_cast<std::size_t>(s.Cols));
    auto norm_ref = [&](std::int64_t r, std::vector<double> &out) {
      for (std::int64_t c = 0; c < s.Cols; ++c)
        row[static_cast<std::size_t>(c)] = rows_example::at(x, r * s.Cols + c);
      reference(row.data(), w, s.Cols, out);
    };
    // The new residual is x + r rounded to bf16; the norm is of that.
    auto sum_row = [&](std::int64_t r) {
      for (std::int64_t c = 0; c < s.Cols; ++c)
        row[static_cast<std::size_t>(c)] = tf::widen(tf::convert<tf::bf16>(float(
            rows_example::at(x, r * s.Cols + c) + rows_example::at(r0, r * s.Cols + c))));
    };
    auto residual_ref = [&](std::int64_t r, std::vector<double> &out) {
      sum_row(r);
      out = row;
    };
    auto fused_ref = [&](std::int64_t r, std::vector<double> &out) {
      sum_row(r);
      reference(row.data(), w, s.Cols, out);
    };
    const tf::Grid grid = tf::grid(tf::ceil_div(s.Rows, rows::BM));
    const double bytes = 2.0 * 2 * s.Rows * s.Cols;
    rows_test::Device dx(x), dw(w);
    for (bool whole : {true, false}) {
      if (whole && s.Cols > rows::BN)
        continue;
      rows_test::Device dy(rows_example::poisoned(s.Rows * s.Cols));
      run.check(whole ? "rmsnorm_rows" : "rmsnorm_loop", s,
                [&] {
                  tf::launch(whole ? rows::rmsnorm_rows : rows::rmsnorm_loop, grid,
                             rows::Matrix(dx.data(), {s.Rows, s.Cols}),
                             rows::Vector(dw.data(), {s.Cols}),
                             rows::Matrix(dy.data(), {s.Rows, s.Cols}), eps);
                },
                dy, norm_ref, bytes);
      // Reads x and r, writes h and y: twice the bytes.
      rows_test::Device dr(r0), dz(rows_example::poisoned(s.Rows * s.Cols));
      auto fused = [&] {
        tf::launch(whole ? rows::residual_rmsnorm_rows : rows::residual_rmsnorm_loop,
                   grid, rows::Matrix(dx.data(), {s.Rows, s.Cols}),
                   rows::Matrix(dr.data(), {s.Rows, s.Cols}),
                   rows::Vector(dw.data(), {s.Cols}),
                   rows::Matrix(dz.data(), {s.Rows, s.Cols}), eps);
      };
      const char *name = whole ? "residual_rmsnorm_rows" : "residual_rmsnorm_loop";
      fused();
      rows_test::cuda(cudaDeviceSynchronize(), name);
      run.check_output((std::string(name) + ".residual").c_str(), s, dr, residual_ref);
      run.check_output(name, s, dz, fused_ref);
      if (run.timing())
        run.time(name, s, fused, 2 * bytes);
    }
  }
  return run.exit_status();
}
