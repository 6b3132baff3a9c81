// The optimal GEMM of examples/gemm/optimal.cpp with its ring depth a macro:
// -DSTAGES=4 takes 4 x 48 KiB of rings + 64 KiB staged = 256 KiB, more than
// a CTA's shared memory on the H200 (finalize's verifier refuses it), and
// -DGRID_TILES launches one CTA per tile (grid_tiles) instead of 132
// persistent CTAs. -DSTEP=... makes the K loop's step a run-time value (a construct finalize
// cannot lower: the ring clocks need the trip count).
#include <tf/tf.hpp>

#ifndef STAGES
#define STAGES 3
#endif
#ifndef STEP
#define STEP BK
#endif

namespace gemm {

constexpr int BM = 128, BN = 256, BK = 64;

using Wgmma = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K>;
#ifdef GRID_TILES
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "tile");
#define CTAS tf::dyn
#define TILES tf::grid_tiles(cta, GM, GN)
#else
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
#define CTAS 132
#define TILES tf::persistent_tiles(cta, GM, GN, {.group_m = 8})
#endif
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 1));
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_)
                                        .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");
using Acc = tf::Tensor<float,
                       "((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"
                       ":((16384,16,8,1),(512,128,64))",
                       tf::rmem>;
using LhsSlot = tf::Tensor<tf::bf16,
                           "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)",
                           tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16, "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)",
                           tf::smem>;
using Staged = tf::Tensor<tf::bf16, "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)",
                          tf::smem>;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", CTAS),
             tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, STAGES> lhs_ring;
  tf::Ring<RhsSlot, STAGES> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  for (auto [m, n] : TILES) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), STEP)) {
      [[tf::mesh(loader)]] auto lhs =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(m * BM, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs =
          tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<BK, BN>(k, n * BN), rhs_ring);
      [[tf::mesh(compute)]] acc =
          tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged =
        tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(
        staged, out.tile<BM, BN>(m * BM, n * BN));
  }
}

} // namespace gemm
