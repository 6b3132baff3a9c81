// Every ring and staging buffer is handed from a producer role to a consumer
// role through a pair of barriers (full, empty). A ring filled but never read
// has no role that releases its slots (no arrival on 'empty'), and lowering
// refuses it at the op that fills it, saying so; so does a staged tile that no
// TMA store reads. The check alone accepts both kernels; with emit= they are
// refused and nothing is written.
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

// The loader prefetches the A tile of the next row of tiles into a ring that
// no op reads.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void prefetch(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  tf::Ring<LhsSlot, 2> next_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(loader)]] auto next = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128 + 128, k), next_ring); // expected-error {{'next_ring' is filled here but never read: no role arrives on its barrier 'next_ring.empty', so the pipeline would wait on it forever [tf:lower-handoff]}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}

// The epilogue stages the tile but never stores it.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void unstored(Matrix a, Matrix b) {
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
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile); // expected-error {{'staged_tile' is filled here but never read: no role arrives on its barrier 'staged_tile.empty', so the pipeline would wait on it forever [tf:lower-handoff]}}
  }
}
} // namespace t
