//===- tf/layout/swizzle.hpp - Swizzle<B,M,S> on byte offsets -------------===//
//
// Swizzle<B,M,S> XORs B bits of an offset into B other bits, as CuTe's
// Swizzle does: for S >= 0 the bits [M+S, M+S+B) are XORed into [M, M+B);
// for S < 0 the bits [M, M+B) are XORed into [M-S, M-S+B). The bits below M
// never change. In tf a swizzle always acts on *byte* offsets, as the
// hardware and CuTe's swizzle_ptr do:
// Swizzle(3,4,3) is the 128-byte TMA/WGMMA mode (byte-address bits 7..9 into
// 4..6) for every element type.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/support/error.hpp"

#include <cstdint>

namespace tf {

/// Highest bit (exclusive) a swizzle may read or write, so that swizzled
/// offsets stay non-negative in std::int64_t.
inline constexpr int max_swizzle_bit = 62;

struct Swizzle {
  int bits = 0;  ///< B: how many bits are XORed (0: identity)
  int base = 0;  ///< M: bits below M never change
  int shift = 0; ///< S: distance from the source bits to the changed bits

  constexpr bool is_identity() const { return bits == 0; }

  /// The bits read: [M+S, M+S+B) for S >= 0, [M, M+B) otherwise.
  constexpr std::int64_t source_mask() const {
    return low_bits() << (base + (shift > 0 ? shift : 0));
  }
  /// The bits changed: [M, M+B) for S >= 0, [M-S, M-S+B) otherwise.
  constexpr std::int64_t target_mask() const {
    return low_bits() << (base - (shift < 0 ? shift : 0));
  }

  /// The swizzled byte offset: Swizzle(3,4,3)(0x380) = 0x3F0.
  /// @pre is_valid_swizzle(*this) and 0 <= byte_offset < 2^max_swizzle_bit
  constexpr std::int64_t operator()(std::int64_t byte_offset) const {
    std::int64_t moved = byte_offset & source_mask();
    return byte_offset ^ (shift >= 0 ? moved >> shift : moved << -shift);
  }

  friend constexpr bool operator==(const Swizzle &, const Swizzle &) = default;

private:
  constexpr std::int64_t low_bits() const {
    return (std::int64_t(1) << bits) - 1;
  }
};

/// Why `sw` is not a well-defined swizzle, or `sw` itself. Source and target
/// bits must not overlap (|S| >= B, as CuTe requires) so that the swizzle is
/// an involution, and every bit must lie in [0, max_swizzle_bit).
constexpr Result<Swizzle> check_swizzle(const Swizzle &sw) {
  if (sw.bits < 0 || sw.base < 0)
    return make_error(Errc::precondition,
                      "swizzle bits ({}) and base ({}) must not be negative",
                      sw.bits, sw.base);
  if (sw.bits == 0)
    return sw;
  int distance = sw.shift < 0 ? -sw.shift : sw.shift;
  if (distance < sw.bits)
    return make_error(Errc::precondition,
                      "swizzle shift |{}| is smaller than its {} bits; source "
                      "and target bits would overlap",
                      sw.shift, sw.bits);
  if (sw.base + distance + sw.bits > max_swizzle_bit)
    return make_error(Errc::precondition,
                      "swizzle reads bit {}; the highest usable bit is {}",
                      sw.base + distance + sw.bits - 1, max_swizzle_bit - 1);
  return sw;
}

/// Whether `sw` passes check_swizzle.
constexpr bool is_valid_swizzle(const Swizzle &sw) {
  return check_swizzle(sw).ok();
}

/// The checked swizzle Swizzle(b, m, s).
constexpr Result<Swizzle> make_swizzle(int b, int m, int s) {
  return check_swizzle(Swizzle{b, m, s});
}

/// Shared-memory swizzle modes of TMA (CUtensorMapSwizzle) and of WGMMA
/// matrix descriptors, named by the width of a swizzled row in bytes.
enum class SwizzleMode : std::uint8_t {
  none,     ///< no swizzle (WGMMA's "interleave")
  bytes32,  ///< 16-byte chunks of 32-byte rows, pattern repeats every 256 B
  bytes64,  ///< 16-byte chunks of 64-byte rows, pattern repeats every 512 B
  bytes128, ///< 16-byte chunks of 128-byte rows, pattern repeats every 1024 B
};

/// The byte-offset swizzle of `mode`: the 16-byte chunk index within a row
/// (bits 4..) is XORed with the row index within the pattern (bits 7..);
/// bytes128 is Swizzle(3,4,3). CuTe writes the same modes in element units
/// for 16-bit types (Swizzle<3,3,3> on half_t is Swizzle(3,4,3) on bytes).
constexpr Swizzle swizzle_for(SwizzleMode mode) {
  switch (mode) {
  case SwizzleMode::none:
    return {};
  case SwizzleMode::bytes32:
    return {1, 4, 3};
  case SwizzleMode::bytes64:
    return {2, 4, 3};
  case SwizzleMode::bytes128:
    return {3, 4, 3};
  }
  return {};
}

/// Bytes in one swizzled row of `mode` (16 for none: one chunk).
constexpr int swizzle_row_bytes(SwizzleMode mode) {
  return 16 << swizzle_for(mode).bits;
}

/// Bytes after which the pattern of `mode` repeats: eight rows.
constexpr int swizzle_period_bytes(SwizzleMode mode) {
  return 8 * swizzle_row_bytes(mode);
}

} // namespace tf
