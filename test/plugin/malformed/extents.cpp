// Huge, negative and zero extents, and layout numbers that overflow: each
// an error where it is written, exit status 1, never a signal or a hang.
// Malformed layout text is an attribute error, which stops the translation
// unit before kernels are read: a run of its own (-DTEXT).
// RUN: %tf-cc1 -verify %s
// RUN: not %tf-cc1 %s
// RUN: %tf-cc1 -verify -DTEXT %s
// RUN: not %tf-cc1 -DTEXT %s
#include <tf/tf.hpp>

using Slot = tf::Tensor<float, "(128,64)", tf::smem>;
using Matrix = tf::Tensor<float, "(?,?)">;
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");

#ifndef TEXT
[[tf::kernel(tf::topology("cta", 132))]]
void steps(Matrix x) {
  for (std::int64_t k : tf::tile_offsets(x.extent(1), -64)) {} // expected-error {{a tile loop with step -64 is not supported in a tf kernel: the step of tf::tile_offsets is a tile's positive extent}}
  for (std::int64_t k : tf::tile_offsets(x.extent(1), 0)) {} // expected-error {{a tile loop with step 0 is not supported in a tf kernel}}
  for (auto [m, n] : tf::persistent_tiles(cta, 4, 4, {.group_m = 0})) {} // expected-error {{a tile scheduler with group_m = 0 is not supported in a tf kernel}}
  for (auto [m, n] : tf::persistent_tiles(cta, 4, 4, {.group_m = -8})) {} // expected-error {{a tile scheduler with group_m = -8 is not supported in a tf kernel}}
}

#else
[[tf::kernel(tf::topology("cta", 132))]]
void numbers() {
  // expected-error@+1 {{malformed layout in 'tf::layout': number does not fit in 64 bits}}
  [[tf::layout("(99999999999999999999,2)")]] auto a = tf::empty<Slot>();
  // expected-error@+1 {{malformed layout in 'tf::layout': swizzle parameter 64 is out of range}}
  [[tf::layout("(128,64) | Swizzle(64,64,64)")]] auto b = tf::empty<Slot>();
  // expected-error@+1 {{malformed layout in 'tf::layout': tuples nest deeper than}}
  [[tf::layout("((((((((((((((((((128))))))))))))))))),64)")]] auto c = tf::empty<Slot>();
}
#endif
