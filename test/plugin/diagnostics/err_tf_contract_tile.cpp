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
