// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -I %S -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify %s
// RUN: not %clangxx %{tf} -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
// Applying the fix-it gives a kernel the plugin accepts (the '>>' that closes
// both templates keeps its second '>').
// RUN: cp %s %t.cpp && not %clangxx %{tf} -Xclang -fixit %t.cpp
// RUN: %clangxx %{tf} %t.cpp
// RUN: FileCheck %s --check-prefix=FIXED < %t.cpp
// (-I %S: the copy %t.cpp finds ../Inputs/gemm_meshes.hpp from this directory.)
// A written Repeat that differs from the derived one, with a fix-it writing the derived Repeat.
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
using Acc = Acc128x64<>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring); 
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); 
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 2>>(acc, lhs, rhs); // expected-error {{written Repeat<2, 1, 2> disagrees with the derived Repeat<2, 1, 4> of nv.sm90.Wgmma: tile (128, 64, 64) over atom (64, 64, 16)}} expected-note {{contract nv.sm90.Wgmma, repeat: written (2,1,2), derived (2,1,4)}} expected-note {{derived Repeat<2, 1, 4> = tile (128, 64, 64) / atom (64, 64, 16): M: 2 side by side on group; K: 4 one after another}}
// CHECK: fix-it:"{{.*}}err_tf_repeat_mismatch.cpp":{[[#@LINE-1]]:69-[[#@LINE-1]]:88}:"tf::Repeat<2, 1, 4>"
// FIXED: {{^ +\[\[tf::mesh\(compute\)\]\] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>\(acc, lhs, rhs\);}}
    }
  }
}
} // namespace t
