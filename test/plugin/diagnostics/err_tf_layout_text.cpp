// err_tf_layout_text: layout text written as a template argument
// (tf::Tensor<T, "...">, tf::layout<"...">, Mesh::reshape<"...">) that tf's
// parser refuses is one error at the failing byte inside the string
// literal; what is built from it (the ring, the copies, the mesh) reports
// nothing more. Without the plugin the same mistake is one static_assert
// (the second RUN line), the parser's message and a caret in its text; a
// mesh reshaped by it is then also no constant (clang gives up on a
// function whose instantiation failed a static_assert), a second error only
// header-only compiles show.
// RUN: %tf-cc1 -verify %s
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include %s 2>&1 | FileCheck %s --check-prefix=HEADER --implicit-check-not=error:
#include "../Inputs/gemm_meshes.hpp"
// The mesh is instantiated where it is declared, the tensor type where the
// kernel first uses it:
// HEADER: error: static assertion failed due to requirement 'result.ok()': tf: malformed layout text: expected ',' or ')' to close the tuple
// HEADER-NEXT: {{^}}    (1{{$}}
// HEADER-NEXT: {{^}}      ^{{$}}
// HEADER: error: constexpr variable 'warps' must be initialized by a constant expression
// HEADER: error: static assertion failed due to requirement 'result.ok()': tf: malformed layout text: expected ',' or ')' to close the tuple
// HEADER-NEXT: {{^}}    ((2,8,8),(4,16):((4096,512,64),(16,1)){{$}}
// HEADER-NEXT: {{^}}                   ^{{$}}

namespace t {
using namespace gemm_test; // cta, loader, Matrix

// expected-error@+1 {{malformed layout text: expected ',' or ')' to close the tuple [tf:layout-text]}}
using Slot = tf::Tensor<tf::bf16, "((2,8,8),(4,16):((4096,512,64),(16,1))", tf::smem>;

// expected-error@+1 {{malformed layout text: expected ',' or ')' to close the tuple}}
inline constexpr tf::Mesh warps = loader.reshape<"(1">("one");

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void uses_it(Matrix a) {
  tf::Ring<Slot, 2> ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), 1)) {
    (void)n;
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto x =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), ring);
      (void)x;
    }
  }
}
} // namespace t
