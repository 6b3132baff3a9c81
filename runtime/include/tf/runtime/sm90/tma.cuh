//===- tf/runtime/sm90/tma.cuh - Bulk tensor copies (TMA) -----------------===//
//
// One thread moves a whole box between global and shared memory, described
// by a CUtensorMap that the host built (tf/runtime/host/tensor_map.hpp) and
// passed as a `const __grid_constant__ CUtensorMap` kernel parameter.
//
// Coordinates are element offsets of the box's first element, outermost
// first in the map's box order, as tf writes coordinates and as the host's
// make_tensor_map takes the box (a column-major matrix's box is in order
// {1, 0}: column first); PTX lists them innermost first, and these
// wrappers reverse them.
// Boxes reaching past the tensor's extents are legal: loads fill the part
// outside with zeros and still count the whole box's bytes toward the
// barrier's transaction count; stores skip it.
//
//   load:  full.arrive_expect_tx(box bytes...);
//          tma::load(dst, map, full, m, k);
//   store: (writers) tma::fence_proxy_async_shared(); CTA or named barrier;
//          (one thread) tma::store(map, src, m, n); tma::commit_group();
//          tma::wait_group_read<0>() before src is overwritten,
//          tma::wait_group<0>() before the kernel relies on the writes.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/sm90/address.cuh"
#include "tf/runtime/sm90/mbarrier.cuh"

#include <cuda.h>

#include <concepts>
#include <cstdint>

namespace tf::sm90::tma {

/// Fetches the tensor map into the cache ahead of its first use.
__device__ __forceinline__ void prefetch_tensor_map(const CUtensorMap &map) {
  asm volatile("prefetch.tensormap [%0];" ::"l"(&map) : "memory");
}

/// Copies the box at `coords` (outermost first) of `map`'s tensor into
/// shared memory at `dst`; completes `bytes` of `bar`'s transaction count.
/// @pre dst is aligned as the map's swizzle needs (1024 bytes for 128B)
template <std::integral... C>
__device__ __forceinline__ void load(void *dst, const CUtensorMap &map,
                                     Mbarrier &bar, C... coords) {
  constexpr int rank = sizeof...(C);
  static_assert(rank >= 1 && rank <= 5, "TMA copies boxes of rank 1 to 5");
  const std::int32_t c[] = {static_cast<std::int32_t>(coords)...};
  const std::uint32_t d = smem_address(dst), b = bar.address();
  const void *m = &map;
  if constexpr (rank == 1)
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%3}], [%2];" ::"r"(d),
                 "l"(m), "r"(b), "r"(c[0])
                 : "memory");
  else if constexpr (rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%3, %4}], [%2];" ::"r"(d),
                 "l"(m), "r"(b), "r"(c[1]), "r"(c[0])
                 : "memory");
  else if constexpr (rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes [%0], [%1, {%3, %4, %5}], [%2];" ::"r"(d),
                 "l"(m), "r"(b), "r"(c[2]), "r"(c[1]), "r"(c[0])
                 : "memory");
  else if constexpr (rank == 4)
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::"
        "complete_tx::bytes [%0], [%1, {%3, %4, %5, %6}], [%2];" ::"r"(d),
        "l"(m), "r"(b), "r"(c[3]), "r"(c[2]), "r"(c[1]), "r"(c[0])
        : "memory");
  else
    asm volatile(
        "cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::"
        "complete_tx::bytes [%0], [%1, {%3, %4, %5, %6, %7}], [%2];" ::"r"(d),
        "l"(m), "r"(b), "r"(c[4]), "r"(c[3]), "r"(c[2]), "r"(c[1]), "r"(c[0])
        : "memory");
}

