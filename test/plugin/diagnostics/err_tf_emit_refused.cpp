// With -fplugin-arg-tf-emit=DIR a kernel that lowers (tf finalize prints its
// LIR) but that its backend cannot write is an error at the kernel naming the
// file not written and the backend's reason; nothing is written. Here the
// 128 x 64 tile over WGMMA 64 x 32 x 16 atoms gives each consumer warpgroup
// two accumulator blocks side by side along N, and cuda_sm90 writes one.
// (Refusals of lowering are err_tf_lower_* at their ops.) Without emit= the
// kernel is fine.
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
// RUN: %tf finalize %s -- -std=c++20 -I %tf_include | FileCheck %s --check-prefix=LIR
// LIR: kernel t::gemm at {{.*}}err_tf_emit_refused.cpp:28:6 on nvidia.h200_sxm
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, LhsSlot, Matrix
using Acc = Acc128x64<>;
// WGMMA 64 x 32 x 16: two atoms side by side along N per warpgroup.
using Wgmma = tf::nv::sm90::Wgmma<32, tf::bf16, tf::Form::SS, tf::Major::K>;
// B as two 64 x 32 N-major panels, 64-byte swizzled (one panel per atom).
using RhsSlot = tf::Tensor<tf::bf16, "(64,(2,32)):(32,(2048,1)) | Swizzle(2,4,3)", tf::smem>;
using Staged = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
// expected-error-re@+1 {{kernel 't::gemm' cannot be written by the cuda_sm90 backend, so {{.*}}err_tf_emit_refused.tf.cu is not written: {{.*}}err_tf_emit_refused.cpp:28:6: kernel t::gemm: the CUDA backend emits one accumulator block per warpgroup; this kernel has 2 [tf:emit-refused]}}
void gemm(Matrix a, Matrix b, Matrix out) {
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
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace t
