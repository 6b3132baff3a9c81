//===- examples/gemm/f32_out.cpp - The H200 GEMM with an f32 output -------===//
//
// optimal.cpp writing the f32 accumulator as it is: out is a float tensor,
// and the staged output tile holds 128 x 256 floats, 128 KiB -- twice
// optimal.cpp's. With three stages of rings (48 KiB each) that would be
// 272 KiB, more than the H200's 227 KiB of shared memory per CTA (the plugin
// says so, [tf:capacity-smem], naming the staged tile as the largest), so the
// rings have two stages (224 KiB in all).
// The staged tile is eight 128 x 32 panels: a row of 32 floats is one
// 128-byte swizzle row, so the swizzle is optimal.cpp's (it acts on bytes),
// and each panel is one TMA box. Without the plugin it runs on the CPU and
// is checked against a naive reference: `f32_out [M N K]`.
//
//===----------------------------------------------------------------------===//
#include <tf/tf.hpp>

#include "check.hpp"

namespace gemm {

constexpr int BM = 128, BN = 256, BK = 64, STAGES = 2, CTAS = 132;

// (1) The instruction: WGMMA, bf16, A and B from shared memory, A K-major
// (B keeps the contract's default, MN-major): one 64 x 256 x 16 atom.
using Wgmma = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K>;

// The CTA mesh: 132 persistent CTAs. The thread mesh: 3 warpgroups of 128.
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");

// (2) Warp specialization: thread 0 issues the TMA loads, thread 32 (another
// warp) the stores, so the next tile's loads never wait for an output;
// warpgroups 1 and 2 compute as 2 x 4 x 8 x 4 (WGMMA's 4 x 8 x 4 per group).
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 1));
inline constexpr tf::Mesh storer = threads.sub(0, tf::range(32, 33));
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_)
                                        .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");

// (3) The accumulator: 128 x 256 f32 in the registers of the 256 compute
// threads; 2@group splits M between the consumers, the rest is WGMMA's C
// fragment, its leaves grouped into the two modes (M, N).
using Acc = tf::Tensor<float,
                       "((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"
                       ":((16384,16,8,1),(512,128,64))",
                       tf::rmem>;

// (4) Shared-memory tiles, 128-byte swizzled: A 128 x 64 K-major, B 64 x 256
// N-major as four contiguous 64 x 64 panels (one TMA box each), each in a
// ring of STAGES slots.
using LhsSlot = tf::Tensor<tf::bf16,
                           "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)",
                           tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16,
                           "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)",
                           tf::smem>;
// (7) The staged output tile: eight 128 x 32 panels of floats, 128-byte
// swizzled.
using Staged = tf::Tensor<float, "(128,(8,32)):(32,(4096,1)) | Swizzle(3,4,3)",
                          tf::smem>;

using Matrix = tf::Tensor<tf::bf16, "(?,?)">; // run-time extents, row-major
using Out = tf::Tensor<float, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", CTAS),
             tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Out out) {  // a: M x K, b: K x N, out: M x N
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
        tf::schedule<tf::Copy>(acc, staged_tile);
    [[tf::mesh(storer)]] tf::schedule<tf::nv::CopyAsyncTensor>(
        staged, out.tile<BM, BN>(m * BM, n * BN));
  }
}

} // namespace gemm

int main(int argc, char **argv) {
  const gemm_example::Shape s = gemm_example::parse_shape(argc, argv);
  std::vector<tf::bf16> a = gemm_example::random_bf16(s.M * s.K, 1);
  std::vector<tf::bf16> b = gemm_example::random_bf16(s.K * s.N, 2);
  std::vector<float> out = gemm_example::poisoned_output<float>(s.M * s.N);
  tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(a.data(), {s.M, s.K}),
             gemm::Matrix(b.data(), {s.K, s.N}), gemm::Out(out.data(), {s.M, s.N}));
  return gemm_example::report("f32_out", s, a, b, out);
}
