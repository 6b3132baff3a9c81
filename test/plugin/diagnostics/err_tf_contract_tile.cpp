// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify %s
// A tile that does not decompose into atoms: K = 56 is no multiple of WGMMA's k = 16 for bf16.
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, Wgmma, Matrix
using Acc = Acc128x64<>;
// K = 56 (gemm_test's slots have K = 64).
using LhsSlot = tf::Tensor<tf::bf16, "(128,56):(56,1) | Swizzle(3,4,3)", tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16, "(56,64):(64,1) | Swizzle(3,4,3)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 56)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 56>(m * 128, k), lhs_ring); 
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<56, 64>(k, n * 64), rhs_ring); 
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs); // expected-error {{the tile of nv.sm90.Wgmma does not decompose into atoms: K = 56 (operand A) is not a multiple of the atom's K = k = 16}} expected-note {{contract nv.sm90.Wgmma, tile: K = 56 (operand A) is not a multiple of the atom's K = k = 16}}
    }
  }
}
} // namespace t

// An accumulator not retiled with its tile: 64 x 64 slots, the accumulator
// still 128 x 256. Its M and N both differ: one error. Two groups of 64
// rows cannot hold a 64-row tile, so no accumulator is derived (the mesh
// must change); the ops that read the accumulator (the cast, the copy into
// a 64 x 64 staging tile) are not checked again.
namespace t2 {
using namespace gemm_test;
using Slot = tf::Tensor<tf::bf16, "(64,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
using Wgmma64 = tf::nv::sm90::Wgmma<64, tf::bf16, tf::Form::SS, tf::Major::K>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Matrix out) {
  tf::Ring<Slot, 3> lhs_ring;
  tf::Ring<Slot, 3> rhs_ring;
  auto staged_tile = tf::empty<Slot>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 64), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc128x256<>>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<64, 64>(m * 64, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      // expected-error@+2 {{the tile of nv.sm90.Wgmma does not decompose into atoms: operand C has M = 128 but operand A has M = 64}}
      // expected-note@+1 {{contract nv.sm90.Wgmma, tile: operand C has M = 128 but operand A has M = 64}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma64>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<64, 64>(m * 64, n * 64));
  }
}
} // namespace t2
