//===- test/gpu/gemm_harness.hpp - The generated GEMMs against cuBLAS -----===//
//
// What the GPU tests of examples/gemm/*.cpp share (the folders gemm_*/ but
// launch_gemm/): each user.cpp includes its example with the example's main
// renamed and hands `gemm_test::main` a function that runs the kernel
// through tf::launch, and, for an epilogue with operands, what they are
// (Fused: alpha, beta with an M x N input C, a bias of N values). Per shape:
//
// - random operands of the kernel's type T (bf16 or f16; never zeros) in
//   device memory, drawn afresh for every shape, stored as the kernel's
//   majors say (A M x K or K x M, B K x N or N x K; cuBLAS is told with
//   its transpose flags);
// - the output poisoned (a NaN payload of T) before every run;
// - the reference: cuBLAS with T in, f32 compute and f32 out, the
//   epilogue (alpha, beta C, the bias, relu, gelu) applied on the host in
//   double; and |A| |B| by cuBLAS too, the accumulation bound's scale;
// - every element within dot_bound<T> (one output ulp, 2^-7 |ref| for bf16,
//   2^-10 |ref| for f16, plus K 2^-23 sum|a b|) + K 2^-23 sum|a b| of the
//   reference, or the shape fails (unwritten and non-finite counted apart);
// - timing, in the same process: ours against the baseline, cuBLAS with T
//   out computing the same function (cuBLASLt with its RELU, GELU, BIAS,
//   GELU_BIAS epilogues, alpha and beta C where the test has them), each
//   run paused by the poisoning copy (the median of N), and with
//   `--sustained`, back to back.
//
// A batched test (examples/gemm/batched.cpp) runs L GEMMs of each shape on
// rank-3 tensors (L x M x K, ...): the reference and the baseline are
// cuBLAS's strided-batched GEMM, every element of every matrix checked.
//
// `TEST [--small | --sustained [M N K]]`: all shapes; --small: 328 x 760 x
// 200 once (compute-sanitizer, bounded waits); --sustained: the anchor shape
// (or M N K), checked once, then ROUNDS interleaved rounds per side of
// WARMUP launches and TIMED launches back to back between two events, no
// copies in between; the median round of each side, TFLOP/s, ours/baseline.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "../../examples/gemm/check.hpp"
#include "harness.hpp"

#include <cublasLt.h>
#include <cublas_v2.h>

#include <algorithm>
#include <cinttypes>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <vector>

namespace gemm_test {

using gemm_example::Epilogue;
using gemm_example::Half;
using gemm_example::Input;
using gemm_example::Output;
using gemm_example::Major;
using gemm_example::Majors;

inline const tf::runtime::CudaCheck check{"gemm test harness"};

inline void cublas_check(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    check.fail("%s failed: cuBLAS status %d", call, static_cast<int>(status));
}

template <class T> inline constexpr cudaDataType cuda_type = CUDA_R_16BF;
template <> inline constexpr cudaDataType cuda_type<tf::f16> = CUDA_R_16F;
template <>
inline constexpr cudaDataType cuda_type<tf::fp8e4m3> = CUDA_R_8F_E4M3;
template <>
inline constexpr cudaDataType cuda_type<tf::fp8e5m2> = CUDA_R_8F_E5M2;
template <> inline constexpr cudaDataType cuda_type<float> = CUDA_R_32F;
template <class T> inline constexpr const char *type_name = "bf16";
template <> inline constexpr const char *type_name<tf::f16> = "f16";
template <> inline constexpr const char *type_name<tf::fp8e4m3> = "e4m3";
template <> inline constexpr const char *type_name<tf::fp8e5m2> = "e5m2";
template <> inline constexpr const char *type_name<float> = "f32";

/// Calls body(begin, end, chunk) on disjoint chunks covering [0, n), one
/// thread per chunk (the host work of the 8192 x 17408 x 5120 shape --
/// 130 M random operands, 140 M compared elements -- would otherwise keep
/// the GPU machine waiting for seconds).
template <class Body> void parallel_chunks(std::size_t n, Body body) {
  const std::size_t chunks = std::clamp<std::size_t>(
      std::min<std::size_t>(std::thread::hardware_concurrency(), n / 65536), 1,
      64);
  std::vector<std::thread> threads;
  for (std::size_t c = 0; c < chunks; ++c)
    threads.emplace_back(body, n * c / chunks, n * (c + 1) / chunks, c);
  for (auto &t : threads)
    t.join();
}

/// n values of T uniform in [-1, -1/8] u [1/8, 1] (random, never zero: as
/// gemm_example::random_elements draws them), drawn in parallel chunks, each
/// from its own generator seeded by `seed` and the chunk (the chunking
/// depends on the machine's threads, so the values do too). Operands, and
/// C or a bias, which are of the output's type.
template <class T>
  requires Input<T> || Output<T>
std::vector<T> random_elements(std::size_t n, std::uint32_t seed) {
  std::vector<T> out(n);
  parallel_chunks(n, [&](std::size_t begin, std::size_t end, std::size_t c) {
    std::seed_seq seq{seed, static_cast<std::uint32_t>(c)};
    std::mt19937 gen(seq);
    std::uniform_real_distribution<float> mag(0.125f, 1.0f);
    std::bernoulli_distribution sign(0.5);
    for (std::size_t i = begin; i < end; ++i)
      out[i] = T(sign(gen) ? mag(gen) : -mag(gen));
  });
  return out;
}

/// The operands of a fused epilogue besides A and B:
///   out = epilogue(alpha A B + beta C + bias)
/// with C an M x N input of T (`c`) and the bias N values of T, one per
/// column, broadcast along the rows (`bias`). A residual add is C with
/// beta = 1.
struct Fused {
  float alpha = 1, beta = 0;
  bool c = false, bias = false;
};

/// What the kernel under test runs on: device pointers (out row-major
/// M x N of T, a and b of In stored as the test's Majors say, c and bias of
/// T as Fused says, else null) and the float parameters (an fp8 GEMM's
/// scale is alpha).
template <Output T, Input In = T> struct Operands {
  In *a, *b;
  T *out, *c, *bias;
  std::int64_t M, N, K;
  float alpha, beta;
  /// The GEMMs of a batched test (a, b and out hold L matrices each, one
  /// after the other); 1 otherwise.
  std::int64_t L = 1;
};

/// Runs the kernel under test on \p operands.
template <Output T, Input In = T>
using Launch = std::function<void(const Operands<T, In> &)>;

/// cuBLAS's view of B (its first operand of C^T = B^T A^T, column-major):
/// B stored K x N row-major is B^T (N x K) as is; stored N x K (K-major) it
/// is transposed, leading dimension K.
inline cublasOperation_t b_operation(Majors m) {
  return m.b == Major::MN ? CUBLAS_OP_N : CUBLAS_OP_T;
}
inline std::int64_t b_leading(Majors m, std::int64_t N, std::int64_t K) {
  return m.b == Major::MN ? N : K;
}
/// And of A (its second operand): M x K row-major is A^T (K x M) as is;
/// stored K x M (M-major) it is transposed, leading dimension M.
inline cublasOperation_t a_operation(Majors m) {
  return m.a == Major::K ? CUBLAS_OP_N : CUBLAS_OP_T;
}
inline std::int64_t a_leading(Majors m, std::int64_t M, std::int64_t K) {
  return m.a == Major::K ? K : M;
}

/// Row-major C = A B through cuBLAS (column-major C^T = B^T A^T, A and B as
/// stored per `majors`): T in, f32 compute, output of `out_type`; L > 1:
/// L such GEMMs on matrices stored one after the other (strided batched).
template <Half T>
void cublas_gemm(cublasHandle_t handle, const T *a, const T *b, void *c,
                 cudaDataType out_type, std::int64_t M, std::int64_t N,
                 std::int64_t K, Majors majors, std::int64_t L = 1) {
  const float one = 1, zero = 0;
  if (L > 1) {
    cublas_check(
        cublasGemmStridedBatchedEx(
            handle, b_operation(majors), a_operation(majors), int(N), int(M),
            int(K), &one, b, cuda_type<T>, int(b_leading(majors, N, K)), K * N,
            a, cuda_type<T>, int(a_leading(majors, M, K)), M * K, &zero, c,
            out_type, int(N), M * N, int(L), CUBLAS_COMPUTE_32F,
            CUBLAS_GEMM_DEFAULT),
        "cublasGemmStridedBatchedEx");
    return;
  }
  cublas_check(cublasGemmEx(handle, b_operation(majors), a_operation(majors),
                            int(N), int(M), int(K), &one, b, cuda_type<T>,
                            int(b_leading(majors, N, K)), a, cuda_type<T>,
                            int(a_leading(majors, M, K)), &zero, c, out_type,
                            int(N), CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
}

/// cuBLASLt's epilogue that computes \p e after adding a bias or not, with
/// its name (GELU is the tanh form, as tf::gelu_tanh).
struct LtEpilogue {
  cublasLtEpilogue_t value;
  const char *name;
};
inline LtEpilogue lt_epilogue(Epilogue e, bool bias) {
  switch (e) {
  case Epilogue::none:
    break;
  case Epilogue::relu:
    return bias ? LtEpilogue{CUBLASLT_EPILOGUE_RELU_BIAS, "RELU_BIAS"}
                : LtEpilogue{CUBLASLT_EPILOGUE_RELU, "RELU"};
  case Epilogue::gelu_tanh:
    return bias ? LtEpilogue{CUBLASLT_EPILOGUE_GELU_BIAS, "GELU_BIAS"}
                : LtEpilogue{CUBLASLT_EPILOGUE_GELU, "GELU"};
  }
  return bias ? LtEpilogue{CUBLASLT_EPILOGUE_BIAS, "BIAS"}
              : LtEpilogue{CUBLASLT_EPILOGUE_DEFAULT, "no"};
}

/// What ours is timed against: cuBLAS computing the same function with T
/// out. Without an epilogue cublasGemmEx; otherwise cuBLASLt with the
/// fused equivalent (its RELU, GELU, BIAS or GELU_BIAS epilogue, alpha, and
/// beta with C; fp8 operands In), or, if cuBLASLt finds no algorithm for
/// it, plain cublasGemmEx without the epilogue, labelled so (16-bit
/// operands only: with fp8 ones that is a failure).
template <Output T, Input In = T> class Baseline {
public:
  Baseline(cublasHandle_t handle, cublasLtHandle_t lt, Epilogue e,
           Fused fused_ops, std::int64_t M, std::int64_t N, std::int64_t K,
           Majors majors, std::int64_t L = 1)
      : handle_(handle), lt_(lt), M_(M), N_(N), K_(K), L_(L), majors_(majors),
        alpha_(fused_ops.alpha), beta_(fused_ops.c ? fused_ops.beta : 0.0f) {
    label_ = std::string(L > 1 ? "cuBLAS GemmStridedBatchedEx "
                               : "cuBLAS GemmEx ") +
             type_name<T> + " out";
    if (std::is_same_v<In, T> && e == Epilogue::none && !fused_ops.bias && !fused_ops.c &&
        alpha_ == 1.0f) {
      same_function_ = true;
      return;
    }
    if (L > 1)
      check.fail("gemm test harness: a batched test with an epilogue or fp8 "
                 "operands has no baseline here");
    const std::optional<LtEpilogue> fused = lt_epilogue(e, fused_ops.bias);
    cublas_check(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F),
                 "cublasLtMatmulDescCreate");
    const cublasOperation_t tb = b_operation(majors), ta = a_operation(majors);
    cublas_check(cublasLtMatmulDescSetAttribute(
                     op_, CUBLASLT_MATMUL_DESC_TRANSA, &tb, sizeof tb),
                 "cublasLtMatmulDescSetAttribute (TRANSA)");
    cublas_check(cublasLtMatmulDescSetAttribute(
                     op_, CUBLASLT_MATMUL_DESC_TRANSB, &ta, sizeof ta),
                 "cublasLtMatmulDescSetAttribute (TRANSB)");
    cublas_check(cublasLtMatmulDescSetAttribute(
                     op_, CUBLASLT_MATMUL_DESC_EPILOGUE, &fused->value,
                     sizeof fused->value),
                 "cublasLtMatmulDescSetAttribute (EPILOGUE)");
    if (fused_ops.bias) {
      // One value per row of the column-major D^T (N x M): per column n of
      // the row-major out, as the bias is broadcast along out's rows.
      const cudaDataType bias_type = cuda_type<T>;
      cublas_check(cublasLtMatmulDescSetAttribute(
                       op_, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bias_type,
                       sizeof bias_type),
                   "cublasLtMatmulDescSetAttribute (BIAS_DATA_TYPE)");
      lt_bias_ = true;
    }
    // Column-major: B^T is N x K, A^T is K x M, C^T is N x M (B and A as
    // stored: transposed when their majors say so).
    const bool bn = majors.b == Major::MN, ak = majors.a == Major::K;
    cublas_check(cublasLtMatrixLayoutCreate(&lb_, cuda_type<In>, bn ? N : K,
                                            bn ? K : N, b_leading(majors, N, K)),
                 "cublasLtMatrixLayoutCreate (B)");
    cublas_check(cublasLtMatrixLayoutCreate(&la_, cuda_type<In>, ak ? K : M,
                                            ak ? M : K, a_leading(majors, M, K)),
                 "cublasLtMatrixLayoutCreate (A)");
    cublas_check(cublasLtMatrixLayoutCreate(&lc_, cuda_type<T>, N, M, N),
                 "cublasLtMatrixLayoutCreate (C)");
    check(cudaMalloc(&workspace_, workspace_bytes), "cudaMalloc (workspace)");
    cublasLtMatmulPreference_t pref;
    cublas_check(cublasLtMatmulPreferenceCreate(&pref),
                 "cublasLtMatmulPreferenceCreate");
    cublas_check(cublasLtMatmulPreferenceSetAttribute(
                     pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                     &workspace_bytes, sizeof workspace_bytes),
                 "cublasLtMatmulPreferenceSetAttribute");
    int found = 0;
    const cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(
        lt_, op_, lb_, la_, lc_, lc_, pref, 1, &heuristic_, &found);
    cublasLtMatmulPreferenceDestroy(pref);
    std::string what = std::string(fused->name) + " epilogue";
    if (alpha_ != 1.0f)
      what += ", alpha";
    if (fused_ops.c)
      what += ", beta C";
    if (status == CUBLAS_STATUS_SUCCESS && found > 0) {
      lt_fused_ = same_function_ = true;
      label_ = std::string("cuBLASLt ") +
               (std::is_same_v<In, T> ? "" : std::string(type_name<In>) + " in, ") +
               type_name<T> + " out, " + what;
    } else if constexpr (!std::is_same_v<In, T>) {
      // cuBLAS has no other GEMM of these operands: no baseline here.
      available_ = false;
      label_ = std::string("no baseline (cuBLASLt found no ") + type_name<In> +
               " algorithm for this shape)";
    } else {
      label_ = std::string("cuBLAS GemmEx ") + type_name<T> + " out WITHOUT " +
               what + " (cuBLASLt found no algorithm for it)";
    }
  }
  ~Baseline() {
    if (op_) {
      cublasLtMatrixLayoutDestroy(la_);
      cublasLtMatrixLayoutDestroy(lb_);
      cublasLtMatrixLayoutDestroy(lc_);
      cublasLtMatmulDescDestroy(op_);
      cudaFree(workspace_);
    }
  }
  Baseline(const Baseline &) = delete;
  Baseline &operator=(const Baseline &) = delete;

  const std::string &label() const { return label_; }
  /// Whether it computes what ours does (else it is plain A B).
  bool same_function() const { return same_function_; }
  /// Whether there is a baseline at all (cuBLASLt may have no fp8
  /// algorithm for a shape).
  bool available() const { return available_; }

  /// out = epilogue(alpha a b + beta c + bias) (c and bias as the test's
  /// Fused says; null otherwise).
  void operator()(const In *a, const In *b, const T *c, const T *bias,
                  T *out) const {
    if constexpr (std::is_same_v<In, T>)
      if (!lt_fused_) {
        cublas_gemm<T>(handle_, a, b, out, cuda_type<T>, M_, N_, K_, majors_,
                       L_);
        return;
      }
    if (lt_bias_)
      cublas_check(cublasLtMatmulDescSetAttribute(
                       op_, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias,
                       sizeof bias),
                   "cublasLtMatmulDescSetAttribute (BIAS_POINTER)");
    cublas_check(cublasLtMatmul(lt_, op_, &alpha_, b, lb_, a, la_, &beta_,
                                c ? c : out, lc_, out, lc_, &heuristic_.algo,
                                workspace_, workspace_bytes, 0),
                 "cublasLtMatmul");
  }

private:
  static constexpr std::size_t workspace_bytes = 32u << 20;
  cublasHandle_t handle_;
  cublasLtHandle_t lt_;
  std::int64_t M_, N_, K_, L_;
  Majors majors_;
  float alpha_, beta_;
  std::string label_;
  bool lt_fused_ = false, lt_bias_ = false, same_function_ = false;
  bool available_ = true;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr;
  cublasLtMatmulHeuristicResult_t heuristic_{};
  void *workspace_ = nullptr;
};

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

/// How an output compares with the reference, element by element.
struct Comparison {
  std::int64_t elements = 0, outside = 0, unwritten = 0, non_finite = 0;
  std::int64_t worst = -1;
  double worst_ratio = 0, worst_bound = 0, worst_out = 0, worst_ref = 0;
  bool ok() const { return elements > 0 && outside == 0; }
};

/// `out` against cuBLAS's f32 result `ref` with the epilogue applied on the
/// host. ours is within dot_bound<T> of the exact result (one T ulp of
/// output rounding, 2^-7 |exact| for bf16 and 2^-10 |exact| for f16, plus the
/// f32 accumulation K 2^-23 sum|a b|; examples/gemm/check.hpp derives it),
/// cuBLAS's f32 result within f32_dot_bound (K 2^-23 sum|a b|) of the exact
/// one, and relu moves neither error up (1-Lipschitz); so
///   |ours - e(cuBLAS)| <= 2^u |e(cuBLAS)| + 2 K 2^-23 sum|a b|
/// (the one-ulp allowance, twice the round-to-nearest half ulp, covers
/// |e(cuBLAS)| in place of |e(exact)|). sum|a b| per element is |A| |B|.
/// The tanh GELU multiplies both accumulation terms by its slope bound
/// (gemm_example::lipschitz, 1.13) and adds one output ulp for its f32
/// evaluation (gemm_example::evaluation_ulps: __expf and __fdividef on the
/// GPU are a few f32 ulps off the exact GELU, which may cross a rounding
/// boundary). With epilogue operands the reference is
/// epilogue(alpha ref + added) and the accumulation terms scale by |alpha|;
/// the f32 products and sums of the epilogue are dot_bound's operand term
/// (examples/gemm/check.hpp).
///
/// fp8 operands (In of one byte) add the accumulation of the fp8 WGMMA
/// (fp8_accumulation_bound): Hopper adds each instruction's 32 products
/// into the f32 accumulator keeping about 14 significant bits, not 24 (the
/// DeepSeek-V3 technical report measured it; cuBLASLt's fp8 GEMM shows the
/// same errors on the same elements here, its INFO lines).
template <Input In>
double fp8_accumulation_bound(double magnitude, std::int64_t K) {
  if constexpr (sizeof(In) != 1)
    return 0.0;
  else
    return static_cast<double>((K + 31) / 32) * std::ldexp(magnitude, -13);
}

template <Output T, Input In = T>
Comparison compare(const std::vector<T> &out, const std::vector<float> &ref,
                   const std::vector<float> &mag, std::int64_t K, Epilogue e,
                   float alpha, const std::vector<float> &added,
                   const std::vector<float> &added_mag) {
  std::vector<Comparison> parts(64);
  parallel_chunks(
      ref.size(), [&](std::size_t begin, std::size_t end, std::size_t chunk) {
        Comparison &c = parts[chunk];
        c.elements = static_cast<std::int64_t>(end - begin);
        for (std::size_t i = begin; i < end; ++i) {
          const bool adds = !added.empty();
          const double r = gemm_example::apply(
              e, double(alpha) * ref[i] + (adds ? added[i] : 0.0));
          const double bound =
              gemm_example::dot_bound<T>(r, mag[i], K, e, alpha,
                                         adds ? added_mag[i] : 0.0) +
              gemm_example::lipschitz(e) * std::fabs(alpha) *
                  (gpu_test::f32_dot_bound(mag[i], int(K)) +
                   fp8_accumulation_bound<In>(mag[i], K));
          const double o = float(out[i]);
          double ratio;
          if (gemm_example::bits_of(out[i]) == gemm_example::poison_bits_of<T>) {
            ++c.unwritten;
            ratio = INFINITY;
          } else if (!std::isfinite(o)) {
            ++c.non_finite;
            ratio = INFINITY;
          } else {
            ratio = std::fabs(o - r) / bound;
          }
          c.outside += !(ratio <= 1.0);
          if (c.worst < 0 || ratio > c.worst_ratio) {
            c.worst = static_cast<std::int64_t>(i);
            c.worst_ratio = ratio;
            c.worst_bound = bound;
            c.worst_out = o;
            c.worst_ref = r;
          }
        }
      });
  Comparison all;
  for (const Comparison &c : parts) {
    all.elements += c.elements;
    all.outside += c.outside;
    all.unwritten += c.unwritten;
    all.non_finite += c.non_finite;
    if (c.worst >= 0 && (all.worst < 0 || c.worst_ratio > all.worst_ratio)) {
      all.worst = c.worst;
      all.worst_ratio = c.worst_ratio;
      all.worst_bound = c.worst_bound;
      all.worst_out = c.worst_out;
      all.worst_ref = c.worst_ref;
    }
  }
  return all;
}

/// One shape's data on the device: random operands of In (seeded by the
/// shape and the test; C and the bias of T too when the test has them),
/// ours' and the baseline's outputs, the poison they are reset to, and the
/// reference (cuBLAS on T copies of the operands: exact for fp8 in bf16).
template <Output T, Input In = T> struct Problem {
  std::int64_t M, N, K;
  /// The GEMMs of a batched test (its tensors hold L matrices each).
  std::int64_t L;
  Fused fused;
  std::vector<In> a, b;
  std::vector<T> c, bias;
  gpu_test::DeviceBuffer<In> da, db;
  gpu_test::DeviceBuffer<T> dc, dbias, dout, dbase;
  /// The poison's bits (an output element's width).
  using Bits = std::remove_cv_t<decltype(gemm_example::poison_bits_of<T>)>;
  gpu_test::DeviceBuffer<Bits> dpoison;
  std::vector<float> ref, mag; ///< cuBLAS's f32 A B and |A| |B|
  /// beta C + bias and |beta C| + |bias| per element (empty without them).
  std::vector<float> added, added_mag;

  Problem(cublasHandle_t handle, std::int64_t M_, std::int64_t N_,
          std::int64_t K_, std::uint32_t salt, Majors majors, Fused fused_,
          std::int64_t L_ = 1)
      : M(M_), N(N_), K(K_), L(L_), fused(fused_),
        a(random_elements<In>(std::size_t(L * M * K), seed(1, salt))),
        b(random_elements<In>(std::size_t(L * K * N), seed(2, salt))),
        c(fused.c ? random_elements<T>(std::size_t(M * N), seed(3, salt))
                  : std::vector<T>{}),
        bias(fused.bias ? random_elements<T>(std::size_t(N), seed(4, salt))
                        : std::vector<T>{}),
        da(a.size(), check), db(b.size(), check),
        dc(std::max<std::size_t>(c.size(), 1), check),
        dbias(std::max<std::size_t>(bias.size(), 1), check),
        dout(L * M * N, check), dbase(L * M * N, check),
        dpoison(L * M * N, check) {
    da.upload(a);
    db.upload(b);
    if (fused.c || fused.bias) {
      if (fused.c)
        dc.upload(c);
      if (fused.bias)
        dbias.upload(bias);
      added.resize(std::size_t(M * N));
      added_mag.resize(std::size_t(M * N));
      parallel_chunks(added.size(), [&](std::size_t begin, std::size_t end,
                                        std::size_t) {
        for (std::size_t i = begin; i < end; ++i) {
          const double from_c =
              fused.c ? double(fused.beta) * float(c[i]) : 0.0;
          const double from_bias =
              fused.bias ? double(float(bias[i % std::size_t(N)])) : 0.0;
          added[i] = float(from_c + from_bias);
          added_mag[i] = float(std::fabs(from_c) + std::fabs(from_bias));
        }
      });
    }
    dpoison.upload(std::vector<Bits>(static_cast<std::size_t>(L * M * N),
                                     gemm_example::poison_bits_of<T>));
    // The reference and the bound's scale, in f32 from cuBLAS, on exact
    // 16-bit copies of the operands (fp8 ones in bf16) and of their
    // magnitudes.
    gpu_test::DeviceBuffer<float> dref(L * M * N, check), dmag(L * M * N, check);
    {
      using Exact = std::conditional_t<Half<In>, In, tf::bf16>;
      auto as_t = [](const std::vector<In> &v, bool magnitude) {
        std::vector<Exact> out(v.size());
        parallel_chunks(v.size(), [&](std::size_t begin, std::size_t end,
                                      std::size_t) {
          for (std::size_t i = begin; i < end; ++i)
            out[i] = Exact(magnitude ? std::fabs(float(v[i])) : float(v[i]));
        });
        return out;
      };
      gpu_test::DeviceBuffer<Exact> dt_a(a.size(), check), dt_b(b.size(), check);
      dt_a.upload(as_t(a, false));
      dt_b.upload(as_t(b, false));
      cublas_gemm<Exact>(handle, dt_a.get(), dt_b.get(), dref.get(), CUDA_R_32F, M,
                     N, K, majors, L);
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (reference)");
      dt_a.upload(as_t(a, true));
      dt_b.upload(as_t(b, true));
      cublas_gemm<Exact>(handle, dt_a.get(), dt_b.get(), dmag.get(), CUDA_R_32F, M,
                     N, K, majors, L);
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (reference)");
    }
    ref = dref.download();
    mag = dmag.download();
  }

  T *c_or_null() { return fused.c ? dc.get() : nullptr; }
  T *bias_or_null() { return fused.bias ? dbias.get() : nullptr; }
  /// The baseline's run on this problem's operands.
  void run_base(const Baseline<T, In> &base) {
    base(da.get(), db.get(), c_or_null(), bias_or_null(), dbase.get());
  }

  std::uint32_t seed(std::uint32_t operand, std::uint32_t salt) const {
    return static_cast<std::uint32_t>(M * 1000003 + N * 10007 + K * 101 + L) ^
           (salt * 2654435761u) ^ operand;
  }

  /// Both outputs back to the poison (a device copy: the timed loops'
  /// pause).
  void poison_out() {
    check(cudaMemcpy(dout.get(), dpoison.get(), L * M * N * sizeof(T),
                     cudaMemcpyDeviceToDevice),
          "cudaMemcpy (poison)");
  }
  void poison_base() {
    check(cudaMemcpy(dbase.get(), dpoison.get(), L * M * N * sizeof(T),
                     cudaMemcpyDeviceToDevice),
          "cudaMemcpy (poison)");
  }
  /// " L=3" in a batched test's lines (after K), else nothing.
  std::string batch_text() const {
    return L > 1 ? " L=" + std::to_string(L) : std::string();
  }
  double tflop() const {
    return 2.0 * double(L) * double(M) * double(N) * double(K) / 1e12;
  }
};

/// Prints one verdict line for ours (PASS/FAIL, collected by run.sh) or an
/// INFO line for the baseline; returns whether it passed.
inline bool print_comparison(const char *prefix, const char *test,
                             const char *what, std::int64_t M, std::int64_t N,
                             std::int64_t K, int ulp, const Comparison &c) {
  std::printf("%s %s M=%" PRId64 " N=%" PRId64 " K=%" PRId64 "%s: %" PRId64
              " of %" PRId64 " elements off by more than 2^%d "
              "|ref| + 2 K 2^-23 sum|a b| (unwritten=%" PRId64
              " non_finite=%" PRId64 "); worst out[%" PRId64 "][%" PRId64
              "] = %.6g vs %.9g, %.3g of its bound %.3g (cuBLAS f32 "
              "reference)\n",
              prefix ? prefix : (c.ok() ? "PASS" : "FAIL"), test, M, N, K, what,
              c.outside, c.elements, ulp, c.unwritten, c.non_finite,
              c.worst >= 0 ? c.worst / N : -1, c.worst >= 0 ? c.worst % N : -1,
              c.worst_out, c.worst_ref, c.worst_ratio, c.worst_bound);
  return c.ok();
}

/// The test's state: its name, epilogue, the kernel, how it stores A and B
/// and the cuBLAS handles.
template <Output T, Input In = T> struct Test {
  const char *name;
  Epilogue epilogue;
  Launch<T, In> ours;
  Majors majors;
  cublasHandle_t handle;
  cublasLtHandle_t lt;

  void run_ours(Problem<T, In> &p) const {
    ours(Operands<T, In>{p.da.get(), p.db.get(), p.dout.get(), p.c_or_null(),
                     p.bias_or_null(), p.M, p.N, p.K, p.fused.alpha,
                     p.fused.beta, p.L});
  }
  Comparison compare_with_reference(Problem<T, In> &p,
                                    const std::vector<T> &out) const {
    return compare<T, In>(out, p.ref, p.mag, p.K, epilogue, p.fused.alpha,
                      p.added, p.added_mag);
  }

  /// One poisoned run of ours, checked element by element; and (INFO) the
  /// baseline's output checked against the same bound, if it computes the
  /// same function.
  bool correctness(Problem<T, In> &p, const Baseline<T, In> &base) const {
    p.poison_out();
    run_ours(p);
    check(cudaGetLastError(), "launch (ours)");
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (ours)");
    const int ulp = gemm_example::ulp_exponent<T>;
    const std::string batch = p.batch_text();
    const bool pass =
        print_comparison(nullptr, name, batch.c_str(), p.M, p.N, p.K, ulp,
                         compare_with_reference(p, p.dout.download()));
    if (base.same_function()) {
      p.poison_base();
      p.run_base(base);
      check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (baseline)");
      const std::string what = batch + " baseline (" + base.label() + ")";
      print_comparison("INFO", name, what.c_str(), p.M, p.N, p.K, ulp,
                       compare_with_reference(p, p.dbase.download()));
    }
    return pass;
  }

  /// Paused timing: the median of `runs` runs of each, the output poisoned
  /// (untimed) before each.
  void paused_timing(Problem<T, In> &p, const Baseline<T, In> &base,
                     int runs) const {
    const float ours_ms = median_ms(
        runs, [&] { p.poison_out(); }, [&] { run_ours(p); });
    if (!base.available()) {
      std::printf("TIME %s M=%" PRId64 " N=%" PRId64 " K=%" PRId64
                  "%s: ours %.3f ms %.1f TFLOP/s, %s\n",
                  name, p.M, p.N, p.K, p.batch_text().c_str(), ours_ms,
                  p.tflop() / (ours_ms * 1e-3), base.label().c_str());
      return;
    }
    const float base_ms = median_ms(
        runs, [&] { p.poison_base(); },
        [&] { p.run_base(base); });
    const double ours_tf = p.tflop() / (ours_ms * 1e-3),
                 base_tf = p.tflop() / (base_ms * 1e-3);
    std::printf("PERF %" PRId64 ",%" PRId64 ",%" PRId64 " %.1f\n", p.M, p.N,
                p.K, ours_tf);
    std::printf("TIME %s M=%" PRId64 " N=%" PRId64 " K=%" PRId64
                "%s: ours %.3f ms %.1f TFLOP/s, %s %.3f ms %.1f TFLOP/s, "
                "ours/baseline %.3f (paused: median of %d, output poisoned "
                "before each)\n",
                name, p.M, p.N, p.K, p.batch_text().c_str(), ours_ms, ours_tf,
                base.label().c_str(), base_ms, base_tf, ours_tf / base_tf, runs);
  }

  /// Sustained timing: `rounds` interleaved rounds (ours, baseline, ours,
  /// ...), each `warmup` launches then `timed` launches back to back between
  /// two events, nothing in between; per side the median round. Without a
  /// baseline (cuBLASLt has no e5m2 x e5m2 GEMM) ours alone, said so.
  void sustained_timing(Problem<T, In> &p, const Baseline<T, In> &base, int rounds,
                        int warmup, int timed) const {
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    auto round = [&](auto &&launch) {
      for (int i = 0; i < warmup; ++i)
        launch();
      check(cudaEventRecord(start), "cudaEventRecord");
      for (int i = 0; i < timed; ++i)
        launch();
      check(cudaEventRecord(stop), "cudaEventRecord");
      check(cudaEventSynchronize(stop), "cudaEventSynchronize");
      check(cudaGetLastError(), "launches");
      float ms = 0;
      check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      return ms / float(timed);
    };
    std::vector<float> ours_ms, base_ms;
    for (int r = 0; r < rounds; ++r) {
      ours_ms.push_back(round([&] { run_ours(p); }));
      if (base.available())
        base_ms.push_back(round([&] { p.run_base(base); }));
    }
    check(cudaEventDestroy(start), "cudaEventDestroy");
    check(cudaEventDestroy(stop), "cudaEventDestroy");
    auto list = [&](const std::vector<float> &ms) {
      std::string s;
      for (float t : ms) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%s%.1f", s.empty() ? "" : " ",
                      p.tflop() / (t * 1e-3));
        s += buf;
      }
      return s;
    };
    const std::string ours_rounds = list(ours_ms), base_rounds = list(base_ms);
    auto median = [](std::vector<float> v) {
      std::sort(v.begin(), v.end());
      return v[v.size() / 2];
    };
    const float om = median(ours_ms);
    const double ours_tf = p.tflop() / (om * 1e-3);
    if (!base.available()) {
      std::printf("SUSTAINED %s M=%" PRId64 " N=%" PRId64 " K=%" PRId64
                  "%s: ours %.3f ms %.1f TFLOP/s, %s (median of %d rounds of %d "
                  "warm-up + %d timed back-to-back launches; rounds TFLOP/s: "
                  "%s)\n",
                  name, p.M, p.N, p.K, p.batch_text().c_str(), om, ours_tf,
                  base.label().c_str(),
                  rounds, warmup, timed, ours_rounds.c_str());
      return;
    }
    const float bm = median(base_ms);
    const double base_tf = p.tflop() / (bm * 1e-3);
    std::printf("SUSTAINED %s M=%" PRId64 " N=%" PRId64 " K=%" PRId64
                "%s: ours %.3f ms %.1f TFLOP/s, %s %.3f ms %.1f TFLOP/s, "
                "ours/baseline %.3f (median of %d interleaved rounds of %d "
                "warm-up + %d timed back-to-back launches per side; rounds "
                "TFLOP/s: ours %s; baseline %s)\n",
                name, p.M, p.N, p.K, p.batch_text().c_str(), om, ours_tf,
                base.label().c_str(), bm,
                base_tf, ours_tf / base_tf, rounds, warmup, timed,
                ours_rounds.c_str(), base_rounds.c_str());
  }
};

struct Shape {
  std::int64_t M, N, K;
  int runs;
};

/// K as a test of In operands runs it: TMA needs each row of a K-major
/// operand to start 16 bytes apart, so with 1-byte operands K is rounded up
/// to a multiple of 16 (1000 -> 1008: still no tile multiple); 16-bit ones
/// take any K the shapes below use.
template <Input In> std::int64_t tma_k(std::int64_t K) {
  constexpr std::int64_t per_16_bytes = 16 / sizeof(In);
  return sizeof(In) == 1 ? (K + per_16_bytes - 1) / per_16_bytes * per_16_bytes
                         : K;
}

/// The test's main (the user.cpp's `main` returns it): every shape, checked
/// and timed paused; `--small`: 328 x 760 x 200 once, checked only;
/// `--sustained [M N K]`: the anchor (or M N K) checked once, then timed
/// back to back ($TF_SUSTAINED="ROUNDS WARMUP TIMED", default "7 20 50").
/// A batched test (\p L > 1) runs L GEMMs of each shape.
template <Output T, Input In = T>
int main(int argc, char **argv, const char *name, Epilogue epilogue,
         std::type_identity_t<Launch<T, In>> ours, Majors majors = {},
         Fused fused = {}, std::int64_t L = 1) {
  Test<T, In> test{name, epilogue, std::move(ours), majors, nullptr, nullptr};
  cublas_check(cublasCreate(&test.handle), "cublasCreate");
  cublas_check(cublasLtCreate(&test.lt), "cublasLtCreate");
  const std::uint32_t salt = static_cast<std::uint32_t>(
      std::hash<std::string_view>{}(std::string_view(name)));
  const std::string_view mode = argc > 1 ? argv[1] : "";
  int failed = 0;
  if (mode == "--sustained") {
    Shape s{8192, 17408, 5120, 0};
    if (argc == 5) {
      s.M = std::atoll(argv[2]);
      s.N = std::atoll(argv[3]);
      s.K = std::atoll(argv[4]);
    }
    int rounds = 7, warmup = 20, timed = 50;
    if (const char *env = std::getenv("TF_SUSTAINED"))
      std::sscanf(env, "%d %d %d", &rounds, &warmup, &timed);
    Problem<T, In> p(test.handle, s.M, s.N, s.K, salt, majors, fused, L);
    Baseline<T, In> base(test.handle, test.lt, epilogue, fused, s.M, s.N, s.K,
                     majors, L);
    failed += !test.correctness(p, base);
    test.sustained_timing(p, base, rounds, warmup, timed);
  } else {
    const bool small = mode == "--small";
    const std::vector<Shape> shapes =
        small ? std::vector<Shape>{{328, 760, 200, 0}}
              : std::vector<Shape>{
                    {128, 256, 64, 5},       // one tile, one K step
                    {8192, 17408, 5120, 20}, // the anchor
                    {1000, 1544, 1000, 5},   // no extent a tile multiple
                    {64, 4096, 4096, 5},     // M = 64: half a tile
                    {2048, 2048, 64, 5},     // K = 64: one K step per tile
                    {328, 760, 200, 5},      // a partial tile everywhere
                };
    for (Shape s : shapes) {
      s.K = tma_k<In>(s.K);
      Problem<T, In> p(test.handle, s.M, s.N, s.K, salt, majors, fused, L);
      Baseline<T, In> base(test.handle, test.lt, epilogue, fused, s.M, s.N, s.K,
                       majors, L);
      failed += !test.correctness(p, base);
      if (s.runs > 0)
        test.paused_timing(p, base, s.runs);
    }
  }
  cublas_check(cublasLtDestroy(test.lt), "cublasLtDestroy");
  cublas_check(cublasDestroy(test.handle), "cublasDestroy");
  return failed ? 1 : 0;
}

} // namespace gemm_test
