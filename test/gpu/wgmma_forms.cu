//===- test/gpu/wgmma_forms.cu - The generated WGMMA wrappers -------------===//
//
// wgmma::mma<N, A, B, MajorA, MajorB> over a representative set of the
// forms runtime/tools/gen_wgmma.cpp generates from the WGMMA contract.
//
// Compiled (test/gpu/check_ptxas.py: sm_90a, no spills): bf16 and f16 at
// N = 8, 64, 192, 256 with every major combination, fp8 (e4m3 x e4m3,
// e5m2 x e4m3, e4m3 x e5m2) at N = 128 and 256, tf32, negated operands,
// and the mma_bf16 spelling -- one kernel per form, so that ptxas' report
// is per form; the facts the dispatch checks are static_asserts.
//
// Run (test/gpu/run.sh, on the H200): one warpgroup computes a 64 x N x
// (128 bytes of K) product per checked form from 128B-swizzled shared
// memory that the host laid out (K-major rows of 128 bytes; MN-major as
// 64-element panels), four instructions along K; inputs are small halves,
// exact in every type, so the result must equal the reference exactly.
//
//===----------------------------------------------------------------------===//
// SASS: HGMMA.64x192x16.F32.BF16 HGMMA.64x256x8.F32.TF32
// SASS: QGMMA.64x256x32.F32.E5M2.E4M3 QGMMA.64x64x32.F32.E4M3.E5M2
#include "harness.hpp"

#include "tf/runtime/host/check.hpp"
#include "tf/runtime/sm90/tma.cuh"
#include "tf/runtime/sm90/wgmma.cuh"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

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

//===- Run ------------------------------------------------------------------===//

namespace {

/// Bytes per element of a WGMMA operand type (tf32 is stored in 32 bits).
__host__ __device__ constexpr int bytes_of(Type t) {
  return t == Type::e4m3 || t == Type::e5m2 ? 1 : t == Type::tf32 ? 4 : 2;
}

/// Where element (r, k) of an operand with rows r (M of A, N of B) lies in
/// its 128B-swizzled shared-memory image of 128 bytes of K: K-major, row r
/// is 128 bytes; MN-major (16-bit), 64 rows form a 128-byte run and K
/// steps 128 bytes, panels of 64 rows `kt * 128` bytes apart. The 128B
/// swizzle XORs bits 4..6 with bits 7..9 (1024-byte atoms).
std::size_t image_offset(bool mn_major, int r, int k, int bytes, int kt) {
  const std::size_t o =
      mn_major ? std::size_t(r / 64) * kt * 128 + k * 128 + (r % 64) * bytes
               : std::size_t(r) * 128 + k * bytes;
  return o ^ (((o >> 7) & 7) << 4);
}

/// The descriptor of such an image and the bytes between instructions
/// (K = 32 bytes per instruction).
struct Operand {
  std::uint32_t lbo, step;
};
__host__ __device__ constexpr Operand operand(bool mn_major, Type t) {
  // K-major: LBO unused under swizzle (16); the next instruction 32 bytes
  // on. MN-major: LBO is the panel stride; the next instruction
  // k_of(t) rows of 128 bytes on.
  return mn_major ? Operand{std::uint32_t(128 / bytes_of(t) * 128),
                            std::uint32_t(wgmma::k_of(t) * 128)}
                  : Operand{16, 32};
}

/// `v` (a small half) encoded as type `t`, little-endian into `out`.
void encode(Type t, float v, unsigned char *out) {
  switch (t) {
  case Type::bf16: {
    const __nv_bfloat16 x = __float2bfloat16(v);
    std::memcpy(out, &x, 2);
    break;
  }
  case Type::f16: {
    const __half x = __float2half(v);
    std::memcpy(out, &x, 2);
    break;
  }
  case Type::e4m3:
    *out = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E4M3);
    break;
  case Type::e5m2:
    *out = __nv_cvt_float_to_fp8(v, __NV_SATFINITE, __NV_E5M2);
    break;
  case Type::tf32:
    std::memcpy(out, &v, 4);
    break;
  }
}

template <int N, Type A, Type B, Major MajorA, Major MajorB, int ScaleA,
          int ScaleB>
