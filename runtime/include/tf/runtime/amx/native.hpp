//===- tf/runtime/amx/native.hpp - AMX tile instructions on the CPU -------===//
//
// The same API as emulated.hpp, executing the instructions. Build with
// -mamx-tile -mamx-bf16 -mamx-int8 (tiles.hpp selects this file then); run
// after enable_amx (cpu.hpp) has obtained the kernel's permission.
//
// The configuration instructions use <immintrin.h>'s intrinsics. The
// instructions that name tile registers are written as inline assembly with
// the register number an immediate operand ("tmm%c[t]"): GCC's intrinsics
// for them are macros that paste the register's *token* into the assembly
// ("%%tmm" #dst), so they accept only a literal digit, not a template
// parameter; the assembly is the instruction the intrinsic would emit, for
// GCC and Clang alike.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/amx/tile_config.hpp"

#include <immintrin.h>

#include <cstddef>

namespace tf::runtime::amx::native {

/// LDTILECFG.
inline void tile_loadconfig(const TileConfig &config) {
  _tile_loadconfig(&config);
}

/// STTILECFG.
inline void tile_storeconfig(TileConfig &config) {
  _tile_storeconfig(&config);
}

/// TILERELEASE.
inline void tile_release() { _tile_release(); }

/// TILELOADD tmmT, [base + stride_bytes * row].
template <int T>
  requires TileRegister<T>
void tile_loadd(const void *base, std::ptrdiff_t stride_bytes) {
  asm volatile("tileloadd (%[base],%[stride],1), %%tmm%c[t]"
               :
               : [base] "r"(base), [stride] "r"(stride_bytes), [t] "i"(T)
               : "memory");
}

/// TILESTORED [base + stride_bytes * row], tmmT.
template <int T>
  requires TileRegister<T>
void tile_stored(void *base, std::ptrdiff_t stride_bytes) {
  asm volatile("tilestored %%tmm%c[t], (%[base],%[stride],1)"
               :
               : [base] "r"(base), [stride] "r"(stride_bytes), [t] "i"(T)
               : "memory");
}

/// TILEZERO tmmT.
template <int T>
  requires TileRegister<T>
void tile_zero() {
  asm volatile("tilezero %%tmm%c[t]" : : [t] "i"(T));
}

// The dot products: `op tmmB, tmmA, tmmC` in AT&T operand order.

/// TDPBF16PS tmmC, tmmA, tmmB.
template <int C, int A, int B>
  requires DistinctTiles<C, A, B>
void tile_dpbf16ps() {
  asm volatile("tdpbf16ps %%tmm%c[b], %%tmm%c[a], %%tmm%c[c]"
               :
               : [c] "i"(C), [a] "i"(A), [b] "i"(B));
}

/// TDPBSSD tmmC, tmmA, tmmB.
template <int C, int A, int B>
  requires DistinctTiles<C, A, B>
void tile_dpbssd() {
  asm volatile("tdpbssd %%tmm%c[b], %%tmm%c[a], %%tmm%c[c]"
               :
               : [c] "i"(C), [a] "i"(A), [b] "i"(B));
}

/// TDPBSUD tmmC, tmmA, tmmB.
template <int C, int A, int B>
  requires DistinctTiles<C, A, B>
void tile_dpbsud() {
  asm volatile("tdpbsud %%tmm%c[b], %%tmm%c[a], %%tmm%c[c]"
               :
               : [c] "i"(C), [a] "i"(A), [b] "i"(B));
}

/// TDPBUSD tmmC, tmmA, tmmB.
template <int C, int A, int B>
  requires DistinctTiles<C, A, B>
void tile_dpbusd() {
  asm volatile("tdpbusd %%tmm%c[b], %%tmm%c[a], %%tmm%c[c]"
               :
               : [c] "i"(C), [a] "i"(A), [b] "i"(B));
}

/// TDPBUUD tmmC, tmmA, tmmB.
template <int C, int A, int B>
  requires DistinctTiles<C, A, B>
void tile_dpbuud() {
  asm volatile("tdpbuud %%tmm%c[b], %%tmm%c[a], %%tmm%c[c]"
               :
               : [c] "i"(C), [a] "i"(A), [b] "i"(B));
}

} // namespace tf::runtime::amx::native
