// Every mesh a kernel runs on arranges units of one of its topologies and
// stays within the topology's extent; one error per level, at the topology,
// the first mesh scope that does not fit in a note. A tile loop's CTA mesh
// spans its whole level (a launched CTA without a place in it has no tiles):
// that error is at the topology too, the loop in a note.
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
#include <tf/tf.hpp>

namespace t {
inline constexpr tf::Mesh threads = tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_);
inline constexpr tf::Mesh lanes = tf::mesh("lane", tf::layout<"(32)">);
using Tile = tf::Tensor<float, "(64,32)", tf::rmem>;

[[tf::kernel(tf::topology("cta", 1),
             // expected-error@+1 {{mesh Mesh(thread, (2,128):(128,1) + 128, warpgroup, participant) does not fit the kernel's topologies: it reaches thread 383, but kernel 't::short_of_threads' has 256 thread units (tf::topology("thread", 256)) [tf:scope-topology]}}
             tf::topology("thread", 256))]]
void short_of_threads() {
  // expected-note@+1 {{mesh Mesh(thread, (2,128):(128,1) + 128, warpgroup, participant) is used here}}
  [[tf::mesh(compute)]] { auto x = tf::zeros<Tile>(); (void)x; }
  [[tf::mesh(compute)]] { auto y = tf::zeros<Tile>(); (void)y; }
  // expected-error@+1 {{mesh Mesh(lane, (32):(1)) does not fit the kernel's topologies: it arranges units of level 'lane', but kernel 't::short_of_threads' has no topology of that level (it has cta (1), thread (256))}}
  [[tf::mesh(lanes)]] { auto z = tf::zeros<Tile>(); (void)z; }
}

[[tf::kernel(tf::topology("cta", 1), tf::topology("thread", 384))]]
void enough_threads() {
  [[tf::mesh(compute)]] { auto x = tf::zeros<Tile>(); (void)x; }
}
inline constexpr tf::Mesh persistent = tf::mesh("cta", tf::layout<"(132)">, "persistent");
[[tf::kernel(tf::target("nvidia.h200_sxm"),
             // expected-error@+1 {{mesh Mesh(cta, (132):(1), persistent) does not fit the kernel's topologies: a tile loop gives its tiles to cta 0..131 by their place in it, but kernel 't::more_ctas_than_the_loop' launches 264 cta units (tf::topology("cta", 264)), and cta 132..263 would have no place in it; launch 132 or make the mesh span all of them}}
             tf::topology("cta", 264), tf::topology("thread", 128))]]
void more_ctas_than_the_loop(tf::Tensor<tf::bf16, "(?,?)"> a) {
  // expected-note@+1 {{the tile loop distributes its tiles over mesh Mesh(cta, (132):(1), persistent) here}}
  for (auto [m, n] : tf::persistent_tiles(persistent, tf::ceil_div(a.extent(0), 128), 1)) {
    (void)m;
    (void)n;
  }
}
} // namespace t
