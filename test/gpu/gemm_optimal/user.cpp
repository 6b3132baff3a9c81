//===- test/gpu/gemm_optimal/user.cpp - The generated GEMM on the H200 ----===//
//
// The user's program is examples/gemm/optimal.cpp itself (its kernel, types
// and CPU main, renamed here so this test can have its own): tf::launch of
// gemm::gemm on device tensors finds the launcher that the CUDA backend's
// optimal.tf.cu registered under the kernel's address. Per shape --
// 8192 x 17408 x 5120, then shapes that are not multiples of the
// 128 x 256 x 64 tile, a small M and K = 64 -- random bf16 operands, the
// output poisoned before every run, every output element checked against
// cuBLAS (bf16 in, f32 compute and output) within the bound below, and the
// median time of both over the same runs in the same process: TFLOP/s and
// ours / cuBLAS. Built by build.sh, run by test/gpu/run.sh.
//
//===----------------------------------------------------------------------===//
// SASS: HGMMA.64x256x16.F32.BF16 UTMALDG.2D UTMASTG.2D
#define main optimal_example_main
#include "../../../examples/gemm/optimal.cpp"
#undef main

#include "harness.hpp"

#include <cublas_v2.h>

#include <algorithm>
#include <cinttypes>
#include <string_view>

namespace {

const tf::runtime::CudaCheck check{"gemm_optimal test"};

void cublas_check(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    check.fail("%s failed: cuBLAS status %d", call, static_cast<int>(status));
}

/// The median of `runs` timings of `body` (milliseconds), each bracketed by
/// events on the default stream after `before` (not timed).
template <class Before, class Body>
float median_ms(int runs, Before before, Body body) {
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<float> times;
  for (int r = 0; r < runs; ++r) {
    before();
    check(cudaEventRecord(start), "cudaEventRecord");
    body();
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    times.push_back(ms);
  }
  check(cudaEventDestroy(start), "cudaEventDestroy");
  check(cudaEventDestroy(stop), "cudaEventDestroy");
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

constexpr std::uint16_t poison_bits = 0x7fba; // a bf16 quiet NaN with a payload

/// Runs one shape; returns the number of failed checks.
int run_shape(cublasHandle_t handle, std::int64_t M, std::int64_t N,
              std::int64_t K, int runs) {
  const auto a = gpu_test::random_bf16(M * K, 11);
  const auto b = gpu_test::random_bf16(K * N, 12);
  gpu_test::DeviceBuffer<__nv_bfloat16> da(a.size(), check),
      db(b.size(), check), dout(M * N, check), dref16(M * N, check);
  gpu_test::DeviceBuffer<float> dref(M * N, check), dmag(M * N, check);
  da.upload(a);
  db.upload(b);
  // 0x7fba in every bf16 of the output, copied from a buffer set once.
  gpu_test::DeviceBuffer<std::uint16_t> dpoison(M * N, check);
  dpoison.upload(std::vector<std::uint16_t>(M * N, poison_bits));
  const auto poison = [&] {
    check(cudaMemcpy(dout.get(), dpoison.get(), M * N * 2,
                     cudaMemcpyDeviceToDevice),
          "cudaMemcpy (poison)");
  };
  const auto ours = [&] {
    tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
               gemm::Matrix(reinterpret_cast<tf::bf16 *>(da.get()), {M, K}),
               gemm::Matrix(reinterpret_cast<tf::bf16 *>(db.get()), {K, N}),
               gemm::Matrix(reinterpret_cast<tf::bf16 *>(dout.get()), {M, N}));
  };
  // Row-major C = A B is column-major C^T = B^T A^T.
  const float one = 1, zero = 0;
  const auto cublas = [&](void *c, cudaDataType type) {
    cublas_check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(N), int(M),
                              int(K), &one, db.get(), CUDA_R_16BF, int(N),
                              da.get(), CUDA_R_16BF, int(K), &zero, c, type,
                              int(N), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
  };

  // Correctness: one poisoned run against cuBLAS's f32 output, element by
  // element. The bound: ours is within gemm_example::bf16_dot_bound of the
  // exact product (2^-7 |ref| + K 2^-23 sum|a b|: one bf16 ulp of output
  // rounding plus f32 accumulation, derived in examples/gemm/check.hpp),
  // cuBLAS's f32 result within gpu_test::f32_dot_bound (K 2^-23 sum|a b|) of
  // it; so |ours - cuBLAS| <= 2^-7 |cuBLAS| + 2 K 2^-23 sum|a b| (the one-ulp
  // allowance covers |cuBLAS| for |exact|). sum|a b| per element is the
  // product of the operands' magnitudes, |A| |B|, computed by cuBLAS too.
  poison();
  ours();
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (ours)");
  cublas(dref.get(), CUDA_R_32F);
  {
    // |a| and |b|: the bf16 values with the sign bit cleared.
    auto magnitude_of = [](std::vector<__nv_bfloat16> v) {
      for (auto &x : v) {
        __nv_bfloat16_raw raw = x;
        raw.x &= 0x7fffu;
        x = raw;
      }
      return v;
    };
    gpu_test::DeviceBuffer<__nv_bfloat16> dabs_a(a.size(), check),
        dabs_b(b.size(), check);
    dabs_a.upload(magnitude_of(a));
    dabs_b.upload(magnitude_of(b));
    cublas_check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, int(N), int(M),
                              int(K), &one, dabs_b.get(), CUDA_R_16BF, int(N),
                              dabs_a.get(), CUDA_R_16BF, int(K), &zero,
                              dmag.get(), CUDA_R_32F, int(N),
                              CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx (|A| |B|)");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (cuBLAS)");
  }
  const auto out = dout.download();
  const auto ref = dref.download();
  const auto mag = dmag.download();
  long outside = 0, unwritten = 0, non_finite = 0;
  std::int64_t worst = -1;
  double worst_ratio = 0, worst_bound = 0;
  float worst_out = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    std::uint16_t bits;
    std::memcpy(&bits, &out[i], 2);
    const float o = __bfloat162float(out[i]);
    const double bound = gemm_example::bf16_dot_bound(ref[i], mag[i], K) +
                         gpu_test::f32_dot_bound(mag[i], int(K));
    double ratio;
    if (bits == poison_bits) {
      ++unwritten;
      ratio = INFINITY;
    } else if (!std::isfinite(o)) {
      ++non_finite;
      ratio = INFINITY;
    } else {
      ratio = std::fabs(double(o) - ref[i]) / bound;
    }
    outside += !(ratio <= 1.0);
    if (worst < 0 || ratio > worst_ratio) {
      worst = std::int64_t(i);
      worst_ratio = ratio;
      worst_bound = bound;
      worst_out = o;
    }
  }
  const bool pass = outside == 0 && !ref.empty();
  std::printf("%s gemm_optimal M=%" PRId64 " N=%" PRId64 " K=%" PRId64
              ": %ld of %zu elements off by more than 2^-7 |ref| + 2 K 2^-23 "
              "sum|a b| (unwritten=%ld non_finite=%ld); worst out[%" PRId64
              "][%" PRId64 "] = %.6g vs %.9g, %.3g of its bound %.3g (cuBLAS "
              "f32 reference)\n",
              pass ? "PASS" : "FAIL", M, N, K, outside, ref.size(), unwritten,
              non_finite, worst / N, worst % N, worst_out,
              worst >= 0 ? ref[std::size_t(worst)] : 0.0f, worst_ratio,
              worst_bound);

  // Timing: the same runs for both, outputs poisoned before each (untimed).
  const float ours_ms = median_ms(runs, poison, ours);
  const float cublas_ms =
      median_ms(runs, poison, [&] { cublas(dref16.get(), CUDA_R_16BF); });
  const double flop = 2.0 * double(M) * double(N) * double(K);
  const double ours_tf = flop / (ours_ms * 1e-3) / 1e12,
               cublas_tf = flop / (cublas_ms * 1e-3) / 1e12;
  std::printf("PERF %" PRId64 ",%" PRId64 ",%" PRId64 " %.1f\n", M, N, K,
              ours_tf);
  std::printf("TIME M=%" PRId64 " N=%" PRId64 " K=%" PRId64
              ": ours %.3f ms %.1f TFLOP/s, cuBLAS %.3f ms %.1f TFLOP/s, "
              "ours/cuBLAS %.2f (median of %d)\n",
              M, N, K, ours_ms, ours_tf, cublas_ms, cublas_tf,
              ours_tf / cublas_tf, runs);
  return pass ? 0 : 1;
}

} // namespace

