//===- examples/gemm/batched.cpp - A batch of GEMMs on rank-3 tensors -----===//
//
// out[l] = a[l] b[l] for l < L: optimal.cpp's kernel on rank-3 tensors
// (L x M x K, L x K x N, L x M x N, row-major). The batch is part of the
// tile loop: the persistent CTAs walk L * GM row tiles by GN column tiles,
// and row tile lm is batch lm / GM, row tile lm % GM of it. Each copy takes
// a tile with a unit batch mode, a.tile<1, BM, BK>(l, m * BM, k), into the
// same BM x BK slot as the unbatched kernel: TMA loads it as a box
// (1, BM, BK) of a rank-3 tensor map, so a tile never crosses into the next
// matrix (the rows past M are zero-filled, the stores past M clipped).
// Without the plugin the same source runs on the CPU (header-only
// execution) and is checked against a naive reference:
// `batched [[L] M N K]` (L = 3 by default).
//
//===----------------------------------------------------------------------===//
#include <tf/tf.hpp>

#include "check.hpp"

namespace gemm {

constexpr int BM = 128, BN = 256, BK = 64, STAGES = 3, CTAS = 132;

// The instruction, meshes, accumulator and shared-memory tiles are
// optimal.cpp's (its README explains each decision).
using Wgmma = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K>;

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 1));
inline constexpr tf::Mesh storer = threads.sub(0, tf::range(32, 33));
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_)
                                        .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");

using Acc = tf::Tensor<float,
                       "((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"
                       ":((16384,16,8,1),(512,128,64))",
                       tf::rmem>;
using LhsSlot = tf::Tensor<tf::bf16,
                           "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)",
                           tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16,
                           "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)",
                           tf::smem>;
using Staged = tf::Tensor<tf::bf16, "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)",
                          tf::smem>;

// A batch of matrices: run-time extents, row-major (stride 1 innermost).
using Batch = tf::Tensor<tf::bf16, "(?,?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", CTAS),
             tf::topology("thread", 384))]]
void gemm(Batch a, Batch b, Batch out) {  // a: L x M x K, b: L x K x N, out: L x M x N
  tf::Ring<LhsSlot, STAGES> lhs_ring;
  tf::Ring<RhsSlot, STAGES> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  const std::int64_t GM = tf::ceil_div(a.extent(1), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(2), BN);
  // The row tiles of all matrices, one after the other.
  for (auto [lm, n] : tf::persistent_tiles(cta, a.extent(0) * GM, GN, {.group_m = 8})) {
    const std::int64_t l = lm / GM, m = lm % GM;
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(2), BK)) {
      [[tf::mesh(loader)]] auto lhs =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<1, BM, BK>(l, m * BM, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs =
          tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<1, BK, BN>(l, k, n * BN), rhs_ring);
      [[tf::mesh(compute)]] acc =
          tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged =
        tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(storer)]] tf::schedule<tf::nv::CopyAsyncTensor>(
        staged, out.tile<1, BM, BN>(l, m * BM, n * BN));
  }
}

} // namespace gemm

int main(int argc, char **argv) {
  const gemm_example::BatchedShape shape = gemm_example::parse_batched_shape(argc, argv);
  const std::int64_t L = shape.L, M = shape.s.M, N = shape.s.N, K = shape.s.K;
  std::vector<tf::bf16> a = gemm_example::random_bf16(L * M * K, 1);
  std::vector<tf::bf16> b = gemm_example::random_bf16(L * K * N, 2);
  std::vector<tf::bf16> out = gemm_example::poisoned_output(L * M * N); // NaN until written
  tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Batch(a.data(), {L, M, K}),
             gemm::Batch(b.data(), {L, K, N}), gemm::Batch(out.data(), {L, M, N}));
  return gemm_example::report_batched("batched", shape, a, b, out);
}
