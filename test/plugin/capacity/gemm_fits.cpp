// A persistent GEMM in the H200 example's shape (128 x 256 tiles, 132 CTAs,
// group_m = 8, the 128 x 256 f32 accumulator over 256 compute threads) with
// the seed's static shape M = 8192, N = 17408, K = 5120: 112 KiB of shared
// memory, 192 registers per compute thread at the peak (the accumulator and
// its bf16 copy), and an L2 window of 8 A panels (10 MiB) + 17 B panels
// (42.5 MiB) = 52.5 MiB within the 60 MiB L2: no capacity warning.
// RUN: %tf-cc1 -verify %s
// expected-no-diagnostics
#include <tf/tf.hpp>

namespace gemm {

constexpr int BM = 128, BN = 256, BK = 64, CTAS = 132;

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 1));
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_)
                                        .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");
using Acc = tf::Tensor<float,
                       "((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"
                       ":((16384,16,8,1),(512,128,64))",
                       tf::rmem>;
using LhsTile = tf::Tensor<tf::bf16, "(128,64)", tf::smem>;
using RhsTile = tf::Tensor<tf::bf16, "(64,256)", tf::smem>;
using Staged = tf::Tensor<tf::bf16, "(128,256)", tf::smem>;
using A = tf::Tensor<tf::bf16, "(8192,5120)">;
using B = tf::Tensor<tf::bf16, "(5120,17408)">;
using C = tf::Tensor<tf::bf16, "(8192,17408)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", CTAS),
             tf::topology("thread", 384))]]
void gemm(A a, B b, C out) {
  auto lhs_tile = tf::empty<LhsTile>();
  auto rhs_tile = tf::empty<RhsTile>();
  auto staged_tile = tf::empty<Staged>();
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, {.group_m = 8})) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      [[tf::mesh(loader)]] tf::copy(a.tile<BM, BK>(m * BM, k), lhs_tile);
      [[tf::mesh(loader)]] tf::copy(b.tile<BK, BN>(k, n * BN), rhs_tile);
      [[tf::mesh(compute)]] tf::matmul(acc, lhs_tile, rhs_tile);
    }
    [[tf::mesh(compute)]] tf::copy(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::copy(staged_tile, out.tile<BM, BN>(m * BM, n * BN));
  }
}

} // namespace gemm
