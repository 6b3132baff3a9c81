//===- bench/rows/add_bias.cpp - add_bias for the rows benchmark ----------===//
//
// examples/rows/add_bias.cpp with its main renamed, exported for bench.py.
//
//===----------------------------------------------------------------------===//
#define main add_bias_example_main
#include "../../examples/rows/add_bias.cpp"
#undef main

#include "export.hpp"

extern "C" void tf_add_bias(void *x, void *bias, void *y, std::int64_t rows,
                            std::int64_t cols) {
  using namespace bench_rows;
  // One CTA per BM x BN tile: add_bias tiles the columns too.
  tf::launch(rows::add_bias,
             tf::grid(tf::ceil_div(rows, rows::BM) * tf::ceil_div(cols, rows::BN)),
             matrix(x, rows, cols),
             vector(bias, cols), matrix(y, rows, cols));
}
