// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
#include <tf/tf.hpp>

using Tile = tf::Tensor<float, "(64,32)", tf::rmem>;
using Matrix = tf::Tensor<float, "(?,?)">;

[[tf::kernel(tf::topology("cta", 4))]]
void escapes(Matrix x) {
  auto acc = tf::zeros<Tile>();
  auto *p = &acc; // expected-error {{the address of 'acc' escapes the kernel's tensors: pass the tensor itself to tf ops}}
  float *q = x.data(); // expected-error {{the address of 'x' escapes the kernel's tensors: 'data()' exposes its storage}}
  (void)p;
  (void)q;
}
