// err_tf_lower_descriptor is refused at a WGMMA site when the shared-memory
// descriptor of operand A or B cannot be derived from the fragment the
// contract engine matched: a swizzle that is no WGMMA mode, a layout that
// binds no `sbo`, a start that is not a compile-time constant. No source
// reaches it: the contract accepts a WGMMA site only when its operands unify
// with a canonical layout of the PTX ISA, and every canonical layout has a
// WGMMA swizzle mode, binds `sbo` and, in shared memory of static extents, a
// constant start. test/lower/DescriptorTest.cpp (Descriptor.Refusals) builds
// the three refusals from an accepted fragment.
//
// This file shows the path a refusal would take: a kernel whose operands are
// both 64-byte swizzled (A K-major in two 32-column halves, B N-major in two
// 32-column panels, LBO 4096 bytes apart) is lowered, its descriptors derived
// at every atom, and its CUDA written.
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t %s
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// FILES: err_tf_lower_descriptor.tf.cu
// RUN: %tf finalize %s -- -std=c++20 -I %tf_include 2>&1 | FileCheck %s
// CHECK-NOT: error:
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 group=0 k=0 acc[0], desc(lhs_ring[it % 3] + 0, lbo=unused, sbo=512, base_offset=0, swizzle=64B), desc(rhs_ring[it % 3] + 0, lbo=4096, sbo=512, base_offset=0, swizzle=64B), tnsp_a=0, tnsp_b=1
// CHECK: wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 group=1 k=3 acc[0], desc(lhs_ring[it % 3] + 12320, lbo=unused, sbo=512, base_offset=0, swizzle=64B), desc(rhs_ring[it % 3] + 3072, lbo=4096, sbo=512, base_offset=0, swizzle=64B), tnsp_a=0, tnsp_b=1
// CHECK-NOT: error:
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, Wgmma, Matrix
using Acc = Acc128x64<>;
// A 128 x 64, K-major, as two 128 x 32 halves of 64-byte rows.
using LhsSlot = tf::Tensor<tf::bf16, "((16,8),(2,32)):((256,32),(4096,1)) | Swizzle(2,4,3)", tf::smem>;
// B 64 x 64, N-major, as two 64 x 32 panels of 64-byte rows.
using RhsSlot = tf::Tensor<tf::bf16, "(64,(2,32)):(32,(2048,1)) | Swizzle(2,4,3)", tf::smem>;
using Staged = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
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
