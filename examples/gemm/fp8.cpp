//===- examples/gemm/fp8.cpp - The H200 GEMM on fp8 e4m3 operands ----------===//
//
// nt.cpp on 8-bit floats: out = bf16(scale * (a * b)), a (M x K) and b
// (K x N, stored N x K) of tf::fp8e4m3, f32 accumulation, and `scale` a
// float kernel parameter -- the product of the two tensors' per-tensor
// scales, as an fp8 linear layer has them. WGMMA reads 8-bit operands
// K-major only, so both tiles are K-major in shared memory: rows of 128
// contiguous K elements (128 bytes, one swizzle row), and its atom is
// 64 x 256 x 32. BK = 128 keeps each stage's bytes those of the bf16 GEMMs.
// Without the plugin it runs on the CPU and is checked against a naive
// reference: `fp8 [M N K]`.
//
//===----------------------------------------------------------------------===//
#include <tf/tf.hpp>

#include "check.hpp"

namespace gemm {

constexpr int BM = 128, BN = 256, BK = 128, STAGES = 3, CTAS = 132;

// (1) The instruction: WGMMA, e4m3, A and B from shared memory, both
// K-major: one 64 x 256 x 32 atom.
using Wgmma = tf::nv::sm90::Wgmma<256, tf::fp8e4m3, tf::Form::SS, tf::Major::K,
                                  tf::Major::K>;

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

// (4) Shared-memory tiles, 128-byte swizzled (the swizzle acts on bytes,
// so it is the bf16 tiles' one): A 128 x 128 K-major, element (m, k) at
// 128 m + k; B 128 x 256 K-major, element (k, n) at 128 n + k. Each row of
// A and each column of B is one 128-byte swizzle row.
using LhsSlot = tf::Tensor<tf::fp8e4m3, "(128,128):(128,1) | Swizzle(3,4,3)",
                           tf::smem>;
using RhsSlot = tf::Tensor<tf::fp8e4m3, "(128,256):(1,128) | Swizzle(3,4,3)",
                           tf::smem>;
// (7) The staged output tile: four 128 x 64 panels, 128-byte swizzled.
using Staged = tf::Tensor<tf::bf16, "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)",
                          tf::smem>;

using Matrix = tf::Tensor<tf::bf16, "(?,?)">;          // row-major: out
using Lhs = tf::Tensor<tf::fp8e4m3, "(?,?)">;          // row-major: A
using ColMajor = tf::Tensor<tf::fp8e4m3, "(?,?):(1,?)">; // column-major: B

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", CTAS),
             tf::topology("thread", 384))]]
void gemm(Lhs a, ColMajor b, Matrix out, float scale) { // a: M x K, b: K x N
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
        tf::schedule<tf::Copy>(tf::cast<tf::bf16>(tf::scale(acc, scale)), staged_tile);
    [[tf::mesh(storer)]] tf::schedule<tf::nv::CopyAsyncTensor>(
        staged, out.tile<BM, BN>(m * BM, n * BN));
  }
}

} // namespace gemm

int main(int argc, char **argv) {
  const gemm_example::Shape s = gemm_example::parse_shape(argc, argv);
  using gemm_example::random_elements;
  std::vector<tf::fp8e4m3> a = random_elements<tf::fp8e4m3>(s.M * s.K, 1);
  std::vector<tf::fp8e4m3> b = random_elements<tf::fp8e4m3>(s.K * s.N, 2); // N x K
  std::vector<tf::bf16> out = gemm_example::poisoned_output(s.M * s.N);
  const float scale = 0.375f; // a's scale times b's
  tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Lhs(a.data(), {s.M, s.K}),
             gemm::ColMajor(b.data(), {s.K, s.N}, {s.K}),
             gemm::Matrix(out.data(), {s.M, s.N}), scale);
  return gemm_example::report("fp8", s, a, b, out, gemm_example::Epilogue::none,
                              {.b = gemm_example::Major::K}, {scale, {}, {}});
}
