// err_tf_scope_not_held: the accumulator lives in the registers of the 256
// compute threads; the loader thread holds no part of it. One use on the
// wrong mesh is the use's mistake: the error at it, the definition in a
// note. A value whose every use (two or more) runs on one other mesh was
// defined on the wrong mesh: one error at its definition's attribute, each
// use in a note -- one mistake, one error.
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

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             tf::topology("thread", 384))]]
void defined_on_the_loader(tf::Tensor<tf::bf16, "(?,?)"> out) {
  // expected-error@+1 {{'acc' lives in the registers of mesh Mesh(thread, (1):(1), participant) and is used on mesh Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, lane8, lane4), which does not hold it}}
  [[tf::mesh(loader)]] auto acc = tf::zeros<Acc>();
  // expected-note@+1 {{'acc' is used here}}
  [[tf::mesh(compute)]] auto first = tf::cast<tf::bf16>(acc);
  // expected-note@+1 {{'acc' is used here}}
  [[tf::mesh(compute)]] auto second = tf::cast<tf::f16>(acc);
  (void)out;
  (void)first;
  (void)second;
}

} // namespace scopes
