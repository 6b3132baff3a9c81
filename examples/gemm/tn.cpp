//===- examples/gemm/tn.cpp - The H200 GEMM with A stored K x M -----------===//
//
// optimal.cpp with A M-major in global memory ("TN": A is the M x K matrix
// stored column by column, i.e. K x M row-major, as the input of a backward
// pass often is; B is K x N row-major). A's tile is then M-major in shared
// memory too: two panels of 64 M x 64 K, each row of 64 contiguous M
// elements one 128-byte swizzle row, one TMA box per panel, and WGMMA reads
// it with a_major = MN (the transpose that 16-bit operands have). Every
// other decision is optimal.cpp's. Without the plugin it runs on the CPU
// and is checked against a naive reference: `tn [M N K]`.
//
//===----------------------------------------------------------------------===//
#include <tf/tf.hpp>

#include "check.hpp"

namespace gemm {

constexpr int BM = 128, BN = 256, BK = 64, STAGES = 3, CTAS = 132;

// (1) The instruction: WGMMA, bf16, A and B from shared memory, both
// MN-major: one 64 x 256 x 16 atom.
using Wgmma = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::MN,
                                  tf::Major::MN>;

// The CTA mesh: 132 persistent CTAs. The thread mesh: 3 warpgroups of 128.
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");

// (2) Warp specialization, as in optimal.cpp.
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 1));
inline constexpr tf::Mesh storer = threads.sub(0, tf::range(32, 33));
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_)
                                        .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");

// (3) The accumulator, as in optimal.cpp.
using Acc = tf::Tensor<float,
                       "((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"
                       ":((16384,16,8,1),(512,128,64))",
                       tf::rmem>;

// (4) Shared-memory tiles, 128-byte swizzled: A 128 x 64 M-major as two
// 64 x 64 panels (element (m, k) at 4096 (m / 64) + 64 k + m % 64: each
// warpgroup's 64 rows are one panel); B 64 x 256 N-major as in optimal.cpp.
using LhsSlot = tf::Tensor<tf::bf16, "((2,64),64):((4096,1),64) | Swizzle(3,4,3)",
                           tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16,
                           "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)",
                           tf::smem>;
// (7) The staged output tile: four 128 x 64 panels, 128-byte swizzled.
using Staged = tf::Tensor<tf::bf16, "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)",
                          tf::smem>;

using Matrix = tf::Tensor<tf::bf16, "(?,?)">;          // row-major: B, out
using ColMajor = tf::Tensor<tf::bf16, "(?,?):(1,?)">;  // column-major: A

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", CTAS),
             tf::topology("thread", 384))]]
void gemm(ColMajor a, Matrix b, Matrix out) {  // a: M x K, b: K x N, out: M x N
  tf::Ring<LhsSlot, STAGES> lhs_ring;                                 // (4)
  tf::Ring<RhsSlot, STAGES> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, {.group_m = 8})) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();                 // (3)
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      [[tf::mesh(loader)]] auto lhs =                                  // (5)
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(m * BM, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs =
          tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<BK, BN>(k, n * BN), rhs_ring);
      [[tf::mesh(compute)]] acc =                                      // (6)
          tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged =                                // (7)
        tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(storer)]] tf::schedule<tf::nv::CopyAsyncTensor>(
        staged, out.tile<BM, BN>(m * BM, n * BN));
  }
}

} // namespace gemm

int main(int argc, char **argv) {
  const gemm_example::Shape s = gemm_example::parse_shape(argc, argv);
  std::vector<tf::bf16> a = gemm_example::random_bf16(s.M * s.K, 1); // K x M
  std::vector<tf::bf16> b = gemm_example::random_bf16(s.K * s.N, 2);
  std::vector<tf::bf16> out = gemm_example::poisoned_output(s.M * s.N);
  tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::ColMajor(a.data(), {s.M, s.K}, {s.M}),
             gemm::Matrix(b.data(), {s.K, s.N}),
             gemm::Matrix(out.data(), {s.M, s.N}));
  return gemm_example::report("tn", s, a, b, out, gemm_example::Epilogue::none,
                              {.a = gemm_example::Major::MN});
}
