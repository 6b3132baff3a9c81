//===- bench/rows/softmax.cpp - softmax for the rows benchmark ------------===//
//
// examples/rows/softmax.cpp with its main renamed, exported for bench.py:
// softmax_rows (a row fits a warp's tile), softmax_cta (it fits a CTA's:
// the kernel of the smallest tile that holds it) and softmax_online (any
// row).
//
//===----------------------------------------------------------------------===//
#define main softmax_example_main
#include "../../examples/rows/softmax.cpp"
#undef main

#include "export.hpp"

extern "C" void tf_softmax_rows(void *x, void *y, std::int64_t rows,
                                std::int64_t cols) {
  using namespace bench_rows;
  tf::launch(rows::softmax_rows, rows::row_per_warp_grid(rows), matrix(x, rows, cols),
             matrix(y, rows, cols));
}

extern "C" void tf_softmax_cta(void *x, void *y, std::int64_t rows,
                               std::int64_t cols) {
  using namespace bench_rows;
  tf::launch(rows::cta_kernel(rows::softmax_cta_kernels, cols),
             rows::row_per_cta_grid(rows), matrix(x, rows, cols), matrix(y, rows, cols));
}

extern "C" void tf_softmax_online(void *x, void *y, std::int64_t rows,
                                  std::int64_t cols) {
  using namespace bench_rows;
  tf::launch(rows::softmax_online, rows::row_per_cta_grid(rows), matrix(x, rows, cols),
             matrix(y, rows, cols));
}
