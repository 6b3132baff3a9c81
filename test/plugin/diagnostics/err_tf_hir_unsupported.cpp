// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
#include <tf/tf.hpp>

using Tile = tf::Tensor<float, "(64,32)", tf::rmem>;
using Matrix = tf::Tensor<float, "(?,?)">;

[[tf::kernel(tf::topology("cta", 4))]]
void branches(Matrix x, int n) {
  auto acc = tf::zeros<Tile>();
  if (n > 0) // expected-error {{an 'if' statement is not supported in a tf kernel: the HIR has no branches}}
    acc = tf::zeros<Tile>();
  for (int i = 0; i < n; ++i) {} // expected-error {{a 'for' loop is not supported in a tf kernel: loop over tiles with}}
  while (n) {} // expected-error {{a 'while' loop is not supported in a tf kernel}}
  switch (n) { default: break; } // expected-error {{a 'switch' statement is not supported in a tf kernel}}
  auto f = [] { return 1; }; // expected-error {{a lambda expression is not supported in a tf kernel}}
  for (int v : {1, 2}) {} // expected-error {{a range-based 'for' over this range is not supported in a tf kernel}}
  x(0, 0) = 1.0f; // expected-error {{this use of a tensor is not supported in a tf kernel: tensors are read and written by tf ops only}}
}

// Constant branches are fine: only the branch taken is read.
template <int N> [[tf::kernel(tf::topology("cta", 4))]] void picks(Matrix x) {
  if constexpr (N > 1) {
    auto acc = tf::zeros<Tile>();
    tf::insert_slice(x, acc, 0, 0);
  } else {
    goto end; // expected-error {{'goto' is not supported in a tf kernel}}
  end:;
  }
}
template void picks<2>(Matrix);
template void picks<1>(Matrix); // expected-note {{in instantiation of 'picks<1>' requested here}}
