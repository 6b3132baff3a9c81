//===- examples/rows/check.hpp - Data and references for the row kernels --===//
//
// What every row-kernel example shares: the shape from the command line
// (`ROWS COLS`), random bf16 data from a fixed seed, outputs that start
// poisoned (NaN until written), naive double-precision references of the
// row operations, and the comparison. A kernel computes in f32 and rounds
// once to bf16, so an output may differ from the double reference by half
// a bf16 ulp of rounding plus f32 evaluation error: the bound is
// 2^-7 |ref| + floor. The default floor, 1e-6, is below every softmax
// output of these shapes (>= e^-8 / 32768), so those checks stay relative;
// LayerNorm passes a larger one for its outputs near 0, where
// (x - mean) w + b cancels and the f32 mean of a long row carries an
// absolute error of the inputs' scale times sqrt(cols) 2^-24.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <tf/tf.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <random>
#include <vector>

namespace rows_example {

struct Shape {
  std::int64_t Rows = 37;
  std::int64_t Cols = 1000;
};

/// `prog [ROWS COLS]`.
inline Shape parse_shape(int argc, char **argv, Shape s = {}) {
  if (argc == 3) {
    s.Rows = std::atoll(argv[1]);
    s.Cols = std::atoll(argv[2]);
  } else if (argc != 1) {
    std::fprintf(stderr, "usage: %s [ROWS COLS]\n", argv[0]);
    std::exit(2);
  }
  if (s.Rows < 1 || s.Cols < 1) {
    std::fprintf(stderr, "ROWS and COLS must be positive\n");
    std::exit(2);
  }
  return s;
}

/// `n` bf16 values uniform in [lo, hi), from `seed`.
inline std::vector<tf::bf16> random_bf16(std::int64_t n, std::uint32_t seed,
                                         float lo = -4.0f, float hi = 4.0f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<tf::bf16> v(static_cast<std::size_t>(n));
  for (tf::bf16 &x : v)
    x = tf::convert<tf::bf16>(dist(gen));
  return v;
}

/// `n` bf16 NaNs: an element the kernel does not write fails the check.
inline std::vector<tf::bf16> poisoned(std::int64_t n) {
  return std::vector<tf::bf16>(static_cast<std::size_t>(n),
                               tf::convert<tf::bf16>(std::nanf("")));
}

inline double at(const std::vector<tf::bf16> &v, std::int64_t i) {
  return static_cast<double>(tf::widen(v[static_cast<std::size_t>(i)]));
}

/// One row's reference outputs from its index: ref(row, out) fills `out`
/// (Cols values).
using RowReference = std::function<void(std::int64_t, std::vector<double> &)>;

/// Compares `got` (Rows x Cols, row-major) with the reference; prints a
/// line and returns the exit status (0: every element within the bound).
inline int report(const char *name, Shape s, const std::vector<tf::bf16> &got,
                  const RowReference &ref, double floor = 1e-6) {
  std::vector<double> want(static_cast<std::size_t>(s.Cols));
  std::int64_t bad = 0;
  double worst = 0;
  for (std::int64_t r = 0; r < s.Rows; ++r) {
    ref(r, want);
    for (std::int64_t c = 0; c < s.Cols; ++c) {
      double w = want[static_cast<std::size_t>(c)];
      double g = at(got, r * s.Cols + c);
      double err = std::fabs(g - w);
      double bound = std::ldexp(std::fabs(w), -7) + floor;
      if (!(err <= bound)) { // NaN fails
        if (bad < 5)
          std::fprintf(stderr, "%s: (%lld, %lld) = %g, expected %g\n", name,
                       static_cast<long long>(r), static_cast<long long>(c), g,
                       w);
        ++bad;
      } else if (err > worst) {
        worst = err;
      }
    }
  }
  std::printf("%s %lld x %lld: %s (%lld bad, largest error %.3g)\n", name,
              static_cast<long long>(s.Rows), static_cast<long long>(s.Cols),
              bad ? "FAILED" : "ok", static_cast<long long>(bad), worst);
  return bad ? 1 : 0;
}

} // namespace rows_example
