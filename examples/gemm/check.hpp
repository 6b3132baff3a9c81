//===- examples/gemm/check.hpp - What the GEMM examples share -------------===//
//
// The host side of the examples: M, N, K from the command line, random bf16,
// f16 or fp8 inputs (each operand K- or MN-major), an output poisoned before
// the kernel runs, and an element-wise check of the kernel's output (after
// its epilogue: alpha, added terms, an activation) against a
// double-precision reference:
// every element within the bound `dot_bound` derives, or the run fails.
// Not part of tf.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <tf/tf.hpp>

#include <algorithm>
#include <bit>
#include <concepts>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

namespace gemm_example {

struct Shape {
  std::int64_t M = 200, N = 300, K = 100; // not multiples of the tiles
};

/// `prog [M N K]`; stops with a usage line on anything else.
inline Shape parse_shape(int argc, char **argv) {
  Shape s;
  if (argc == 1)
    return s;
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s [M N K]\n", argv[0]);
    std::exit(2);
  }
  std::int64_t *dims[] = {&s.M, &s.N, &s.K};
  for (int i = 0; i < 3; ++i) {
    char *end = nullptr;
    const long long v = std::strtoll(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0' || v < 1) {
      std::fprintf(stderr, "%s: '%s' is not a positive extent\n", argv[0],
                   argv[i + 1]);
      std::exit(2);
    }
    *dims[i] = v;
  }
  return s;
}

/// A batch of L GEMMs of one shape (batched.cpp).
struct BatchedShape {
  std::int64_t L = 3;
  Shape s;
};

/// `prog [[L] M N K]` (L = 3 when only M N K are given).
inline BatchedShape parse_batched_shape(int argc, char **argv) {
  BatchedShape b;
  if (argc == 5) {
    char *end = nullptr;
    const long long l = std::strtoll(argv[1], &end, 10);
    if (end == argv[1] || *end != '\0' || l < 1) {
      std::fprintf(stderr, "%s: '%s' is not a positive batch count\n", argv[0],
                   argv[1]);
      std::exit(2);
    }
    b.L = l;
    argv[1] = argv[0];
    ++argv;
    --argc;
  } else if (argc != 1 && argc != 4) {
    std::fprintf(stderr, "usage: %s [[L] M N K]\n", argv[0]);
    std::exit(2);
  }
  b.s = parse_shape(argc, argv);
  return b;
}

/// The 16-bit float types the GEMM examples take and produce.
template <class T>
concept Half = std::same_as<T, tf::bf16> || std::same_as<T, tf::f16>;

/// The types the GEMM examples produce: the 16-bit floats, and float (the
/// f32 accumulator written as it is).
template <class T>
concept Output = Half<T> || std::same_as<T, float>;

/// The types the GEMM examples take: the 16-bit floats and the two fp8s.
template <class T>
concept Input =
    Half<T> || std::same_as<T, tf::fp8e4m3> || std::same_as<T, tf::fp8e5m2>;

/// How an operand is stored in global memory: along K or along M (for A)
/// or N (for B). A row-major A (M x K) is K-major, a row-major B (K x N)
/// MN-major.
enum class Major { K, MN };

/// The majors of A and B; the default is the row-major pair ("NN").
struct Majors {
  Major a = Major::K;
  Major b = Major::MN;

  /// Index of A's element (m, k) in its M*K elements.
  std::size_t a_at(const Shape &s, std::int64_t m, std::int64_t k) const {
    return static_cast<std::size_t>(a == Major::K ? m * s.K + k : k * s.M + m);
  }
  /// Index of B's element (k, n) in its K*N elements.
  std::size_t b_at(const Shape &s, std::int64_t k, std::int64_t n) const {
    return static_cast<std::size_t>(b == Major::MN ? k * s.N + n : n * s.K + k);
  }
};

/// n values of T uniform in [-1, -1/8] u [1/8, 1] (rounded to T): random,
/// never zero.
template <Input T>
std::vector<T> random_elements(std::int64_t n, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> mag(0.125f, 1.0f);
  std::bernoulli_distribution sign(0.5);
  std::vector<T> out(static_cast<std::size_t>(n));
  for (T &x : out)
    x = T(sign(gen) ? mag(gen) : -mag(gen));
  return out;
}

