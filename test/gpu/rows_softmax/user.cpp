//===- test/gpu/rows_softmax/user.cpp - Softmax on the H200 ---------------===//
//
// examples/rows/softmax.cpp (its kernels and double reference; its CPU main
// renamed) on device tensors through the CUDA backend's softmax.tf.cu:
// softmax_rows where a row fits one warp's tile, softmax_cta where it fits
// a CTA's, softmax_online always (it reads the row twice). rows_harness.hpp checks and times them.
//
//===----------------------------------------------------------------------===//
#define main softmax_example_main
#include "../../../examples/rows/softmax.cpp"
#undef main

#include "rows_harness.hpp"

int main(int argc, char **argv) {
  rows_test::Run run(argc, argv, "rows_softmax");
  for (rows_example::Shape s : run.shapes()) {
    const std::vector<tf::bf16> x = rows_example::random_bf16(s.Rows * s.Cols, 1);
    auto ref = [&](std::int64_t r, std::vector<double> &out) {
      reference(x, s.Cols, r, out);
    };
    const double bytes = 2.0 * 2 * s.Rows * s.Cols;
    auto form = [&](const char *name, rows::SoftmaxKernel kernel, tf::Grid grid) {
      rows_test::Device dx(x), dy(rows_example::poisoned(s.Rows * s.Cols));
      run.check(name, s,
                [&] {
                  tf::launch(kernel, grid, rows::Matrix(dx.data(), {s.Rows, s.Cols}),
                             rows::Matrix(dy.data(), {s.Rows, s.Cols}));
                },
                dy, ref, bytes);
    };
    if (s.Cols <= rows::BN)
      form("softmax_rows", rows::softmax_rows, rows::row_per_warp_grid(s.Rows));
    if (rows::SoftmaxKernel kernel = rows::cta_kernel(rows::softmax_cta_kernels, s.Cols))
      form("softmax_cta", kernel, rows::row_per_cta_grid(s.Rows));
    form("softmax_online", rows::softmax_online, rows::row_per_cta_grid(s.Rows));
  }
  return run.exit_status();
}
