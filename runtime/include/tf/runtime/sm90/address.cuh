//===- tf/runtime/sm90/address.cuh - Shared-memory addresses --------------===//
//
// PTX's shared-memory instructions (mbarrier, TMA, WGMMA descriptors) take
// 32-bit addresses in the shared window, not generic pointers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace tf::sm90 {

/// The shared-window address of `p`. @pre p points into shared memory
__device__ __forceinline__ std::uint32_t smem_address(const void *p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

} // namespace tf::sm90
