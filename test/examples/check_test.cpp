//===- test/examples/check_test.cpp - The examples' element-wise check ----===//
//
// examples/gemm/check.hpp judges a GEMM's bf16 output element by element:
// an output rounded correctly from the exact product passes; an unwritten
// (still poisoned) element, one element two ulps off, one product missing
// from one sum, and a small fraction of wrong elements each fail it, with
// the worst element named. The last one passes a relative-norm threshold of
// 1e-2, which is why the examples do not use one. Operands stored K- or
// MN-major are read as their majors say, fp8 operands with a bf16 output
// are judged by the output's rounding, and a float output (the accumulator
// as it is) by the accumulation term alone.
//
//===----------------------------------------------------------------------===//
#include "check.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using gemm_example::Shape;

struct Case {
  Shape s{37, 53, 200};
  std::vector<tf::bf16> a = gemm_example::random_bf16(s.M * s.K, 5);
  std::vector<tf::bf16> b = gemm_example::random_bf16(s.K * s.N, 6);

  /// The exact product, accumulated in double and rounded to bf16 once.
  std::vector<tf::bf16> exact() const {
    std::vector<tf::bf16> out(static_cast<std::size_t>(s.M * s.N));
    for (std::int64_t m = 0; m < s.M; ++m)
      for (std::int64_t n = 0; n < s.N; ++n)
        out[static_cast<std::size_t>(m * s.N + n)] = tf::bf16(float(sum(m, n)));
    return out;
  }
  double sum(std::int64_t m, std::int64_t n, std::int64_t skip = -1) const {
    double r = 0;
    for (std::int64_t k = 0; k < s.K; ++k)
      if (k != skip)
        r += double(float(a[static_cast<std::size_t>(m * s.K + k)])) *
             float(b[static_cast<std::size_t>(k * s.N + n)]);
    return r;
  }
  std::size_t at(std::int64_t m, std::int64_t n) const {
    return static_cast<std::size_t>(m * s.N + n);
  }
};

/// The bf16 `ulps` steps away from x (same sign, away from zero).
tf::bf16 ulps_away(tf::bf16 x, int ulps) {
  return tf::bf16::from_bits(static_cast<std::uint16_t>(x.bits + ulps));
}

TEST(ExampleCheck, CorrectlyRoundedOutputPasses) {
  const Case c;
  const auto v = gemm_example::check_gemm(c.s, c.a, c.b, c.exact());
  EXPECT_TRUE(v.ok());
  EXPECT_EQ(v.outside, 0);
  EXPECT_EQ(v.elements, c.s.M * c.s.N);
  // Rounding to nearest uses at most half the relative allowance.
  EXPECT_LE(v.worst_ratio, 0.5 + 1e-6);
  EXPECT_EQ(gemm_example::report("exact", c.s, c.a, c.b, c.exact()), 0);
}

TEST(ExampleCheck, OneUlpOffPassesTwoUlpsFail) {
  const Case c;
  auto out = c.exact();
  out[c.at(3, 4)] = ulps_away(out[c.at(3, 4)], 1);
  EXPECT_TRUE(gemm_example::check_gemm(c.s, c.a, c.b, out).ok());
  out[c.at(3, 4)] = ulps_away(out[c.at(3, 4)], 1);
  const auto v = gemm_example::check_gemm(c.s, c.a, c.b, out);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.outside, 1);
  EXPECT_EQ(v.worst_m, 3);
  EXPECT_EQ(v.worst_n, 4);
  EXPECT_GT(v.worst_ratio, 1.0);
}

TEST(ExampleCheck, UnwrittenElementFails) {
  const Case c;
  auto out = c.exact();
  out[c.at(36, 52)] = tf::bf16::from_bits(gemm_example::poison_bits);
  const auto v = gemm_example::check_gemm(c.s, c.a, c.b, out);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.outside, 1);
  EXPECT_EQ(v.unwritten, 1);
  EXPECT_EQ(v.non_finite, 0);
  EXPECT_EQ(v.worst_m, 36);
  EXPECT_EQ(v.worst_n, 52);
  EXPECT_EQ(gemm_example::report("unwritten", c.s, c.a, c.b, out), 1);
  // A fresh output is all poison.
  const auto fresh = gemm_example::poisoned_output(c.s.M * c.s.N);
  EXPECT_EQ(gemm_example::check_gemm(c.s, c.a, c.b, fresh).unwritten,
            c.s.M * c.s.N);
}

TEST(ExampleCheck, OtherNaNIsNonFinite) {
  const Case c;
  auto out = c.exact();
  out[c.at(0, 0)] = tf::bf16(NAN);
  const auto v = gemm_example::check_gemm(c.s, c.a, c.b, out);
  EXPECT_EQ(v.outside, 1);
  EXPECT_EQ(v.unwritten, 0);
  EXPECT_EQ(v.non_finite, 1);
}

TEST(ExampleCheck, OneMissingProductFails) {
  // The smallest product |a_k b_k| is 1/64; the bound at K = 200 is about
  // 2^-7 |ref| (|ref| is about 4 here) -- a missing product of typical size
  // fails. Take the largest product of the element.
  const Case c;
  auto out = c.exact();
  std::int64_t k_max = 0;
  double p_max = 0;
  for (std::int64_t k = 0; k < c.s.K; ++k) {
    const double p = std::fabs(double(float(c.a[static_cast<std::size_t>(5 * c.s.K + k)])) *
                               float(c.b[static_cast<std::size_t>(k * c.s.N + 7)]));
    if (p > p_max) {
      p_max = p;
      k_max = k;
    }
  }
  out[c.at(5, 7)] = tf::bf16(float(c.sum(5, 7, k_max)));
  const auto v = gemm_example::check_gemm(c.s, c.a, c.b, out);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.outside, 1);
  EXPECT_EQ(v.worst_m, 5);
  EXPECT_EQ(v.worst_n, 7);
}

TEST(ExampleCheck, FewWrongElementsPassANormThresholdButNotThis) {
  // Every 20th element three bounds off (about 2% of its value): the
  // relative norm ||out - ref|| / ||ref|| stays far below 1e-2, yet 5% of
  // the output is wrong.
  const Case c;
  auto out = c.exact();
  std::int64_t wrong = 0;
  double diff = 0, norm = 0;
  for (std::int64_t m = 0; m < c.s.M; ++m)
    for (std::int64_t n = 0; n < c.s.N; ++n) {
      const double r = c.sum(m, n);
      if (c.at(m, n) % 20 == 0) {
        double magnitude = 0;
        for (std::int64_t k = 0; k < c.s.K; ++k)
          magnitude += std::fabs(double(float(c.a[static_cast<std::size_t>(m * c.s.K + k)])) *
                                 float(c.b[static_cast<std::size_t>(k * c.s.N + n)]));
        out[c.at(m, n)] =
            tf::bf16(float(r + 3 * gemm_example::dot_bound<tf::bf16>(r, magnitude, c.s.K)));
        ++wrong;
      }
      const double d = float(out[c.at(m, n)]) - r;
      diff += d * d;
      norm += r * r;
    }
  EXPECT_LT(std::sqrt(diff / norm), 1e-2);
  const auto v = gemm_example::check_gemm(c.s, c.a, c.b, out);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.outside, wrong);
  EXPECT_GT(wrong, 90);
}

/// `row_major` (rows x cols, row-major) stored column by column.
template <class T>
std::vector<T> transposed(const std::vector<T> &row_major, std::int64_t rows,
                          std::int64_t cols) {
  std::vector<T> out(row_major.size());
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c)
      out[static_cast<std::size_t>(c * rows + r)] =
          row_major[static_cast<std::size_t>(r * cols + c)];
  return out;
}

TEST(ExampleCheck, OperandsAreReadInTheirMajors) {
  // The same product with A stored M-major and B K-major ("TT") passes when
  // the check is told so and fails when it reads them row-major.
  const Case c;
  const auto a_m_major = transposed(c.a, c.s.M, c.s.K);
  const auto b_k_major = transposed(c.b, c.s.K, c.s.N);
  using gemm_example::Major;
  const gemm_example::Majors tt{.a = Major::MN, .b = Major::K};
  EXPECT_TRUE(gemm_example::check_gemm(c.s, a_m_major, b_k_major, c.exact(),
                                       gemm_example::Epilogue::none, tt)
                  .ok());
  EXPECT_FALSE(
      gemm_example::check_gemm(c.s, a_m_major, b_k_major, c.exact()).ok());
  // One operand in its other major is caught as well.
  EXPECT_FALSE(gemm_example::check_gemm(c.s, c.a, b_k_major, c.exact()).ok());
  EXPECT_EQ(gemm_example::report("tt", c.s, a_m_major, b_k_major, c.exact(),
                                 gemm_example::Epilogue::none, tt),
            0);
}

