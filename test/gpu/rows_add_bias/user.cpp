//===- test/gpu/rows_add_bias/user.cpp - x + bias on the H200 -------------===//
//
// examples/rows/add_bias.cpp (its kernel; its CPU main renamed) on device
// tensors through the CUDA backend's add_bias.tf.cu: y = x + bias, the bias
// broadcast down the rows, one CTA per 4 x 1024 tile. rows_harness.hpp
// checks and times it.
//
//===----------------------------------------------------------------------===//
#define main add_bias_example_main
#include "../../../examples/rows/add_bias.cpp"
#undef main

#include "rows_harness.hpp"

int main(int argc, char **argv) {
  rows_test::Run run(argc, argv, "rows_add_bias");
  for (rows_example::Shape s : run.shapes()) {
    const std::vector<tf::bf16> x = rows_example::random_bf16(s.Rows * s.Cols, 1);
    const std::vector<tf::bf16> bias = rows_example::random_bf16(s.Cols, 2);
    rows_test::Device dx(x), db(bias), dy(rows_example::poisoned(s.Rows * s.Cols));
    run.check("add_bias", s,
              [&] {
                tf::launch(rows::add_bias,
                           tf::grid(tf::ceil_div(s.Rows, rows::BM) *
                                    tf::ceil_div(s.Cols, rows::BN)),
                           rows::Matrix(dx.data(), {s.Rows, s.Cols}),
                           rows::Vector(db.data(), {s.Cols}),
                           rows::Matrix(dy.data(), {s.Rows, s.Cols}));
              },
              dy,
              [&](std::int64_t r, std::vector<double> &out) {
                for (std::int64_t c = 0; c < s.Cols; ++c)
                  out[static_cast<std::size_t>(c)] =
                      rows_example::at(x, r * s.Cols + c) + rows_example::at(bias, c);
              },
              2.0 * 2 * s.Rows * s.Cols);
  }
  return run.exit_status();
}