__global__ void __launch_bounds__(128, 1)
    check_form(const uint4 *a_image, const uint4 *b_image, float *d) {
  __shared__ alignas(1024) uint4 a[64 * 128 / 16];
  __shared__ alignas(1024) uint4 b[N * 128 / 16];
  const int t = threadIdx.x;
  for (int i = t; i < 64 * 128 / 16; i += 128)
    a[i] = a_image[i];
  for (int i = t; i < N * 128 / 16; i += 128)
    b[i] = b_image[i];
  // Generic-proxy writes, read by the async proxy (WGMMA).
  tf::sm90::tma::fence_proxy_async_shared();
  __syncthreads();

  constexpr Operand oa = operand(MajorA == Major::mn, A);
  constexpr Operand ob = operand(MajorB == Major::mn, B);
  const auto da = SmemDescriptor::make(tf::sm90::smem_address(a), oa.lbo, 1024,
                                       tf::sm90::SmemSwizzle::bytes128);
  const auto db = SmemDescriptor::make(tf::sm90::smem_address(b), ob.lbo, 1024,
                                       tf::sm90::SmemSwizzle::bytes128);
  float acc[N / 2];
  wgmma::fence();
#pragma unroll
  for (int s = 0; s < 4; ++s)
    wgmma::mma<N, A, B, MajorA, MajorB, ScaleA, ScaleB>(
        acc, da.advanced(oa.step * s), db.advanced(ob.step * s),
        s == 0 ? ScaleD::overwrite : ScaleD::accumulate);
  wgmma::commit_group();
  wgmma::wait_group<0>();
#pragma unroll
  for (int i = 0; i < N / 2; ++i) {
    const wgmma::FragmentCoord c = wgmma::accumulator_coord(t, i);
    d[c.row * N + c.col] = acc[i];
  }
}

constexpr const char *name_of(Type t) {
  switch (t) {
  case Type::bf16: return "bf16";
  case Type::f16: return "f16";
  case Type::e4m3: return "e4m3";
  case Type::e5m2: return "e5m2";
  case Type::tf32: return "tf32";
  }
  return "?";
}

template <int N, Type A, Type B, Major MajorA, Major MajorB, int ScaleA = 1,
          int ScaleB = 1>
int run(unsigned seed) {
  static_assert(bytes_of(A) == bytes_of(B));
  constexpr int M = 64, K = 128 / bytes_of(A); // four instructions
  constexpr bool mn_a = MajorA == Major::mn, mn_b = MajorB == Major::mn;
  char name[96];
  std::snprintf(name, sizeof name, "wgmma m64n%dk%d.%s.%s %s%s scale %d,%d", N,
                wgmma::k_of(A), name_of(A), name_of(B), mn_a ? "mn" : "k",
                mn_b ? "mn" : "k", ScaleA, ScaleB);
  const tf::runtime::CudaCheck check{name};

  // Halves in [-1.5, 1.5], never zero: exact in every type, and every
  // partial sum is exact in f32.
  std::mt19937 gen(seed);
  auto value = [&] {
    const int v = static_cast<int>(gen() % 6) - 3;
    return 0.5f * static_cast<float>(v >= 0 ? v + 1 : v);
  };
  std::vector<float> va(M * K), vb(K * N);
  for (float &x : va)
    x = value();
  for (float &x : vb)
    x = value();
  std::vector<unsigned char> ia(64 * 128), ib(N * 128);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k)
      encode(A, va[m * K + k],
             &ia[image_offset(mn_a, m, k, bytes_of(A), K)]);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n)
      encode(B, vb[k * N + n],
             &ib[image_offset(mn_b, n, k, bytes_of(B), K)]);
  std::vector<double> ref(M * N, 0.0);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n)
        ref[m * N + n] += double(ScaleA) * ScaleB * va[m * K + k] * vb[k * N + n];

  gpu_test::DeviceBuffer<uint4> da(ia.size() / 16, check), db(ib.size() / 16, check);
  gpu_test::DeviceBuffer<float> dd(M * N, check);
  std::vector<uint4> ua(ia.size() / 16), ub(ib.size() / 16);
  std::memcpy(ua.data(), ia.data(), ia.size());
  std::memcpy(ub.data(), ib.data(), ib.size());
  da.upload(ua);
  db.upload(ub);
  dd.upload(std::vector<float>(M * N, gpu_test::poison()));
  check_form<N, A, B, MajorA, MajorB, ScaleA, ScaleB>
      <<<1, 128>>>(da.get(), db.get(), dd.get());
  check.launch("check_form<<<1, 128>>>");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  // Exact: every product and partial sum is representable.
  return gpu_test::verdict(name, gpu_test::compare_exact(dd.download(), ref),
                           0, "0 (exact)");
}

} // namespace

int main() {
  int failures = 0;
  failures += run<192, Type::bf16, Type::bf16, Major::k, Major::k>(1);
  failures += run<192, Type::bf16, Type::bf16, Major::mn, Major::mn>(2);
  failures += run<8, Type::f16, Type::f16, Major::k, Major::k>(3);
  failures += run<256, Type::f16, Type::f16, Major::k, Major::mn>(4);
  failures += run<64, Type::f16, Type::f16, Major::mn, Major::k, -1, 1>(5);
  failures += run<128, Type::e4m3, Type::e4m3, Major::k, Major::k>(6);
  failures += run<256, Type::e5m2, Type::e4m3, Major::k, Major::k>(7);
  failures += run<64, Type::e4m3, Type::e5m2, Major::k, Major::k, 1, -1>(8);
  failures += run<24, Type::e5m2, Type::e5m2, Major::k, Major::k>(9);
  failures += run<64, Type::tf32, Type::tf32, Major::k, Major::k>(10);
  return failures == 0 ? 0 : 1;
}
