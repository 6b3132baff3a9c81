//===- examples/gemm/grid.cpp - The baseline: one CTA per output tile -----===//
//
// The baseline H200 GEMM: every 128 x 256 tile of the output gets its own
// CTA (GM x GN CTAs, a grid sized at launch), A and B tiles are staged in
// shared memory through bounded tiles, and tf::matmul leaves the instruction
// undecided -- there is no thread mesh yet, so no instruction could be
// chosen (`tf candidates` refuses them all at the mesh). README.md walks from
// here to persistent.cpp and optimal.cpp. `grid [M N K]` runs it on the CPU.
//
//===----------------------------------------------------------------------===//
#include <tf/tf.hpp>

#include "check.hpp"

namespace gemm {

constexpr int BM = 128, BN = 256, BK = 64;

// One CTA per tile: as many CTAs as tiles, known at launch.
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "tile");

using LhsTile = tf::Tensor<tf::bf16, "(128,64)", tf::smem>;   // BM x BK
using RhsTile = tf::Tensor<tf::bf16, "(64,256)", tf::smem>;   // BK x BN
using Acc = tf::Tensor<float, "(128,256)", tf::rmem>;          // BM x BN
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;                  // run-time extents

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn))]]
void gemm(Matrix a, Matrix b, Matrix out) {  // a: M x K, b: K x N, out: M x N
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  for (auto [m, n] : tf::grid_tiles(cta, GM, GN)) {  // exactly one tile
    auto acc = tf::zeros<Acc>();
    auto lhs = tf::empty<LhsTile>();
    auto rhs = tf::empty<RhsTile>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      // Bounded tiles: elements beyond M, N, K read as 0.
      tf::copy(a.tile<BM, BK>(m * BM, k), lhs);
      tf::copy(b.tile<BK, BN>(k, n * BN), rhs);
      tf::matmul(acc, lhs, rhs);  // undecided: no instruction chosen
    }
    // Elements beyond M, N are dropped.
    tf::insert_slice(out, tf::cast<tf::bf16>(acc), m * BM, n * BN);
  }
}

} // namespace gemm

int main(int argc, char **argv) {
  const gemm_example::Shape s = gemm_example::parse_shape(argc, argv);
  std::vector<tf::bf16> a = gemm_example::random_bf16(s.M * s.K, 1);
  std::vector<tf::bf16> b = gemm_example::random_bf16(s.K * s.N, 2);
  std::vector<tf::bf16> out = gemm_example::poisoned_output(s.M * s.N); // NaN until written
  const std::int64_t tiles =
      tf::ceil_div(s.M, gemm::BM) * tf::ceil_div(s.N, gemm::BN);
  tf::launch(gemm::gemm, tf::grid(tiles), gemm::Matrix(a.data(), {s.M, s.K}),
             gemm::Matrix(b.data(), {s.K, s.N}), gemm::Matrix(out.data(), {s.M, s.N}));
  return gemm_example::report("grid", s, a, b, out);
}
