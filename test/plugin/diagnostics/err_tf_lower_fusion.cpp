// An elementwise op in the epilogue is applied to the accumulator's fragment
// as the staging copy stores it (fusion); cuda_sm90 applies ops of one
// register tensor (cast, relu, neg, exp, gelu_tanh, gelu_erf, silu), tf::scale
// by a float kernel parameter and tf::add of a tile of a global tensor
// parameter (C, a residual, a bias through tf::broadcast) with unary ops of
// its own, each feeding exactly one store, and rounds f32 in a fragment only
// to bf16, f16 or f32. Anything else -- an add of a register tensor, another
// binary op, a scale by a literal, an add inside an added operand, a read
// tensor of fp8, a cast to another type -- is refused at the op, once the
// kernel is lowered (emit=); the check alone accepts them. Nothing is
// written.
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

// The epilogue adds a bias held in registers: an added operand is read from
// global memory.
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
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::add(acc, bias), staged_tile); // expected-error {{tf.add cannot be applied to the stored fragment by the cuda_sm90 backend: both of its operands are computed in registers; an add applied to a fragment adds a tile read from global memory [tf:lower-fusion]}}
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
using Fp8Matrix = tf::Tensor<tf::fp8e4m3, "(?,?)">;

// Epilogues with operands the store cannot apply, one kernel and refusal each.
// A scale by a literal: the factor is a float kernel parameter.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm_scale_literal(Matrix a, Matrix b, Matrix c, Fp8Matrix c8, Out out, float alpha) {
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
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::scale(acc, 2.0f), staged_tile); // expected-error {{tf.scale cannot be applied to the stored fragment by the cuda_sm90 backend: its factor is not a float kernel parameter; a fragment is scaled by one (`float alpha` in the kernel's parameters) [tf:lower-fusion]}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}

// A subtraction: of the ops of two operands only the add is applied.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm_sub(Matrix a, Matrix b, Matrix c, Fp8Matrix c8, Out out, float alpha) {
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
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::sub(acc, tf::cast<float>(c.tile<128, 64>(m * 128, n * 64))), staged_tile); // expected-error {{tf.sub cannot be applied to the stored fragment by the cuda_sm90 backend: of the ops of two operands only tf.add is applied to a fragment so far [tf:lower-fusion]}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}

// Two tiles added to each other before they meet the accumulator.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm_nested_add(Matrix a, Matrix b, Matrix c, Fp8Matrix c8, Out out, float alpha) {
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
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::add(tf::scale(acc, alpha), tf::add(tf::cast<float>(c.tile<128, 64>(m * 128, n * 64)), tf::cast<float>(c.tile<128, 64>(m * 128, n * 64)))), staged_tile); // expected-error {{tf.add cannot be applied to the stored fragment by the cuda_sm90 backend: an add inside an added operand is not applied to a fragment so far; add the terms to the accumulator one by one [tf:lower-fusion]}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}

// An fp8 tensor read in the epilogue.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm_fp8_read(Matrix a, Matrix b, Matrix c, Fp8Matrix c8, Out out, float alpha) {
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
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::add(acc, tf::cast<float>(c8.tile<128, 64>(m * 128, n * 64))), staged_tile); // expected-error {{tf.add cannot be applied to the stored fragment by the cuda_sm90 backend: it reads 'c8', whose elements are fp8e4m3; a fragment reads bf16, f16 or f32 elements from global memory [tf:lower-fusion]}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}

} // namespace t
