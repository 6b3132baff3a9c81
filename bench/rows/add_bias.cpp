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
  tf::launch(rows::add_bias, grid(rows), matrix(x, rows, cols),
             vector(bias, cols), matrix(y, rows, cols));
}
