//===- bench/gemm_bench.cu - The generated GEMM against cuBLASLt ---------===//
//
// What a user of tf's GEMM gets, measured against what PyTorch would give
// them, in one process (bench/README.md):
//
// - per shape, S input sets (A, B) and one output per set and per side,
//   S chosen so that the sets together exceed twice the L2 (read from the
//   device), rotated launch by launch so that L2 does not serve them;
//   operands random in +-[1/8, 1] (never zero), drawn on the device;
// - three sides: tf's kernel through tf::launch; cuBLASLt with the first
//   algorithm its heuristic returns (32 MiB workspace, as PyTorch calls
//   it); and, for context, the fastest of the heuristic's first eight,
//   chosen by timing each here;
// - sustained: ROUNDS interleaved rounds (tf, first, best, tf, ...), each
//   side per round WARM-UP launches then TIMED launches back to back
//   between two events; per side the median round;
// - paused: PAUSED launches per side, each preceded by a device fill of its
//   output with a NaN poison (the GPU does other work and the host waits
//   between GEMMs), each timed alone; the median;
// - every output of every timed side is poisoned first and checked after
//   the sustained rounds and again after the paused runs, element by
//   element on the device, against cuBLASLt's f32 result for its set:
//   |out - ref| <= 2^-7 |ref| + 2 K 2^-23 (|A| |B|) (one bf16 ulp and the
//   f32 accumulation of both sides; |A| |B| also by cuBLASLt in f32),
//   poisoned (unwritten) and non-finite elements counted apart;
// - a table on stdout, one CSV row per shape and mode.
//
// --launch-overhead measures the host time one tf::launch takes (the
// enqueue, not the kernel) at a one-tile shape, against cuBLASLt's, and
// what encoding the three tensor maps and setting the shared-memory
// attribute cost when done on every launch.
//
//===----------------------------------------------------------------------===//
#include "gemm_bench.hpp"

#include "tf/runtime/host/check.hpp"
#include "tf/runtime/host/tensor_map.hpp"

#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace bench {
namespace {

const tf::runtime::CudaCheck check{"gemm benchmark"};

void lt_check(cublasStatus_t status, const char *call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    check.fail("%s failed: cuBLAS status %d (%s)", call,
               static_cast<int>(status), cublasLtGetStatusString(status));
}

constexpr double dense_peak_tflops = 989.0; // H200 SXM, dense bf16
constexpr int rounds = 5;
constexpr int paused_runs = 10;
constexpr int candidates = 8; // cuBLASLt heuristic results timed
constexpr std::size_t workspace_bytes = std::size_t{32} << 20;
constexpr std::uint16_t poison_bits = 0x7fba; // a bf16 NaN payload

struct Shape {
  std::int64_t M, N, K;
  const char *what;
};

// M tokens x N outputs x K inputs. N and K are multiples of 8 (TMA needs
// 16-byte rows), not all of 128.
const Shape sweep[] = {
    {8192, 17408, 5120, "the anchor"},
    {64, 6144, 4096, "Llama-3-8B QKV, 64 tokens"},
    {64, 28672, 8192, "Llama-3-70B gate+up, 64 tokens"},
    {128, 4096, 4096, "Llama-3-8B o_proj, 128 tokens"},
    {256, 10240, 8192, "Llama-3-70B QKV, 256 tokens"},
    {256, 28672, 4096, "Llama-3-8B gate+up, 256 tokens"},
    {512, 4096, 14336, "Llama-3-8B down, 512 tokens"},
    {1000, 4672, 4544, "Falcon-7B QKV (N, K not /128)"},
    {2048, 2048, 2048, "square 2048"},
    {2048, 18176, 4544, "Falcon-7B up (K not /128)"},
    {3000, 5000, 4000, "awkward (N, K not /128)"},
    {4096, 4096, 4096, "square 4096"},
    {4096, 28672, 8192, "Llama-3-70B gate+up"},
    {4096, 8192, 28672, "Llama-3-70B down"},
    {8192, 1024, 8192, "Llama-3-70B K or V (GQA)"},
    {8192, 3584, 18944, "Qwen2-7B down"},
    {8192, 4544, 4544, "Falcon-7B o_proj (N, K not /128)"},
    {16384, 4096, 4096, "Llama-3-8B o_proj, 16k tokens"},
    {16384, 8960, 1536, "Qwen2.5-1.5B up (K = 1536)"},
    {16384, 14336, 4096, "Llama-3-8B up, 16k tokens"},
};

// --- Device helpers --------------------------------------------------------

__device__ std::uint32_t mix(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  x ^= x >> 33;
  return static_cast<std::uint32_t>(x);
}

/// Uniform in [1/8, 1] with a random sign: never zero.
__global__ void fill_random(__nv_bfloat16 *p, std::int64_t n,
                            std::uint64_t seed) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
       i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    const std::uint32_t r = mix(seed * 0x9e3779b97f4a7c15ull + i);
    const float mag = 0.125f + 0.875f * float(r >> 8) * (1.0f / 16777216.0f);
    p[i] = __float2bfloat16(r & 1u ? -mag : mag);
  }
}

__global__ void fill_bits(std::uint16_t *p, std::int64_t n,
                          std::uint16_t bits) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
       i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    p[i] = bits;
}

__global__ void magnitudes(__nv_bfloat16 *dst, const __nv_bfloat16 *src,
                           std::int64_t n) {
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
       i < n; i += std::int64_t(gridDim.x) * blockDim.x)
    dst[i] = __habs(src[i]);
}

struct Counts {
  unsigned long long outside, unwritten, non_finite;
  unsigned int worst_ratio_bits; // a non-negative float's bits order as it
};

__global__ void compare(const std::uint16_t *out, const float *ref,
                        const float *mag, std::int64_t n, std::int64_t K,
                        Counts *counts) {
  unsigned long long outside = 0, unwritten = 0, non_finite = 0;
  float worst = 0;
  for (std::int64_t i = blockIdx.x * std::int64_t(blockDim.x) + threadIdx.x;
       i < n; i += std::int64_t(gridDim.x) * blockDim.x) {
    if (out[i] == poison_bits) {
      ++unwritten, ++outside;
      worst = INFINITY;
      continue;
    }
    const float o = __bfloat162float(__ushort_as_bfloat16(out[i]));
    if (!isfinite(o)) {
      ++non_finite, ++outside;
      worst = INFINITY;
      continue;
    }
    const float bound =
        ldexpf(fabsf(ref[i]), -7) + 2.0f * float(K) * ldexpf(mag[i], -23);
    const float ratio = fabsf(o - ref[i]) / bound;
    outside += !(ratio <= 1.0f);
    worst = fmaxf(worst, ratio);
  }
  atomicAdd(&counts->outside, outside);
  atomicAdd(&counts->unwritten, unwritten);
  atomicAdd(&counts->non_finite, non_finite);
  atomicMax(&counts->worst_ratio_bits, __float_as_uint(worst));
}

constexpr int fill_blocks = 1024, fill_threads = 256;

// --- Memory -----------------------------------------------------------------

template <class T> class DeviceArray {
public:
  explicit DeviceArray(std::int64_t n = 0) : n_(n) {
    if (n > 0)
      check(cudaMalloc(&p_, std::size_t(n) * sizeof(T)), "cudaMalloc");
  }
  DeviceArray(DeviceArray &&o) noexcept : p_(o.p_), n_(o.n_) { o.p_ = nullptr; }
  DeviceArray &operator=(DeviceArray &&o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  ~DeviceArray() { cudaFree(p_); }
  T *get() const { return p_; }
  std::int64_t size() const { return n_; }

private:
  T *p_ = nullptr;
  std::int64_t n_ = 0;
};

// --- cuBLASLt ---------------------------------------------------------------

/// One of cuBLASLt's algorithms. (Wrapped: nvcc 13.0's front end fails an
/// internal assertion on a std::vector of cuBLASLt's own typedef'd structs.)
struct Algorithm {
  cublasLtMatmulAlgo_t algo;
};

/// Row-major out (M x N) = A (M x K) B, as cuBLASLt's column-major
/// out^T = B^T A^T: its first operand is B as stored (transposed when B is
/// stored N x K), its second A as stored.
class LtGemm {
public:
  LtGemm(cublasLtHandle_t lt, const Shape &s, BLayout b, cudaDataType out)
      : lt_(lt) {
    lt_check(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F),
             "cublasLtMatmulDescCreate");
    const cublasOperation_t ta = b == BLayout::kn ? CUBLAS_OP_N : CUBLAS_OP_T,
                            tb = CUBLAS_OP_N;
    lt_check(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA,
                                            &ta, sizeof ta),
             "cublasLtMatmulDescSetAttribute (TRANSA)");
    lt_check(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB,
                                            &tb, sizeof tb),
             "cublasLtMatmulDescSetAttribute (TRANSB)");
    if (b == BLayout::kn)
      lt_check(cublasLtMatrixLayoutCreate(&lb_, CUDA_R_16BF, s.N, s.K, s.N),
               "cublasLtMatrixLayoutCreate (B)");
    else
      lt_check(cublasLtMatrixLayoutCreate(&lb_, CUDA_R_16BF, s.K, s.N, s.K),
               "cublasLtMatrixLayoutCreate (B)");
    lt_check(cublasLtMatrixLayoutCreate(&la_, CUDA_R_16BF, s.K, s.M, s.K),
             "cublasLtMatrixLayoutCreate (A)");
    lt_check(cublasLtMatrixLayoutCreate(&lc_, out, s.N, s.M, s.N),
             "cublasLtMatrixLayoutCreate (C)");
  }
  ~LtGemm() {
    cublasLtMatrixLayoutDestroy(la_);
    cublasLtMatrixLayoutDestroy(lb_);
    cublasLtMatrixLayoutDestroy(lc_);
    cublasLtMatmulDescDestroy(op_);
  }
  LtGemm(const LtGemm &) = delete;
  LtGemm &operator=(const LtGemm &) = delete;

  /// The heuristic's first `n` algorithms, best first by its own ranking.
  std::vector<Algorithm> algorithms(int n) const {
    cublasLtMatmulPreference_t pref;
    lt_check(cublasLtMatmulPreferenceCreate(&pref),
             "cublasLtMatmulPreferenceCreate");
    lt_check(cublasLtMatmulPreferenceSetAttribute(
                 pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                 &workspace_bytes, sizeof workspace_bytes),
             "cublasLtMatmulPreferenceSetAttribute");
    cublasLtMatmulHeuristicResult_t found[candidates] = {};
    int count = 0;
    lt_check(cublasLtMatmulAlgoGetHeuristic(lt_, op_, lb_, la_, lc_, lc_, pref,
                                            std::min(n, candidates), found,
                                            &count),
             "cublasLtMatmulAlgoGetHeuristic");
    cublasLtMatmulPreferenceDestroy(pref);
    if (count == 0)
      check.fail("cuBLASLt has no algorithm for this GEMM");
    std::vector<Algorithm> algorithms;
    for (int i = 0; i < count; ++i)
      algorithms.push_back({found[i].algo});
    return algorithms;
  }

  void operator()(const cublasLtMatmulAlgo_t &algo, const void *a,
                  const void *b, void *c, void *workspace) const {
    const float one = 1, zero = 0;
    lt_check(cublasLtMatmul(lt_, op_, &one, b, lb_, a, la_, &zero, c, lc_, c,
                            lc_, &algo, workspace, workspace_bytes, 0),
             "cublasLtMatmul");
  }

private:
  cublasLtHandle_t lt_;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr;
};

// --- One shape --------------------------------------------------------------

enum Side { tf_side, first_side, best_side, sides };
const char *const side_names[sides] = {"tf", "cuBLASLt first",
                                       "cuBLASLt best of 8"};

struct Verdict {
  Counts counts{};
  std::int64_t elements = 0;
  bool ok() const { return elements > 0 && counts.outside == 0; }
};

struct Result {
  double tflops[sides] = {};
  Verdict verdict[sides];
};

struct Measurement {
  Shape shape;
  int sets = 0, best_index = 0, timed = 0, warmup = 0;
  Result sustained, paused;
};

class Bench {
public:
  Bench(const Shape &s, BLayout layout, TfGemm tf, cublasLtHandle_t lt,
        void *workspace, std::size_t l2_bytes)
      : s_(s), tf_(tf), workspace_(workspace),
        gemm_(lt, s, layout, CUDA_R_16BF), reference_(lt, s, layout, CUDA_R_32F) {
    const std::int64_t set_bytes = 2 * (s.M * s.K + s.K * s.N + s.M * s.N);
    sets_ = int(std::max<std::int64_t>(
        2, (2 * std::int64_t(l2_bytes) + set_bytes - 1) / set_bytes + 1));
    for (int i = 0; i < sets_; ++i) {
      a_.emplace_back(s.M * s.K);
      b_.emplace_back(s.K * s.N);
      fill(a_.back(), 2 * i + 1);
      fill(b_.back(), 2 * i + 2);
      for (int side = 0; side < sides; ++side)
        out_[side].emplace_back(s.M * s.N);
    }
    algos_ = gemm_.algorithms(candidates);
  }

  Measurement run() {
    Measurement m;
    m.shape = s_;
    m.sets = sets_;
    choose_best(m);
    // Sustained: every output poisoned once, then back-to-back rounds.
    poison_all();
    std::vector<float> ms[sides];
    for (int r = 0; r < rounds; ++r)
      for (int side = 0; side < sides; ++side)
        ms[side].push_back(sustained_round(Side(side), m.warmup, m.timed));
    for (int side = 0; side < sides; ++side) {
      m.sustained.tflops[side] = tflop() / (median(ms[side]) * 1e-3);
      m.sustained.verdict[side] = check_side(Side(side));
    }
    // Paused: each launch alone after a poisoning fill of its output.
    for (int side = 0; side < sides; ++side) {
      std::vector<float> p;
      for (int r = 0; r < paused_runs; ++r)
        p.push_back(paused_run(Side(side), r % sets_));
      m.paused.tflops[side] = tflop() / (median(p) * 1e-3);
      m.paused.verdict[side] = check_side(Side(side));
    }
    return m;
  }

private:
  double tflop() const { return 2.0 * double(s_.M) * s_.N * s_.K / 1e12; }

  static float median(std::vector<float> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }

  void fill(DeviceArray<__nv_bfloat16> &p, std::uint64_t operand) {
    const std::uint64_t seed = std::uint64_t(s_.M) * 1000003u +
                               std::uint64_t(s_.N) * 10007u +
                               std::uint64_t(s_.K) * 101u + operand * 7919u;
    fill_random<<<fill_blocks, fill_threads>>>(p.get(), p.size(), seed);
    check.launch("fill_random");
  }

  static void poison(DeviceArray<__nv_bfloat16> &p) {
    fill_bits<<<fill_blocks, fill_threads>>>(
        reinterpret_cast<std::uint16_t *>(p.get()), p.size(), poison_bits);
    check.launch("fill_bits");
  }

  void poison_all() {
    for (int side = 0; side < sides; ++side)
      for (auto &o : out_[side])
        poison(o);
  }

  void launch(Side side, int set) {
    const void *a = a_[set].get(), *b = b_[set].get();
    void *c = out_[side][set].get();
    switch (side) {
    case tf_side:
      tf_(a, b, c, s_.M, s_.N, s_.K);
      break;
    case first_side:
      gemm_(algos_[0].algo, a, b, c, workspace_);
      break;
    case best_side:
      gemm_(algos_[best_].algo, a, b, c, workspace_);
      break;
    case sides:
      break;
    }
  }

  /// Milliseconds per launch of `body(i)` over `count` launches back to
  /// back (after `warmup` untimed ones).
  template <class Body> float back_to_back(int warmup, int count, Body body) {
    for (int i = 0; i < warmup; ++i)
      body(i);
    cudaEvent_t start, stop;
    check(cudaEventCreate(&start), "cudaEventCreate");
    check(cudaEventCreate(&stop), "cudaEventCreate");
    check(cudaEventRecord(start), "cudaEventRecord");
    for (int i = 0; i < count; ++i)
      body(warmup + i);
    check(cudaEventRecord(stop), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    check(cudaGetLastError(), "launches");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    check(cudaEventDestroy(start), "cudaEventDestroy");
    check(cudaEventDestroy(stop), "cudaEventDestroy");
    return ms / float(count);
  }

  /// Times each of the heuristic's algorithms (3 + 10 launches over the
  /// sets) and keeps the fastest; sizes the sustained rounds from it (a
  /// timed window of about 4 ms, 10 to 200 launches).
  void choose_best(Measurement &m) {
    float fastest = INFINITY;
    for (std::size_t i = 0; i < algos_.size(); ++i) {
      const float t = back_to_back(3, 10, [&](int k) {
        gemm_(algos_[i].algo, a_[k % sets_].get(), b_[k % sets_].get(),
              out_[best_side][k % sets_].get(), workspace_);
      });
      if (t < fastest)
        fastest = t, best_ = int(i);
    }
    m.best_index = best_;
    m.timed = std::clamp(int(4.0f / fastest), 10, 200);
    m.warmup = std::max(3, m.timed / 4);
  }

  float sustained_round(Side side, int warmup, int timed) {
    return back_to_back(warmup, timed,
                        [&](int k) { launch(side, k % sets_); });
  }

  float paused_run(Side side, int set) {
    poison(out_[side][set]);
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (pause)");
    return back_to_back(0, 1, [&](int) { launch(side, set); });
  }

  /// Every set's output of `side` against cuBLASLt's f32 result for the
  /// set; the references are computed once and kept.
  Verdict check_side(Side side) {
    if (ref_.empty())
      make_references();
    Verdict v;
    DeviceArray<Counts> counts(1);
    for (int set = 0; set < sets_; ++set) {
      check(cudaMemset(counts.get(), 0, sizeof(Counts)), "cudaMemset");
      compare<<<fill_blocks, fill_threads>>>(
          reinterpret_cast<const std::uint16_t *>(out_[side][set].get()),
          ref_[set].get(), mag_[set].get(), s_.M * s_.N, s_.K, counts.get());
      check.launch("compare");
      Counts c{};
      check(cudaMemcpy(&c, counts.get(), sizeof c, cudaMemcpyDeviceToHost),
            "cudaMemcpy (counts)");
      v.counts.outside += c.outside;
      v.counts.unwritten += c.unwritten;
      v.counts.non_finite += c.non_finite;
      v.counts.worst_ratio_bits =
          std::max(v.counts.worst_ratio_bits, c.worst_ratio_bits);
      v.elements += s_.M * s_.N;
    }
    return v;
  }

  void make_references() {
    const auto algo = reference_.algorithms(1).front().algo;
    DeviceArray<__nv_bfloat16> abs_a(s_.M * s_.K), abs_b(s_.K * s_.N);
    for (int set = 0; set < sets_; ++set) {
      ref_.emplace_back(s_.M * s_.N);
      mag_.emplace_back(s_.M * s_.N);
      reference_(algo, a_[set].get(), b_[set].get(), ref_.back().get(),
                 workspace_);
      magnitudes<<<fill_blocks, fill_threads>>>(abs_a.get(), a_[set].get(),
                                                abs_a.size());
      magnitudes<<<fill_blocks, fill_threads>>>(abs_b.get(), b_[set].get(),
                                                abs_b.size());
      check.launch("magnitudes");
      reference_(algo, abs_a.get(), abs_b.get(), mag_.back().get(),
                 workspace_);
    }
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize (references)");
  }

  Shape s_;
  TfGemm tf_;
  void *workspace_;
  LtGemm gemm_, reference_;
  int sets_ = 0, best_ = 0;
  std::vector<Algorithm> algos_;
  std::vector<DeviceArray<__nv_bfloat16>> a_, b_, out_[sides];
  std::vector<DeviceArray<float>> ref_, mag_;
};

// --- Reporting --------------------------------------------------------------

float worst_ratio(const Verdict &v) {
  float f;
  std::memcpy(&f, &v.counts.worst_ratio_bits, sizeof f);
  return f;
}

const char *verdict_word(const Verdict &v) { return v.ok() ? "PASS" : "FAIL"; }

void print_header(const char *layout, const char *schedule) {
  std::printf("\n%s, schedule %s (A M x K row-major, B %s), bf16 in and out, "
              "f32 accumulation; TFLOP/s\n",
              layout, schedule,
              std::string_view(layout) == "NN" ? "K x N row-major"
                                               : "N x K row-major (K-major)");
  std::printf("%-6s %-22s %-9s %7s %7s %7s %6s %6s %6s %5s %s\n", "layout",
              "M x N x K", "mode", "tf", "first", "best8", "tf/1st",
              "tf/bst", "peak", "sets", "check (tf, first, best)");
}

void report(const char *layout, const char *schedule, const Measurement &m,
            const char *mode, const Result &r, std::FILE *csv) {
  char shape[48];
  std::snprintf(shape, sizeof shape, "%" PRId64 "x%" PRId64 "x%" PRId64,
                m.shape.M, m.shape.N, m.shape.K);
  const double tf = r.tflops[tf_side], first = r.tflops[first_side],
               best = r.tflops[best_side];
  std::printf("%-6s %-22s %-9s %7.1f %7.1f %7.1f %6.3f %6.3f %6.3f %5d "
              "%s %s %s\n",
              layout, shape, mode, tf, first, best, tf / first, tf / best,
              tf / dense_peak_tflops, m.sets, verdict_word(r.verdict[0]),
              verdict_word(r.verdict[1]), verdict_word(r.verdict[2]));
  for (int side = 0; side < sides; ++side)
    if (!r.verdict[side].ok())
      std::printf("  FAIL %s: %llu of %" PRId64
                  " elements outside the bound (unwritten %llu, non-finite "
                  "%llu), worst %.3g of its bound\n",
                  side_names[side], r.verdict[side].counts.outside,
                  r.verdict[side].elements, r.verdict[side].counts.unwritten,
                  r.verdict[side].counts.non_finite,
                  worst_ratio(r.verdict[side]));
  if (csv)
    std::fprintf(csv,
                 "%s,%" PRId64 ",%" PRId64 ",%" PRId64 ",\"%s\",%s,%.2f,%.2f,"
                 "%.2f,%.4f,%.4f,%.4f,%d,%d,%d,%d,%s,%s,%s,%.4g,%.4g,%.4g,"
                 "%s\n",
                 layout, m.shape.M, m.shape.N, m.shape.K, m.shape.what, mode,
                 tf, first, best, tf / first, tf / best,
                 tf / dense_peak_tflops, m.best_index, m.sets, m.warmup,
                 m.timed, verdict_word(r.verdict[0]),
                 verdict_word(r.verdict[1]), verdict_word(r.verdict[2]),
                 worst_ratio(r.verdict[0]), worst_ratio(r.verdict[1]),
                 worst_ratio(r.verdict[2]), schedule);
}

const char *const csv_header =
    "layout,M,N,K,what,mode,tf_tflops,lt_first_tflops,lt_best8_tflops,"
    "tf_over_first,tf_over_best8,tf_peak_fraction,best8_index,sets,warmup,"
    "timed,tf_check,first_check,best8_check,tf_worst,first_worst,"
    "best8_worst,schedule\n";

// --- Host time per launch ---------------------------------------------------

/// Median over `batches` of the host time of `per_batch` calls of `body`
/// (microseconds per call), the device drained between batches so that
/// enqueueing never waits for a full launch queue.
template <class Body> double host_us(int batches, int per_batch, Body body) {
  std::vector<double> us;
  for (int b = 0; b < batches; ++b) {
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < per_batch; ++i)
      body();
    const auto stop = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(stop - start).count() /
                 per_batch);
  }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  check(cudaGetLastError(), "launches");
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

int launch_overhead(const char *layout, BLayout b_layout, TfGemm tf,
                    cublasLtHandle_t lt, void *workspace) {
  const Shape s{128, 256, 64, "one tile"};
  DeviceArray<__nv_bfloat16> a(s.M * s.K), b(s.K * s.N), c(s.M * s.N);
  LtGemm gemm(lt, s, b_layout, CUDA_R_16BF);
  const auto algo = gemm.algorithms(1).front().algo;
  tf(a.get(), b.get(), c.get(), s.M, s.N, s.K); // first launch: encodes
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  const double tf_us =
      host_us(200, 100, [&] { tf(a.get(), b.get(), c.get(), s.M, s.N, s.K); });
  const double lt_us =
      host_us(200, 100, [&] { gemm(algo, a.get(), b.get(), c.get(), workspace); });

  // What every launch paid before maps were cached: three encodings (each
  // with its pointer check) and three more pointer checks.
  tf::runtime::TensorArg ta;
  ta.data = a.get();
  ta.rank = 2;
  ta.dtype = tf::DType::bf16;
  ta.extents[0] = s.M, ta.extents[1] = s.K;
  ta.strides[0] = s.K, ta.strides[1] = 1;
  const std::uint32_t box[] = {128, 64}, order[] = {0, 1};
  const double encode_us = host_us(20, 100, [&] {
    for (int i = 0; i < 3; ++i) {
      (void)tf::runtime::make_tensor_map(
          ta, box, order, tf::runtime::TmaSwizzle::bytes128, check);
      cudaPointerAttributes where{};
      check(cudaPointerGetAttributes(&where, ta.data),
            "cudaPointerGetAttributes");
    }
  });
  std::printf("HOST %s %" PRId64 "x%" PRId64 "x%" PRId64
              ": tf::launch %.2f us per launch, cuBLASLt (cublasLtMatmul, "
              "heuristic's first) %.2f us; encoding 3 tensor maps with 6 "
              "pointer checks (each launch's cost before the cache) %.2f us "
              "(host time of the enqueue: median of 200 batches of 100 "
              "launches, device drained between batches)\n",
              layout, s.M, s.N, s.K, tf_us, lt_us, encode_us);
  return tf_us < 5.0 ? 0 : 1;
}

} // namespace

int main(int argc, char **argv, const char *layout, const char *schedule,
         BLayout b_layout, TfGemm tf) {
  const char *csv_path = nullptr;
  std::vector<Shape> shapes(std::begin(sweep), std::end(sweep));
  bool overhead = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--csv" && i + 1 < argc)
      csv_path = argv[++i];
    else if (arg == "--shape" && i + 3 < argc) {
      shapes = {{std::atoll(argv[i + 1]), std::atoll(argv[i + 2]),
                 std::atoll(argv[i + 3]), "given"}};
      i += 3;
    } else if (arg == "--launch-overhead")
      overhead = true;
    else {
      std::fprintf(stderr,
                   "usage: %s [--csv FILE] [--shape M N K] "
                   "[--launch-overhead]\n",
                   argv[0]);
      return 2;
    }
  }
  cublasLtHandle_t lt;
  lt_check(cublasLtCreate(&lt), "cublasLtCreate");
  DeviceArray<std::uint8_t> workspace(workspace_bytes);
  if (overhead) {
    const int status = launch_overhead(layout, b_layout, tf, lt, workspace.get());
    cublasLtDestroy(lt);
    return status;
  }
  int device = 0, l2 = 0;
  check(cudaGetDevice(&device), "cudaGetDevice");
  check(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, device),
        "cudaDeviceGetAttribute (L2)");
  cudaDeviceProp prop{};
  check(cudaGetDeviceProperties(&prop, device), "cudaGetDeviceProperties");
  std::printf("%s (%s): %s, %d SMs, L2 %d MiB; sustained: median of %d "
              "interleaved rounds of back-to-back launches; paused: median "
              "of %d launches, each after a poisoning fill of its output\n",
              layout, schedule, prop.name, prop.multiProcessorCount, l2 >> 20,
              rounds,
              paused_runs);
  std::FILE *csv = csv_path ? std::fopen(csv_path, "w") : nullptr;
  if (csv_path && !csv)
    check.fail("cannot write %s", csv_path);
  if (csv)
    std::fputs(csv_header, csv);
  print_header(layout, schedule);
  int failed = 0;
  for (const Shape &s : shapes) {
    Measurement m;
    {
      Bench bench(s, b_layout, tf, lt, workspace.get(), std::size_t(l2));
      m = bench.run();
    }
    report(layout, schedule, m, "sustained", m.sustained, csv);
    report(layout, schedule, m, "paused", m.paused, csv);
    for (int side = 0; side < sides; ++side)
      failed += !m.sustained.verdict[side].ok() + !m.paused.verdict[side].ok();
    std::fflush(stdout);
    if (csv)
      std::fflush(csv);
  }
  if (csv)
    std::fclose(csv);
  lt_check(cublasLtDestroy(lt), "cublasLtDestroy");
  return failed ? 1 : 0;
}

} // namespace bench
