//===- examples/gemm/persistent.cpp - 132 persistent CTAs, L2-grouped -----===//
//
// The second step of the tutorial: the grid of grid.cpp becomes 132 resident
// CTAs (one wave on the H200's 132 SMs instead of ceil(GM*GN / 132)), each
// walking output tiles p, p + 132, ... in an L2-grouped order (groups of 8
// rows of tiles, down a column first, so the CTAs of a wave share tiles of B
// in L2). The instruction is still undecided. `persistent [M N K]`.
//
//===----------------------------------------------------------------------===//
#include <tf/tf.hpp>

#include "check.hpp"

namespace gemm {

constexpr int BM = 128, BN = 256, BK = 64, CTAS = 132;

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");

using LhsTile = tf::Tensor<tf::bf16, "(128,64)", tf::smem>;   // BM x BK
using RhsTile = tf::Tensor<tf::bf16, "(64,256)", tf::smem>;   // BK x BN
using Acc = tf::Tensor<float, "(128,256)", tf::rmem>;          // BM x BN
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;                  // run-time extents

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", CTAS))]]
void gemm(Matrix a, Matrix b, Matrix out) {  // a: M x K, b: K x N, out: M x N
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  auto lhs = tf::empty<LhsTile>();
  auto rhs = tf::empty<RhsTile>();
  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, {.group_m = 8})) {
    auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      tf::copy(a.tile<BM, BK>(m * BM, k), lhs);
      tf::copy(b.tile<BK, BN>(k, n * BN), rhs);
      tf::matmul(acc, lhs, rhs);  // undecided: no instruction chosen
    }
    tf::insert_slice(out, tf::cast<tf::bf16>(acc), m * BM, n * BN);
  }
}

} // namespace gemm

int main(int argc, char **argv) {
  const gemm_example::Shape s = gemm_example::parse_shape(argc, argv);
  std::vector<tf::bf16> a = gemm_example::random_bf16(s.M * s.K, 1);
  std::vector<tf::bf16> b = gemm_example::random_bf16(s.K * s.N, 2);
  std::vector<tf::bf16> out = gemm_example::poisoned_output(s.M * s.N); // NaN until written
  tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(a.data(), {s.M, s.K}),
             gemm::Matrix(b.data(), {s.K, s.N}), gemm::Matrix(out.data(), {s.M, s.N}));
  return gemm_example::report("persistent", s, a, b, out);
}
