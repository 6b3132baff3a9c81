// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify %s
// An atom type whose `contract` names a contract tf's registry does not hold.
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
inline constexpr tf::Contract acme = [] {
  tf::Contract c = tf::atoms::nv::sm90::wgmma;
  c.id = "acme.x1.Mma";
  return c;
}();
struct AcmeMma : Wgmma {
  static constexpr const tf::Contract &contract = acme;
};
using Acc = Acc128x64<>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring); 
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); 
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<AcmeMma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs); // expected-error-re {{'tf::TiledMma<AcmeMma>' chooses no contract tf knows: 'acme.x1.Mma' is not among generic.Binary, {{.*}}, nv.sm90.Wgmma}}
    }
  }
}
} // namespace t
