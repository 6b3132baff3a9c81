// warn_tf_capacity_registers: two 128 x 256 f32 accumulators over the 256
// compute threads (128 registers each per thread) and the bf16 copy of one
// of them (64) are live at the same time: 320 registers per thread, over
// the 255 of thread.registers.max. The notes list the live values.
// RUN: %tf-cc1 -verify %s
// RUN: %tf-cc1 -verify=silenced -plugin-arg-tf Wno-capacity-registers %s
// RUN: %tf-cc1 -verify=silenced -plugin-arg-tf Wno-capacity %s
// RUN: %tf-cc1 -verify=werror -plugin-arg-tf Werror=capacity-registers %s
// silenced-no-diagnostics
#include "../Inputs/gemm_meshes.hpp"

namespace regs {

using namespace gemm_test; // compute
using Acc = Acc128x256<>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             tf::topology("thread", 384))]]
void twice(tf::Tensor<tf::bf16, "(?,?)"> out) {
  [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();  // expected-note {{'acc' holds 128 f32 per thread: 128 registers}} werror-note {{'acc' holds 128 f32 per thread: 128 registers}}
  [[tf::mesh(compute)]] auto acc2 = tf::zeros<Acc>(); // expected-note {{'acc2' holds 128 f32 per thread: 128 registers}} werror-note {{'acc2' holds 128 f32 per thread: 128 registers}}
  // expected-warning@+3 {{the register tensors live here need 320 registers per thread on mesh Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, lane8, lane4), over the 255 of nvidia.h200_sxm (thread.registers.max)}}
  // werror-error@+2 {{the register tensors live here need 320 registers per thread on mesh Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, lane8, lane4), over the 255 of nvidia.h200_sxm (thread.registers.max)}}
  // expected-note@+1 {{'lo' holds 128 bf16 per thread: 64 registers}} werror-note@+1 {{'lo' holds 128 bf16 per thread: 64 registers}}
  [[tf::mesh(compute)]] auto lo = tf::cast<tf::bf16>(acc);
  [[tf::mesh(compute)]] auto hi = tf::cast<tf::bf16>(acc2);
  (void)out;
  (void)lo;
  (void)hi;
}

} // namespace regs
