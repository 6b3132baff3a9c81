//===- tf/layout/swizzle.hpp - Swizzle<B,M,S> on byte offsets -------------===//
//
// Swizzle<B,M,S> XORs the B bits starting at bit M+S of an offset into the B
// bits starting at bit M: y = x ^ ((x >> S) & (((1 << B) - 1) << M)).
// In tf a swizzle always acts on *byte* offsets, as the hardware and CuTe's
// swizzle_ptr do (DESIGN.md, "Conventions"): Swizzle(3,4,3) is the 128-byte
// TMA/WGMMA mode (byte-address bits 7..9 into 4..6) for every element type.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace tf {

struct Swizzle {
  int bits = 0;  ///< B: how many bits are XORed (0: identity)
  int base = 0;  ///< M: lowest bit that changes
  int shift = 0; ///< S: distance from the source bits to the changed bits

  constexpr bool is_identity() const { return bits == 0; }
  /// The swizzled byte offset.
  constexpr std::int64_t operator()(std::int64_t byte_offset) const {
    std::int64_t mask = ((std::int64_t(1) << bits) - 1) << (base + shift);
    return shift >= 0 ? byte_offset ^ ((byte_offset & mask) >> shift)
                      : byte_offset ^ ((byte_offset & mask) << -shift);
  }

  friend constexpr bool operator==(const Swizzle &, const Swizzle &) = default;
};

} // namespace tf
