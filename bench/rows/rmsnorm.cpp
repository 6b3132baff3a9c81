//===- bench/rows/rmsnorm.cpp - RMSNorm for the rows benchmark ------------===//
//
// examples/rows/rmsnorm.cpp with its main renamed, exported for bench.py:
// rmsnorm_rows / rmsnorm_loop (y = x / rms(x) * w) and residual_rmsnorm_rows
// / residual_rmsnorm_loop (residual = x + residual in place, y = the
// residual's RMSNorm).
//
//===----------------------------------------------------------------------===//
#define main rmsnorm_example_main
#include "../../examples/rows/rmsnorm.cpp"
#undef main

#include "export.hpp"

namespace {

void norm(void (*kernel)(rows::Matrix, rows::Vector, rows::Matrix, float),
          tf::Grid grid, void *x, void *w, void *y, std::int64_t rows, std::int64_t cols,
          float eps) {
  using namespace bench_rows;
  tf::launch(kernel, grid, matrix(x, rows, cols), vector(w, cols),
             matrix(y, rows, cols), eps);
}

void residual_norm(void (*kernel)(rows::Matrix, rows::Matrix, rows::Vector,
                                  rows::Matrix, float),
                   tf::Grid grid, void *x, void *residual, void *w, void *y, std::int64_t rows,
                   std::int64_t cols, float eps) {
  using namespace bench_rows;
  tf::launch(kernel, grid, matrix(x, rows, cols),
             matrix(residual, rows, cols), vector(w, cols),
             matrix(y, rows, cols), eps);
}

} // namespace

extern "C" void tf_rmsnorm_rows(void *x, void *w, void *y, std::int64_t rows,
                                std::int64_t cols, float eps) {
  norm(rows::rmsnorm_rows, rows::whole_row_grid(rows), x, w, y, rows, cols, eps);
}

extern "C" void tf_rmsnorm_loop(void *x, void *w, void *y, std::int64_t rows,
                                std::int64_t cols, float eps) {
  norm(rows::rmsnorm_loop, rows::loop_grid(rows), x, w, y, rows, cols, eps);
}

extern "C" void tf_residual_rmsnorm_rows(void *x, void *residual, void *w,
                                         void *y, std::int64_t rows,
                                         std::int64_t cols, float eps) {
  residual_norm(rows::residual_rmsnorm_rows, rows::whole_row_grid(rows),
                x, residual, w, y, rows, cols, eps);
}

extern "C" void tf_residual_rmsnorm_loop(void *x, void *residual, void *w,
                                         void *y, std::int64_t rows,
                                         std::int64_t cols, float eps) {
  residual_norm(rows::residual_rmsnorm_loop, rows::loop_grid(rows),
                x, residual, w, y, rows, cols, eps);
}
