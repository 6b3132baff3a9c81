// An element-wise op on shared-memory tiles: not a register op, so its site
// is undecided; generic.Binary takes register operands (docs/cli.md, JSON).
#include <tf/tf.hpp>

inline constexpr tf::Mesh warp = tf::mesh("thread", tf::layout<"(32)">, "lane");

using Tile = tf::Tensor<float, "(32,4):(4,1)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("thread", 32))]]
void ew() {
  [[tf::mesh(warp)]] {
    auto x = tf::zeros<Tile>();
    auto y = tf::zeros<Tile>();
    auto s = tf::add(x, y);
  }
}
