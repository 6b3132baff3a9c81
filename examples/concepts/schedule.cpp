// Schedule: a kernel whose op names the atom that computes it.
// (docs/concepts.md; `tf hir` prints this kernel's HIR)
#include <tf/tf.hpp>

namespace concepts {

// One warp of 32 lanes; lane i holds row i of a 32 x 4 f32 fragment.
inline constexpr tf::Mesh warp = tf::mesh("thread", tf::layout<"(32)">, "lane");
using Fragment = tf::Tensor<float, "(32@lane,4):(4,1)", tf::rmem>;
using Staged = tf::Tensor<float, "(32,4):(4,1)", tf::smem>;

[[tf::kernel(tf::topology("thread", 32))]]
void stage() {
  auto staged_tile = tf::empty<Staged>();
  [[tf::mesh(warp)]] {
    auto x = tf::zeros<Fragment>();
    // The op is a copy from registers to shared memory; the schedule names
    // its atom, generic.Copy, whose contract the plugin checks on the warp.
    auto staged = tf::schedule<tf::Copy>(x, staged_tile);
  }
}

} // namespace concepts
