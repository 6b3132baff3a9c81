// The persistent GEMM of the capacity tests, in the H200 example's shape
// (examples/gemm/optimal.cpp): 128 x 256 x 64 tiles over 132 CTAs in groups
// of 8 tile rows, one loader thread, the 128 x 256 f32 accumulator over the
// 256 compute threads. A test instantiates gemm<A, B, C> with the operand
// types it checks (static or run-time extents); the capacity checks run per
// instantiation. diagnostics/warn_tf_capacity_l2.cpp writes the same kernel
// out, since its diagnostics point into the kernel.
#pragma once
#include "gemm_meshes.hpp"

namespace gemm_test {

constexpr int BM = 128, BN = 256, BK = 64, CTAS = 132;

using LhsTile = tf::Tensor<tf::bf16, "(128,64)", tf::smem>;
using RhsTile = tf::Tensor<tf::bf16, "(64,256)", tf::smem>;
using Staged = tf::Tensor<tf::bf16, "(128,256)", tf::smem>;

template <class A, class B, class C>
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", CTAS),
             tf::topology("thread", 384))]]
void gemm(A a, B b, C out) {
  auto lhs_tile = tf::empty<LhsTile>();
  auto rhs_tile = tf::empty<RhsTile>();
  auto staged_tile = tf::empty<Staged>();
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, {.group_m = 8})) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc128x256<>>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      [[tf::mesh(loader)]] tf::copy(a.template tile<BM, BK>(m * BM, k), lhs_tile);
      [[tf::mesh(loader)]] tf::copy(b.template tile<BK, BN>(k, n * BN), rhs_tile);
      [[tf::mesh(compute)]] tf::matmul(acc, lhs_tile, rhs_tile);
    }
    [[tf::mesh(compute)]] tf::copy(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::copy(staged_tile, out.template tile<BM, BN>(m * BM, n * BN));
  }
}

} // namespace gemm_test
