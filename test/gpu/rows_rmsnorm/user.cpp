//===- test/gpu/rows_rmsnorm/user.cpp - RMSNorm on the H200 ---------------===//
//
// examples/rows/rmsnorm.cpp (its kernels and double reference; its CPU main
// renamed) on device tensors through the CUDA backend's rmsnorm.tf.cu:
// rmsnorm_rows / residual_rmsnorm_rows where a row fits one warp's tile, the
// _cta forms where it fits a CTA's, the _loop forms always. The fused residual kernels write h = x + r back into the
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
    auto form = [&](const std::string &name, rows::NormKernel norm,
                    rows::ResidualNormKernel fused_norm, tf::Grid grid) {
      rows_test::Device dy(rows_example::poisoned(s.Rows * s.Cols));
      run.check(("rmsnorm_" + name).c_str(), s,
                [&] {
                  tf::launch(norm, grid, rows::Matrix(dx.data(), {s.Rows, s.Cols}),
                             rows::Vector(dw.data(), {s.Cols}),
                             rows::Matrix(dy.data(), {s.Rows, s.Cols}), eps);
                },
                dy, refs.norm(), bytes);
      // Reads x and r, writes h and y: twice the bytes.
      rows_test::Device dr(r0), dz(rows_example::poisoned(s.Rows * s.Cols));
      auto fused = [&] {
        tf::launch(fused_norm, grid, rows::Matrix(dx.data(), {s.Rows, s.Cols}),
                   rows::Matrix(dr.data(), {s.Rows, s.Cols}),
                   rows::Vector(dw.data(), {s.Cols}),
                   rows::Matrix(dz.data(), {s.Rows, s.Cols}), eps);
      };
      const std::string fused_name = "residual_rmsnorm_" + name;
      fused();
      rows_test::cuda(cudaDeviceSynchronize(), fused_name.c_str());
      run.check_output((fused_name + ".residual").c_str(), s, dr, refs.residual());
      run.check_output(fused_name.c_str(), s, dz, refs.fused());
      if (run.timing())
        run.time(fused_name.c_str(), s, fused, 2 * bytes);
    };
    if (s.Cols <= rows::BN)
      form("rows", rows::rmsnorm_rows, rows::residual_rmsnorm_rows,
           rows::row_per_warp_grid(s.Rows));
    if (rows::NormKernel norm = rows::cta_kernel(rows::rmsnorm_cta_kernels, s.Cols))
      form("cta", norm, rows::cta_kernel(rows::residual_rmsnorm_cta_kernels, s.Cols),
           rows::row_per_cta_grid(s.Rows));
    form("loop", rows::rmsnorm_loop, rows::residual_rmsnorm_loop,
         rows::row_per_cta_grid(s.Rows));
  }
  return run.exit_status();
}
