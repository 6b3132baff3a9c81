// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify %s
// An operand in a layout the atom cannot read: a plain row-major A slot is no
// WGMMA K-major core-matrix layout (TMA can fill it). Where a swizzle would
// make it one, the error is at the end of the declaration's layout text
// with the swizzle as a fix-it (inserted), the use in a note.
// When another value of a written choice parameter reads the layout (B
// stored N-major, the atom written with Major::K for B), the error is at
// that template argument with the value as a fix-it, the operand in a note.
// When another swizzle would be read (CuTe's element-unit Swizzle(3,3,3) for
// tf's byte-unit Swizzle(3,4,3), a 64-byte swizzle on 128-byte rows), the
// error is at the swizzle in the declaration's layout text, once for all the
// sites that read it, with the swizzle as a fix-it and each use in a note --
// also when the TMA refuses the box the swizzle mode implies (a 64-byte
// swizzle holds rows of at most 64 bytes).
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, Wgmma, RhsSlot, Matrix
using Acc = Acc128x64<>;
// Row-major, not swizzled (gemm_test::LhsSlot is swizzled).
// expected-error@+2 {{nv.sm90.Wgmma cannot read operand A ('lhs') in this layout: it reads the 128-byte swizzle Swizzle(3,4,3), and the layout writes no swizzle [tf:contract-layout]}}
// expected-note-re@+1 {{contract nv.sm90.Wgmma, operand A: fragment ((8,8),(2,8)):((512,64),(8,1)) does not match {{.*}}}}
using LhsSlot = tf::Tensor<tf::bf16, "(128,64):(64,1)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring); 
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); 
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs); // expected-note {{operand A ('lhs') is read here}}
    }
  }
}

// B's slot is N-major (row-major 64 x 64); the atom says B is K-major.
// expected-error@+2 {{nv.sm90.Wgmma cannot read operand B ('rhs') in this layout: its layout is what b_major = tf::Major::MN reads, but the atom is written with b_major = tf::Major::K [tf:contract-layout]}}
// expected-note-re@+1 {{contract nv.sm90.Wgmma, operand B: fragment {{.*}}}}
using WgmmaBK = tf::nv::sm90::Wgmma<64, tf::bf16, tf::Form::SS, tf::Major::K, tf::Major::K>;
using SwizzledLhs = gemm_test::LhsSlot;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void b_said_k_major(Matrix a, Matrix b) {
  tf::Ring<SwizzledLhs, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<WgmmaBK>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs); // expected-note {{operand B ('rhs') is read here}}
    }
  }
}
// expected-error@+2 {{nv.sm90.CopyAsyncTensor cannot read operand dst (a slot of 'lhs_ring') in this layout: Swizzle(3,3,3) counts 2-byte elements, as CuTe's Swizzle<3,3,3> does; tf swizzles byte offsets, and the 128-byte swizzle is Swizzle(3,4,3) [tf:contract-layout]}}
// expected-note-re@+1 {{contract nv.sm90.CopyAsyncTensor, operand dst: {{.*}}}}
using CuteSwizzled = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,3,3)", tf::smem>;
// expected-error@+2 {{nv.sm90.CopyAsyncTensor cannot read operand dst (a slot of 'rhs_ring') in this layout: it reads the 128-byte swizzle Swizzle(3,4,3), not Swizzle(2,4,3) [tf:contract-layout]}}
// expected-note@+1 {{contract nv.sm90.CopyAsyncTensor, operand src: bytes of the innermost mode <= 64 fails (found 128)}}
using NarrowSwizzled = tf::Tensor<tf::bf16, "(64,64):(64,1) | Swizzle(2,4,3)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void swizzles(Matrix a, Matrix b) {
  tf::Ring<CuteSwizzled, 3> lhs_ring;
  tf::Ring<NarrowSwizzled, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring); // expected-note {{operand dst (a slot of 'lhs_ring') is read here}}
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); // expected-note {{operand dst (a slot of 'rhs_ring') is read here}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs); // expected-note {{operand A ('lhs') is read here}} expected-note {{operand B ('rhs') is read here}}
    }
  }
}
} // namespace t
// RUN: not %clangxx %{tf} -fno-color-diagnostics -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// FIXIT: fix-it:"{{.*}}err_tf_contract_layout.cpp":{24:54-24:54}:" | Swizzle(3,4,3)"
// FIXIT: fix-it:"{{.*}}err_tf_contract_layout.cpp":{43:79-43:91}:"tf::Major::MN"
// FIXIT: fix-it:"{{.*}}err_tf_contract_layout.cpp":{61:62-61:76}:"Swizzle(3,4,3)"
// FIXIT: fix-it:"{{.*}}err_tf_contract_layout.cpp":{64:63-64:77}:"Swizzle(3,4,3)"
