//===- test/gpu/wgmma_forms.cu - The generated WGMMA wrappers compile -----===//
//
// wgmma::mma<N, A, B, MajorA, MajorB> over a representative set of the
// forms runtime/tools/gen_wgmma.cpp generates from the WGMMA contract: bf16
// and f16 at N = 8, 64, 192, 256 with every major combination, fp8 (e4m3 x
// e4m3, e5m2 x e4m3, e4m3 x e5m2) at N = 128 and 256, tf32, negated
// operands, and the mma_bf16 spelling. One kernel per form, so that
// ptxas' report (test/gpu/check_ptxas.py: sm_90a, no spills) is per form;
// the facts the dispatch checks are static_asserts below. No kernel is
// run: the descriptors are arguments.
//
//===----------------------------------------------------------------------===//
#include "tf/runtime/sm90/wgmma.cuh"

#include <cstdint>

namespace {

namespace wgmma = tf::sm90::wgmma;
using tf::sm90::SmemDescriptor;
using wgmma::Major;
using wgmma::ScaleD;
using wgmma::Type;

// K per instruction: 32 bytes of A's row.
static_assert(wgmma::k_of(Type::bf16) == 16 && wgmma::k_of(Type::f16) == 16);
static_assert(wgmma::k_of(Type::e4m3) == 32 && wgmma::k_of(Type::e5m2) == 32);
static_assert(wgmma::k_of(Type::tf32) == 8);
// MN-major operands (imm-trans) for the 16-bit types only.
static_assert(wgmma::mn_major_allowed(Type::bf16) &&
              wgmma::mn_major_allowed(Type::f16));
static_assert(!wgmma::mn_major_allowed(Type::e4m3) &&
              !wgmma::mn_major_allowed(Type::e5m2) &&
              !wgmma::mn_major_allowed(Type::tf32));
// N = 8..256 in steps of 8; the two fp8 types mix, nothing else does.
static_assert(wgmma::has_wrapper(8, Type::bf16, Type::bf16) &&
              wgmma::has_wrapper(192, Type::f16, Type::f16) &&
              wgmma::has_wrapper(256, Type::e5m2, Type::e4m3) &&
              wgmma::has_wrapper(24, Type::e4m3, Type::e5m2));
static_assert(!wgmma::has_wrapper(0, Type::bf16, Type::bf16) &&
              !wgmma::has_wrapper(12, Type::bf16, Type::bf16) &&
              !wgmma::has_wrapper(264, Type::bf16, Type::bf16));
static_assert(!wgmma::has_wrapper(64, Type::bf16, Type::f16) &&
              !wgmma::has_wrapper(64, Type::e4m3, Type::bf16) &&
              !wgmma::has_wrapper(64, Type::tf32, Type::e4m3));

/// Two K steps of one form: the first overwrites, the second accumulates;
/// then the accumulator goes to global memory so that nothing is dead.
template <int N, Type A, Type B, Major MajorA, Major MajorB, int ScaleA = 1,
          int ScaleB = 1>
__global__ void __launch_bounds__(128, 1)
    form(float *out, SmemDescriptor a, SmemDescriptor b) {
  float d[N / 2];
  wgmma::fence();
#pragma unroll
  for (int k = 0; k < 2; ++k)
    wgmma::mma<N, A, B, MajorA, MajorB, ScaleA, ScaleB>(
        d, a.advanced(32 * k), b.advanced(32 * k),
        k == 0 ? ScaleD::overwrite : ScaleD::accumulate);
  wgmma::commit_group();
  wgmma::wait_group<0>();
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    out[threadIdx.x * (N / 2) + i] = d[i];
}

/// The same through the first spelling, mma_bf16<N, MajorA, MajorB>.
template <int N, Major MajorA, Major MajorB>
__global__ void __launch_bounds__(128, 1)
    form_bf16(float *out, SmemDescriptor a, SmemDescriptor b) {
  float d[N / 2];
  wgmma::fence();
  wgmma::mma_bf16<N, MajorA, MajorB>(d, a, b, ScaleD::overwrite);
  wgmma::commit_group();
  wgmma::wait_group<0>();
#pragma unroll
  for (int i = 0; i < N / 2; ++i)
    out[threadIdx.x * (N / 2) + i] = d[i];
}

using Kernel = void (*)(float *, SmemDescriptor, SmemDescriptor);

/// A 16-bit type at one N with the four major combinations.
template <int N, Type T> constexpr Kernel sixteen_bit[] = {
    form<N, T, T, Major::k, Major::k>, form<N, T, T, Major::k, Major::mn>,
    form<N, T, T, Major::mn, Major::k>, form<N, T, T, Major::mn, Major::mn>};

} // namespace

/// Taking the addresses instantiates the kernels.
extern const Kernel *const wgmma_forms[] = {
    sixteen_bit<8, Type::bf16>,   sixteen_bit<64, Type::bf16>,
    sixteen_bit<192, Type::bf16>, sixteen_bit<256, Type::bf16>,
    sixteen_bit<8, Type::f16>,    sixteen_bit<64, Type::f16>,
    sixteen_bit<192, Type::f16>,  sixteen_bit<256, Type::f16>,
};

extern const Kernel wgmma_other_forms[] = {
    form<128, Type::e4m3, Type::e4m3, Major::k, Major::k>,
    form<256, Type::e4m3, Type::e4m3, Major::k, Major::k>,
    form<128, Type::e5m2, Type::e4m3, Major::k, Major::k>,
    form<256, Type::e5m2, Type::e4m3, Major::k, Major::k>,
    form<128, Type::e4m3, Type::e5m2, Major::k, Major::k>,
    form<64, Type::tf32, Type::tf32, Major::k, Major::k>,
    form<256, Type::tf32, Type::tf32, Major::k, Major::k>,
    // Negated operands: imm-scale-a/b = -1.
    form<192, Type::bf16, Type::bf16, Major::k, Major::mn, -1, 1>,
    form<128, Type::e4m3, Type::e4m3, Major::k, Major::k, 1, -1>,
    form_bf16<192, Major::k, Major::mn>,
};
