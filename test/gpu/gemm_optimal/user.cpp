//===- test/gpu/gemm_optimal/user.cpp - The generated GEMM on the H200 ----===//
//
// The user's program is examples/gemm/optimal.cpp itself (its kernel, types
// and CPU main, renamed here so this test can have its own): tf::launch of
// gemm::gemm on device tensors finds the launcher that the CUDA backend's
// optimal.tf.cu registered under the kernel's address. Per shape -- the
// seed's 8192 x 17408 x 5120, then shapes that are not multiples of the
// 128 x 256 x 64 tile, a small M and K = 64 -- random bf16 operands, the
// output poisoned before every run, ||out - ref|| / ||ref|| against cuBLAS
// (bf16 in, f32 compute and output), and the median time of both over
// the same runs in the same process: TFLOP/s and ours / cuBLAS. Built by
// build.sh, run by test/gpu/run.sh.
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
  gpu_test::DeviceBuffer<float> dref(M * N, check);
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

  // Correctness: one poisoned run against cuBLAS's f32 output.
  poison();
  ours();
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (ours)");
  cublas(dref.get(), CUDA_R_32F);
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (cuBLAS)");
  const auto out = dout.download();
  const auto ref = dref.download();
  double diff = 0, norm = 0;
  long unwritten = 0, non_finite = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    std::uint16_t bits;
    std::memcpy(&bits, &out[i], 2);
    const float o = __bfloat162float(out[i]);
    if (bits == poison_bits) {
      ++unwritten;
      continue;
    }
    if (!std::isfinite(o)) {
      ++non_finite;
      continue;
    }
    diff += double(o - ref[i]) * (o - ref[i]);
    norm += double(ref[i]) * ref[i];
  }
  const double rel = norm > 0 ? std::sqrt(diff / norm) : INFINITY;
  // bf16 output: each element is rounded to 8 significant bits (relative
  // error up to 2^-9), so ||out - ref|| / ||ref|| is about 2e-3.
  const bool pass = unwritten == 0 && non_finite == 0 && rel <= 1e-2;
  std::printf("%s gemm_optimal M=%" PRId64 " N=%" PRId64 " K=%" PRId64
              ": rel_err=%.3g unwritten=%ld non_finite=%ld (cuBLAS f32 "
              "reference)\n",
              pass ? "PASS" : "FAIL", M, N, K, rel, unwritten, non_finite);

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
      {8192, 17408, 5120, 20}, // the seed's shape
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
