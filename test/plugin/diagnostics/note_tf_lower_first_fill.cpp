// When a ring or staging buffer is filled at a second site
// (err_tf_lower_two_producers), a note points at the site that fills it
// first: the two sites to choose between. Here the epilogue stages the tile
// twice, once as computed and once after a relu, into the same buffer.
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify=check %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
// check-no-diagnostics
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
using Acc = Acc128x64<>;
using Staged = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Matrix out, Matrix out_relu) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile); // expected-note {{'staged_tile' is first filled here}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
    [[tf::mesh(compute)]] auto staged_relu = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(tf::relu(acc)), staged_tile); // expected-error {{'staged_tile' is filled at two sites; lowering gives each ring and buffer one producer [tf:lower-two-producers]}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged_relu, out_relu.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace t
