// warn_tf_capacity_l2: a persistent GEMM (128 x 256 tiles, 132 CTAs,
// group_m = 8) with M = 8192, N = 17408 and K = 6144 instead of the usual
// 5120. The first wave of 132 CTAs runs 8 tile rows and 17 tile columns of
// the 64 x 68 grid: 8 panels of A (128 x 6144 bf16, 12 MiB) and 17 of B
// (6144 x 256 bf16, 51 MiB) -- 63 MiB, over the 60 MiB of
// memory.l2.capacity. With K = 5120 it fits (capacity/gemm_fits.cpp); with
// run-time extents nothing is reported (capacity/gemm_dynamic.cpp).
// RUN: %tf-cc1 -verify %s
// RUN: %tf-cc1 -verify=silenced -plugin-arg-tf Wno-capacity-l2 %s
// RUN: %tf-cc1 -verify=silenced -plugin-arg-tf Wno-capacity %s
// RUN: %tf-cc1 -verify=werror -plugin-arg-tf Werror=capacity-l2 %s
// silenced-no-diagnostics
#include "../Inputs/gemm_persistent.hpp"

namespace gemm {

// The kernel of Inputs/gemm_persistent.hpp, written out here because the
// diagnostics point into it.
using namespace gemm_test; // BM, BN, BK, CTAS, cta, loader, compute, LhsTile, RhsTile, Staged
using Acc = Acc128x256<>;
using A = tf::Tensor<tf::bf16, "(8192,6144)">;
using B = tf::Tensor<tf::bf16, "(6144,17408)">;
using C = tf::Tensor<tf::bf16, "(8192,17408)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", CTAS),
             tf::topology("thread", 384))]]
void gemm(A a, B b, C out) {
  auto lhs_tile = tf::empty<LhsTile>();
  auto rhs_tile = tf::empty<RhsTile>();
  auto staged_tile = tf::empty<Staged>();
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  // expected-warning@+4 {{the reuse window of one wave of 132 tiles is 63 MiB, over the 60 MiB L2 cache of nvidia.h200_sxm (memory.l2.capacity)}}
  // expected-note@+3 {{132 CTAs run the first tiles of the 64 x 68 grid at once: 8 tile rows and 17 tile columns (group_m = 8)}}
  // werror-error@+2 {{the reuse window of one wave of 132 tiles is 63 MiB, over the 60 MiB L2 cache of nvidia.h200_sxm (memory.l2.capacity)}}
  // werror-note@+1 {{132 CTAs run the first tiles of the 64 x 68 grid at once: 8 tile rows and 17 tile columns (group_m = 8)}}
  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, {.group_m = 8})) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      // expected-note@+2 {{'a': 8 panels of 128 x 6144 bf16 (one per tile row) = 12 MiB}}
      // werror-note@+1 {{'a': 8 panels of 128 x 6144 bf16 (one per tile row) = 12 MiB}}
      [[tf::mesh(loader)]] tf::copy(a.tile<BM, BK>(m * BM, k), lhs_tile);
      // expected-note@+2 {{'b': 17 panels of 6144 x 256 bf16 (one per tile column) = 51 MiB}}
      // werror-note@+1 {{'b': 17 panels of 6144 x 256 bf16 (one per tile column) = 51 MiB}}
      [[tf::mesh(loader)]] tf::copy(b.tile<BK, BN>(k, n * BN), rhs_tile);
      [[tf::mesh(compute)]] tf::matmul(acc, lhs_tile, rhs_tile);
    }
    [[tf::mesh(compute)]] tf::copy(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::copy(staged_tile, out.tile<BM, BN>(m * BM, n * BN));
  }
}

} // namespace gemm
