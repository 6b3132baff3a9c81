// The tiled WGMMA of a 128 x 64 x 64 GEMM tile against nv.sm90.Wgmma, once
// accepted and once per refusal kind the kernel language can express: the
// execution mesh, a parameter, an operand, the smem layout, the tile, the
// written repeat and the target's capability. Each variant changes one
// decision (-D); its diagnostics carry the -verify prefix of its name.
//
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify=ok %s
// RUN: %clangxx %{tf} -Xclang -verify=mesh -DMESH %s
// RUN: %clangxx %{tf} -Xclang -verify=param -DPARAM %s
// RUN: %clangxx %{tf} -Xclang -verify=operand -DOPERAND %s
// RUN: %clangxx %{tf} -Xclang -verify=layout -DLAYOUT %s
// RUN: %clangxx %{tf} -Xclang -verify=tile -DTILE %s
// RUN: %clangxx %{tf} -Xclang -verify=repeat -DREPEAT %s
// RUN: %clangxx %{tf} -Xclang -verify=capability -DCAPABILITY %s
// RUN: not %clangxx %{tf} -DREPEAT -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// RUN: not %clangxx %{tf} -DPARAM -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=PARAMFIX
// ok-no-diagnostics
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, compute, LhsSlot, RhsSlot, Matrix
constexpr int BM = 128, BN = 64, BK = 64;

#ifdef PARAM
constexpr int N = 260;
#else
constexpr int N = 64;
#endif
using Wgmma = tf::nv::sm90::Wgmma<N, tf::bf16, tf::Form::SS, tf::Major::K>; // param-error {{parameter 'n' of nv.sm90.Wgmma: 260 violates n <= 256}} param-note {{contract nv.sm90.Wgmma, parameter n: 260 violates n <= 256}} param-note {{the nearest value nv.sm90.Wgmma allows that divides the tile's 64 is n = 64}} param-error {{parameter 'n' of nv.sm90.Wgmma: 260 violates n % 8 == 0}} param-note {{contract nv.sm90.Wgmma, parameter n: 260 violates n % 8 == 0}}

#ifdef OPERAND
using Acc = Acc128x64<tf::f16>; // operand-error {{operand C ('acc') does not fit nv.sm90.Wgmma: dtype f16, expected f32}} operand-note {{contract nv.sm90.Wgmma, operand C: dtype f16, expected f32}}
#else
using Acc = Acc128x64<>;
#endif
// LAYOUT: an unswizzled A slot; TILE: K = 56. Otherwise gemm_test's slots.
#if defined(LAYOUT)
using LhsSlot = tf::Tensor<tf::bf16, "(128,64):(64,1)", tf::smem>; // layout-error {{nv.sm90.Wgmma cannot read operand A ('lhs') in this layout: it reads the 128-byte swizzle Swizzle(3,4,3), and the layout writes no swizzle}} layout-note-re {{contract nv.sm90.Wgmma, operand A: fragment ((8,8),(2,8)):((512,64),(8,1)) does not match {{.*}}}}
#elif defined(TILE)
using LhsSlot = tf::Tensor<tf::bf16, "(128,56):(56,1) | Swizzle(3,4,3)", tf::smem>;
#endif
#ifdef TILE
using RhsSlot = tf::Tensor<tf::bf16, "(56,64):(64,1) | Swizzle(3,4,3)", tf::smem>;
constexpr int RK = 56;
#else
constexpr int RK = BK;
#endif

#ifdef CAPABILITY
#define TARGET "nvidia.a100_sxm"
#else
#define TARGET "nvidia.h200_sxm"
#endif

[[tf::kernel(tf::target(TARGET), tf::topology("cta", 132),
             tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, {.group_m = 8})) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), RK)) {
      [[tf::mesh(loader)]] auto lhs = // capability-error@+1 {{nv.sm90.CopyAsyncTensor needs capability 'cp.async.bulk.tensor', which target 'nvidia.a100_sxm' lacks}} capability-note@+1 {{contract nv.sm90.CopyAsyncTensor, capability: cp.async.bulk.tensor is not among the target's capabilities}}
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, RK>(m * BM, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = // capability-error@+1 {{needs capability 'cp.async.bulk.tensor'}} capability-note@+1 {{contract nv.sm90.CopyAsyncTensor, capability}}
          tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<RK, BN>(k, n * BN), rhs_ring);
#if defined(MESH)
      acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs); // mesh-error {{nv.sm90.Wgmma cannot be issued from mesh Mesh(cta, (1):(1)) (one unit of the tile loop's mesh), which does not match its execution mesh Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + p0): level cta is not thread}} mesh-note {{contract nv.sm90.Wgmma, mesh: Mesh(cta, (1):(1)) does not match Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + p0): level cta is not thread}}
#elif defined(REPEAT)
      // A space before the closing '>': a Repeat<...> closed by '>>' ends in
      // a '>>' token, and a token range over it would replace both '>'.
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 2> >(acc, lhs, rhs); // repeat-error {{written Repeat<2, 1, 2> disagrees with the derived Repeat<2, 1, 4> of nv.sm90.Wgmma: tile (128, 64, 64) over atom (64, 64, 16)}} repeat-note {{contract nv.sm90.Wgmma, repeat: written (2,1,2), derived (2,1,4)}} repeat-note {{derived Repeat<2, 1, 4> = tile (128, 64, 64) / atom (64, 64, 16): M: 2 side by side on group; K: 4 one after another}}
// FIXIT: fix-it:"{{.*}}wgmma.cpp":{[[#@LINE-1]]:69-[[#@LINE-1]]:88}:"tf::Repeat<2, 1, 4>"
#elif defined(LAYOUT)
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs); // layout-note {{operand A ('lhs') is read here}}
#elif defined(OPERAND)
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs); // operand-note {{operand C ('acc') is read here}}
#elif defined(TILE)
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs); // tile-error {{the tile of nv.sm90.Wgmma does not decompose into atoms: K = 56 (operand A) is not a multiple of the atom's K = k = 16}} tile-note {{contract nv.sm90.Wgmma, tile: K = 56 (operand A) is not a multiple of the atom's K = k = 16}}
#elif defined(CAPABILITY)
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs); // capability-error {{nv.sm90.Wgmma needs capability 'wgmma.mma_async', which target 'nvidia.a100_sxm' lacks}} capability-note {{contract nv.sm90.Wgmma, capability: wgmma.mma_async is not among the target's capabilities}}
#else
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
#endif
    }
  }
}
} // namespace t

// PARAMFIX: fix-it:"{{.*}}wgmma.cpp":{{{[0-9]+}}:{{[0-9]+}}-{{[0-9]+}}:{{[0-9]+}}}:"64"
