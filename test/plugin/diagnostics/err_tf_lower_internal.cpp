// err_tf_lower_internal is an error in tf itself, not in the kernel: the
// lowered form (LIR) of a kernel the checks accepted fails the LIR verifier
// (barrier counts, phases, clocks, the shared-memory map), or a lowering rule
// finds a site without the match inference records for it. It is reported at
// the kernel, or at the site, and asks for a report. No source reaches it
// while tf is correct, and none is known to: test/lower/VerifyTest.cpp builds
// LIR by hand and breaks each verifier check once, which is the text the
// diagnostic carries after "fails verification: ".
//
// This file shows the path a failure would take: every kernel lowered is
// verified before anything is written. Here the verifier accepts a pipeline of
// three roles (two one-thread loaders, the second of which also stores the
// staged tile, and two consumer warpgroups), so the CUDA is written.
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t %s
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// FILES: err_tf_lower_internal.tf.cu
// RUN: %tf finalize %s -- -std=c++20 -I %tf_include 2>&1 | FileCheck %s
// CHECK-NOT: error:
// CHECK:      mbarrier.init lhs_ring.full[0:3], arrivals=1
// CHECK-NEXT: mbarrier.init lhs_ring.empty[0:3], arrivals=256
// CHECK-NEXT: mbarrier.init rhs_ring.full[0:3], arrivals=1
// CHECK-NEXT: mbarrier.init rhs_ring.empty[0:3], arrivals=256
// CHECK-NEXT: mbarrier.init staged_tile.full[0:1], arrivals=1
// CHECK-NEXT: mbarrier.init staged_tile.empty[0:1], arrivals=1
// CHECK: scope thread[0:1] loader =
// CHECK: scope thread[32:33] loader_b =
// CHECK: scope thread[128:384] compute =
// CHECK-NOT: error:
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, threads, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
using Acc = Acc128x64<>;
using Staged = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
// A second TMA thread, in another warp of warpgroup 0.
inline constexpr tf::Mesh loader_b = threads.sub(0, tf::range(32, 33));

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader_b)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader_b)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace t
