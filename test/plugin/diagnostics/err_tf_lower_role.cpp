// Each mesh scope of threads is lowered as a role: a contiguous range of the
// CTA's threads, [begin, end), that runs its own program; scopes of the same
// range are one role, and roles are disjoint. A scope that is no contiguous
// range, or that overlaps another role partly, is refused once the kernel is
// lowered (emit=): one error per mesh, at its first scope, and one per pair
// of overlapping ranges, however many scopes use them; a kernel without any
// scope has no role to lower and is refused at the kernel. The check alone
// accepts these kernels. Nothing is written.
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify=check %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
// check-no-diagnostics
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, threads, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
using Staged = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;

// Register tiles on the first warp of each of warpgroups 1 and 2: threads
// [128, 160) and [256, 288), no one range. Two scopes of the mesh, one error.
inline constexpr tf::Mesh first_warps = threads.sub(tf::range(1, 3), tf::range(0, 32));
// Two rows per thread, each warp a half of the 128 x 64 tile.
using Rows = tf::Tensor<float, "((2@warpgroup,32@participant,2),64):((4096,128,64),1)", tf::rmem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void fill(Matrix out) {
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(out.extent(0), 128), tf::ceil_div(out.extent(1), 64))) {
    [[tf::mesh(first_warps)]] auto zero = tf::zeros<Rows>(); // expected-error {{mesh scope 'first_warps' (Mesh(thread, (2,32):(128,1) + 128, warpgroup, participant)) cannot be lowered as a role: it is not a contiguous range of threads [tf:lower-role]}}
    [[tf::mesh(first_warps)]] auto one = tf::zeros<Rows>();
  }
}

// The TMA thread is the first thread of warpgroup 1, which also computes:
// its range [128, 129) overlaps the consumers' [128, 384): one error, at the
// first scope of the mesh that overlaps one seen before.
namespace overlap {
inline constexpr tf::Mesh loader = threads.sub(1, tf::range(0, 1));
using Acc = Acc128x64<>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring); // expected-error {{mesh scope 'loader' (Mesh(thread, (1):(1) + 128, participant)) cannot be lowered as a role: its threads [128, 129) overlap those of 'compute' partly; roles are disjoint thread ranges [tf:lower-role]}}
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace overlap

// No mesh scope at all: nothing says which threads run what.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 1), tf::topology("thread", 128))]]
void nothing() {} // expected-error {{mesh scope the kernel (no mesh) cannot be lowered as a role: it has no mesh scope of threads, and each scope is lowered as a role [tf:lower-role]}}
} // namespace t
