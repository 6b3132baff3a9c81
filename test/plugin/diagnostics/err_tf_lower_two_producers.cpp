// Lowering gives each ring and staging buffer one producer: one op fills it,
// so that its slots, barriers and phases follow one clock. A ring filled at
// two sites is refused at the second, with a note at the first
// (note_tf_lower_first_fill). Here the K loop takes steps of 128 and
// loads both 64-wide halves of each step into the same rings. The check alone
// accepts the kernel; with emit= it is refused and nothing is written.
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
void gemm(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 4> lhs_ring;
  tf::Ring<RhsSlot, 4> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 128)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring); // expected-note {{'lhs_ring' is first filled here}}
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); // expected-note {{'rhs_ring' is first filled here}}
      [[tf::mesh(loader)]] auto lhs_hi = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k + 64), lhs_ring); // expected-error {{'lhs_ring' is filled at two sites; lowering gives each ring and buffer one producer [tf:lower-two-producers]}}
      [[tf::mesh(loader)]] auto rhs_hi = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k + 64, n * 64), rhs_ring); // expected-error {{'rhs_ring' is filled at two sites; lowering gives each ring and buffer one producer [tf:lower-two-producers]}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs_hi, rhs_hi);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace t
