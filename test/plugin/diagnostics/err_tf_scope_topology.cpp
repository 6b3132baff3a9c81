// Every mesh a kernel runs on arranges units of one of its topologies and
// stays within the topology's extent; each such mesh is reported once.
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
#include <tf/tf.hpp>

namespace t {
inline constexpr tf::Mesh threads = tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_);
inline constexpr tf::Mesh lanes = tf::mesh("lane", tf::layout<"(32)">);
using Tile = tf::Tensor<float, "(64,32)", tf::rmem>;

[[tf::kernel(tf::topology("cta", 1), tf::topology("thread", 256))]]
void short_of_threads() {
  // expected-error@+1 {{mesh Mesh(thread, (2,128):(128,1) + 128, warpgroup, participant) does not fit the kernel's topologies: it reaches thread 383, but kernel 't::short_of_threads' has 256 thread units (tf::topology("thread", 256)) [tf:scope-topology]}}
  [[tf::mesh(compute)]] { auto x = tf::zeros<Tile>(); (void)x; }
  [[tf::mesh(compute)]] { auto y = tf::zeros<Tile>(); (void)y; }
  // expected-error@+1 {{mesh Mesh(lane, (32):(1)) does not fit the kernel's topologies: it arranges units of level 'lane', but kernel 't::short_of_threads' has no topology of that level (it has cta (1), thread (256))}}
  [[tf::mesh(lanes)]] { auto z = tf::zeros<Tile>(); (void)z; }
}

[[tf::kernel(tf::topology("cta", 1), tf::topology("thread", 384))]]
void enough_threads() {
  [[tf::mesh(compute)]] { auto x = tf::zeros<Tile>(); (void)x; }
}
} // namespace t
