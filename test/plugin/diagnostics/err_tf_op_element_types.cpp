// An element-wise op of two tensors (tf::add, sub, mul, div, maximum,
// minimum) needs one element type and the same static extents; so do
// tf::where's two values, and its mask has their extents (any element
// type). With the
// plugin loaded the header leaves both to it: one error at the operand that
// disagrees -- the one read from a window, else the second -- with the cast
// that gives it the other's element type as a fix-it; in a kernel and in
// any other function alike (the plugin makes no build less strict). Extents
// that differ are err_tf_op_extents.
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --implicit-check-not=fix-it:
#include <tf/tf.hpp>

namespace t {
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "rows");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(4,32)">, "warp", "lane");
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128))]]
void k(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), 4), 1)) {
    [[tf::mesh(threads)]] {
      auto row = tf::cast<float>(x.tile<4, 8>(m * 4, n * 8));
      // The window's bf16 added to f32: at the window's operand.
      // expected-error@+1 {{tf::add: the second operand holds tf::bf16, but the first operand holds float; convert one with tf::cast<T>(...) [tf:op-element-types]}}
      auto sum = tf::add(row, y.tile<4, 8>(m * 4, n * 8));
      // CHECK: fix-it:"{{.*}}err_tf_op_element_types.cpp":{[[#@LINE-1]]:31-[[#@LINE-1]]:57}:"tf::cast<float>(y.tile<4, 8>(m * 4, n * 8))"
      // The window first: it is still the one that disagrees.
      // expected-error@+1 {{tf::maximum: the first operand holds tf::bf16, but the second operand holds float}}
      auto top = tf::maximum(x.tile<4, 8>(m * 4, n * 8), row);
      // CHECK: fix-it:"{{.*}}err_tf_op_element_types.cpp":{[[#@LINE-1]]:30-[[#@LINE-1]]:56}:"tf::cast<float>(x.tile<4, 8>(m * 4, n * 8))"
      // Extents transposed.
      // expected-error@+1 {{tf::mul: mode 0 of the second operand (8,4) has extent 8, but mode 0 of the first operand (4,8) has 4 [tf:op-extents]}}
      auto prod = tf::mul(row, tf::cast<float>(y.tile<8, 4>(m * 8, n * 4)));
      // A scalar meets every element; agreeing operands are not reported.
      auto fine = tf::sub(tf::add(row, 0.5f), row);
      (void)sum;
      (void)top;
      (void)prod;
      (void)fine;
    }
  }
}

// Outside every kernel: the header-only CPU code the plugin also compiles.
using Small = tf::Tensor<float, "(4,8)", tf::rmem>;
using Half = tf::Tensor<tf::f16, "(4,8)", tf::rmem>;
void host() {
  auto a = tf::zeros<Small>();
  auto b = tf::zeros<Half>();
  // expected-error@+1 {{tf::div: the second operand holds tf::f16, but the first operand holds float}}
  auto q = tf::div(a, b);
  // CHECK: fix-it:"{{.*}}err_tf_op_element_types.cpp":{[[#@LINE-1]]:23-[[#@LINE-1]]:24}:"tf::cast<float>(b)"
  (void)q;
  // tf::where: the values' element types, the mask's extents.
  auto mask = tf::zeros<tf::Tensor<std::uint8_t, "(4,8)", tf::rmem>>();
  // expected-error@+1 {{tf::where: the second value holds tf::f16, but the first value holds float}}
  auto w = tf::where(mask, a, b);
  // CHECK: fix-it:"{{.*}}err_tf_op_element_types.cpp":{[[#@LINE-1]]:31-[[#@LINE-1]]:32}:"tf::cast<float>(b)"
  auto wide = tf::zeros<tf::Tensor<std::uint8_t, "(4,16)", tf::rmem>>();
  // expected-error@+1 {{tf::where: mode 1 of the first value (4,8) has extent 8, but mode 1 of the mask (4,16) has 16}}
  auto v = tf::where(wide, a, 0.0f);
  // A scalar value and a mask of another element type are fine.
  auto fine = tf::where(b, a, -1.0f);
  (void)w;
  (void)v;
  (void)fine;
}
} // namespace t
