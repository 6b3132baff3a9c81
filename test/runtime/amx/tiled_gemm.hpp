//===- tiled_gemm.hpp - GEMMs written directly on the AMX tile API --------===//
//
// C (M x N) = A (M x K) . B (K x N) on tf::runtime::amx's tile functions,
// the way generated code uses them: A packed to rows of Kp elements (K
// rounded up to whole dwords, zero-filled), B packed once into the VNNI
// layout (`per_dword` consecutive k of one column side by side), each
// 16 x 16 block of C accumulated in tmm0 over K steps of one full tile row
// (64 bytes of A: 32 bf16 or 64 int8), and the last, partial K step in its
// own pair of tiles so the block's configuration is loaded once. Partial
// blocks at the M and N edges get tiles of fewer rows / bytes.
// Used by the GoogleTest suite (emulation) and test/device/amx_exact.cpp
// (the same source built native and emulated on the AMX host).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/amx/tiles.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tiled_gemm {

namespace amx = tf::runtime::amx;

/// bf16 (raw bits) -> fp32 with TDPBF16PS.
struct Bf16 {
  using Input = std::uint16_t;
  using Accumulator = float;
  template <int C, int A, int B> static void dot() {
    amx::tile_dpbf16ps<C, A, B>();
  }
};

/// int8 -> int32 with TDPBSSD.
struct Int8 {
  using Input = std::int8_t;
  using Accumulator = std::int32_t;
  template <int C, int A, int B> static void dot() {
    amx::tile_dpbssd<C, A, B>();
  }
};

/// Inputs per dword: the VNNI group along K.
template <class Kind>
inline constexpr int per_dword = 4 / sizeof(typename Kind::Input);

/// K rounded up to whole dwords.
template <class Kind> constexpr int padded_k(int k) {
  return (k + per_dword<Kind> - 1) / per_dword<Kind> * per_dword<Kind>;
}

/// Where logical B[k][n] sits in packed B: ((Kp/g, g), N):((g N, 1), g).
template <class Kind> constexpr std::size_t vnni_offset(int k, int n, int N) {
  constexpr int g = per_dword<Kind>;
  return std::size_t(k / g) * g * N + std::size_t(g) * n + k % g;
}

/// A (M x K, row-major) as M rows of Kp elements, zero-filled.
template <class Kind>
std::vector<typename Kind::Input> pack_a(const typename Kind::Input *a, int M,
                                         int K) {
  const int Kp = padded_k<Kind>(K);
  std::vector<typename Kind::Input> out(std::size_t(M) * Kp);
  for (int m = 0; m < M; ++m)
    std::copy(a + std::size_t(m) * K, a + std::size_t(m + 1) * K,
              out.begin() + std::size_t(m) * Kp);
  return out;
}

/// B (K x N, row-major) packed with `offset(k, n, N)` (vnni_offset, or the
/// contract's layout), zero-filled to Kp rows.
template <class Kind, class Offset>
std::vector<typename Kind::Input> pack_b(const typename Kind::Input *b, int K,
                                         int N, Offset offset) {
  std::vector<typename Kind::Input> out(std::size_t(padded_k<Kind>(K)) * N);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n)
      out[offset(k, n, N)] = b[std::size_t(k) * N + n];
  return out;
}

/// C (M x N, row stride ldc) = packed A (M x Kp) . packed B.
template <class Kind>
void gemm(const typename Kind::Input *a, const typename Kind::Input *b,
          typename Kind::Accumulator *c, int M, int N, int Kp, int ldc) {
  using Input = typename Kind::Input;
  constexpr int g = per_dword<Kind>;
  constexpr int k_step = amx::max_colsb / int(sizeof(Input));
  const int k_full = Kp / k_step * k_step, k_rest = Kp - k_full;
  const std::ptrdiff_t a_stride = std::ptrdiff_t(Kp) * sizeof(Input);
  const std::ptrdiff_t b_stride = std::ptrdiff_t(g) * N * sizeof(Input);
  for (int m0 = 0; m0 < M; m0 += amx::max_rows) {
    const int rows = std::min(amx::max_rows, M - m0);
    for (int n0 = 0; n0 < N; n0 += 16) {
      const int colsb = 4 * std::min(16, N - n0);
      const int rest_bytes = k_rest * int(sizeof(Input));
      amx::TileConfig config = amx::make_tile_config(
          {{rows, colsb},
           {k_full ? rows : 0, k_full ? amx::max_colsb : 0},
           {k_full ? amx::max_rows : 0, k_full ? colsb : 0},
           {k_rest ? rows : 0, rest_bytes},
           {k_rest / g, k_rest ? colsb : 0}});
      amx::tile_loadconfig(config);
      amx::tile_zero<0>();
      const Input *a_rows = a + std::size_t(m0) * Kp;
      const Input *b_columns = b + std::size_t(g) * n0;
      for (int k0 = 0; k0 < k_full; k0 += k_step) {
        amx::tile_loadd<1>(a_rows + k0, a_stride);
        amx::tile_loadd<2>(b_columns + std::size_t(k0 / g) * g * N, b_stride);
        Kind::template dot<0, 1, 2>();
      }
      if (k_rest) {
        amx::tile_loadd<3>(a_rows + k_full, a_stride);
        amx::tile_loadd<4>(b_columns + std::size_t(k_full / g) * g * N,
                           b_stride);
        Kind::template dot<0, 3, 4>();
      }
      amx::tile_stored<0>(c + std::size_t(m0) * ldc + n0,
                          std::ptrdiff_t(ldc) * sizeof(*c));
    }
  }
  amx::tile_release();
}

} // namespace tiled_gemm
