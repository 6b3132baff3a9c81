// With -fplugin-arg-tf-emit=DIR, a kernel whose shared-memory map does not
// fit the target's cta.shared_memory.max is refused at the kernel (the
// capacity check warns at every compile; lowering cannot place it): 4 stages
// of 16 + 32 KiB rings and a 64 KiB staged tile are 256 KiB on the H200's
// 227 KiB. Nothing is written.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
#include <tf/tf.hpp>

namespace gemm {
constexpr int BM = 128, BN = 256, BK = 64;
using Wgmma = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K>;
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
using LhsSlot = tf::Tensor<tf::bf16,
                           "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)",
                           tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16, "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)",
                           tf::smem>;
using Staged = tf::Tensor<tf::bf16, "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)",
                          tf::smem>;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             tf::topology("thread", 384))]]
// expected-error@+1 {{the shared-memory map of kernel 'gemm::gemm' takes 262288 bytes, more than the 232448 of cta.shared_memory.max on nvidia.h200_sxm; use fewer stages or smaller tiles}}
void gemm(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 4> lhs_ring; // expected-note {{lhs_ring: 4 x 16 KiB = 64 KiB}}
  // expected-warning@+1 {{kernel 'gemm::gemm' uses 256 KiB of shared memory per CTA, over the 227 KiB of nvidia.h200_sxm (cta.shared_memory.max); the largest allocation is rhs_ring: 4 x 32 KiB = 128 KiB}}
  tf::Ring<RhsSlot, 4> rhs_ring;
  auto staged_tile = tf::empty<Staged>(); // expected-note {{staged_tile: 64 KiB}}
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, {.group_m = 8})) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
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
