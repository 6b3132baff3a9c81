// Control flow the HIR cannot say is refused at the statement, with exit
// status 1 and never a signal: goto, while, do, switch, early return (at the
// top and in a tile loop), throw, try, break and continue.
// RUN: %tf-cc1 -fcxx-exceptions -fexceptions -verify %s
// RUN: not %tf-cc1 -fcxx-exceptions -fexceptions %s
#include <tf/tf.hpp>

using Tile = tf::Tensor<float, "(64,32)", tf::rmem>;
using Matrix = tf::Tensor<float, "(?,?)">;

[[tf::kernel(tf::topology("cta", 4))]]
void jumps(Matrix x, int n) {
  auto acc = tf::zeros<Tile>();
  goto end; // expected-error {{'goto' is not supported in a tf kernel}}
end:
  while (n) {} // expected-error {{a 'while' loop is not supported in a tf kernel}}
  do {} while (n); // expected-error {{a 'do' loop is not supported in a tf kernel}}
  switch (n) { default: break; } // expected-error {{a 'switch' statement is not supported in a tf kernel}}
  try {} catch (...) {} // expected-error {{a 'try' block is not supported in a tf kernel}}
  tf::insert_slice(x, acc, 0, 0);
}

[[tf::kernel(tf::topology("cta", 4))]]
void early(Matrix x) {
  auto acc = tf::zeros<Tile>();
  return; // expected-error {{an early 'return' is not supported in a tf kernel}}
  tf::insert_slice(x, acc, 0, 0);
}

// A 'return' that ends the body is fine.
[[tf::kernel(tf::topology("cta", 4))]]
void last(Matrix x) {
  tf::insert_slice(x, tf::zeros<Tile>(), 0, 0);
  return;
}

[[tf::kernel(tf::topology("cta", 4))]]
void in_loop(Matrix x) {
  for (std::int64_t k : tf::tile_offsets(x.extent(1), 32)) {
    auto acc = tf::zeros<Tile>();
    return; // expected-error {{an early 'return' is not supported in a tf kernel}}
  }
  for (std::int64_t k : tf::tile_offsets(x.extent(1), 32)) {
    break; // expected-error {{'break' is not supported in a tf kernel}}
  }
  for (std::int64_t k : tf::tile_offsets(x.extent(1), 32)) {
    continue; // expected-error {{'continue' is not supported in a tf kernel}}
  }
}

[[tf::kernel(tf::topology("cta", 4))]]
void throws(Matrix x) {
  throw 1; // expected-error {{'throw' is not supported in a tf kernel: a kernel cannot unwind; report failures through a tensor parameter}}
}

[[tf::kernel(tf::topology("cta", 4))]]
void allocates(Matrix x) {
  delete new int(1); // expected-error {{dynamic allocation is not supported in a tf kernel: tensors get their storage from tf::zeros, tf::empty and tf::Ring}}
}
