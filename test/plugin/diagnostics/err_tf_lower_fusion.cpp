// An elementwise op in the epilogue is applied to the accumulator's fragment
// as the staging copy stores it (fusion); cuda_sm90 applies ops of one
// register tensor (cast, relu, neg, exp, gelu_tanh, gelu_erf, silu) that
// feed exactly one store, and rounds f32 in a fragment only to bf16, f16 or
// f32. A binary op (a bias, a residual, alpha/beta with C), or a cast to
// another type, is refused at the op, once the kernel is lowered (emit=); the
// check alone accepts them. Nothing is written.
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify=check %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
// check-no-diagnostics
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix
using Acc = Acc128x64<>;
// The f32 output tile, staged unswizzled.
using Staged = tf::Tensor<float, "(128,64):(64,1)", tf::smem>;
using Out = tf::Tensor<float, "(?,?)">;

// The epilogue adds a bias held in registers: tf::add has two operands.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm_bias(Matrix a, Matrix b, Out out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto bias = tf::zeros<Acc>();
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::add(acc, bias), staged_tile); // expected-error {{tf.add cannot be applied to the stored fragment by the cuda_sm90 backend: it takes 2 operands; only ops of one register tensor are applied to a fragment so far [tf:lower-fusion]}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}

// tf::relu applied to the accumulator, its result read twice (stored to two
// outputs). A fused op feeds exactly one store, but a named result is not a
// candidate for fusion at all: the relu is refused as an op without an
// instruction (err_tf_lower_undecided) before fusion runs, and fusion's own
// "read by another op too" refusal is not reached from source (an unnamed
// temporary is read once).
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm_relu(Matrix a, Matrix b, Out out, Out out_copy) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  auto copy_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto act = tf::relu(acc); // expected-error {{tf.relu has no instruction chosen, so its kernel cannot be lowered (tf candidates lists the instructions it could use) [tf:lower-undecided]}}
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(act, staged_tile);
    [[tf::mesh(compute)]] auto copied = tf::schedule<tf::Copy>(act, copy_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(copied, out_copy.tile<128, 64>(m * 128, n * 64));
  }
}

// The epilogue rounds through fp8 (e4m3) before storing f32: the fragment
// ops round f32 only to the types the store converts to.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm_fp8_round(Matrix a, Matrix b, Out out) {
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
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<float>(tf::cast<tf::fp8e4m3>(acc)), staged_tile); // expected-error {{tf.cast cannot be applied to the stored fragment by the cuda_sm90 backend: it rounds f32 only to bf16, f16 or f32 in a fragment, not to fp8e4m3 [tf:lower-fusion]}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace t
