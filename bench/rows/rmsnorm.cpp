//===- bench/rows/rmsnorm.cpp - RMSNorm for the rows benchmark ------------===//
//
// examples/rows/rmsnorm.cpp with its main renamed, exported for bench.py:
// rmsnorm_rows / _cta / _loop (y = x / rms(x) * w) and residual_rmsnorm_rows
// / _cta / _loop (residual = x + residual in place, y = the residual's
// RMSNorm); a _cta form launches the kernel of the smallest tile that holds
// the row.
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
  norm(rows::rmsnorm_rows, rows::row_per_warp_grid(rows), x, w, y, rows, cols, eps);
}

extern "C" void tf_rmsnorm_cta(void *x, void *w, void *y, std::int64_t rows,
                               std::int64_t cols, float eps) {
  norm(rows::cta_kernel(rows::rmsnorm_cta_kernels, cols), rows::row_per_cta_grid(rows),
       x, w, y, rows, cols, eps);
}

extern "C" void tf_rmsnorm_loop(void *x, void *w, void *y, std::int64_t rows,
                                std::int64_t cols, float eps) {
  norm(rows::rmsnorm_loop, rows::row_per_cta_grid(rows), x, w, y, rows, cols, eps);
}

extern "C" void tf_residual_rmsnorm_rows(void *x, void *residual, void *w,
                                         void *y, std::int64_t rows,
                                         std::int64_t cols, float eps) {
  residual_norm(rows::residual_rmsnorm_rows, rows::row_per_warp_grid(rows),
                x, residual, w, y, rows, cols, eps);
}

extern "C" void tf_residual_rmsnorm_cta(void *x, void *residual, void *w,
                                        void *y, std::int64_t rows,
                                        std::int64_t cols, float eps) {
  residual_norm(rows::cta_kernel(rows::residual_rmsnorm_cta_kernels, cols),
                rows::row_per_cta_grid(rows), x, residual, w, y, rows, cols, eps);
}

extern "C" void tf_residual_rmsnorm_loop(void *x, void *residual, void *w,
                                         void *y, std::int64_t rows,
                                         std::int64_t cols, float eps) {
  residual_norm(rows::residual_rmsnorm_loop, rows::row_per_cta_grid(rows),
                x, residual, w, y, rows, cols, eps);
}