/// `gemm_optimal [--small]`: --small runs only the smallest shape, once
/// (for compute-sanitizer and the bounded-wait build).
int main(int argc, char **argv) {
  cublasHandle_t handle;
  cublas_check(cublasCreate(&handle), "cublasCreate");
  struct Shape {
    std::int64_t M, N, K;
    int runs;
  };
  const std::vector<Shape> all = {
      {128, 256, 64, 5},       // one tile: one working CTA, one K step
      {8192, 17408, 5120, 20}, // the H200 GEMM's benchmark shape
      {1000, 1544, 1000, 5},   // no extent a multiple of its tile
      {64, 4096, 4096, 5},     // small M: half a tile, most CTAs idle
      {2048, 2048, 64, 5},     // K = 64: one K step per tile
      {328, 760, 200, 5},      // a partial tile in every dimension
  };
  const bool small = argc > 1 && std::string_view(argv[1]) == "--small";
  const std::vector<Shape> shapes =
      small ? std::vector<Shape>{{328, 760, 200, 1}} : all;
  int failed = 0;
  for (const Shape &s : shapes)
    failed += run_shape(handle, s.M, s.N, s.K, s.runs);
  cublas_check(cublasDestroy(handle), "cublasDestroy");
  return failed ? 1 : 0;
}
