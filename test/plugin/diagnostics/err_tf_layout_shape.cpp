// A [[tf::layout]] lays out the elements of the declared type; its shape must
// be the type's.
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
#include <tf/tf.hpp>

using Slot = tf::Tensor<tf::bf16, "(128,64)", tf::smem>;

[[tf::kernel(tf::topology("cta", 1))]]
void kernel() {
  // expected-error@+1 {{'tf::layout' on 'wrong' has shape (64,128), but its type has shape (128,64); the attribute lays out the type's elements, it cannot reshape them [tf:layout-shape]}}
  [[tf::layout("(64,128):(128,1)")]] auto wrong = tf::empty<Slot>();
  [[tf::layout("(128,64):(1,128)")]] auto right = tf::empty<Slot>();
}
