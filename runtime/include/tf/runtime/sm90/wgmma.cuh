//===- tf/runtime/sm90/wgmma.cuh - Warpgroup MMA: issue, commit, wait -----===//
//
// One warpgroup (4 consecutive warps starting at a warp index divisible by
// 4) computes D += A * B with A and B in shared memory:
//
//   wgmma::fence();                              // before the first MMA that
//                                                // touches d's registers
//   for (int k = 0; k < BK / 16; ++k)
//     wgmma::mma_bf16<256, Major::k, Major::mn>(d, a.advanced(32 * k),
//                                               b.advanced(2048 * k), scale);
//   wgmma::commit_group();
//   wgmma::wait_group<0>();                      // d is readable
//
// The accumulator fragment of m64nNk16 (PTX ISA, WGMMA register fragments),
// thread t of the warpgroup, register i of N/2:
//   (T128, V N/2) -> (M64, N):
//   row = 16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2)
//   col = 8 * (i / 4) + 2 * (t % 4) + i % 2
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/sm90/smem_descriptor.cuh"
#include "tf/runtime/sm90/wgmma_bf16.cuh"

#include <cstdint>

namespace tf::sm90::wgmma {

/// Which extent of an operand is contiguous in shared memory: K (the PTX
/// "non-transposed" case) or M for A, N for B ("transposed").
enum class Major : int { k = 0, mn = 1 };

/// What the MMA does with D: overwrite it (D = A * B, the first K step) or
/// accumulate (D = A * B + D).
enum class ScaleD : std::uint32_t { overwrite = 0, accumulate = 1 };

/// Orders earlier register accesses to the accumulator (and, for A in
/// registers, the operand) before the next MMAs read or write them.
__device__ __forceinline__ void fence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

/// Closes the group of MMAs issued since the last commit.
__device__ __forceinline__ void commit_group() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

/// Waits until at most `Pending` committed groups are in flight; their
/// accumulators may be read and their shared-memory operands reused.
template <int Pending> __device__ __forceinline__ void wait_group() {
  static_assert(Pending >= 0 && Pending <= 7, "wgmma.wait_group takes 0..7");
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(Pending) : "memory");
}

/// The N values of m64nNk16 this library has wrappers for.
__host__ __device__ constexpr bool has_bf16_wrapper(int n) {
  return n == 64 || n == 128 || n == 256;
}

/// Issues wgmma.mma_async m64nNk16 f32 += bf16 * bf16 from shared memory.
/// ScaleA/ScaleB (1 or -1) negate an operand; `scale_d` is a run-time value
/// because the first K step of a loop overwrites.
template <int N, Major MajorA, Major MajorB, int ScaleA = 1, int ScaleB = 1>
__device__ __forceinline__ void mma_bf16(float (&d)[N / 2], SmemDescriptor a,
                                         SmemDescriptor b, ScaleD scale_d) {
  static_assert(has_bf16_wrapper(N),
                "no m64nNk16 bf16 wrapper for this N; add it to "
                "runtime/tools/gen_wgmma.py");
  static_assert((ScaleA == 1 || ScaleA == -1) && (ScaleB == 1 || ScaleB == -1),
                "WGMMA operand scales are 1 or -1");
  constexpr int ta = static_cast<int>(MajorA), tb = static_cast<int>(MajorB);
  const auto sd = static_cast<std::uint32_t>(scale_d);
  if constexpr (N == 64)
    detail::mma_m64n64k16_f32_bf16_bf16<ta, tb, ScaleA, ScaleB>(d, a.bits(),
                                                                b.bits(), sd);
  else if constexpr (N == 128)
    detail::mma_m64n128k16_f32_bf16_bf16<ta, tb, ScaleA, ScaleB>(d, a.bits(),
                                                                 b.bits(), sd);
  else
    detail::mma_m64n256k16_f32_bf16_bf16<ta, tb, ScaleA, ScaleB>(d, a.bits(),
                                                                 b.bits(), sd);
}

/// Where register `i` of thread `t` (0..127) of a m64nNk16 accumulator
/// lies in the 64 x N tile.
struct FragmentCoord {
  int row;
  int col;
};
__host__ __device__ constexpr FragmentCoord accumulator_coord(int t, int i) {
  return {16 * (t / 32) + (t % 32) / 4 + 8 * ((i / 2) % 2),
          8 * (i / 4) + 2 * (t % 4) + i % 2};
}

} // namespace tf::sm90::wgmma
