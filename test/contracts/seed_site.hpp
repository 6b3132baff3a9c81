//===- test/contracts/seed_site.hpp - The H200 GEMM's WGMMA site ----------===//
//
// The WGMMA use of examples/gemm/optimal.cpp (decision (6)): the compute mesh
// threads[1:3, :] reshaped to (2,4,8,4), the A/B shared-memory slots of
// decision (4), the accumulator of decision (3), Wgmma(n=256, bf16, SS,
// a_major=K) with b_major=MN (the B slot is N-major), repeat (2,1,4).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/nv/sm90/wgmma.hpp"
#include "tf/contract/match.hpp"
#include "tf/layout/mesh.hpp"
#include "tf/layout/text.hpp"

namespace seed {

inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::IntTuple{3, 128}, "warpgroup", "participant");
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_).reshape(
    tf::IntTuple{2, 4, 8, 4}, "group", "warp", "lane8", "lane4");
inline constexpr tf::Mesh grid_cta =
    tf::mesh("cta", tf::IntTuple{64, 68}, "bm", "bn");

inline constexpr tf::ComposedLayout lhs_slot =
    tf::composed_layout<"((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)">;
inline constexpr tf::ComposedLayout rhs_slot =
    tf::composed_layout<"((4,2,8),(4,64)):((4096,512,64),(1024,1)) | Swizzle(3,4,3)">;

/// The accumulator (2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,...).
constexpr tf::ShardLayout acc_layout(const tf::Mesh &mesh = compute) {
  tf::LayoutText t =
      tf::parse_layout_text("(2@group,4@warp,2,8@lane8,32,4@lane4,2):"
                            "(16384,16,8,1,512,128,64)")
          .value();
  return tf::make_shard(t.layout, t.axes, mesh).value();
}

inline constexpr tf::Name sm90_caps[] = {"wgmma.mma_async", "wgmma.fence",
                                         "mma.sync", "mma.sync.fp8"};

constexpr tf::Site gemm_site() {
  tf::Site s;
  s.mesh = compute;
  s.params = {tf::arg("n", 256), tf::arg("dtype", tf::DType::bf16),
              tf::arg("form", tf::choice("SS")),
              tf::arg("a_major", tf::choice("K")),
              tf::arg("b_major", tf::choice("MN"))};
  s.operands = {
      tf::site_operand("A", {128, 64}, tf::DType::bf16, tf::Storage::smem, lhs_slot),
      tf::site_operand("B", {64, 256}, tf::DType::bf16, tf::Storage::smem, rhs_slot),
      tf::site_operand("C", {128, 256}, tf::DType::f32, tf::Storage::rmem, acc_layout()),
  };
  s.check_capabilities = true;
  s.capabilities = sm90_caps;
  s.repeat = {2, 1, 4};
  return s;
}

} // namespace seed
