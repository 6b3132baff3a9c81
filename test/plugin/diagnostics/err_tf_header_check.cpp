// err_tf_header_check: with the plugin loaded, the header leaves its
// contract checks of tf::schedule and the atom types to the plugin. In a
// [[tf::kernel]] the plugin's match reports them (at the operand, with
// fix-its); anywhere else the plugin reports the header's own message at the
// user's reference, so that a build is never less strict with the plugin
// than without it. Each failed check once, whatever the template
// instantiations that reach it.
// RUN: %tf-cc1 -verify %s
#include "../Inputs/gemm_meshes.hpp"

#include <cstdint>

namespace host {
using Wgmma = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K>;
using Acc = tf::Tensor<float, "(128,256)", tf::rmem>;
using Lhs = tf::Tensor<tf::bf16, "(128,64)", tf::smem>;
using Rhs = tf::Tensor<tf::bf16, "(64,256)", tf::smem>;

void on_the_host(Acc acc, Lhs lhs, Rhs rhs,
                 tf::Tensor<tf::bf16, "(96,64)", tf::smem> lhs96,
                 tf::Tensor<tf::bf16, "(128,64)", tf::rmem> lhs_regs,
                 tf::Tensor<tf::f16, "(128,64)", tf::smem> lhs_f16,
                 tf::Tensor<tf::bf16, "(?,?)"> a, tf::Ring<Lhs, 3> &ring) {
  // expected-error@+1 {{tf::schedule: Repeat<2,1,2> disagrees with the tile: 128x256x64 over 64x256x16 atoms is Repeat<2,1,4>}}
  tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 2>>(acc, lhs, rhs);
  // expected-error@+1 {{acc is 128x256 (M x N), lhs 96x64 (M x K), rhs 64x256 (K x N): their M, N and K extents must agree}}
  tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs96, rhs);
  // expected-error@+1 {{lhs (contract nv.sm90.Wgmma operand A) is in tf::rmem, where the atom cannot read it; with form SS lhs must be in tf::smem}}
  tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs_regs, rhs);
  // expected-error@+1 {{lhs (contract nv.sm90.Wgmma operand A) holds f16, which the atom does not take; the atom multiplies bf16}}
  tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs_f16, rhs);
  // expected-error@+1 {{tf::schedule<tf::nv::CopyAsyncTensor>: the box (the gmem tile) and the smem tile have different extents}}
  tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 32>(0, 0), ring);
  // The atom's own checks, at the use that instantiates it.
  // expected-error@+1 {{tf::nv::sm90::Wgmma<100, ...>: n must satisfy 8 <= n <= 256 and n % 8 == 0 (contract nv.sm90.Wgmma, parameter n)}}
  (void)tf::nv::sm90::Wgmma<100, tf::bf16, tf::Form::SS, tf::Major::K>::atom_n;
  // expected-error@+1 {{tf::nv::sm90::Wgmma: b_major = MN is not allowed with dtype = fp8e4m3}}
  (void)tf::nv::sm90::Wgmma<256, tf::fp8e4m3, tf::Form::SS, tf::Major::K, tf::Major::MN>::atom_n;
  // A correct schedule outside a kernel is accepted.
  tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
}

using Fragment = tf::Tensor<float, "(32@lane,4):(4,1)", tf::rmem>;

template <class T> void stage_template() {
  auto staged_tile = tf::empty<tf::Tensor<T, "(32,4):(4,1)", tf::smem>>();
  auto x = tf::zeros<Fragment>();
  // Reported once for the two instantiations that fail; not for float.
  // expected-error@+1 {{tf::schedule<tf::Copy>: source and destination element types differ (generic.Copy does not convert)}}
  auto staged = tf::schedule<tf::Copy>(x, staged_tile);
  (void)staged;
}
template void stage_template<float>();
template void stage_template<int>();
template void stage_template<double>();
} // namespace host

// In a kernel the plugin's match speaks, once, at the decision: the header's
// check of the same Repeat is not reported beside it.
namespace in_kernel {
using namespace gemm_test; // cta, loader, compute, Wgmma, LhsSlot, RhsSlot, Matrix

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc128x64<>>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      // expected-error@+1 {{written Repeat<2, 1, 2> disagrees with the derived Repeat<2, 1, 4>}} expected-note@+1 2 {{}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 2>>(acc, lhs, rhs);
    }
  }
}
} // namespace in_kernel
