// A layout whose size overflows 64 bits is refused, not wrapped around.
// RUN: %tf-cc1 -verify %s
// RUN: not %tf-cc1 %s
#include <tf/tf.hpp>

using Slot = tf::Tensor<float, "(128,64)", tf::smem>;

[[tf::kernel(tf::topology("cta", 132))]]
void overflow() {
  // expected-error@+1 {{'tf::layout' on 'a' has shape (9223372036854775807,9223372036854775807), but its type has shape (128,64)}}
  [[tf::layout("(9223372036854775807,9223372036854775807)")]] auto a = tf::empty<Slot>();
}
