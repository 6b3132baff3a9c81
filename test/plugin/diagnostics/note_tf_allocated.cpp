// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify %s
// An allocation whose layout gives two elements one place
// (err_tf_layout_overlap) is reported at the layout's stride; a note points
// at the allocation that owns the storage. Here a shared-memory tile whose
// columns overlap its rows.
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // Matrix

// expected-error@+1 {{'tile' has its own smem storage, but its layout puts coordinates (0,8) and (1,0) at one offset, 8: each element needs a place of its own [tf:layout-overlap]}}
using Tile = tf::Tensor<float, "(16,16):(8,1)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void k(Matrix a) {
  auto tile = tf::empty<Tile>(); // expected-note {{'tile' is allocated here}}
}
} // namespace t
