// Lowering needs a target with a backend (cuda_sm90 serves nvidia.sm90 and
// the devices of that architecture) and a kernel of two topologies, CTAs and
// a static number of threads per CTA. Otherwise the kernel is refused with
// -fplugin-arg-tf-emit=DIR, at its tf::target argument or its name, and no
// file is written; the check alone accepts both kernels.
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify=check %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
// check-no-diagnostics
#include "../Inputs/gemm_meshes.hpp"

// A tile copy on the AMX host: no backend lowers intel.amx.
namespace amx {
inline constexpr tf::Mesh cores = tf::mesh("core", tf::layout<"(16)">, "persistent");
inline constexpr tf::Mesh thread = tf::mesh("thread", tf::layout<"(1)">);
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

[[tf::kernel(tf::target("intel.xeon_amx"), tf::topology("core", 16), tf::topology("thread", 1))]] // expected-error {{kernel 'amx::copy' cannot be lowered: target 'intel.xeon_amx' has no backend; backends exist for nvidia.sm90 (cuda_sm90) [tf:lower-target]}}
void copy(Matrix a, Matrix out) {
  for (auto [m, n] : tf::persistent_tiles(cores, tf::ceil_div(a.extent(0), 16), tf::ceil_div(a.extent(1), 32))) {
    [[tf::mesh(thread)]] tf::schedule<tf::Copy>(a.tile<16, 32>(m * 16, n * 32), out.tile<16, 32>(m * 16, n * 32));
  }
}
} // namespace amx

// The H200 GEMM with a thread count chosen at launch.
namespace dynamic_threads {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
using Acc = Acc128x64<>;
using Staged = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", tf::dyn))]]
void gemm(Matrix a, Matrix b, Matrix out) { // expected-error {{kernel 'dynamic_threads::gemm' cannot be lowered: it is lowered from two topologies, CTAs and a static count of threads per CTA [tf:lower-target]}}
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace dynamic_threads
