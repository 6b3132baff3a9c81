// A persistent H200 GEMM whose accumulator is declared bf16: WGMMA
// accumulates in f32, so its contract refuses operand C. The queries' JSON
// carries the error as data (tf:contract-operand, its named arguments, the
// fix-it `float` at the element type, the note at the use) and the file's
// undecided sites are not listed as if it were clean.
#include <tf/tf.hpp>

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 1));
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_)
                                        .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");

using Acc = tf::Tensor<tf::bf16, "((2@group,4@warp,2,8@lane8),(8,4@lane4,2)):((4096,16,8,1),(512,128,64))", tf::rmem>;
using Wgmma = tf::nv::sm90::Wgmma<64, tf::bf16, tf::Form::SS, tf::Major::K>;
using LhsSlot = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16, "(64,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
    }
  }
}
