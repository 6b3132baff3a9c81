// `report` prints every site in source order, one per line; without
// arguments the plugin prints nothing (clangd runs it that way).
// RUN: %tf-cc1 -plugin-arg-tf report %s | FileCheck %s --match-full-lines
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -fplugin-arg-tf-report %s | FileCheck %s --match-full-lines
// RUN: %tf-cc1 %s | count 0
#include "tf/layout/composed_layout.hpp"
#include "tf/layout/mesh.hpp"
#include "tf/layout/topology.hpp"

namespace ex {
constexpr tf::Mesh warp = tf::mesh("thread", tf::IntTuple{32}, "lane");
constexpr tf::Layout tile = tf::make_layout(tf::IntTuple{8, 64});
constexpr tf::ComposedLayout swizzled{tf::Swizzle{3, 4, 3}, tf::Int(0), tile};

struct Staged {
  // CHECK:layout at {{.*}}report.cpp:[[@LINE+1]]:5 on field 'values': Layout (8,64):(64,1)
  [[tf::layout(tile)]] float values[8 * 64];
};

// Not a kernel: its sites say where they are.
void helper(int x) {
  // CHECK-NEXT:mesh at {{.*}}report.cpp:[[@LINE+1]]:5 on expression statement in ex::helper: Mesh(thread, (32):(1), lane)
  [[tf::mesh(warp)]] x = 1;
}

// CHECK-NEXT:kernel ex::k at {{.*}}report.cpp:[[@LINE+4]]:6
// CHECK-NEXT:  argument 1: Topology(cta, 132)
// CHECK-NEXT:  argument 2: Topology(thread, 32)
[[tf::kernel(tf::topology("cta", 132), tf::topology("thread", 32))]]
void k([[tf::layout(swizzled)]] int p) {
  // CHECK-NEXT:  layout at {{.*}}report.cpp:[[@LINE-1]]:10 on parameter 'p': ComposedLayout (8,64):(64,1) | Swizzle(3,4,3)
  // CHECK-NEXT:  mesh at {{.*}}report.cpp:[[@LINE+1]]:5 on compound statement: Mesh(thread, (32):(1), lane)
  [[tf::mesh(warp)]] { p += 1; }
  // CHECK-NEXT:  layout at {{.*}}report.cpp:[[@LINE+1]]:5 on variable 'q': "(2,4):(4,1)" = (2,4):(4,1)
  [[tf::layout("(2,4):(4,1)")]] int q = p;
}
} // namespace ex
// CHECK-EMPTY:
