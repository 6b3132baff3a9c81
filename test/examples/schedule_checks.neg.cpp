// Header-level checks of tf::schedule and the atom types (include/tf/
// schedule.hpp, include/tf/atoms/**/*_atom.hpp): each CASE fails to compile
// with a message that names the fix. clang prints the message built from the
// contract's values (derived Repeat, atom shape, dtype); g++ the literal one.
// With the plugin loaded the contract checks are left to it: outside a
// [[tf::kernel]] (as here) it reports the header's message at the call,
// err_tf_header_check, instead of a static_assert in the header (CASE 1 with
// -fplugin).
//
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=REPEAT
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=REPEAT-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=REPRANK
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=REPRANK
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=DECOMP
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=DECOMP-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=DECOMPN
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=DECOMPN-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=LHSRMEM
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=LHSRMEM-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=6 %s 2>&1 | FileCheck %s --check-prefix=RHSRMEM
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=6 %s 2>&1 | FileCheck %s --check-prefix=RHSRMEM-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=7 %s 2>&1 | FileCheck %s --check-prefix=DTYPE
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=7 %s 2>&1 | FileCheck %s --check-prefix=DTYPE-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=8 %s 2>&1 | FileCheck %s --check-prefix=ACCF32
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=8 %s 2>&1 | FileCheck %s --check-prefix=ACCF32-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=9 %s 2>&1 | FileCheck %s --check-prefix=ACCSMEM
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=9 %s 2>&1 | FileCheck %s --check-prefix=ACCSMEM-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=10 %s 2>&1 | FileCheck %s --check-prefix=DYNTILE
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=10 %s 2>&1 | FileCheck %s --check-prefix=DYNTILE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=11 %s 2>&1 | FileCheck %s --check-prefix=NRANGE
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=11 %s 2>&1 | FileCheck %s --check-prefix=NRANGE-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=12 %s 2>&1 | FileCheck %s --check-prefix=NBIG
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=12 %s 2>&1 | FileCheck %s --check-prefix=NBIG-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=13 %s 2>&1 | FileCheck %s --check-prefix=AMAJOR
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=13 %s 2>&1 | FileCheck %s --check-prefix=AMAJOR-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=14 %s 2>&1 | FileCheck %s --check-prefix=BMAJOR
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=14 %s 2>&1 | FileCheck %s --check-prefix=BMAJOR-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=15 %s 2>&1 | FileCheck %s --check-prefix=WDTYPE
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=15 %s 2>&1 | FileCheck %s --check-prefix=WDTYPE-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=16 %s 2>&1 | FileCheck %s --check-prefix=TMADIR
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=16 %s 2>&1 | FileCheck %s --check-prefix=TMADIR-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=17 %s 2>&1 | FileCheck %s --check-prefix=TMATYPE
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=17 %s 2>&1 | FileCheck %s --check-prefix=TMATYPE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=18 %s 2>&1 | FileCheck %s --check-prefix=TMAEXT
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=18 %s 2>&1 | FileCheck %s --check-prefix=TMAEXT
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=19 %s 2>&1 | FileCheck %s --check-prefix=TMARANK
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=19 %s 2>&1 | FileCheck %s --check-prefix=TMARANK-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=20 %s 2>&1 | FileCheck %s --check-prefix=COPYTYPE
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=20 %s 2>&1 | FileCheck %s --check-prefix=COPYTYPE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=21 %s 2>&1 | FileCheck %s --check-prefix=COPYEXT
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=21 %s 2>&1 | FileCheck %s --check-prefix=COPYEXT
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=22 %s 2>&1 | FileCheck %s --check-prefix=COPYREP
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=22 %s 2>&1 | FileCheck %s --check-prefix=COPYREP
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=23 %s 2>&1 | FileCheck %s --check-prefix=NOTATOM
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=23 %s 2>&1 | FileCheck %s --check-prefix=NOTATOM
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=24 %s 2>&1 | FileCheck %s --check-prefix=MMAARGS
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=24 %s 2>&1 | FileCheck %s --check-prefix=MMAARGS
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=25 %s 2>&1 | FileCheck %s --check-prefix=AGREE
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=25 %s 2>&1 | FileCheck %s --check-prefix=AGREE-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=26 %s 2>&1 | FileCheck %s --check-prefix=UNITMODES
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=26 %s 2>&1 | FileCheck %s --check-prefix=UNITMODES
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=27 %s 2>&1 | FileCheck %s --check-prefix=MCSTORE
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=27 %s 2>&1 | FileCheck %s --check-prefix=MCSTORE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=28 %s 2>&1 | FileCheck %s --check-prefix=MCRANGE
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=28 %s 2>&1 | FileCheck %s --check-prefix=MCRANGE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=29 %s 2>&1 | FileCheck %s --check-prefix=TEMPBUF
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=29 %s 2>&1 | FileCheck %s --check-prefix=TEMPBUF
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=30 %s 2>&1 | FileCheck %s --check-prefix=AMXDIR
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=30 %s 2>&1 | FileCheck %s --check-prefix=AMXDIR
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=31 %s 2>&1 | FileCheck %s --check-prefix=AMXTEMP
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=31 %s 2>&1 | FileCheck %s --check-prefix=AMXTEMP
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=32 %s 2>&1 | FileCheck %s --check-prefix=AMXM
// RUN: not %gxx -std=c++20 -fsyntax-only -Wno-attributes -I %tf_include -DCASE=32 %s 2>&1 | FileCheck %s --check-prefix=AMXM
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=PLUGIN

#include <tf/tf.hpp>

#include <cstdint>

using Wgmma = tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K>;
using Wgmma128 = tf::nv::sm90::Wgmma<128, tf::bf16, tf::Form::SS, tf::Major::K>;
using Acc = tf::Tensor<float, "(128,256)", tf::rmem>;
using Lhs = tf::Tensor<tf::bf16, "(128,64)", tf::smem>;
using Rhs = tf::Tensor<tf::bf16, "(64,256)", tf::smem>;
using AmxTile = tf::Tensor<tf::bf16, "(16,32):(32,1)", tf::amx_tile>;

void kernel(Acc acc, Lhs lhs, Rhs rhs, tf::Tensor<tf::bf16, "(?,?)"> a,
            tf::Tensor<float, "(96,256)", tf::rmem> acc96,
            tf::Tensor<tf::bf16, "(96,64)", tf::smem> lhs96,
            tf::Tensor<float, "(128,136)", tf::rmem> acc136,
            tf::Tensor<tf::bf16, "(64,136)", tf::smem> rhs136,
            tf::Tensor<tf::bf16, "(128,64)", tf::rmem> lhs_regs,
            tf::Tensor<tf::bf16, "(64,256)", tf::rmem> rhs_regs,
            tf::Tensor<tf::f16, "(128,64)", tf::smem> lhs_f16,
            tf::Tensor<tf::f16, "(64,256)", tf::smem> rhs_f16,
            tf::Tensor<tf::f16, "(128,256)", tf::rmem> acc_f16,
            tf::Tensor<float, "(128,256)", tf::smem> acc_smem,
            tf::Tensor<float, "(?,256)", tf::rmem> acc_dyn,
            tf::Tensor<tf::bf16, "(128,256)", tf::smem> staged,
            tf::Tensor<tf::bf16, "(?,?,?,?,?,?)"> g6,
            tf::Tensor<tf::bf16, "(1,1,1,1,1,2)", tf::smem> s6,
            tf::Tensor<tf::bf16, "(?,?,?)"> g3,
            tf::Ring<Lhs, 3> &ring) {
  (void)acc, (void)lhs, (void)rhs, (void)a, (void)acc96, (void)lhs96, (void)acc136;
  (void)rhs136, (void)lhs_regs, (void)rhs_regs, (void)lhs_f16, (void)rhs_f16;
  (void)acc_f16, (void)acc_smem, (void)acc_dyn, (void)staged, (void)g6, (void)s6;
  (void)g3;
  (void)ring;
#if CASE == 1 // REPEAT
  tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1, 2>>(acc, lhs, rhs);
#elif CASE == 2 // REPRANK
  tf::schedule<tf::TiledMma<Wgmma>, tf::Repeat<2, 1>>(acc, lhs, rhs);
#elif CASE == 3 // DECOMP
  tf::schedule<tf::TiledMma<Wgmma>>(acc96, lhs96, rhs);
#elif CASE == 4 // DECOMPN
  tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs); tf::schedule<tf::TiledMma<Wgmma128>>(acc136, lhs, rhs136);
#elif CASE == 5 // LHSRMEM
  tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs_regs, rhs);
#elif CASE == 6 // RHSRMEM
  tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs_regs);
#elif CASE == 7 // DTYPE
  tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs_f16, rhs_f16);
#elif CASE == 8 // ACCF32
  tf::schedule<tf::TiledMma<Wgmma>>(acc_f16, lhs, rhs);
#elif CASE == 9 // ACCSMEM
  tf::schedule<tf::TiledMma<Wgmma>>(acc_smem, lhs, rhs);
#elif CASE == 10 // DYNTILE
  tf::schedule<tf::TiledMma<Wgmma>>(acc_dyn, lhs, rhs);
#elif CASE == 11 // NRANGE
  (void)tf::nv::sm90::Wgmma<100, tf::bf16, tf::Form::SS, tf::Major::K>::atom_n;
#elif CASE == 12 // NBIG
  (void)tf::nv::sm90::Wgmma<264, tf::bf16, tf::Form::SS, tf::Major::K>::atom_n;
#elif CASE == 13 // AMAJOR
  (void)tf::nv::sm90::Wgmma<256, tf::bf16, tf::Form::RS, tf::Major::MN>::atom_n;
#elif CASE == 14 // BMAJOR
  (void)tf::nv::sm90::Wgmma<256, tf::fp8e4m3, tf::Form::SS, tf::Major::K, tf::Major::MN>::atom_n;
#elif CASE == 15 // WDTYPE
  (void)tf::nv::sm90::Wgmma<256, std::int8_t, tf::Form::SS, tf::Major::K>::atom_n;
#elif CASE == 16 // TMADIR
  tf::schedule<tf::nv::CopyAsyncTensor>(lhs_regs, lhs);
#elif CASE == 17 // TMATYPE
  tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(0, 0), lhs_f16);
#elif CASE == 18 // TMAEXT
  tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 32>(0, 0), ring);
#elif CASE == 19 // TMARANK
  tf::schedule<tf::nv::CopyAsyncTensor>(g6.tile<1, 1, 1, 1, 1, 2>(0, 0, 0, 0, 0, 0), s6);
#elif CASE == 20 // COPYTYPE
  tf::schedule<tf::Copy>(acc, staged);
#elif CASE == 21 // COPYEXT
  tf::schedule<tf::Copy>(lhs, rhs);
#elif CASE == 22 // COPYREP
  tf::schedule<tf::Copy, tf::Repeat<1, 1, 1>>(lhs, lhs);
#elif CASE == 23 // NOTATOM
  tf::schedule<int>(lhs, lhs);
#elif CASE == 24 // MMAARGS
  tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs);
#elif CASE == 25 // AGREE
  tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs96, rhs);
#elif CASE == 26 // UNITMODES (a batch mode of 2 is no unit mode to drop)
  tf::schedule<tf::nv::CopyAsyncTensor>(g3.tile<2, 128, 64>(0, 0, 0), lhs);
#elif CASE == 27 // MCSTORE (a store has no multicast)
  tf::schedule<tf::nv::CopyAsyncTensorMulticast<2>>(lhs, a.tile<128, 64>(0, 0));
#elif CASE == 28 // MCRANGE
  tf::schedule<tf::nv::CopyAsyncTensorMulticast<17>>(a.tile<128, 64>(0, 0), ring);
#elif CASE == 29 // TEMPBUF (the returned view would outlive the buffer)
  (void)tf::schedule<tf::Copy>(lhs, tf::empty<Lhs>());
#elif CASE == 30 // AMXDIR
  tf::schedule<tf::intel::amx::TileLoad>(lhs, lhs);
#elif CASE == 31 // AMXTEMP
  (void)tf::schedule<tf::intel::amx::TileLoad>(a.tile<16, 32>(0, 0), tf::empty<AmxTile>());
#elif CASE == 32 // AMXM
  (void)tf::intel::amx::Tdpbf16ps<32, 16, 32>::atom_m;
#endif
}

// REPEAT: error: {{.*}}tf::schedule: Repeat<2,1,2> disagrees with the tile: 128x256x64 over 64x256x16 atoms is Repeat<2,1,4>
// REPEAT-GXX: error: {{.*}}tf::schedule: the written Repeat disagrees with the tile and atom shapes
// REPRANK: error: {{.*}}give one repeat per M, N and K: tf::Repeat<RM, RN, RK>
// DECOMP: error: {{.*}}the tile 96x256x64 does not decompose into 64x256x16 atoms: M (96) is not a multiple of 64
// DECOMP-GXX: error: {{.*}}the tile does not decompose into atoms
// DECOMPN: error: {{.*}}the tile 128x136x64 does not decompose into 64x128x16 atoms: N (136) is not a multiple of 128
// DECOMPN-GXX: error: {{.*}}the tile does not decompose into atoms
// LHSRMEM: error: {{.*}}lhs (contract nv.sm90.Wgmma operand A) is in tf::rmem, where the atom cannot read it; with form SS lhs must be in tf::smem
// LHSRMEM-GXX: error: {{.*}}form SS reads it from tf::smem
// RHSRMEM: error: {{.*}}rhs (contract nv.sm90.Wgmma operand B) is in tf::rmem, where the atom cannot read it; rhs must be in tf::smem
// RHSRMEM-GXX: error: {{.*}}operand B) must be in tf::smem; load it through a tf::Ring
// DTYPE: error: {{.*}}lhs (contract nv.sm90.Wgmma operand A) holds f16, which the atom does not take; the atom multiplies bf16
// DTYPE-GXX: error: {{.*}}lhs (the contract's operand A) does not hold the atom's element type
// ACCF32: error: {{.*}}acc (contract nv.sm90.Wgmma operand C) holds f16, which the atom does not take; accumulate in float
// ACCF32-GXX: error: {{.*}}the accumulator (the contract's operand C) must hold f32
// ACCSMEM: error: {{.*}}acc (contract nv.sm90.Wgmma operand C) is in tf::smem, where the atom cannot read it
// ACCSMEM-GXX: error: {{.*}}the accumulator (the contract's operand C) must live in registers
// DYNTILE: error: {{.*}}the tile's extents must be static to tile it with atoms
// NRANGE: error: {{.*}}tf::nv::sm90::Wgmma<100, ...>: n must satisfy 8 <= n <= 256 and n % 8 == 0 (contract nv.sm90.Wgmma, parameter n)
// NRANGE-GXX: error: {{.*}}tf::nv::sm90::Wgmma: N must be a multiple of 8 in 8..256
// NBIG: error: {{.*}}tf::nv::sm90::Wgmma<264, ...>: n must satisfy 8 <= n <= 256
// NBIG-GXX: error: {{.*}}tf::nv::sm90::Wgmma: N must be a multiple of 8 in 8..256
// AMAJOR: error: {{.*}}tf::nv::sm90::Wgmma: a_major = MN is not allowed with dtype = bf16, form = RS by contract nv.sm90.Wgmma
// AMAJOR-GXX: error: {{.*}}tf::nv::sm90::Wgmma: this a_major is not allowed for the dtype and form
// BMAJOR: error: {{.*}}tf::nv::sm90::Wgmma: b_major = MN is not allowed with dtype = fp8e4m3
// BMAJOR-GXX: error: {{.*}}tf::nv::sm90::Wgmma: this b_major is not allowed for the dtype
// WDTYPE: error: {{.*}}tf::nv::sm90::Wgmma: dtype = i8 is not allowed
// WDTYPE-GXX: error: {{.*}}tf::nv::sm90::Wgmma: the element type is not one WGMMA multiplies
// TMADIR: error: {{.*}}tf::schedule<tf::nv::CopyAsyncTensor>: a copy from tf::rmem to tf::smem is neither a TMA load (nv.sm90.CopyAsyncTensor: src gmem -> dst smem) nor a TMA store
// TMADIR-GXX: error: {{.*}}tf::schedule<tf::nv::CopyAsyncTensor>: TMA copies a gmem tile into smem (a load) or an smem tile into gmem (a store)
// TMATYPE: error: {{.*}}tf::schedule<tf::nv::CopyAsyncTensor>: source and destination element types differ; TMA does not convert
// TMAEXT: error: {{.*}}tf::schedule<tf::nv::CopyAsyncTensor>: the box (the gmem tile) and the smem tile have different extents
// TMARANK: error: {{.*}}tf::schedule<tf::nv::CopyAsyncTensor>: a TMA box has at most 5 modes (nv.sm90.CopyAsyncTensor); this one has 6
// TMARANK-GXX: error: {{.*}}tf::schedule<tf::nv::CopyAsyncTensor>: a TMA box has at most 5 modes
// COPYTYPE: error: {{.*}}tf::schedule<tf::Copy>: source and destination element types differ (generic.Copy does not convert)
// COPYEXT: error: {{.*}}tf::schedule<tf::Copy>: source and destination extents differ
// COPYREP: error: {{.*}}tf::schedule: tf::Repeat applies to MMA atoms
// NOTATOM: error: {{.*}}tf::schedule<Atom>: Atom is tf::TiledMma<MmaAtom>
// MMAARGS: error: {{.*}}give acc, lhs and rhs
// AGREE: error: {{.*}}acc is 128x256 (M x N), lhs 96x64 (M x K), rhs 64x256 (K x N): their M, N and K extents must agree
// AGREE-NOT: tf::matmul
// AGREE-GXX: error: {{.*}}acc (M x N), lhs (M x K) and rhs (K x N) must agree in M, N and K
// UNITMODES: error: {{.*}}tf::schedule<tf::nv::CopyAsyncTensor>: source and destination ranks differ (beyond unit leading modes: a tile<1, BM, BK> of a rank-3 tensor fills a BM x BK tile)
// PLUGIN-NOT: static assertion failed
// PLUGIN: schedule_checks.neg.cpp:[[#@LINE-110]]:3: error: tf::schedule: Repeat<2,1,2> disagrees with the tile: 128x256x64 over 64x256x16 atoms is Repeat<2,1,4> [tf:header-check]
// PLUGIN-NOT: static assertion failed
// MCSTORE: error: {{.*}}tf::schedule<tf::nv::CopyAsyncTensorMulticast<C>>: a multicast loads a gmem tile into a tf::Ring (a store has no multicast)
// MCRANGE: error: {{.*}}tf::nv::CopyAsyncTensorMulticast<C>: C must satisfy 1 <= C <= 16
// TEMPBUF: error: {{.*}}tf::schedule<tf::Copy>: the destination is a temporary buffer (tf::empty<T>() in the call), which ends with the statement while the returned view lives on
// AMXDIR: error: {{.*}}TileLoad copies memory (tf::gmem) into tile registers (tf::amx_tile), TileStore tile registers into memory
// AMXTEMP: error: {{.*}}tf::schedule<tf::intel::amx::TileLoad>: the destination is a temporary buffer
// AMXM: error: {{.*}}tf::intel::amx::Tdpbf16ps<M, N, K>: M is a tile's rows, 1 to 16 (contract intel.amx.Tdpbf16ps, palette 1)
