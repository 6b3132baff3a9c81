// warn_tf_capacity_smem: five stages of the H200 GEMM's rings of swizzled
// tiles (examples/gemm/optimal.cpp) need 5 x (16 + 32) KiB + 64 KiB = 304 KiB
// of shared memory per CTA, over the 227 KiB of cta.shared_memory.max (three
// stages, 208 KiB, fit). A warning at the largest allocation (B's ring), the
// others in notes; tf's groups silence it or make it an error.
// RUN: %tf-cc1 -verify %s
// RUN: %tf-cc1 -verify=silenced -plugin-arg-tf Wno-capacity-smem %s
// RUN: %tf-cc1 -verify=silenced -plugin-arg-tf Wno-capacity %s
// RUN: %tf-cc1 -verify=werror -plugin-arg-tf Werror=capacity-smem %s
// RUN: %tf-cc1 -verify=werror -plugin-arg-tf Werror=capacity %s
// Clang's own switches apply too (tf's groups are inside
// -Wuser-defined-warnings):
// RUN: %tf-cc1 -verify=silenced -w %s
// RUN: %tf-cc1 -verify=silenced -Wno-user-defined-warnings %s
// RUN: %tf-cc1 -verify=werror -Werror %s
// RUN: %tf-cc1 -verify=werror -Werror=user-defined-warnings %s
// RUN: %tf-cc1 -verify=fits -DSTAGES=3 %s
// silenced-no-diagnostics
// fits-no-diagnostics
#include <tf/tf.hpp>

#ifndef STAGES
#define STAGES 5
#endif

namespace gemm {

using LhsSlot = tf::Tensor<tf::bf16,
                           "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)",
                           tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16,
                           "((4,2,8),(4,64)):((4096,512,64),(1024,1)) | Swizzle(3,4,3)",
                           tf::smem>;
using Staged = tf::Tensor<tf::bf16, "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)",
                          tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             tf::topology("thread", 384))]]
void gemm(tf::Tensor<tf::bf16, "(?,?)"> out) {
  tf::Ring<LhsSlot, STAGES> lhs_ring; // expected-note {{lhs_ring: 5 x 16 KiB = 80 KiB}} werror-note {{lhs_ring: 5 x 16 KiB = 80 KiB}}
  // expected-warning@+2 {{kernel 'gemm::gemm' uses 304 KiB of shared memory per CTA, over the 227 KiB of nvidia.h200_sxm (cta.shared_memory.max); the largest allocation is rhs_ring: 5 x 32 KiB = 160 KiB}}
  // werror-error@+1 {{kernel 'gemm::gemm' uses 304 KiB of shared memory per CTA, over the 227 KiB of nvidia.h200_sxm (cta.shared_memory.max); the largest allocation is rhs_ring: 5 x 32 KiB = 160 KiB}}
  tf::Ring<RhsSlot, STAGES> rhs_ring;
  auto staged_tile = tf::empty<Staged>(); // expected-note {{staged_tile: 64 KiB}} werror-note {{staged_tile: 64 KiB}}
  (void)out;
}

} // namespace gemm
