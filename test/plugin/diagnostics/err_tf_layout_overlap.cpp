// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify %s
// A tensor with storage of its own -- an allocation, a ring's slots -- needs
// one offset per element. An accumulator whose warpgroup stride is half the
// fragment's size (8192 for 16384) puts the second warpgroup's rows on the
// first's: each WGMMA fragment is still well-formed, so no contract refuses
// it, and the header-only run computed garbage. The error stands at the
// stride that falls inside the span of the smaller ones, with that span as a
// fix-it (16384), the allocation in a note; views (tiles, parameters) are
// not checked, and a correct accumulator beside it is accepted.
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix

// expected-error@+2 {{'acc' has its own rmem storage, but its layout puts coordinates ((0,0,0,0),(16,0,0)) and ((1,0,0,0),(0,0,0)) at one offset, 8192: each element needs a place of its own [tf:layout-overlap]}}
using Overlapping = tf::Tensor<float,
                               "((2@group,4@warp,2,8@lane8),(32,4@lane4,2)):((8192,16,8,1),(512,128,64))",
                               tf::rmem>;
using RhsSlot256 = tf::Tensor<tf::bf16, "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)", tf::smem>;
using Wgmma256 = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot256, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 256))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Overlapping>(); // expected-note {{'acc' is allocated here}}
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 256>(k, n * 256), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma256>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
    }
  }
}

// Shared memory too: a staging buffer whose rows overlap (stride 32 for
// 64-wide rows). The correct accumulator beside it is accepted.
// expected-error@+1 {{'staged' has its own smem storage, but its layout puts coordinates (0,32) and (1,0) at one offset, 32: each element needs a place of its own [tf:layout-overlap]}}
using OverlappingStage = tf::Tensor<tf::bf16, "(128,64):(32,1)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void staged_kernel(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged = tf::empty<OverlappingStage>(); // expected-note {{'staged' is allocated here}}
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc128x64<>>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
    }
  }
}
} // namespace t
// RUN: not %clangxx %{tf} -fno-color-diagnostics -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// FIXIT: fix-it:"{{.*}}err_tf_layout_overlap.cpp":{18:79-18:83}:"16384"
// FIXIT: fix-it:"{{.*}}err_tf_layout_overlap.cpp":{40:58-40:60}:"64"
