//===- tf/runtime/sm90/swizzle.cuh - Swizzled shared-memory offsets -------===//
//
// The byte-offset swizzle of tf's layouts (tf/layout/swizzle.hpp,
// `| Swizzle(B,M,S)`), as the TMA and WGMMA apply it to a shared-memory
// tile: bits [M+S, M+S+B) are XORed into bits [M, M+B). Generated
// epilogues use it to store accumulator registers where the TMA store will
// read them; the offset must be relative to the swizzle pattern's period
// (views are aligned to it).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace tf::sm90 {

/// Swizzle(B, M, S) of `byte_offset`: swizzle<3, 4, 3>(0x380) == 0x3f0.
template <int B, int M, int S>
__host__ __device__ constexpr std::uint32_t swizzle(std::uint32_t byte_offset) {
  static_assert(B > 0 && M >= 0 && S >= B,
                "source and target bits of a swizzle must not overlap");
  constexpr std::uint32_t source = ((1u << B) - 1) << (M + S);
  return byte_offset ^ ((byte_offset & source) >> S);
}

static_assert(swizzle<3, 4, 3>(0x380) == 0x3f0);

} // namespace tf::sm90
