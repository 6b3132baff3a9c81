// err_tf_scope_not_held: the accumulator lives in the registers of the 256
// compute threads; the loader thread holds no part of it.
// RUN: %tf-cc1 -verify %s
#include "../Inputs/gemm_meshes.hpp"

namespace scopes {

using namespace gemm_test; // loader, compute
using Acc = Acc128x256<>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             tf::topology("thread", 384))]]
void misplaced(tf::Tensor<tf::bf16, "(?,?)"> out) {
  // expected-note@+1 {{'acc' is defined here, on mesh Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, lane8, lane4)}}
  [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
  // Fine: the same threads.
  [[tf::mesh(compute)]] auto mine = tf::cast<tf::bf16>(acc);
  // expected-note@+2 {{'acc' is used here}}
  // expected-error@+1 {{'acc' lives in the registers of mesh Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, lane8, lane4) and is used on mesh Mesh(thread, (1):(1), participant), which does not hold it}}
  [[tf::mesh(loader)]] auto theirs = tf::cast<tf::bf16>(acc);
  (void)out;
  (void)mine;
  (void)theirs;
}

} // namespace scopes
