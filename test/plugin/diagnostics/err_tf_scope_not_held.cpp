// err_tf_scope_not_held: the accumulator lives in the registers of the 256
// compute threads; the loader thread holds no part of it.
// RUN: %tf-cc1 -verify %s
#include <tf/tf.hpp>

namespace scopes {

inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 1));
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_)
                                        .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");
using Acc = tf::Tensor<float,
                       "((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"
                       ":((16384,16,8,1),(512,128,64))",
                       tf::rmem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             tf::topology("thread", 384))]]
void misplaced(tf::Tensor<tf::bf16, "(?,?)"> out) {
  // expected-note@+1 {{'acc' is defined here, on mesh Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, lane8, lane4)}}
  [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
  // Fine: the same threads.
  [[tf::mesh(compute)]] auto mine = tf::cast<tf::bf16>(acc);
  // expected-error@+1 {{'acc' lives in the registers of mesh Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, lane8, lane4) and is used on mesh Mesh(thread, (1):(1), participant), which does not hold it}}
  [[tf::mesh(loader)]] auto theirs = tf::cast<tf::bf16>(acc);
  (void)out;
  (void)mine;
  (void)theirs;
}

} // namespace scopes
