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
    References refs(x, r0, w, s.Cols);
    const double bytes = 2.0 * 2 * s.Rows * s.Cols;
    rows_test::Device dx(x), dw(w);
    for (bool whole : {true, false}) {
      const tf::Grid grid = whole ? rows::whole_row_grid(s.Rows) : rows::loop_grid(s.Rows);
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
                dy, refs.norm(), bytes);
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
      run.check_output((std::string(name) + ".residual").c_str(), s, dr, refs.residual());
      run.check_output(name, s, dz, refs.fused());
      if (run.timing())
        run.time(name, s, fused, 2 * bytes);
    }
  }
  return run.exit_status();
}