/// Copies the box at `coords` (outermost first) of `map`'s tensor into the
/// shared memory of every CTA of the cluster whose rank is set in
/// `cta_mask`, at `dst`'s offset in each, completing `bytes` of the barrier
/// at `bar`'s offset in each (.multicast::cluster). One thread of one CTA
/// issues it.
/// @pre dst is aligned as the map's swizzle needs; the barriers of the
///      receiving CTAs are initialised (a cluster barrier after set-up)
template <std::integral... C>
__device__ __forceinline__ void load_multicast(void *dst, const CUtensorMap &map,
                                               Mbarrier &bar,
                                               std::uint16_t cta_mask,
                                               C... coords) {
  constexpr int rank = sizeof...(C);
  static_assert(rank >= 1 && rank <= 5, "TMA copies boxes of rank 1 to 5");
  const std::int32_t c[] = {static_cast<std::int32_t>(coords)...};
  const std::uint32_t d = smem_address(dst), b = bar.address();
  const void *m = &map;
  if constexpr (rank == 1)
    asm volatile("cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%4}], "
                 "[%2], %3;" ::"r"(d),
                 "l"(m), "r"(b), "h"(cta_mask), "r"(c[0])
                 : "memory");
  else if constexpr (rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%4, %5}], "
                 "[%2], %3;" ::"r"(d),
                 "l"(m), "r"(b), "h"(cta_mask), "r"(c[1]), "r"(c[0])
                 : "memory");
  else if constexpr (rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%4, %5, "
                 "%6}], [%2], %3;" ::"r"(d),
                 "l"(m), "r"(b), "h"(cta_mask), "r"(c[2]), "r"(c[1]), "r"(c[0])
                 : "memory");
  else if constexpr (rank == 4)
    asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%4, %5, "
                 "%6, %7}], [%2], %3;" ::"r"(d),
                 "l"(m), "r"(b), "h"(cta_mask), "r"(c[3]), "r"(c[2]),
                 "r"(c[1]), "r"(c[0])
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.mbarrier::"
                 "complete_tx::bytes.multicast::cluster [%0], [%1, {%4, %5, "
                 "%6, %7, %8}], [%2], %3;" ::"r"(d),
                 "l"(m), "r"(b), "h"(cta_mask), "r"(c[4]), "r"(c[3]),
                 "r"(c[2]), "r"(c[1]), "r"(c[0])
                 : "memory");
}

/// Copies shared memory at `src` to the box at `coords` (outermost first)
/// of `map`'s tensor, as part of the current bulk group.
/// @pre the writes to src were made visible: fence_proxy_async_shared() in
///      each writing thread, then a barrier
template <std::integral... C>
__device__ __forceinline__ void store(const CUtensorMap &map, const void *src,
                                      C... coords) {
  constexpr int rank = sizeof...(C);
  static_assert(rank >= 1 && rank <= 5, "TMA copies boxes of rank 1 to 5");
  const std::int32_t c[] = {static_cast<std::int32_t>(coords)...};
  const std::uint32_t s = smem_address(src);
  const void *m = &map;
  if constexpr (rank == 1)
    asm volatile("cp.async.bulk.tensor.1d.global.shared::cta.bulk_group "
                 "[%0, {%2}], [%1];" ::"l"(m),
                 "r"(s), "r"(c[0])
                 : "memory");
  else if constexpr (rank == 2)
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3}], [%1];" ::"l"(m),
                 "r"(s), "r"(c[1]), "r"(c[0])
                 : "memory");
  else if constexpr (rank == 3)
    asm volatile("cp.async.bulk.tensor.3d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3, %4}], [%1];" ::"l"(m),
                 "r"(s), "r"(c[2]), "r"(c[1]), "r"(c[0])
                 : "memory");
  else if constexpr (rank == 4)
    asm volatile("cp.async.bulk.tensor.4d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3, %4, %5}], [%1];" ::"l"(m),
                 "r"(s), "r"(c[3]), "r"(c[2]), "r"(c[1]), "r"(c[0])
                 : "memory");
  else
    asm volatile("cp.async.bulk.tensor.5d.global.shared::cta.bulk_group "
                 "[%0, {%2, %3, %4, %5, %6}], [%1];" ::"l"(m),
                 "r"(s), "r"(c[4]), "r"(c[3]), "r"(c[2]), "r"(c[1]), "r"(c[0])
                 : "memory");
}

/// Closes the current bulk group: the stores issued since the last commit.
__device__ __forceinline__ void commit_group() {
  asm volatile("cp.async.bulk.commit_group;" ::: "memory");
}

/// Waits until at most `Pending` committed bulk groups still read their
/// shared-memory sources: their buffers may be reused.
template <int Pending> __device__ __forceinline__ void wait_group_read() {
  static_assert(Pending >= 0);
  asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(Pending) : "memory");
}

/// Waits until at most `Pending` committed bulk groups are incomplete:
/// their writes to global memory are done.
template <int Pending> __device__ __forceinline__ void wait_group() {
  static_assert(Pending >= 0);
  asm volatile("cp.async.bulk.wait_group %0;" ::"n"(Pending) : "memory");
}

/// Orders this thread's ordinary shared-memory writes before later
/// async-proxy accesses (TMA stores, WGMMA operand reads) of that memory.
__device__ __forceinline__ void fence_proxy_async_shared() {
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

} // namespace tf::sm90::tma
