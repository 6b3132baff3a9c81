// A TMA box is read from global memory with its unit-stride dimension
// innermost (TMA's dimension 0) and written into shared memory row-major in
// that box order. A global tensor with no dimension of stride 1 cannot be
// boxed: an error at the global operand. A load whose shared-memory side is
// contiguous in another dimension than the global tensor is one error at
// the side at fault: the slot's layout when the op reading the copy's
// result cannot read the slot either, else the global tensor's layout.
// (examples/gemm/nt.cpp is the accepted case: B "(?,?):(1,?)" into the slot
// "(64,256):(1,64) | Swizzle(3,4,3)", box order {1, 0}.)
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --implicit-check-not=fix-it:
#include "../Inputs/gemm_meshes.hpp"

// B stored column by column (K x N with K contiguous, "NT") copied into a
// row-major slot (64,64):(64,1) that WGMMA reads MN-major: TMA would write
// each column of B (64 contiguous k) as a row of the slot, a transpose it
// cannot do. The slot is what the kernel reads: the global tensor is at
// fault.
namespace column_major_b {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
using Acc = Acc128x64<>;
using ColMajor = tf::Tensor<tf::bf16, "(?,?):(1,?)">; // expected-error {{nv.sm90.CopyAsyncTensor cannot box a tile of 'b': 'b' ((?,?):(1,?)) is contiguous in dimension 0, which its TMA box has innermost and writes contiguously into shared memory; the shared-memory side ((64,64):(64,1) | Swizzle(3,4,3)) is contiguous in dimension 1: give 'b' stride 1 in dimension 1 or the shared-memory side stride 1 in dimension 0 [tf:tma-box-order]}}
// expected-note@../Inputs/gemm_meshes.hpp:39 {{the shared-memory side is contiguous in dimension 1 here}}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, ColMajor b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); // expected-note {{'b' is copied here into a slot of 'rhs_ring'}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs);
    }
  }
}
} // namespace column_major_b

// A with every stride a run-time value: nothing says which dimension TMA
// may read contiguously.
namespace no_unit_stride {
using namespace gemm_test;
using Acc = Acc128x64<>;
using Strided = tf::Tensor<tf::bf16, "(?,?):(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Strided a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring); // expected-error {{nv.sm90.CopyAsyncTensor cannot box a tile of 'a': no single dimension of 'a' ((?,?):(?,?)) has the constant stride 1 that TMA reads contiguously; give one dimension stride 1 [tf:tma-box-order]}}
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs);
    }
  }
}
} // namespace no_unit_stride

// B stored row by row (N contiguous) copied into a K-major slot that WGMMA
// reads with b_major = K: the two sides name different contiguous
// dimensions. One error, at the global tensor's layout (where its
// contiguity was said), with the copy and the slot in notes -- not the
// contract's two refusals of the box's bytes and the slot's order.
namespace row_major_b_k_major_slot {
using namespace gemm_test;
using Acc = Acc128x64<>;
using KMajorSlot = tf::Tensor<tf::bf16, "(64,64):(1,64) | Swizzle(3,4,3)", tf::smem>; // expected-note {{the shared-memory side is contiguous in dimension 0 here}}
using RowMajor = tf::Tensor<tf::bf16, "(?,?)">; // expected-error {{nv.sm90.CopyAsyncTensor cannot box a tile of 'b': 'b' ((?,?):(?,1)) is contiguous in dimension 1, which its TMA box has innermost and writes contiguously into shared memory; the shared-memory side ((64,64):(1,64) | Swizzle(3,4,3)) is contiguous in dimension 0: give 'b' stride 1 in dimension 0 or the shared-memory side stride 1 in dimension 1 [tf:tma-box-order]}}
using KWgmma = tf::nv::sm90::Wgmma<64, tf::bf16, tf::Form::SS, tf::Major::K, tf::Major::K>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, RowMajor b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<KMajorSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); // expected-note {{'b' is copied here into a slot of 'rhs_ring'}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<KWgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs);
    }
  }
}
} // namespace row_major_b_k_major_slot

// The NT GEMM's B (column-major) into a slot declared row-major, for an atom
// that reads B K-major: WGMMA cannot read the slot either, so the slot's
// layout is the mistake -- one error there, WGMMA's refusal in a note, and
// WGMMA's own error not repeated; the fix-it is the K-major slot TMA writes
// for that box order, offered because WGMMA reads it.
namespace row_major_slot_k_major_atom {
using namespace gemm_test;
using Acc = Acc128x64<>;
using ColMajor = tf::Tensor<tf::bf16, "(?,?):(1,?)">;
using RowMajorSlot = tf::Tensor<tf::bf16, "(64,64):(64,1) | Swizzle(3,4,3)", tf::smem>; // expected-error {{nv.sm90.CopyAsyncTensor cannot box a tile of 'b': the shared-memory side ((64,64):(64,1) | Swizzle(3,4,3)) is contiguous in dimension 1, but 'b' ((?,?):(1,?)) is contiguous in dimension 0, which its TMA box has innermost and writes contiguously into shared memory: give the shared-memory side stride 1 in dimension 0 [tf:tma-box-order]}}
// CHECK: fix-it:"{{.*}}err_tf_tma_box_order.cpp":{[[#@LINE-1]]:43-[[#@LINE-1]]:76}:"\"(64,64):(1,64) | Swizzle(3,4,3)\""
using KWgmma = tf::nv::sm90::Wgmma<64, tf::bf16, tf::Form::SS, tf::Major::K, tf::Major::K>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, ColMajor b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RowMajorSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); // expected-note {{'b' is copied here into a slot of 'rhs_ring'}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<KWgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs); // expected-note {{nv.sm90.Wgmma cannot read it either: fragment}}
    }
  }
}
} // namespace row_major_slot_k_major_atom