TEST(ExampleCheck, Fp8OperandsBf16Output) {
  // e4m3 inputs (never zero, within [-1, 1]), the exact product rounded to
  // bf16 once: passes; one product missing from one element: fails.
  const Shape s{19, 23, 96};
  const auto a = gemm_example::random_elements<tf::fp8e4m3>(s.M * s.K, 7);
  const auto b = gemm_example::random_elements<tf::fp8e4m3>(s.K * s.N, 8);
  auto sum = [&](std::int64_t m, std::int64_t n, std::int64_t skip) {
    double r = 0;
    for (std::int64_t k = 0; k < s.K; ++k)
      if (k != skip)
        r += double(float(a[static_cast<std::size_t>(m * s.K + k)])) *
             float(b[static_cast<std::size_t>(k * s.N + n)]);
    return r;
  };
  std::vector<tf::bf16> out(static_cast<std::size_t>(s.M * s.N));
  for (std::int64_t m = 0; m < s.M; ++m)
    for (std::int64_t n = 0; n < s.N; ++n)
      out[static_cast<std::size_t>(m * s.N + n)] = tf::bf16(float(sum(m, n, -1)));
  for (const tf::fp8e4m3 x : a)
    EXPECT_GE(std::fabs(float(x)), 0.125f);
  EXPECT_TRUE(gemm_example::check_gemm(s, a, b, out).ok());
  out[static_cast<std::size_t>(2 * s.N + 3)] = tf::bf16(float(sum(2, 3, 0)));
  const auto v = gemm_example::check_gemm(s, a, b, out);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.worst_m, 2);
  EXPECT_EQ(v.worst_n, 3);
}

// A float output (f32_out.cpp) is the f32 accumulator itself: the f32 sum
// in k order passes; the float poison is found as unwritten; a sum missing
// one product, or a few f32 ulps of error per element on a sum that is exact,
// stay within the accumulation term only as far as K 2^-23 sum|a b| allows.
TEST(ExampleCheck, FloatOutput) {
  const Case c;
  std::vector<float> out(static_cast<std::size_t>(c.s.M * c.s.N));
  for (std::int64_t m = 0; m < c.s.M; ++m)
    for (std::int64_t n = 0; n < c.s.N; ++n) {
      float r = 0;
      for (std::int64_t k = 0; k < c.s.K; ++k)
        r += float(c.a[static_cast<std::size_t>(m * c.s.K + k)]) *
             float(c.b[static_cast<std::size_t>(k * c.s.N + n)]);
      out[c.at(m, n)] = r;
    }
  EXPECT_TRUE(gemm_example::check_gemm(c.s, c.a, c.b, out).ok());

  auto unwritten = out;
  unwritten[c.at(5, 6)] = gemm_example::poisoned_output<float>(1)[0];
  const auto u = gemm_example::check_gemm(c.s, c.a, c.b, unwritten);
  EXPECT_EQ(u.unwritten, 1);
  EXPECT_EQ(u.outside, 1);

  auto missing = out;
  missing[c.at(7, 8)] = float(c.sum(7, 8, 0));
  const auto v = gemm_example::check_gemm(c.s, c.a, c.b, missing);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.worst_m, 7);
  EXPECT_EQ(v.worst_n, 8);
  // The bound is the accumulation term and 2^-24 |ref|: no 2^-7.
  EXPECT_DOUBLE_EQ(gemm_example::dot_bound<float>(128.0, 0.0, 1),
                   std::ldexp(128.0, -24));
}

TEST(ExampleCheck, BoundTerms) {
  // 2^-7 |ref| + K 2^-23 sum|a b|.
  EXPECT_DOUBLE_EQ(gemm_example::dot_bound<tf::bf16>(128.0, 0.0, 1), 1.0);
  EXPECT_DOUBLE_EQ(gemm_example::dot_bound<tf::bf16>(-128.0, 0.0, 1), 1.0);
  EXPECT_DOUBLE_EQ(gemm_example::dot_bound<tf::bf16>(0.0, 1024.0, 8192), 1.0);
}

} // namespace