/// n bf16 values as random_elements draws them.
inline std::vector<tf::bf16> random_bf16(std::int64_t n, std::uint32_t seed) {
  return random_elements<tf::bf16>(n, seed);
}

/// A quiet NaN of T with a payload that no computation produces: the output
/// holds it before the kernel runs, so an element the kernel never writes
/// is found (and counted apart from other NaNs).
template <Output T> inline constexpr std::uint16_t poison_bits_of = 0x7fba;
template <> inline constexpr std::uint16_t poison_bits_of<tf::f16> = 0x7e5a;
template <> inline constexpr std::uint32_t poison_bits_of<float> = 0x7fc0bad0;
inline constexpr std::uint16_t poison_bits = poison_bits_of<tf::bf16>;

/// The bits of an output element (the poison is recognised by them).
template <Output T> auto bits_of(T x) {
  if constexpr (std::same_as<T, float>)
    return std::bit_cast<std::uint32_t>(x);
  else
    return x.bits;
}

/// The output buffer, every element poisoned.
template <Output T = tf::bf16>
std::vector<T> poisoned_output(std::int64_t n) {
  if constexpr (std::same_as<T, float>)
    return std::vector<T>(static_cast<std::size_t>(n),
                          std::bit_cast<float>(poison_bits_of<float>));
  else
    return std::vector<T>(static_cast<std::size_t>(n),
                          T::from_bits(poison_bits_of<T>));
}

/// The output's rounding, relative: half an ulp of 1 in T's significand
/// bounds it, and one ulp is allowed (bf16 2^-7, f16 2^-10). A float output
/// is the f32 accumulator itself, not rounded again: 2^-24 keeps the bound's
/// form and adds nothing the accumulation term does not cover.
template <Output T> inline constexpr int ulp_exponent = -7;
template <> inline constexpr int ulp_exponent<tf::f16> = -10;
template <> inline constexpr int ulp_exponent<float> = -24;

/// What the kernel applies to each f32 result before its rounding to the
/// output type.
enum class Epilogue { none, relu, gelu_tanh };

inline double apply(Epilogue e, double x) {
  switch (e) {
  case Epilogue::none:
    return x;
  case Epilogue::relu:
    return x < 0 ? 0.0 : x;
  case Epilogue::gelu_tanh:
    return tf::activation::gelu_tanh(x); // in double: the reference
  }
  return x;
}

/// A bound on |apply(e, x) - apply(e, y)| / |x - y|: how much the epilogue
/// can magnify the accumulation's error. The tanh GELU's slope peaks at
/// 1.1289 (near x = 1.5).
inline double lipschitz(Epilogue e) {
  return e == Epilogue::gelu_tanh ? 1.13 : 1.0;
}

/// How many output ulps the kernel's f32 evaluation of the epilogue may
/// move the result beyond its rounding: 0 for the exact ones (relu); the
/// tanh GELU's exp and division are a few f32 ulps off the exact value,
/// which can carry it across a rounding boundary of the output type.
inline double evaluation_ulps(Epilogue e) {
  return e == Epilogue::gelu_tanh ? 1.0 : 0.0;
}

/// How far a bf16 output element may be from the exact dot product `ref` of
/// K bf16 pairs accumulated in f32 (`magnitude` = sum over k of |a_k b_k|):
///
///   |out - ref| <= 2^-7 |ref| + K 2^-23 magnitude
///
/// - Products: a bf16 has 8 significant bits, so a_k b_k has at most 16 and
///   is exact in f32 (and in the double reference).
/// - Accumulation: K exact terms summed in f32 in any order and grouping are
///   off by at most gamma_(K-1) * magnitude, gamma_n = n u / (1 - n u), with
///   u = 2^-24 for round-to-nearest (Higham, "Accuracy and Stability of
///   Numerical Algorithms", 3.1), i.e. about K 2^-24 magnitude. We allow
///   u = 2^-23, one f32 ulp per addition instead of half: tensor cores align
///   and truncate their partial sums rather than round, and the factor 2
///   covers gamma's denominator.
/// - Output: the f32 sum is rounded to bf16 once; bf16's unit roundoff is
///   2^-8 (half an ulp: ulp(1) = 2^-7), so rounding to nearest moves it by at
///   most 2^-8 of its magnitude. We allow one ulp, 2^-7 |ref|: any rounding
///   direction passes, and so does the rounding of the slightly perturbed
///   sum instead of ref.
/// The double reference errs by at most K 2^-53 magnitude, negligible here.
/// With |a|, |b| <= 1 the bound is tight where it matters: one missing or
/// extra product, a transposed index or a stale tile moves an element by
/// O(|a_k b_k|), far more than 2^-7 |ref| for the extents tested on the CPU.
///
/// For an output of f16 the rounding term is one f16 ulp, 2^-10 |ref| (its
/// 11-bit significands' products are exact in f32 as bf16's are). fp8
/// inputs (4 or 3 significant bits) have exact products too; the output
/// type alone sets the rounding term. With an elementwise epilogue `ref` is
/// the epilogue's value of the exact sum; one that is 1-Lipschitz (relu)
/// moves no error up, another multiplies the accumulation term by its
/// `lipschitz` bound and adds `evaluation_ulps` of its f32 evaluation.
///
/// With an Addend the accumulation term is scaled by |alpha|, and the f32
/// products and sums of the epilogue (alpha acc, beta C, each addition)
/// round once each: at most 2^-24 of their operands' magnitudes apiece,
/// allowed as 2^-22 (|alpha| magnitude + the added terms' magnitude).
template <Output T>
double dot_bound(double ref, double magnitude, std::int64_t K,
                 Epilogue e = Epilogue::none, double alpha = 1.0,
                 double added_magnitude = 0.0) {
  const double scaled = std::fabs(alpha) * magnitude;
  const bool operands = alpha != 1.0 || added_magnitude > 0.0;
  return (1.0 + evaluation_ulps(e)) *
             std::ldexp(std::fabs(ref), ulp_exponent<T>) +
         lipschitz(e) *
             (static_cast<double>(K) * std::ldexp(scaled, -23) +
              (operands ? std::ldexp(scaled + added_magnitude, -22) : 0.0));
}

/// What an epilogue adds to alpha times the product before its activation:
/// alpha, and per output element (m, n) the exact value of the added terms
/// (beta C(m, n), a bias broadcast, a residual) and the sum of their
/// magnitudes, M x N row-major (empty: nothing added).
struct Addend {
  double alpha = 1.0;
  std::vector<double> value, magnitude;
};

/// The element-wise verdict on an M x N output.
struct Verdict {
  std::int64_t elements = 0;
  std::int64_t outside = 0;    ///< beyond the bound, unwritten or non-finite
  std::int64_t unwritten = 0;  ///< still poisoned
  std::int64_t non_finite = 0; ///< other NaN or inf
  // The worst element: unwritten or non-finite first, else the largest
  // |out - ref| / bound.
  std::int64_t worst_m = -1, worst_n = -1;
  double worst_out = 0, worst_ref = 0, worst_bound = 0;
  double worst_ratio = 0; ///< |out - ref| / bound; inf when not finite
  bool ok() const { return outside == 0 && elements > 0; }
};

/// Compares `out` (M x N, row-major) with a (M x K) times b (K x N), stored
/// as `majors` says, every element against `dot_bound` (after the epilogue
/// `e`).
template <Input In, Output T>
Verdict check_gemm(const Shape &s, const std::vector<In> &a,
                   const std::vector<In> &b, const std::vector<T> &out,
                   Epilogue e = Epilogue::none, Majors majors = {},
                   const Addend &added = {}) {
  Verdict v;
  v.elements = s.M * s.N;
  std::vector<double> ref(static_cast<std::size_t>(s.N)),
      magnitude(static_cast<std::size_t>(s.N));
  for (std::int64_t m = 0; m < s.M; ++m) {
    std::fill(ref.begin(), ref.end(), 0.0);
    std::fill(magnitude.begin(), magnitude.end(), 0.0);
    for (std::int64_t k = 0; k < s.K; ++k) {
      const double x = float(a[majors.a_at(s, m, k)]);
      for (std::int64_t n = 0; n < s.N; ++n) {
        const double p = x * float(b[majors.b_at(s, k, n)]);
        ref[static_cast<std::size_t>(n)] += p;
        magnitude[static_cast<std::size_t>(n)] += std::fabs(p);
      }
    }
    for (std::int64_t n = 0; n < s.N; ++n) {
      const T o = out[static_cast<std::size_t>(m * s.N + n)];
      const std::size_t at = static_cast<std::size_t>(m * s.N + n);
      const bool adds = !added.value.empty();
      const double r =
          apply(e, added.alpha * ref[static_cast<std::size_t>(n)] +
                       (adds ? added.value[at] : 0.0));
      const double bound =
          dot_bound<T>(r, magnitude[static_cast<std::size_t>(n)], s.K, e,
                       added.alpha, adds ? added.magnitude[at] : 0.0);
      const double value = float(o);
      double ratio;
      if (bits_of(o) == poison_bits_of<T>) {
        ++v.unwritten;
        ratio = INFINITY;
      } else if (!std::isfinite(value)) {
        ++v.non_finite;
        ratio = INFINITY;
      } else {
        ratio = std::fabs(value - r) / bound;
      }
      v.outside += !(ratio <= 1.0);
      if (v.worst_m < 0 || ratio > v.worst_ratio) {
        v.worst_m = m;
        v.worst_n = n;
        v.worst_out = value;
        v.worst_ref = r;
        v.worst_bound = bound;
        v.worst_ratio = ratio;
      }
    }
  }
  return v;
}

/// Checks `out` element-wise (check_gemm), prints one line and returns the
/// exit status: 0 if every element is within its bound, else 1.
template <Input In, Output T>
int report(const char *name, const Shape &s, const std::vector<In> &a,
           const std::vector<In> &b, const std::vector<T> &out,
           Epilogue e = Epilogue::none, Majors majors = {},
           const Addend &added = {}) {
  const Verdict v = check_gemm(s, a, b, out, e, majors, added);
  std::printf("%s M=%lld N=%lld K=%lld: %lld of %lld elements off by more "
              "than 2^%d |ref| + K 2^-23 sum|a b|",
              name, static_cast<long long>(s.M), static_cast<long long>(s.N),
              static_cast<long long>(s.K), static_cast<long long>(v.outside),
              static_cast<long long>(v.elements), ulp_exponent<T>);
  if (v.unwritten || v.non_finite)
    std::printf(" (%lld unwritten, %lld other non-finite)",
                static_cast<long long>(v.unwritten),
                static_cast<long long>(v.non_finite));
  if (v.worst_m >= 0)
    std::printf("; worst out[%lld][%lld] = %.6g vs %.6g, %.3g of its bound %.3g",
                static_cast<long long>(v.worst_m),
                static_cast<long long>(v.worst_n), v.worst_out, v.worst_ref,
                v.worst_ratio, v.worst_bound);
  std::printf(" (%s)\n", v.ok() ? "ok" : "FAILED");
  return v.ok() ? 0 : 1;
}

/// report() for a batch: `out` (L x M x N) against a (L x M x K) times b
/// (L x K x N), all row-major, one line per batch; 0 if every element of
/// every batch is within its bound.
template <Input In, Output T>
int report_batched(const char *name, const BatchedShape &shape,
                   const std::vector<In> &a, const std::vector<In> &b,
                   const std::vector<T> &out) {
  const Shape &s = shape.s;
  int status = 0;
  for (std::int64_t l = 0; l < shape.L; ++l) {
    auto slice = [&](const auto &v, std::int64_t n) {
      using V = std::remove_cvref_t<decltype(v)>;
      return V(v.begin() + l * n, v.begin() + (l + 1) * n);
    };
    std::printf("batch %lld of %lld: ", static_cast<long long>(l),
                static_cast<long long>(shape.L));
    status |= report(name, s, slice(a, s.M * s.K), slice(b, s.K * s.N),
                     slice(out, s.M * s.N));
  }
  return status;
}

} // namespace gemm_example
