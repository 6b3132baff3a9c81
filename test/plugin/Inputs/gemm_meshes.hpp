// Declarations shared by the plugin's GEMM tests (diagnostics/, contracts/,
// capacity/): the meshes of a persistent H200 GEMM with one loader thread and
// two compute warpgroups, its accumulators, and the shared-memory slots,
// WGMMA atom and operands of its 128 x 64 x 64 tile.
//
// A test brings them in with `using namespace gemm_test;` inside its own
// namespace; a declaration of the same name there (a warp as loader, an
// unswizzled slot, ...) hides the one here, so each test spells out only
// where it differs.
#pragma once
#include <tf/tf.hpp>

namespace gemm_test {

// One CTA per SM of the H200, each looping over tiles.
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
// Three warpgroups: one thread of the first loads, the other two compute.
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 1));
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_)
                                        .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");

// The accumulator of a 128 x 64 tile over `compute` (the register fragment of
// two rows of WGMMA 64 x 64), with elements of type T.
template <class T = float>
using Acc128x64 = tf::Tensor<T, "((2@group,4@warp,2,8@lane8),(8,4@lane4,2)):((4096,16,8,1),(512,128,64))", tf::rmem>;
// The accumulator of a 128 x 256 tile over `compute`: 128 f32 per thread.
template <class T = float>
using Acc128x256 = tf::Tensor<T,
                              "((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"
                              ":((16384,16,8,1),(512,128,64))",
                              tf::rmem>;

// WGMMA 64 x 64 x 16 on bf16 operands in shared memory, K-major.
using Wgmma = tf::nv::sm90::Wgmma<64, tf::bf16, tf::Form::SS, tf::Major::K>;
// The swizzled slots of a 128 x 64 x 64 tile: TMA fills them, WGMMA reads them.
using LhsSlot = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16, "(64,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
// A bf16 matrix in global memory whose extents are known at run time.
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

} // namespace gemm_test
