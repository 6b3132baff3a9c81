//===- test/gpu/rows_softmax/user.cpp - Softmax on the H200 ---------------===//
//
// examples/rows/softmax.cpp (its kernels and double reference; its CPU main
// renamed) on device tensors through the CUDA backend's softmax.tf.cu:
// softmax_rows where a row fits one tile, softmax_online always (it reads
// the row twice). rows_harness.hpp checks and times them.
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
    for (bool whole : {true, false}) {
      const tf::Grid grid = whole ? rows::whole_row_grid(s.Rows) : rows::loop_grid(s.Rows);
      if (whole && s.Cols > rows::BN)
        continue;
      rows_test::Device dx(x), dy(rows_example::poisoned(s.Rows * s.Cols));
      run.check(whole ? "softmax_rows" : "softmax_online", s,
                [&] {
                  tf::launch(whole ? rows::softmax_rows : rows::softmax_online, grid,
                             rows::Matrix(dx.data(), {s.Rows, s.Cols}),
                             rows::Matrix(dy.data(), {s.Rows, s.Cols}));
                },
                dy, ref, bytes);
    }
  }
  return run.exit_status();
}
