//===- tf/runtime/sm90/wgmma.cuh - Warpgroup MMA: issue, commit, wait -----===//
//
// One warpgroup (4 consecutive warps starting at a warp index divisible by
// 4) computes D += A * B with A and B in shared memory:
//
//   wgmma::fence();                              // before the first MMA that
//                                                // touches d's registers
//   for (int k = 0; k < BK / wgmma::k_of(Type::bf16); ++k)
//     wgmma::mma<256, Type::bf16, Type::bf16, Major::k, Major::mn>(
//         d, a.advanced(32 * k), b.advanced(2048 * k), scale);
//   wgmma::commit_group();
//   wgmma::wait_group<0>();                      // d is readable
//
// mma<N, A, B, MajorA, MajorB> takes every form of the WGMMA contract with
// both operands in shared memory and an f32 accumulator; the wrappers and
// the facts it checks (Type, k_of, mn_major_allowed, has_wrapper) are
// generated from the contract (wgmma_generated.cuh).
//
// Which element of the 64 x N accumulator register d[i] of thread t holds
// (the same for every K and input type) is accumulator_coord(t, i),
// generated from the contract's fragment of D and PTX's register numbering
// (wgmma_accumulator.cuh).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/sm90/smem_descriptor.cuh"
#include "tf/runtime/sm90/wgmma_accumulator.cuh"
#include "tf/runtime/sm90/wgmma_generated.cuh"

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

namespace detail {
/// has_wrapper as a template, so that a failed check names the form.
template <int N, Type A, Type B>
inline constexpr bool wgmma_form_has_a_wrapper = has_wrapper(N, A, B);
template <Type A, Type B, Major MajorA, Major MajorB>
inline constexpr bool wgmma_types_allow_majors =
    (MajorA == Major::k || mn_major_allowed(A)) &&
    (MajorB == Major::k || mn_major_allowed(B));
} // namespace detail

/// Issues wgmma.mma_async.sync.aligned.m64nNkK.f32.A.B with A (64 x K) and
/// B (K x N) in shared memory, K = k_of(A): D = A * B + (scale_d ? D : 0).
/// The forms are those of the WGMMA contract (wgmma_generated.cuh,
/// has_wrapper): N = 8..256 in steps of 8; A and B of one type, bf16, f16 or
/// tf32, or each e4m3 or e5m2. MN-major operands only for bf16 and f16 (PTX
/// has imm-trans only for 16-bit types). ScaleA/ScaleB (1 or -1) negate an
/// operand; `scale_d` is a run-time value because the first K step of a loop
/// overwrites.
template <int N, Type A, Type B, Major MajorA, Major MajorB, int ScaleA = 1,
          int ScaleB = 1>
__device__ __forceinline__ void mma(float (&d)[N / 2], SmemDescriptor a,
                                    SmemDescriptor b, ScaleD scale_d) {
  static_assert(detail::wgmma_form_has_a_wrapper<N, A, B>,
                "no wgmma.mma_async m64nNkK.f32 wrapper for this N and these "
                "A/B types; the contract nv.sm90.Wgmma allows " TF_WGMMA_FORMS
                " (tf/runtime/sm90/wgmma_generated.cuh)");
  static_assert(detail::wgmma_types_allow_majors<A, B, MajorA, MajorB>,
                "MN-major (transposed) WGMMA operands exist for "
                TF_WGMMA_MN_MAJOR_TYPES " only; other types are K-major (PTX "
                "has no imm-trans-a/b for them)");
  static_assert((ScaleA == 1 || ScaleA == -1) && (ScaleB == 1 || ScaleB == -1),
                "WGMMA operand scales are 1 or -1");
  if constexpr (detail::wgmma_form_has_a_wrapper<N, A, B>) {
    using Wrapper = detail::Mma<N, A, B>;
    const auto sd = static_cast<std::uint32_t>(scale_d);
    if constexpr (Wrapper::has_trans)
      Wrapper::template run<static_cast<int>(MajorA), static_cast<int>(MajorB),
                            ScaleA, ScaleB>(d, a.bits(), b.bits(), sd);
    else
      Wrapper::template run<ScaleA, ScaleB>(d, a.bits(), b.bits(), sd);
  }
}

/// mma<N, Type::bf16, Type::bf16, MajorA, MajorB>, the spelling generated
/// code used first.
template <int N, Major MajorA, Major MajorB, int ScaleA = 1, int ScaleB = 1>
__device__ __forceinline__ void mma_bf16(float (&d)[N / 2], SmemDescriptor a,
                                         SmemDescriptor b, ScaleD scale_d) {
  mma<N, Type::bf16, Type::bf16, MajorA, MajorB, ScaleA, ScaleB>(d, a, b,
                                                                 scale_d);
}

} // namespace tf::sm90::wgmma
