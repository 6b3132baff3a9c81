//===- tf/runtime/sm90/sync.cuh - Named and cluster barriers --------------===//
//
// A CTA has 16 hardware barriers; __syncthreads() is barrier 0 over all
// threads. Warp-specialized kernels synchronise one role (a consumer
// warpgroup, the epilogue's threads) without stopping the others by giving
// each role its own id and thread count. The backend allocates ids 1..15.
// A cluster of CTAs meets at barrier.cluster: every non-exited thread of
// every CTA of the cluster arrives, then waits.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace tf::sm90 {

/// Waits until `threads` threads (a multiple of 32) have reached barrier
/// `id`, this one included.
__device__ __forceinline__ void named_barrier_sync(std::uint32_t id,
                                                   std::uint32_t threads) {
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/// Counts this thread toward barrier `id`'s `threads` without waiting: a
/// producer signalling consumers that sync on the same id and count.
__device__ __forceinline__ void named_barrier_arrive(std::uint32_t id,
                                                     std::uint32_t threads) {
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/// Waits until every thread of every CTA of the cluster has arrived here.
/// Release/acquire: what a thread wrote before (barrier initialisation
/// included) is visible to the cluster after.
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\n"
               "barrier.cluster.wait.acquire;" ::: "memory");
}

} // namespace tf::sm90
