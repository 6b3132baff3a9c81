// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify %s
// An operand whose dtype, storage, shape or limits the contract refuses: WGMMA accumulates in f32.
// An element type the contract fixes is the declaration's mistake: the error
// stands at the element type the declaration writes (through aliases and
// alias templates), with the fixed type as a fix-it and the use in a note.
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
// expected-error@+2 {{operand C ('acc') does not fit nv.sm90.Wgmma: dtype f16, expected f32 [tf:contract-operand]}}
// expected-note@+1 {{contract nv.sm90.Wgmma, operand C: dtype f16, expected f32}}
using Acc = Acc128x64<tf::f16>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring); 
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); 
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs); // expected-note {{operand C ('acc') is read here}}
    }
  }
}

// The accumulator's type written where it is made, no alias.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void inline_type(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    // expected-error@+2 {{operand C ('acc') does not fit nv.sm90.Wgmma: dtype bf16, expected f32}}
    // expected-note@+1 {{contract nv.sm90.Wgmma, operand C: dtype bf16, expected f32}}
    [[tf::mesh(compute)]] auto acc = tf::zeros<tf::Tensor<tf::bf16, "((2@group,4@warp,2,8@lane8),(8,4@lane4,2)):((4096,16,8,1),(512,128,64))", tf::rmem>>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs); // expected-note {{operand C ('acc') is read here}}
    }
  }
}

// A TMA box whose extents differ from its slot's: A's 128x64 tile loaded
// into B's 64x64 ring. The error is the copy's, at the slot, with the ring
// whose slots fit as a fix-it; the WGMMA that reads the slot is not checked
// again.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void box_into_other_ring(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring; // expected-note {{'lhs_ring' holds slots of 128x64}}
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc128x64<float>>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      // expected-error@+2 {{operand dst (a slot of 'rhs_ring') does not fit nv.sm90.CopyAsyncTensor: shape (64,64) does not fit (*box) = (128,64) bound by operand src [tf:contract-operand]}}
      // expected-note@+1 {{contract nv.sm90.CopyAsyncTensor, operand dst: shape (64,64) does not fit (*box) = (128,64) bound by operand src}}
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), rhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs);
    }
  }
}

// A kernel retiled to BN = 128 whose B slot still has the 64 x 64 extents:
// the slot's declaration in the box's extents, in 128-byte panels, is the
// fix-it.
// expected-note@+1 {{the shared-memory tile's layout for a 64x128 box: "(64,(2,64)):(64,(4096,1)) | Swizzle(3,4,3)"}}
using NarrowSlot = tf::Tensor<tf::bf16, "(64,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void slot_not_retiled(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<NarrowSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 128))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc128x64<float>>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      // expected-error@+2 {{operand dst (a slot of 'rhs_ring') does not fit nv.sm90.CopyAsyncTensor: shape (64,64) does not fit (*box) = (64,128) bound by operand src}}
      // expected-note@+1 {{contract nv.sm90.CopyAsyncTensor, operand dst: shape (64,64) does not fit (*box) = (64,128) bound by operand src}}
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 128>(k, n * 128), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs);
    }
  }
}

// A kernel retiled to BN = 128 whose staged output tile is still 128 x 64:
// the window advances with n by its own extent, so the staged tile's
// declaration follows it.
// expected-note@+1 {{the shared-memory tile's layout for a 128x128 box: "(128,(2,64)):(64,(8192,1)) | Swizzle(3,4,3)"}}
using NarrowStaged = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void staged_not_retiled(Matrix a, Matrix out) {
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(out.extent(1), 128))) {
    [[tf::mesh(loader)]] auto staged = tf::empty<NarrowStaged>();
    // expected-error@+2 {{operand dst (a tile of 'out') does not fit nv.sm90.CopyAsyncTensor: shape (128,128) does not fit (*box) = (128,64) bound by operand src}}
    // expected-note@+1 {{contract nv.sm90.CopyAsyncTensor, operand dst: shape (128,128) does not fit (*box) = (128,64) bound by operand src}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 128>(m * 128, n * 128));
  }
}

// A TMA store whose global window is narrower than the staged tile: the
// error is at the window; the loop's coverage through it is not checked
// again (its gap is this mistake).
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void store_window_narrower(Matrix a, Matrix out) {
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(out.extent(1), 64))) {
    [[tf::mesh(loader)]] auto staged = tf::empty<LhsSlot>();
    // expected-error@+2 {{operand dst (a tile of 'out') does not fit nv.sm90.CopyAsyncTensor: shape (128,32) does not fit (*box) = (128,64) bound by operand src [tf:contract-operand]}}
    // expected-note@+1 {{contract nv.sm90.CopyAsyncTensor, operand dst: shape (128,32) does not fit (*box) = (128,64) bound by operand src}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 32>(m * 128, n * 64));
  }
}
} // namespace t
// RUN: not %clangxx %{tf} -fno-color-diagnostics -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// FIXIT: fix-it:"{{.*}}err_tf_contract_operand.cpp":{13:23-13:30}:"float"
// FIXIT: fix-it:"{{.*}}err_tf_contract_operand.cpp":{37:59-37:67}:"float"
// FIXIT: fix-it:"{{.*}}err_tf_contract_operand.cpp":{59:106-59:114}:"lhs_ring"
// FIXIT: fix-it:"{{.*}}err_tf_contract_operand.cpp":{70:41-70:74}:"\"(64,(2,64)):(64,(4096,1)) | Swizzle(3,4,3)\""
// FIXIT: fix-it:"{{.*}}err_tf_contract_operand.cpp":{91:43-91:77}:"\"(128,(2,64)):(64,(8192,1)) | Swizzle(3,4,3)\""
// FIXIT-NOT: fix-it:
