//===- test/gpu/harness.hpp - Data, references, verdicts ------------------===//
//
// Host side shared by the hand-written GPU tests: random bf16 operands
// (never zeros: they hide unwritten outputs and wrong indexing), a CPU GEMM
// reference accumulating in double, output poisoning, an element-wise
// comparison within the f32 accumulation bound and a verdict line run.sh
// collects. Device code of the tests uses only the runtime library,
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

/// The exact product of bf16 matrices and, per element, the sum of the
/// products' magnitudes (the accumulation bound's scale).
struct Reference {
  std::vector<double> value;     ///< sum_k a[m][k] b[k][n]
  std::vector<double> magnitude; ///< sum_k |a[m][k] b[k][n]|
  int K = 0;
};

/// out (M x N) = a (M x K) * b (K x N), row-major, accumulated in double
/// (bf16 products are exact in double; the sums err by K 2^-53 at most).
inline Reference reference_gemm(const std::vector<__nv_bfloat16> &a,
                                const std::vector<__nv_bfloat16> &b, int M,
                                int N, int K) {
  Reference r;
  r.value.assign(static_cast<std::size_t>(M) * N, 0.0);
  r.magnitude.assign(static_cast<std::size_t>(M) * N, 0.0);
  r.K = K;
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) {
      const double x = __bfloat162float(a[static_cast<std::size_t>(m) * K + k]);
      for (int n = 0; n < N; ++n) {
        const double p =
            x * __bfloat162float(b[static_cast<std::size_t>(k) * N + n]);
        r.value[static_cast<std::size_t>(m) * N + n] += p;
        r.magnitude[static_cast<std::size_t>(m) * N + n] += std::fabs(p);
      }
    }
  return r;
}

/// How far an f32 output element of a dot product of K bf16 pairs
/// accumulated in f32 may be from the exact value: every product is exact
/// in f32 (8 + 8 significant bits), and K of them summed in f32 in any order
/// err by at most gamma_(K-1) sum|a b| ~ K 2^-24 sum|a b| when rounding to
/// nearest (Higham, "Accuracy and Stability of Numerical Algorithms", 3.1).
/// We allow one f32 ulp per addition, K 2^-23 sum|a b|: the tensor cores
/// align and truncate partial sums instead of rounding them. Nothing else
/// rounds: the accumulator is the output. (examples/gemm/check.hpp derives
/// the same bound with the bf16 rounding of a bf16 output added.)
inline double f32_dot_bound(double magnitude, int K) {
  return static_cast<double>(K) * std::ldexp(magnitude, -23);
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

/// How an output compares with its reference, element by element.
struct Comparison {
  long elements = 0;
  long outside = 0;    ///< beyond f32_dot_bound, unwritten or non-finite
  long unwritten = 0;  ///< elements still poisoned
  long non_finite = 0; ///< other NaN or inf
  double max_abs_error = 0;
  // The worst element: unwritten or non-finite first, else the largest
  // |out - ref| / bound.
  long worst = -1;
  double worst_out = 0, worst_ref = 0, worst_bound = 0, worst_ratio = 0;
};

inline Comparison compare(const std::vector<float> &out, const Reference &ref) {
  Comparison c;
  c.elements = static_cast<long>(ref.value.size());
  for (std::size_t i = 0; i < ref.value.size(); ++i) {
    const double bound = f32_dot_bound(ref.magnitude[i], ref.K);
    double ratio;
    if (i >= out.size() || is_poison(out[i])) {
      ++c.unwritten;
      ratio = INFINITY;
    } else if (!std::isfinite(out[i])) {
      ++c.non_finite;
      ratio = INFINITY;
    } else {
      const double e = std::fabs(out[i] - ref.value[i]);
      c.max_abs_error = std::fmax(c.max_abs_error, e);
      ratio = e / bound;
    }
    c.outside += !(ratio <= 1.0);
    if (c.worst < 0 || ratio > c.worst_ratio) {
      c.worst = static_cast<long>(i);
      c.worst_out = i < out.size() ? out[i] : NAN;
      c.worst_ref = ref.value[i];
      c.worst_bound = bound;
      c.worst_ratio = ratio;
    }
  }
  return c;
}

/// `out` against a reference it must equal exactly: for inputs whose
/// products and partial sums are all representable in f32 (wgmma_forms.cu),
/// so that any difference is an error. The worst element's ratio is inf
/// for a difference, 0 otherwise.
inline Comparison compare_exact(const std::vector<float> &out,
                                const std::vector<double> &ref) {
  Comparison c;
  c.elements = static_cast<long>(ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    double ratio = 0;
    if (i >= out.size() || is_poison(out[i])) {
      ++c.unwritten;
      ratio = INFINITY;
    } else if (!std::isfinite(out[i])) {
      ++c.non_finite;
      ratio = INFINITY;
    } else {
      const double e = std::fabs(out[i] - ref[i]);
      c.max_abs_error = std::fmax(c.max_abs_error, e);
      ratio = e == 0 ? 0.0 : INFINITY;
    }
    c.outside += !(ratio <= 1.0);
    if (c.worst < 0 || ratio > c.worst_ratio) {
      c.worst = static_cast<long>(i);
      c.worst_out = i < out.size() ? out[i] : NAN;
      c.worst_ref = ref[i];
      c.worst_ratio = ratio;
    }
  }
  return c;
}

/// Prints the verdict line run.sh collects and returns the exit code: PASS
/// only if every element is within its bound -- f32_dot_bound of the exact
/// product unless `bound` names another (compare_exact: "0 (exact)") -- (no
/// norm: one wrong element among thousands must fail), none is unwritten
/// and the guard words are intact. Inputs are exact bf16, so the only error
/// is the f32 accumulation, far under the bound for a correct kernel.
inline int verdict(const char *test, const Comparison &c, long guard_damage = 0,
                   const char *bound = "K 2^-23 sum|a b|") {
  const bool pass = c.elements > 0 && c.outside == 0 && guard_damage == 0;
  std::printf("%s %s: %ld of %ld elements off by more than %s "
              "(unwritten=%ld non_finite=%ld); worst [%ld] = %.9g vs %.9g, "
              "%.3g of its bound %.3g; max_abs=%.3g guard_damage=%ld\n",
              pass ? "PASS" : "FAIL", test, c.outside, c.elements, bound,
              c.unwritten, c.non_finite, c.worst, c.worst_out, c.worst_ref,
              c.worst_ratio, c.worst_bound, c.max_abs_error, guard_damage);
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
