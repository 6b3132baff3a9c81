//===- test/layout/seed_meshes.hpp - The H200 GEMM's meshes ---------------===//
//
// The meshes of the H200 GEMM of examples/gemm/optimal.cpp, shared by the
// mesh and shard tests: threads, a loader warp threads[0, :32] (optimal.cpp
// loads with the first thread alone), its consumers threads[1:3, :] reshaped
// to (2,4,8,4), and the persistent CTA mesh.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/mesh.hpp"

namespace tf_test {

constexpr tf::Layout L(tf::IntTuple shape, tf::IntTuple stride) {
  return {shape, stride};
}

inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::IntTuple{3, 128}, "warpgroup", "participant");
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 32));
inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_).reshape(
    tf::IntTuple{2, 4, 8, 4}, "group", "warp", "lane8", "lane4");
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::IntTuple{132}, "persistent");

} // namespace tf_test
