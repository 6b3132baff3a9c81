// A decided site whose contract accepts it but which the target's backend
// cannot lower is an error at the site when the kernel is checked: legal
// means lowerable, so nothing waits for -fplugin-arg-tf-emit. The reason is
// the backend's (cuda_sm90 for the H200). With emit= the same errors, and no
// file is written. (What only the lowered kernel shows, the backend's rules
// refuse with the same error when it is lowered: test/plugin/emit/rules.cpp.)
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
#include "../Inputs/gemm_meshes.hpp"
#include <tf/atoms/nv/sm80/mma.hpp>

// The TMA thread also loads the residual tile C with ordinary loads
// (generic.Copy, issued by one thread) into shared memory, beside its TMA
// loads of A and B: cuda_sm90 loads global tiles into shared memory with TMA.
namespace residual {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
using Acc = Acc128x64<>;
using Tile = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Matrix c) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto residual_tile = tf::empty<Tile>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(loader)]] tf::schedule<tf::Copy>(c.tile<128, 64>(m * 128, n * 64), residual_tile); // expected-error {{tf.schedule as generic.Copy cannot be lowered by the cuda_sm90 backend: cuda_sm90 lowers generic.Copy only from a register tensor into a shared-memory buffer (the staged epilogue); this one copies gmem into smem (a global tile goes into shared memory by nv.sm90.CopyAsyncTensor, TMA) [tf:lower-op]}}
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
  }
}
} // namespace residual

// The epilogue stores the accumulator from registers straight into global
// memory (generic.Copy, rmem -> gmem): cuda_sm90 stages it through a
// shared-memory buffer and stores that with TMA.
namespace direct_store {
using namespace gemm_test;
using Acc = Acc128x64<>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), out.tile<128, 64>(m * 128, n * 64)); // expected-error {{tf.schedule as generic.Copy cannot be lowered by the cuda_sm90 backend: cuda_sm90 lowers generic.Copy only from a register tensor into a shared-memory buffer (the staged epilogue); this one copies rmem into gmem (a global tile goes into shared memory by nv.sm90.CopyAsyncTensor, TMA) [tf:lower-op]}}
  }
}
} // namespace direct_store

// mma.sync (nv.sm80.Mma) on the H200: Hopper runs it and its contract accepts
// the site (one warp, every operand in its PTX fragment), but cuda_sm90 lowers
// WGMMA only.
namespace mma_sync {
// mma.sync.m16n8k16 on bf16, the atom type of contract nv.sm80.Mma.
struct MmaSync {
  static constexpr const tf::Contract &contract = tf::atoms::nv::sm80::mma;
  static constexpr std::string_view spelling = "MmaSync";
  using element_type = tf::bf16;
  static constexpr tf::DType dtype = tf::DType::bf16;
  static constexpr tf::Form form = tf::Form::RS;
  static constexpr tf::detail::AtomParams params = tf::detail::with_derived(
      tf::atoms::nv::sm80::mma, tf::detail::AtomParams{{"dtype", tf::ParamValue::of(tf::DType::bf16)},
                                                       {"k", tf::ParamValue::of(std::int64_t(16))}});
  static constexpr std::int64_t atom_m = 16, atom_n = 8, atom_k = 16;
  static constexpr tf::Name lhs_operand = "A", rhs_operand = "B", acc_operand = "C";
};

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
// One warp as mma.sync sees it: groupID x threadID_in_group.
inline constexpr tf::Mesh warp = tf::mesh("thread", tf::layout<"(8,4)">, "gid", "tid");
// The PTX fragments of m16n8k16 (A 16 x 16, B 16 x 8, C 16 x 8) over the warp.
using AFrag = tf::Tensor<tf::bf16, "((2,8@gid),(2,4@tid,2)):((8,1),(128,32,16))", tf::rmem>;
using BFrag = tf::Tensor<tf::bf16, "((2,4@tid,2),(8@gid)):((8,2,1),(16))", tf::rmem>;
using Acc = tf::Tensor<float, "((2,8@gid),(4@tid,2)):((8,1),(32,16))", tf::rmem>;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 32))]]
void gemm(Matrix a, Matrix b) {
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 16), tf::ceil_div(b.extent(1), 8))) {
    [[tf::mesh(warp)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 16)) {
      [[tf::mesh(warp)]] auto lhs = tf::zeros<AFrag>();
      [[tf::mesh(warp)]] auto rhs = tf::zeros<BFrag>();
      [[tf::mesh(warp)]] acc = tf::schedule<tf::TiledMma<MmaSync>>(acc, lhs, rhs); // expected-error {{tf.schedule as nv.sm80.Mma cannot be lowered by the cuda_sm90 backend: cuda_sm90 has no lowering for nv.sm80.Mma; it lowers nv.sm90.CopyAsyncTensor, nv.sm90.Wgmma and generic.Copy into a shared-memory buffer [tf:lower-op]}}
    }
  }
}
} // namespace mma_sync

// The epilogue zero-fills the output through the staged tile: cuda_sm90 stores
// WGMMA accumulator fragments, and no WGMMA computes this one.
namespace zero_fill {
using namespace gemm_test;
using Acc = Acc128x64<>;
using Staged = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void fill(Matrix out) {
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(out.extent(0), 128), tf::ceil_div(out.extent(1), 64))) {
    [[tf::mesh(compute)]] auto zero = tf::zeros<Acc>();
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(zero), staged_tile); // expected-error {{tf.schedule as generic.Copy cannot be lowered by the cuda_sm90 backend: cuda_sm90 stages WGMMA accumulators (their registers are the fragment it stores); 'zero' is accumulated by no nv.sm90.Wgmma [tf:lower-op]}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace zero_fill

// The result is staged as fp8 (e4m3): the epilogue converts f32 pairs into
// 32-bit words of bf16, f16 or f32 only.
namespace fp8_out {
using namespace gemm_test;
using Acc = Acc128x64<>;
using Staged = tf::Tensor<tf::fp8e4m3, "(128,64):(64,1) | Swizzle(2,4,3)", tf::smem>;
using Out = tf::Tensor<tf::fp8e4m3, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Out out) {
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
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::fp8e4m3>(acc), staged_tile); // expected-error {{tf.schedule as generic.Copy cannot be lowered by the cuda_sm90 backend: cuda_sm90 stores accumulators as bf16, f16 or f32; 'staged_tile' holds fp8e4m3 [tf:lower-op]}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace fp8_out
