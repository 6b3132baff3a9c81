// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify %s
// An atom issued from a mesh its contract's execution mesh does not match: a TMA is issued by one thread, not a warp.
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, threads, compute, Wgmma, LhsSlot, RhsSlot, Matrix
using Acc = Acc128x64<>;
// A whole warp loads (gemm_test::loader is one thread).
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 32));

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring); // expected-error {{nv.sm90.CopyAsyncTensor cannot be issued from mesh Mesh(thread, (32):(1), participant) ('loader'), which does not match its execution mesh Mesh(thread, (1):(1) + p0): leaf 0 of (32) has extent 32 where (1) has 1}} expected-note {{contract nv.sm90.CopyAsyncTensor, mesh: Mesh(thread, (32):(1), participant) does not match Mesh(thread, (1):(1) + p0): leaf 0 of (32) has extent 32 where (1) has 1}}
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); // expected-error {{cannot be issued from mesh}} expected-note {{mesh}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs); 
    }
  }
}
} // namespace t
