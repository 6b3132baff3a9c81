//===- tf/runtime/sm90/registers.cuh - setmaxnreg -------------------------===//
//
// Warp-specialized kernels move registers from the producer warpgroup
// (TMA needs few) to the consumers (WGMMA accumulators need many). Each
// warpgroup's role must be one branch of an if/else on the warpgroup index,
// and the kernel must start with a register cap (`__launch_bounds__(threads,
// 1)`): otherwise ptxas ignores the request and says so (warning C7508).
//
//===----------------------------------------------------------------------===//
#pragma once

namespace tf::sm90 {

/// setmaxnreg's operand rule: 24..256 registers per thread, a multiple of 8.
__host__ __device__ constexpr bool valid_register_count(int n) {
  return n >= 24 && n <= 256 && n % 8 == 0;
}

/// Gives registers back: this warpgroup keeps `Registers` per thread.
template <int Registers> __device__ __forceinline__ void release_registers() {
  static_assert(valid_register_count(Registers),
                "setmaxnreg takes 24..256 registers, a multiple of 8");
  asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(Registers));
}

/// Takes registers: this warpgroup grows to `Registers` per thread, waiting
/// until others have released enough.
template <int Registers> __device__ __forceinline__ void claim_registers() {
  static_assert(valid_register_count(Registers),
                "setmaxnreg takes 24..256 registers, a multiple of 8");
  asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(Registers));
}

} // namespace tf::sm90
