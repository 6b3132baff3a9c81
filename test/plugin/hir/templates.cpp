// A kernel template: one HIR kernel per instantiation, each with its own
// substituted types, constants and mesh.
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin \
// RUN:   -fplugin-arg-tf-dump-hir %s 2>/dev/null > %t || true
// RUN: FileCheck %s --match-full-lines < %t
#include <tf/tf.hpp>

using Matrix = tf::Tensor<float, "(?,?)">;

template <int N> constexpr tf::Mesh lanes = tf::mesh("thread", tf::IntTuple{N});

template <int BM, class T>
[[tf::kernel(tf::topology("cta", 2), tf::topology("thread", BM))]]
void scale(Matrix x) {
  using Tile = tf::Tensor<T, "(?,16)", tf::rmem>;
  for (std::int64_t k : tf::tile_offsets(x.extent(0), BM)) {
    [[tf::mesh(lanes<BM>)]] {
      auto t = tf::zeros<Tile>({BM});
      tf::insert_slice(x, tf::cast<float>(t), k, 0);
    }
  }
}
template void scale<32, tf::bf16>(Matrix);
template void scale<64, float>(Matrix);

// CHECK:kernel scale<32, tf::bf16> at templates.cpp:14:6 topology cta=2 thread=32
// CHECK-NEXT:  mangled _Z5scaleILi32EN2tf4bf16EEvNS0_6Tensor{{.*}}
// CHECK-NEXT:  param %x : tensor<f32, (?,?):(?,1), gmem> at templates.cpp:14:12
// CHECK-NEXT:  for %k in tile_offsets(extent(%x, 0), 32) at templates.cpp:16:3 {
// CHECK-NEXT:    mesh lanes<BM> = Mesh(thread, (32):(1)) at templates.cpp:17:5 {
// CHECK-NEXT:      %t = zeros(32) : tensor<bf16, (?,16):(16,1), rmem> at templates.cpp:18:7 call templates.cpp:18:16
// CHECK-NEXT:        access (d0=?, d1=16): %t(d0, d1) write
// CHECK-NEXT:      %[[C:[0-9]+]] = cast<f32>(%t) : tensor<f32, (?,16):(16,1), rmem> at templates.cpp:19:27
// CHECK-NEXT:        access (d0=?, d1=16): %t(d0, d1) read, %[[C]](d0, d1) write
// CHECK-NEXT:      insert_slice(%x, %[[C]], %k, 0) at templates.cpp:19:7
// CHECK-NEXT:        access (d0=?, d1=16): %[[C]](d0, d1) read, %x[%k, 0 + ?x16](d0, d1) write
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-EMPTY:
// CHECK-NEXT:kernel scale<64, float> at templates.cpp:14:6 topology cta=2 thread=64
// CHECK-NEXT:  mangled _Z5scaleILi64EfEvN2tf6Tensor{{.*}}
// CHECK-NEXT:  param %x : tensor<f32, (?,?):(?,1), gmem> at templates.cpp:14:12
// CHECK-NEXT:  for %k in tile_offsets(extent(%x, 0), 64) at templates.cpp:16:3 {
// CHECK-NEXT:    mesh lanes<BM> = Mesh(thread, (64):(1)) at templates.cpp:17:5 {
// CHECK-NEXT:      %t = zeros(64) : tensor<f32, (?,16):(16,1), rmem> at templates.cpp:18:7 call templates.cpp:18:16
