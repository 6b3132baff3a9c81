//===- test/gpu/rows_layernorm/user.cpp - LayerNorm on the H200 -----------===//
//
// examples/rows/layernorm.cpp (its kernels and double reference; its CPU main
// renamed) on device tensors through the CUDA backend's layernorm.tf.cu:
// layernorm_rows where a row fits one warp's tile, layernorm_cta where it
// fits a CTA's, layernorm_loop always, against the example's double
// reference and bound. rows_harness.hpp checks and times them.
//
//===----------------------------------------------------------------------===//
#define main layernorm_example_main
#include "../../../examples/rows/layernorm.cpp"
#undef main

#include "rows_harness.hpp"

int main(int argc, char **argv) {
  rows_test::Run run(argc, argv, "rows_layernorm");
  for (rows_example::Shape s : run.shapes()) {
    const std::vector<tf::bf16> x = rows_example::random_bf16(s.Rows * s.Cols, 1);
    const std::vector<tf::bf16> w = rows_example::random_bf16(s.Cols, 2, 0.5f, 1.5f);
    const std::vector<tf::bf16> b = rows_example::random_bf16(s.Cols, 3, -1.0f, 1.0f);
    auto ref = [&](std::int64_t r, std::vector<double> &out) {
      reference(x, w, b, s.Cols, r, out);
    };
    const double bytes = 2.0 * 2 * s.Rows * s.Cols;
    rows_test::Device dw(w), db(b);
    auto form = [&](const char *name, rows::LayerNormKernel kernel, tf::Grid grid) {
      rows_test::Device dx(x), dy(rows_example::poisoned(s.Rows * s.Cols));
      run.check(name, s,
                [&] {
                  tf::launch(kernel, grid, rows::Matrix(dx.data(), {s.Rows, s.Cols}),
                             rows::Vector(dw.data(), {s.Cols}),
                             rows::Vector(db.data(), {s.Cols}),
                             rows::Matrix(dy.data(), {s.Rows, s.Cols}), eps);
                },
                dy, ref, bytes, /*floor=*/1e-4);
    };
    if (s.Cols <= rows::BN)
      form("layernorm_rows", rows::layernorm_rows, rows::row_per_warp_grid(s.Rows));
    if (rows::LayerNormKernel kernel = rows::cta_kernel(rows::layernorm_cta_kernels, s.Cols))
      form("layernorm_cta", kernel, rows::row_per_cta_grid(s.Rows));
    form("layernorm_loop", rows::layernorm_loop, rows::row_per_cta_grid(s.Rows));
  }
  return run.exit_status();
}
