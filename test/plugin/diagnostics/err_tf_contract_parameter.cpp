// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify %s
// RUN: not %clangxx %{tf} -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
// A parameter outside its contract's domain, with a fix-it to the nearest valid value: WGMMA's n is 8..256 step 8.
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, LhsSlot, RhsSlot, Matrix
using Acc = Acc128x64<>;
// n = 260 (gemm_test::Wgmma has n = 64).
using Wgmma = tf::nv::sm90::Wgmma<260, tf::bf16, tf::Form::SS, tf::Major::K>; // expected-error {{parameter 'n' of nv.sm90.Wgmma: 260 violates n <= 256}} expected-note {{contract nv.sm90.Wgmma, parameter n: 260 violates n <= 256}} expected-note {{the nearest value nv.sm90.Wgmma allows that divides the tile's 64 is n = 64}} expected-error {{parameter 'n' of nv.sm90.Wgmma: 260 violates n % 8 == 0}} expected-note {{contract nv.sm90.Wgmma, parameter n: 260 violates n % 8 == 0}}
// CHECK: fix-it:"{{.*}}err_tf_contract_parameter.cpp":{[[#@LINE-1]]:35-[[#@LINE-1]]:38}:"64"

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring); 
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring); 
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs); 
    }
  }
}
} // namespace t

// WGMMA reads 8-bit operands K-major only (PTX: the transpose of an operand
// in shared memory exists for .f16/.bf16): an fp8 B declared MN-major is
// refused at the parameter with that reason, and the fix-it makes it K.
namespace fp8_mn_major {
using namespace gemm_test; // cta, loader, compute
using Acc = Acc128x64<>;
using Wgmma = tf::nv::sm90::Wgmma<64, tf::fp8e4m3, tf::Form::SS, tf::Major::K, tf::Major::MN>; // expected-error {{parameter 'b_major' of nv.sm90.Wgmma: Major.MN, but dtype=fp8e4m3 requires Major.K}} expected-note {{contract nv.sm90.Wgmma, parameter b_major: Major.MN, but dtype=fp8e4m3 requires Major.K}} expected-note {{the nearest value nv.sm90.Wgmma allows is b_major = Major.K}}
// CHECK: fix-it:"{{.*}}err_tf_contract_parameter.cpp":{[[#@LINE-1]]:80-[[#@LINE-1]]:93}:"tf::Major::K"
// 64-byte swizzled fp8 slots: a 64-element row is 64 bytes.
using LhsSlot = tf::Tensor<tf::fp8e4m3, "(128,64):(64,1) | Swizzle(2,4,3)", tf::smem>;
using RhsSlot = tf::Tensor<tf::fp8e4m3, "(64,64):(64,1) | Swizzle(2,4,3)", tf::smem>;
using Matrix = tf::Tensor<tf::fp8e4m3, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 2> >(acc, lhs, rhs);
    }
  }
}
} // namespace fp8_mn_major

// f16 tiles under an atom still written for bf16: the atom's dtype is the
// decision that disagrees -- one error at it (for both operands the
// contract refuses), with the tiles' type as the fix-it.
namespace f16_tiles_bf16_atom {
using namespace gemm_test; // cta, loader, compute
using Acc = Acc128x64<>;
using Wgmma = tf::nv::sm90::Wgmma<64, tf::bf16, tf::Form::SS, tf::Major::K>; // expected-error {{parameter 'dtype' of nv.sm90.Wgmma: operand A ('lhs') holds tf::f16, but the atom is written with dtype = tf::bf16}} expected-note {{contract nv.sm90.Wgmma, operand A: dtype f16, expected bf16 (dtype=bf16)}}
// CHECK: fix-it:"{{.*}}err_tf_contract_parameter.cpp":{[[#@LINE-1]]:39-[[#@LINE-1]]:47}:"tf::f16"
using LhsSlot = tf::Tensor<tf::f16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
using RhsSlot = tf::Tensor<tf::f16, "(64,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
using Matrix = tf::Tensor<tf::f16, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4> >(acc, lhs, rhs); // expected-note {{operand A ('lhs') is read here}} expected-note {{operand B ('rhs') is read here}}
    }
  }
}
} // namespace f16_tiles_bf16_atom
