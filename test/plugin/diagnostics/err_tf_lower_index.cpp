// Index expressions (tile offsets, loop bounds, integer declarations) are
// lowered as +, -, *, /, ceil_div, min and max of extents, loop indices,
// integers and constants. One tf cannot read, here a shift, is refused at the
// statement that holds it once the kernel is lowered (emit=); the check alone
// accepts both kernels. Nothing is written.
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

// The A tile's first row as m << 7 (m * 128).
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void shifted_offset(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m << 7, k), lhs_ring); // expected-error {{index expression 'm << 7' cannot be lowered: write it with +, -, *, /, %, ceil_div, min and max of extents, indices and constants [tf:lower-index]}}
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}

// The number of tile rows rounded up with a shift: (M + 127) >> 7.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void shifted_count(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  const std::int64_t tiles_m = (a.extent(0) + 127) >> 7; // expected-error {{index expression '(a.extent(0) + 127) >> 7' cannot be lowered: write it with +, -, *, /, %, ceil_div, min and max of extents, indices and constants [tf:lower-index]}}
  for (auto [m, n] : tf::persistent_tiles(cta, tiles_m, tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace t
