// [[tf::layout]] on a declaration reaches the HIR like a layout in the type:
// the written layout replaces the type's (same shape), in each of its forms.
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin \
// RUN:   -fplugin-arg-tf-dump-hir %s 2>/dev/null > %t || true
// RUN: FileCheck %s < %t
#include <tf/tf.hpp>

namespace hir {
using Slot = tf::Tensor<tf::bf16, "(128,64)", tf::smem>;
using Acc = tf::Tensor<float, "(64,256)", tf::rmem>;
inline constexpr tf::Mesh warps = tf::mesh("thread", tf::layout<"(4,8,4)">, "warp", "lane8", "lane4");
inline constexpr tf::ComposedLayout swizzled =
    tf::composed_layout<"Swizzle(3,4,3) o ((2,8,8),(4,16)):((4096,512,64),(16,1))">;

[[tf::kernel(tf::topology("cta", 1), tf::topology("thread", 128))]]
void annotated() {
  // CHECK: %plain = empty() : tensor<bf16, (128,64):(64,1), smem>
  auto plain = tf::empty<Slot>();
  // CHECK: %text = empty() : tensor<bf16, (128,64):(1,128), smem>
  [[tf::layout("(128,64):(1,128)")]] auto text = tf::empty<Slot>();
  // CHECK: %composed = empty() : tensor<bf16, ((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3), smem>
  [[tf::layout(swizzled)]] auto composed = tf::empty<Slot>();
  [[tf::mesh(warps)]] {
    // CHECK: %acc = zeros() : tensor<f32, ((4@warp,2,8@lane8),(32,4@lane4,2)):((16,8,1),(512,128,64)), rmem>
    [[tf::layout("((4@warp,2,8@lane8),(32,4@lane4,2)):((16,8,1),(512,128,64))")]]
    auto acc = tf::zeros<Acc>();
  }
}
} // namespace hir
