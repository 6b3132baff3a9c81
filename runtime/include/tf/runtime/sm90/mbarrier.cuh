//===- tf/runtime/sm90/mbarrier.cuh - mbarrier: arrive, expect_tx, wait ---===//
//
// The barrier that TMA loads complete and that rings of shared-memory slots
// hand over with (full/empty pairs). Protocol, as the generated code uses it:
//
//   __shared__ tf::sm90::Mbarrier full;            // trivially constructible
//   if (thread 0) { full.init(1); tf::sm90::fence_barrier_init(); }
//   __syncthreads();                               // now every thread sees it
//   producer: full.arrive_expect_tx(bytes); tma::load(..., full, ...);
//   consumer: full.wait<policy>(phase, "lhs_ring.full[0]"); phase ^= 1;
//
// A barrier's phase completes when all `init` arrivals have arrived and
// every expected transaction byte has landed; `wait(parity)` returns once
// the phase of that parity has completed. Right after init, waiting on
// parity 1 returns at once (the "preceding" phase counts as complete), which
// is how a producer finds every slot of an empty ring free in its first
// round.
//
// Waits take a WaitPolicy as a template argument: `wait_forever` for speed,
// `trap_after(n)` to print the barrier's name, block and thread after n
// unsuccessful polls and trap, so a protocol bug ends the kernel with a
// message instead of hanging the GPU. It is a template argument rather than
// a -D macro so that the choice is visible in the code and made per call
// site: the CUDA backend writes one `constexpr WaitPolicy` at the top of
// each emitted file (bounded under its debug option) and passes it to every
// wait; a test can bound its own waits whatever the build flags are.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/sm90/address.cuh"

#include <cstdint>
#include <cstdio>

namespace tf::sm90 {

/// How a wait ends if the phase never completes.
struct WaitPolicy {
  std::uint64_t max_polls = 0; ///< 0: wait forever

  __host__ __device__ constexpr bool bounded() const { return max_polls != 0; }
};

/// Waits that spin until the phase completes: the production setting.
inline constexpr WaitPolicy wait_forever{};

/// Waits that give up after `polls` unsuccessful polls, print which barrier
/// hung and trap. Each poll may suspend the thread for a short,
/// hardware-defined time, so `polls` bounds the time only loosely.
__host__ __device__ constexpr WaitPolicy trap_after(std::uint64_t polls) {
  return {polls};
}

/// A barrier object in shared memory: 8 bytes, 8-aligned, no constructor
/// (so it can be declared `__shared__`); one thread calls init.
class alignas(8) Mbarrier {
public:
  /// Starts phase 0 expecting `arrivals` arrivals. Call from one thread,
  /// then fence_barrier_init() and a CTA barrier before anyone uses it.
  __device__ __forceinline__ void init(std::uint32_t arrivals) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(address()),
                 "r"(arrivals)
                 : "memory");
  }

  /// One arrival (release semantics: this thread's earlier writes are
  /// visible to whoever waits on the phase).
  __device__ __forceinline__ void arrive() {
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(address())
                 : "memory");
  }

  /// One arrival on this barrier's twin in the CTA of cluster rank `rank`
  /// (the object at the same shared-memory offset there; the own CTA's when
  /// rank is its own): a consumer frees a slot that a peer CTA's multicast
  /// loads fill. The release is the default one, at CTA scope: what the
  /// arrival must follow are this CTA's WGMMA reads of the slot, complete
  /// at wgmma.wait_group. A release at cluster scope fences every arrival
  /// cluster-wide; measured on the H200, the clustered GEMM then runs at
  /// 0.60 of cuBLAS instead of 0.96 (docs/gpu.md).
  __device__ __forceinline__ void arrive_cluster(std::uint32_t rank) {
    asm volatile("{\n"
                 "  .reg .b32 remote;\n"
                 "  mapa.shared::cluster.u32 remote, %0, %1;\n"
                 "  mbarrier.arrive.shared::cluster.b64 _, [remote];\n"
                 "}" ::"r"(address()),
                 "r"(rank)
                 : "memory");
  }

  /// One arrival that also adds `bytes` to the transaction count of the
  /// current phase: the bytes the TMA loads issued for it will deliver.
  __device__ __forceinline__ void arrive_expect_tx(std::uint32_t bytes) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                     address()),
                 "r"(bytes)
                 : "memory");
  }

  /// Whether the phase of parity `parity` has completed; may suspend the
  /// thread briefly before answering no.
  __device__ __forceinline__ bool try_wait(std::uint32_t parity) const {
    std::uint32_t done;
    asm volatile("{\n"
                 "  .reg .pred p;\n"
                 "  mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
                 "  selp.u32 %0, 1, 0, p;\n"
                 "}"
                 : "=r"(done)
                 : "r"(address()), "r"(parity)
                 : "memory");
    return done != 0;
  }

  /// Returns once the phase of parity `parity` has completed (acquire
  /// semantics). With a bounded policy, traps naming `name` if it does not.
  template <WaitPolicy Policy = wait_forever>
  __device__ __forceinline__ void wait(std::uint32_t parity,
                                       const char *name) const {
    if constexpr (Policy.bounded()) {
      for (std::uint64_t polls = 1; !try_wait(parity); ++polls)
        if (polls == Policy.max_polls)
          report_hang(name, parity, polls);
    } else {
      (void)name;
      while (!try_wait(parity)) {
      }
    }
  }

  __device__ __forceinline__ std::uint32_t address() const {
    return smem_address(&state_);
  }

private:
  [[noreturn]] __device__ __noinline__ static void
  report_hang(const char *name, std::uint32_t parity, std::uint64_t polls) {
    // One line per warp: the lowest waiting lane speaks for it.
    unsigned lane;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    if (lane == static_cast<unsigned>(__ffs(__activemask()) - 1))
      printf("tf: barrier '%s' did not complete phase parity %u after %llu "
             "polls: block (%d,%d,%d) thread (%d,%d,%d); trapping\n",
             name, parity, static_cast<unsigned long long>(polls), blockIdx.x,
             blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
  }

  std::uint64_t state_;
};

/// Makes barrier initialisation visible to the async proxy (TMA's
/// complete_tx) and to the rest of the cluster; the initialising thread
/// calls it after its inits, before the CTA barrier that publishes them.
__device__ __forceinline__ void fence_barrier_init() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
}

} // namespace tf::sm90
