// RUN: %tf-cc1 -verify %s
// RUN: %tf-cc1 -DKERNEL -verify=kernel %s
#include "tf/layout/mesh.hpp"

#ifndef KERNEL

// Arguments that depend on template parameters are checked per
// instantiation; the note says which one.
template <auto M> void run(int x) {
  [[tf::mesh(M)]] x = 1; // expected-error {{argument of 'tf::mesh' must be a tf::Mesh, found 'int'}}
}

void use() {
  run<tf::mesh("thread", tf::IntTuple{32})>(0);
  run<7>(0); // expected-note {{in instantiation of 'run<7>' requested here}}
}
#else

// A kernel template is checked per instantiation: a contract violation in
// one of them points into the template, with the note naming the
// instantiation (here the WGMMA's n is a template parameter).
#include "../Inputs/gemm_meshes.hpp"

namespace k {
using namespace gemm_test; // compute
using Acc = Acc128x64<>;
// Core-matrix slots, not gemm_test's TMA tiles.
using LhsSlot = tf::Tensor<tf::bf16, "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)", tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16, "((8,8),64):((512,64),1) | Swizzle(3,4,3)", tf::smem>;

template <int N>
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 1), tf::topology("thread", 384))]]
void mma() {
  using Wgmma = tf::nv::sm90::Wgmma<N, tf::bf16, tf::Form::SS, tf::Major::K>;
  auto lhs = tf::empty<LhsSlot>();
  auto rhs = tf::empty<RhsSlot>();
  [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
  // kernel-error@+2 {{the tile of nv.sm90.Wgmma does not decompose into atoms}} kernel-note@+2 {{contract nv.sm90.Wgmma, tile}}
  // kernel-error@+1 {{tf.schedule as nv.sm90.Wgmma cannot be lowered by the cuda_sm90 backend: cuda_sm90 reads WGMMA operand A from a ring slot a TMA load filled (the SS form); this operand is not one}}
  [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
}

// mma<64> is legal for the contract but its operands are buffers no TMA
// fills, which the target's backend does not lower (legal means lowerable).
void launch() {
  mma<64>(); // kernel-note {{in instantiation of 'k::mma<64>' requested here}}
  mma<48>(); // kernel-note {{in instantiation of 'k::mma<48>' requested here}}
}
} // namespace k
#endif
