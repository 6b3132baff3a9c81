// Element-wise ops on a register tile distributed over a thread mesh: register
// ops, decided by their layouts (test/cli/candidates/accepted.test).
#include <tf/tf.hpp>

inline constexpr tf::Mesh warp = tf::mesh("thread", tf::layout<"(32)">, "lane");

using Frag = tf::Tensor<float, "(32@lane,4):(4,1)", tf::rmem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("thread", 32))]]
void ew() {
  [[tf::mesh(warp)]] {
    auto x = tf::zeros<Frag>();
    auto y = tf::zeros<Frag>();
    auto s = tf::add(x, y);
    auto e = tf::exp(s);
  }
}
