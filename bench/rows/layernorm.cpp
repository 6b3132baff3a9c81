//===- bench/rows/layernorm.cpp - LayerNorm for the rows benchmark --------===//
//
// examples/rows/layernorm.cpp with its main renamed, exported for bench.py:
// layernorm_rows (a row fits a warp's tile), layernorm_cta (it fits a
// CTA's, up to 32768 columns) and layernorm_loop (any row).
//
//===----------------------------------------------------------------------===//
#define main layernorm_example_main
#include "../../examples/rows/layernorm.cpp"
#undef main

#include "export.hpp"

namespace {

void layernorm(void (*kernel)(rows::Matrix, rows::Vector, rows::Vector,
                              rows::Matrix, float),
               tf::Grid grid, void *x, void *w, void *b, void *y, std::int64_t rows,
               std::int64_t cols, float eps) {
  using namespace bench_rows;
  tf::launch(kernel, grid, matrix(x, rows, cols), vector(w, cols),
             vector(b, cols), matrix(y, rows, cols), eps);
}

} // namespace

extern "C" void tf_layernorm_rows(void *x, void *w, void *b, void *y,
                                  std::int64_t rows, std::int64_t cols,
                                  float eps) {
  layernorm(rows::layernorm_rows, rows::row_per_warp_grid(rows), x, w, b, y, rows, cols, eps);
}

extern "C" void tf_layernorm_cta(void *x, void *w, void *b, void *y,
                                 std::int64_t rows, std::int64_t cols,
                                 float eps) {
  layernorm(rows::cta_kernel(rows::layernorm_cta_kernels, cols),
            rows::row_per_cta_grid(rows), x, w, b, y, rows, cols, eps);
}

extern "C" void tf_layernorm_loop(void *x, void *w, void *b, void *y,
                                  std::int64_t rows, std::int64_t cols,
                                  float eps) {
  layernorm(rows::layernorm_loop, rows::row_per_cta_grid(rows), x, w, b, y, rows, cols, eps);
}
