//===- examples/layout/annotated.cpp - tf attributes on a kernel ----------===//
//
// The three tf attributes on one function, with the meshes of the H200 GEMM
// of examples/gemm/optimal.cpp. Compiles with any C++20 compiler;
// with the plugin, `report` prints what it found:
//
//   clang++-22 -std=c++20 -fsyntax-only -I include -fplugin=build/lib/tf.so \
//       -fplugin-arg-tf-report examples/layout/annotated.cpp
//
// Tested by test/plugin/example_annotated.test.
//
//===----------------------------------------------------------------------===//

#include "tf/layout/mesh.hpp"
#include "tf/layout/text.hpp"
#include "tf/layout/topology.hpp"

namespace ex {

constexpr int CTAS = 132;

// 384 threads: three warpgroups of 128 (the thread topology).
constexpr tf::Mesh threads = tf::mesh("thread", tf::layout<"(3,128)">,
                                      "warpgroup", "participant");
// Warpgroups 1 and 2 compute; as a (2,4,8,4) mesh of groups, warps and lanes.
constexpr tf::Mesh compute =
    threads.sub(tf::range(1, 3), tf::_)
        .reshape(tf::IntTuple{2, 4, 8, 4}, "group", "warp", "lane8", "lane4");
// Warp 0 of warpgroup 0 loads.
constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 32));

// The row-major 128x64 bf16 tile of the left operand.
constexpr tf::Layout lhs_tile = tf::layout<"((2,8,8),(4,16)):((4096,512,64),(16,1))">;

[[tf::kernel(tf::topology("cta", CTAS), tf::topology("thread", 384))]]
void gemm_step(float *acc, const float *lhs, int k) {
  [[tf::mesh(loader)]] [[tf::layout(lhs_tile)]] auto staged = lhs[k];
  [[tf::mesh(compute)]] {
    acc[0] += staged;
  }
  [[tf::mesh(compute), tf::layout("(2@group,4@warp,8@lane8,4@lane4):(128,32,4,1)")]]
  acc[1] = acc[0];
}

} // namespace ex

int main() {
  float acc[2] = {0, 0};
  const float lhs[1] = {1};
  ex::gemm_step(acc, lhs, 0);
  return acc[1] == 1 ? 0 : 1;
}
