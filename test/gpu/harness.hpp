//===- test/gpu/harness.hpp - Data, references, verdicts ------------------===//
//
// Host side shared by the hand-written GPU tests: random bf16 operands
// (never zeros: they hide unwritten outputs and wrong indexing), a CPU GEMM
// reference accumulating in double, output poisoning and a verdict line
// run.sh collects. Device code of the tests uses only the runtime library,
// as generated code will.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/host/check.hpp"
#include "tf/runtime/kernel_args.hpp"

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

namespace gpu_test {

/// `n` bf16 values uniform in [-1, 1), none of them zero.
inline std::vector<__nv_bfloat16> random_bf16(std::size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<__nv_bfloat16> out(n);
  for (auto &x : out) {
    float v = dist(gen);
    if (__bfloat162float(__float2bfloat16(v)) == 0.0f)
      v = 0.5f;
    x = __float2bfloat16(v);
  }
  return out;
}

/// out (M x N) = a (M x K) * b (K x N), row-major, accumulated in double.
inline std::vector<double> reference_gemm(const std::vector<__nv_bfloat16> &a,
                                          const std::vector<__nv_bfloat16> &b,
                                          int M, int N, int K) {
  std::vector<double> out(static_cast<std::size_t>(M) * N, 0.0);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) {
      const double x = __bfloat162float(a[static_cast<std::size_t>(m) * K + k]);
      for (int n = 0; n < N; ++n)
        out[static_cast<std::size_t>(m) * N + n] +=
            x * __bfloat162float(b[static_cast<std::size_t>(k) * N + n]);
    }
  return out;
}

/// A float whose bits no computation produces here: poisoned outputs and
/// guard words hold it.
inline float poison() {
  const std::uint32_t bits = 0x7fbadbadu; // a quiet NaN with a payload
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

inline bool is_poison(float f) {
  std::uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits == 0x7fbadbadu;
}

/// How an output compares with its reference.
struct Comparison {
  double relative_error = 0; ///< ||out - ref|| / ||ref||
  double max_abs_error = 0;
  long unwritten = 0;  ///< elements still poisoned
  long non_finite = 0; ///< other NaN or inf
};

inline Comparison compare(const std::vector<float> &out,
                          const std::vector<double> &ref) {
  Comparison c;
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    if (is_poison(out[i])) {
      ++c.unwritten;
      continue;
    }
    if (!std::isfinite(out[i])) {
      ++c.non_finite;
      continue;
    }
    const double e = out[i] - ref[i];
    diff += e * e;
    norm += ref[i] * ref[i];
    c.max_abs_error = std::fmax(c.max_abs_error, std::fabs(e));
  }
  c.relative_error = norm > 0 ? std::sqrt(diff / norm) : INFINITY;
  return c;
}

/// Prints the verdict line run.sh collects and returns the exit code. Inputs
/// are exact bf16 and both sides accumulate in at least f32, so the error
/// is f32 rounding over K terms: far under the tolerance, while one wrong
/// element in a 64 x 64 tile already exceeds it.
inline int verdict(const char *test, const Comparison &c, long guard_damage = 0,
                   double tolerance = 1e-4) {
  const bool pass = c.unwritten == 0 && c.non_finite == 0 &&
                    guard_damage == 0 && c.relative_error <= tolerance;
  std::printf("%s %s: rel_err=%.3g max_abs=%.3g unwritten=%ld non_finite=%ld "
              "guard_damage=%ld\n",
              pass ? "PASS" : "FAIL", test, c.relative_error, c.max_abs_error,
              c.unwritten, c.non_finite, guard_damage);
  return pass ? 0 : 1;
}

/// A row-major matrix in device memory as the launcher ABI describes it.
inline tf::runtime::TensorArg matrix_arg(void *data, tf::DType dtype,
                                         std::int64_t rows, std::int64_t cols) {
  tf::runtime::TensorArg t;
  t.data = data;
  t.rank = 2;
  t.dtype = dtype;
  t.extents[0] = rows;
  t.extents[1] = cols;
  t.strides[0] = cols;
  t.strides[1] = 1;
  return t;
}

/// Device memory that frees itself; every call checked under `check`.
template <class T> class DeviceBuffer {
public:
  DeviceBuffer(std::size_t n, const tf::runtime::CudaCheck &check)
      : n_(n), check_(check) {
    check_(cudaMalloc(&p_, n * sizeof(T)), "cudaMalloc");
  }
  ~DeviceBuffer() { cudaFree(p_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;

  T *get() const { return p_; }
  void upload(const std::vector<T> &v) {
    check_(
        cudaMemcpy(p_, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice),
        "cudaMemcpy (upload)");
  }
  std::vector<T> download() const {
    std::vector<T> v(n_);
    check_(cudaMemcpy(v.data(), p_, n_ * sizeof(T), cudaMemcpyDeviceToHost),
           "cudaMemcpy (download)");
    return v;
  }

private:
  T *p_ = nullptr;
  std::size_t n_;
  const tf::runtime::CudaCheck &check_;
};

} // namespace gpu_test
