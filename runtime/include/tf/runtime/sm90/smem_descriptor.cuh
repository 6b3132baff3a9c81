//===- tf/runtime/sm90/smem_descriptor.cuh - WGMMA smem operands ----------===//
//
// The 64-bit matrix descriptor through which WGMMA reads an operand from
// shared memory (PTX ISA, "Matrix Descriptor Format" of the asynchronous
// warpgroup-level matrix instructions):
//
//   bits  0..13  start address >> 4
//   bits 16..29  leading dimension byte offset >> 4  (LBO)
//   bits 32..45  stride dimension byte offset >> 4   (SBO)
//   bits 49..51  matrix base offset (0 when swizzle atoms are aligned)
//   bits 62..63  swizzle: 0 none, 1 128B, 2 64B, 3 32B
//
// For the 128-byte swizzle tf uses for bf16 tiles, with a tile starting at
// a 1024-byte boundary (rows of 128 bytes, 8 rows per swizzle atom):
//
//   K-major (A, or B as N x K):  SBO = 1024 (next 8 rows of M or N),
//     LBO unused (encode 16); a k16 step inside the row adds 32 bytes to
//     the start address.
//   MN-major (B as K x N stored as 64-column panels):  LBO = panel stride
//     (next 64 elements of N), SBO = 1024 (next 8 rows of K); a k16 step
//     adds 16 rows = 2048 bytes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace tf::sm90 {

/// The swizzle field's encoding.
enum class SmemSwizzle : std::uint8_t {
  none = 0,
  bytes128 = 1,
  bytes64 = 2,
  bytes32 = 3,
};

/// A WGMMA shared-memory matrix descriptor; constexpr, so layouts are
/// checked at compile time.
class SmemDescriptor {
public:
  constexpr SmemDescriptor() = default;

  /// @pre start, leading_byte_offset and stride_byte_offset are multiples
  ///      of 16 below 2^18; base_offset < 8
  __host__ __device__ static constexpr SmemDescriptor
  make(std::uint32_t start, std::uint32_t leading_byte_offset,
       std::uint32_t stride_byte_offset, SmemSwizzle swizzle,
       std::uint32_t base_offset = 0) {
    SmemDescriptor d;
    d.bits_ =
        field(start >> 4, 0, 14) | field(leading_byte_offset >> 4, 16, 14) |
        field(stride_byte_offset >> 4, 32, 14) | field(base_offset, 49, 3) |
        field(static_cast<std::uint32_t>(swizzle), 62, 2);
    return d;
  }

  __host__ __device__ constexpr std::uint64_t bits() const { return bits_; }
  __host__ __device__ constexpr std::uint32_t start() const {
    return get(0, 14) << 4;
  }
  __host__ __device__ constexpr std::uint32_t leading_byte_offset() const {
    return get(16, 14) << 4;
  }
  __host__ __device__ constexpr std::uint32_t stride_byte_offset() const {
    return get(32, 14) << 4;
  }
  __host__ __device__ constexpr std::uint32_t base_offset() const {
    return get(49, 3);
  }
  __host__ __device__ constexpr SmemSwizzle swizzle() const {
    return static_cast<SmemSwizzle>(get(62, 2));
  }

  /// The same operand `bytes` further on: the next k16 slice of a tile.
  /// Only the start address moves; the swizzle is applied by the hardware
  /// to the final address, which is why stepping inside a swizzled row by
  /// plain bytes is right. @pre the new start stays below 2^18
  __host__ __device__ constexpr SmemDescriptor
  advanced(std::uint32_t bytes) const {
    SmemDescriptor d = *this;
    d.bits_ =
        (bits_ & ~field(0x3fff, 0, 14)) | field((start() + bytes) >> 4, 0, 14);
    return d;
  }

private:
  __host__ __device__ static constexpr std::uint64_t field(std::uint32_t value,
                                                           int low, int width) {
    return (static_cast<std::uint64_t>(value) &
            ((std::uint64_t{1} << width) - 1))
           << low;
  }
  __host__ __device__ constexpr std::uint32_t get(int low, int width) const {
    return static_cast<std::uint32_t>((bits_ >> low) &
                                      ((std::uint64_t{1} << width) - 1));
  }

  std::uint64_t bits_ = 0;
};

} // namespace tf::sm90
