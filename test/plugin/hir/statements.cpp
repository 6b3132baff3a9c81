// Every statement, loop and op kind of the HIR, dumped.
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin \
// RUN:   -fplugin-arg-tf-dump-hir %s 2>/dev/null > %t || true
// RUN: FileCheck %s --match-full-lines < %t
#include <tf/tf.hpp>

namespace hir {
using Tile = tf::Tensor<float, "(64,32)", tf::rmem>;
using Slot = tf::Tensor<float, "(64,32)", tf::smem>;
using Vec = tf::Tensor<float, "(64)", tf::rmem>;
using Matrix = tf::Tensor<float, "(?,?)">;
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(8)">, "grid");
inline constexpr tf::Mesh warp = tf::mesh("thread", tf::layout<"(32)">, "lane");
constexpr int Step = 32;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 8), tf::topology("thread", 32))]]
void ops(Matrix x, Matrix y, std::int64_t n) {
  tf::Ring<Slot, 2> ring;
  constexpr int Unused = 3 * Step;        // constants leave no trace
  const std::int64_t rows = std::min(x.extent(0), n) - 1;
  for (auto [m, j] : tf::persistent_tiles(cta, rows, 4, {.group_m = 2, .column_major = true})) {
    [[tf::mesh(warp)]] {
      auto acc = tf::zeros<Tile>();
      for (std::int64_t k : tf::tile_offsets<Step>(x.extent(1))) {
        auto slot = ring.next();
        tf::copy(x.tile<64, 32>(m * 64, k), slot);
        acc = tf::add(acc, tf::cast<float>(slot));
      }
      auto sums = tf::reduce_sum<1>(acc);
      (void)sums;
      [[tf::mesh(warp)]] tf::insert_slice(y, acc, m * 64, j / 2);
    }
    if constexpr (Step > 16) {
      auto e = tf::empty<Vec>();
      ;
    }
  }
}
} // namespace hir

// CHECK:kernel hir::ops at statements.cpp:[[@LINE-24]]:6 target nvidia.h200_sxm topology cta=8 thread=32
// CHECK-NEXT:  mangled _ZN3hir3opsE{{.*}}
// CHECK-NEXT:  param %x : tensor<f32, (?,?):(?,1), gmem> at statements.cpp:[[@LINE-26]]:10
// CHECK-NEXT:  param %y : tensor<f32, (?,?):(?,1), gmem> at statements.cpp:[[@LINE-27]]:20
// CHECK-NEXT:  param %n : index at statements.cpp:[[@LINE-28]]:30
// CHECK-NEXT:  %ring = alloc ring<2 x tensor<f32, (64,32):(32,1), smem>> at statements.cpp:[[@LINE-28]]:3
// CHECK-NEXT:  %rows = let (min(extent(%x, 0), %n) - 1) : index at statements.cpp:[[@LINE-27]]:3
// CHECK-NEXT:  for (%m, %j) in persistent_tiles(Mesh(cta, (8):(1), grid), %rows, 4, group_m=2, column_major) at statements.cpp:[[@LINE-27]]:3 {
// CHECK-NEXT:    mesh warp = Mesh(thread, (32):(1), lane) at statements.cpp:[[@LINE-27]]:5 {
// CHECK-NEXT:      %acc = zeros() : tensor<f32, (64,32):(32,1), rmem> at statements.cpp:[[@LINE-27]]:7 call statements.cpp:[[@LINE-27]]:18
// CHECK-NEXT:        access (d0=64, d1=32): %acc(d0, d1) write
// CHECK-NEXT:      for %k in tile_offsets(extent(%x, 1), 32) at statements.cpp:[[@LINE-28]]:7 {
// CHECK-NEXT:        %slot = ring_next(%ring) : tensor<f32, (64,32):(32,1), smem> at statements.cpp:[[@LINE-28]]:9 call statements.cpp:[[@LINE-28]]:21
// CHECK-NEXT:          access (): %ring() readwrite
// CHECK-NEXT:        copy(%x.tile<64x32>((%m * 64), %k), %slot) at statements.cpp:[[@LINE-29]]:9
// CHECK-NEXT:          access (d0=64, d1=32): %x[(%m * 64), %k + 64x32](d0, d1) read, %slot(d0, d1) write
// CHECK-NEXT:        %[[CAST:[0-9]+]] = cast<f32>(%slot) : tensor<f32, (64,32):(32,1), rmem> at statements.cpp:[[@LINE-30]]:28
// CHECK-NEXT:          access (d0=64, d1=32): %slot(d0, d1) read, %[[CAST]](d0, d1) write
// CHECK-NEXT:        %acc = add(%acc, %[[CAST]]) : tensor<f32, (64,32):(32,1), rmem> assigns at statements.cpp:[[@LINE-32]]:9 call statements.cpp:[[@LINE-32]]:15
// CHECK-NEXT:          access (d0=64, d1=32): %acc(d0, d1) read, %[[CAST]](d0, d1) read, %acc(d0, d1) write
// CHECK-NEXT:      }
// CHECK-NEXT:      %sums = reduce_sum(%acc) : tensor<f32, (64):(1), rmem> at statements.cpp:[[@LINE-33]]:7 call statements.cpp:[[@LINE-33]]:19
// CHECK-NEXT:        access (d0=64, d1=32): %acc(d0, d1) read, %sums(d0) write
// CHECK-NEXT:      mesh warp = Mesh(thread, (32):(1), lane) at statements.cpp:[[@LINE-33]]:7 {
// CHECK-NEXT:        insert_slice(%y, %acc, (%m * 64), (%j / 2)) at statements.cpp:[[@LINE-34]]:26
// CHECK-NEXT:          access (d0=64, d1=32): %acc(d0, d1) read, %y[(%m * 64), (%j / 2) + 64x32](d0, d1) write
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    block at statements.cpp:[[@LINE-36]]:30 {
// CHECK-NEXT:      %e = empty() : tensor<f32, (64):(1), rmem> at statements.cpp:[[@LINE-36]]:7 call statements.cpp:[[@LINE-36]]:16
// CHECK-NEXT:        access (d0=64): %e(d0) write
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-EMPTY:
