// err_tf_lower_internal: the lowered form (LIR) of a kernel the checks
// accepted fails the LIR verifier, or a lowering rule finds a site without
// the match inference records for it. Reported at the kernel (at the site for
// a rule), it asks for a report. The verifier's own checks (barrier counts,
// phases, clocks, the shared-memory map) are broken one at a time by
// test/lower/VerifyTest.cpp on LIR built by hand.
//
// One verifier check is reached from source: the shared-memory map must fit
// the target's cta.shared_memory.max. The check only warns when a kernel's
// buffers exceed it (warn_tf_capacity_smem); lowering then fails verification
// and reports it as this error. Here 9 stages of 24 KiB and a 16 KiB staged
// tile exceed the H200's 227 KiB. With 3 stages the map fits, the kernel
// verifies and its CUDA is written.
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify=check %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t -DSTAGES=3 %s
// RUN: ls %t | FileCheck %s
// CHECK: err_tf_lower_internal.tf.cu
#include "../Inputs/gemm_meshes.hpp"

#ifndef STAGES
#define STAGES 9
#endif

namespace t {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
using Acc = Acc128x64<>;
using Staged = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Matrix out) { // check-warning {{kernel 't::gemm' uses 232 KiB of shared memory per CTA, over the 227 KiB of nvidia.h200_sxm (cta.shared_memory.max) [tf:capacity-smem]}} expected-warning {{kernel 't::gemm' uses 232 KiB of shared memory per CTA}} expected-error-re {{internal error in tf's lowering (please report it): the lowered form of 't::gemm' fails verification: {{.*}}err_tf_lower_internal.cpp:34:6: kernel t::gemm: the shared-memory map takes 237872 bytes, more than the 232448 of cta.shared_memory.max on nvidia.h200_sxm; use fewer stages or smaller tiles [tf:lower-internal]}}
  tf::Ring<LhsSlot, STAGES> lhs_ring; // check-note {{lhs_ring: 9 x 16 KiB = 144 KiB}} expected-note {{lhs_ring: 9 x 16 KiB = 144 KiB}}
  tf::Ring<RhsSlot, STAGES> rhs_ring; // check-note {{rhs_ring: 9 x 8 KiB = 72 KiB}} expected-note {{rhs_ring: 9 x 8 KiB = 72 KiB}}
  auto staged_tile = tf::empty<Staged>(); // check-note {{staged_tile: 16 KiB}} expected-note {{staged_tile: 16 KiB}}
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
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
