//===- test/gpu/static_checks.cu - sm90 runtime at compile time -----------===//
//
// The descriptor bit layout (PTX ISA, WGMMA "Matrix Descriptor Format") and
// the accumulator fragment map, checked by the compiler: this file has no
// kernel to run; CI compiles it with nvcc (test/gpu/check_ptxas.py).
//
//===----------------------------------------------------------------------===//
#include "tf/runtime/sm90/registers.cuh"
#include "tf/runtime/sm90/smem_descriptor.cuh"
#include "tf/runtime/sm90/wgmma.cuh"

namespace {

using tf::sm90::SmemDescriptor;
using tf::sm90::SmemSwizzle;

// A 128B-swizzled K-major tile at 0x400: start 0x40 in bits 0..13, LBO 1 in
// 16..29, SBO 64 (1024 bytes) in 32..45, swizzle 1 in 62..63.
constexpr SmemDescriptor k_major =
    SmemDescriptor::make(0x400, 16, 1024, SmemSwizzle::bytes128);
static_assert(k_major.bits() == 0x4000'0040'0001'0040ull);
static_assert(k_major.start() == 0x400 && k_major.leading_byte_offset() == 16 &&
              k_major.stride_byte_offset() == 1024 &&
              k_major.base_offset() == 0 &&
              k_major.swizzle() == SmemSwizzle::bytes128);

// Every field at its widest, and the base offset in bits 49..51.
constexpr SmemDescriptor widest =
    SmemDescriptor::make(0x3fff0, 0x3fff0, 0x3fff0, SmemSwizzle::bytes32, 7);
static_assert(widest.bits() == 0xC00E'3FFF'3FFF'3FFFull);

// Stepping to the next k16 slice moves the start address only.
constexpr SmemDescriptor next = k_major.advanced(32);
static_assert(next.start() == 0x420 &&
              (next.bits() & ~0x3fffull) == (k_major.bits() & ~0x3fffull));

// An N-major B of four 64-column panels: LBO is the 8 KiB panel stride.
constexpr SmemDescriptor n_major =
    SmemDescriptor::make(0x8000, 64 * 64 * 2, 1024, SmemSwizzle::bytes128);
static_assert(n_major.leading_byte_offset() == 8192 &&
              ((n_major.bits() >> 16) & 0x3fff) == 512);

// The m64nNk16 accumulator: spot values, and for N = 64 every (row, col)
// of the 64 x 64 tile is held by exactly one (thread, register).
using tf::sm90::wgmma::accumulator_coord;
static_assert(accumulator_coord(0, 0).row == 0 &&
              accumulator_coord(0, 0).col == 0);
static_assert(accumulator_coord(0, 2).row == 8 &&
              accumulator_coord(0, 2).col == 0);
static_assert(accumulator_coord(5, 1).row == 1 &&
              accumulator_coord(5, 1).col == 3);
static_assert(accumulator_coord(37, 6).row == 25 &&
              accumulator_coord(37, 6).col == 10);
constexpr bool covers_tile_once() {
  int hits[64][64] = {};
  for (int t = 0; t < 128; ++t)
    for (int i = 0; i < 32; ++i) {
      const auto c = accumulator_coord(t, i);
      if (c.row < 0 || c.row >= 64 || c.col < 0 || c.col >= 64)
        return false;
      ++hits[c.row][c.col];
    }
  for (auto &row : hits)
    for (int h : row)
      if (h != 1)
        return false;
  return true;
}
static_assert(covers_tile_once());

static_assert(tf::sm90::valid_register_count(40) &&
              tf::sm90::valid_register_count(232) &&
              !tf::sm90::valid_register_count(20) &&
              !tf::sm90::valid_register_count(100));

} // namespace
