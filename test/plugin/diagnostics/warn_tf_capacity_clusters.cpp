// warn_tf_capacity_clusters: the H200 GEMM (208 KiB of shared memory per CTA,
// so one CTA per SM) on 132 persistent CTAs in clusters of four. A cluster runs
// on one GPC and the GPCs' leftover SMs stay idle: the H200 keeps 120 CTAs in
// clusters of four resident at once (cluster.resident_ctas.4, measured), so
// the last three clusters would start only when others end. A warning at the
// option; 120 CTAs, clusters of two (all 132 resident), or a kernel small
// enough for two CTAs per SM (one stage: 112 KiB; the facts are measured with
// one) say nothing.
// RUN: %tf-cc1 -verify %s
// RUN: %tf-cc1 -verify=silenced -plugin-arg-tf Wno-capacity-clusters %s
// RUN: %tf-cc1 -verify=fits -DCTAS=120 %s
// RUN: %tf-cc1 -verify=fits -DCLUSTER=2 %s
// RUN: %tf-cc1 -verify=fits -DSTAGES=1 %s
// silenced-no-diagnostics
// fits-no-diagnostics
#include <tf/tf.hpp>

#ifndef CTAS
#define CTAS 132
#endif
#ifndef CLUSTER
#define CLUSTER 4
#endif
#ifndef STAGES
#define STAGES 3
#endif

namespace gemm {

using Wgmma = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K>;
#if CTAS == 120
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(120)">, "persistent");
#else
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
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
  const std::int64_t GM = tf::ceil_div(a.extent(0), 128);
  const std::int64_t GN = tf::ceil_div(b.extent(1), 256);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, {.group_m = 8, .cluster = CLUSTER})) { // expected-warning {{132 persistent CTAs in clusters of 4 are more than the 120 that nvidia.h200_sxm keeps resident at once (cluster.resident_ctas.4) with one CTA per SM: the clusters past them start only when others end, a second wave; use 120 CTAs [tf:capacity-clusters]}}
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensorMulticast<CLUSTER>>(
          b.tile<64, 256>(k, n * 256), rhs_ring);
      [[tf::mesh(compute)]] acc =
          tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged =
        tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(
        staged, out.tile<128, 256>(m * 128, n * 256));
  }
}

} // namespace gemm
