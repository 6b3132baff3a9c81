// Element types: exhaustive round trips, rounding against references that
// do not share the implementation, and the OCP FP8 tables.
#include "tf/element.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

static_assert(tf::bf16(1.0f).bits == 0x3F80);
static_assert(float(tf::f16(1.0f)) == 1.0f);
static_assert(tf::fp8e4m3(448.0f).bits == 0x7E);
static_assert(tf::fp8e4m3(1e6f).bits == 0x7E, "e4m3 saturates");
static_assert(tf::dtype_of<tf::bf16> == tf::DType::bf16);
static_assert(tf::dtype_of<float> == tf::DType::f32);
static_assert(tf::dtype_of<std::int8_t> == tf::DType::i8);
static_assert(tf::Element<tf::fp8e5m2> && !tf::Element<long> && !tf::Element<char>);
static_assert(std::is_trivially_copyable_v<tf::bf16> && sizeof(tf::bf16) == 2);
static_assert(sizeof(tf::fp8e4m3) == 1 && sizeof(tf::tf32) == 4);

template <class T, class Bits> void all_patterns_round_trip(int count) {
  for (int b = 0; b < count; ++b) {
    T x = T::from_bits(static_cast<Bits>(b));
    float f = x;
    T y(f);
    if (std::isnan(f))
      EXPECT_TRUE(std::isnan(float(y))) << b;
    else
      EXPECT_EQ(y.bits, x.bits) << "bits " << b << " value " << f;
  }
}

TEST(Element, Bf16AllPatternsRoundTrip) { all_patterns_round_trip<tf::bf16, std::uint16_t>(1 << 16); }
TEST(Element, F16AllPatternsRoundTrip) { all_patterns_round_trip<tf::f16, std::uint16_t>(1 << 16); }
TEST(Element, Fp8AllPatternsRoundTrip) {
  all_patterns_round_trip<tf::fp8e4m3, std::uint8_t>(256);
  all_patterns_round_trip<tf::fp8e5m2, std::uint8_t>(256);
}

TEST(Element, Bf16DecodeIsTopHalf) {
  for (std::uint32_t b = 0; b < (1u << 16); ++b)
    EXPECT_EQ(std::bit_cast<std::uint32_t>(float(tf::bf16::from_bits(std::uint16_t(b)))), b << 16);
}

/// Round-to-nearest-even reference: the positive values of a format in
/// increasing order (with the value just past the largest finite one, for
/// IEEE formats, standing for inf), searched in double.
struct Reference {
  std::vector<double> values;
  std::vector<std::uint32_t> bits;
  bool saturate = false;

  template <class T> static Reference of(int total_bits, bool ieee, double inf_at) {
    Reference r;
    std::uint32_t sign = 1u << (total_bits - 1);
    for (std::uint32_t b = 0; b < sign; ++b) {
      float f = T::from_bits(static_cast<decltype(T{}.bits)>(b));
      if (std::isfinite(f)) {
        r.values.push_back(f);
        r.bits.push_back(b);
      }
    }
    if (ieee) { // inf, at the next power of two, encodes with an even mantissa
      r.values.push_back(inf_at);
      r.bits.push_back(std::uint32_t(T(std::numeric_limits<float>::infinity()).bits));
    }
    r.saturate = !ieee;
    return r;
  }
  std::uint32_t round(double x, int total_bits) const {
    std::uint32_t sign = std::signbit(x) ? 1u << (total_bits - 1) : 0;
    double a = std::fabs(x);
    if (a >= values.back())
      return sign | bits.back();
    auto it = std::upper_bound(values.begin(), values.end(), a);
    std::size_t hi = static_cast<std::size_t>(it - values.begin()), lo = hi - 1;
    double dl = a - values[lo], dh = values[hi] - a;
    std::size_t pick = dl < dh ? lo : dh < dl ? hi : (bits[lo] & 1) ? hi : lo;
    return sign | bits[pick];
  }
};

TEST(Element, FloatToBf16RoundsToNearestEven) {
  // The neighbours of x are its truncation and the next bf16; compare exact
  // distances in double (2^128 stands for inf).
  std::mt19937 rng(1);
  auto check = [](std::uint32_t u) {
    float f = std::bit_cast<float>(u);
    std::uint16_t got = tf::bf16(f).bits;
    if (std::isnan(f)) {
      EXPECT_TRUE(std::isnan(float(tf::bf16::from_bits(got))));
      return;
    }
    std::uint32_t mag = u & 0x7FFFFFFFu;
    std::uint32_t lo = mag >> 16, hi = lo + 1;
    auto value = [](std::uint32_t b) {
      return b >= 0x7F80u ? std::ldexp(1.0, 128)
                          : double(std::bit_cast<float>(b << 16));
    };
    double a = std::bit_cast<float>(mag);
    double dl = a - value(lo), dh = value(hi) - a;
    std::uint32_t want = dl < dh ? lo : dh < dl ? hi : (lo & 1) ? hi : lo;
    if (mag == 0x7F800000u)
      want = 0x7F80u;
    ASSERT_EQ(got, std::uint16_t(want | ((u >> 16) & 0x8000u))) << std::hex << u;
  };
  const std::uint32_t lows[] = {0, 1, 0x7FFF, 0x8000, 0x8001, 0xFFFF};
  for (std::uint32_t h = 0; h < (1u << 16); ++h) {
    for (std::uint32_t l : lows)
      check((h << 16) | l);
    check((h << 16) | (rng() & 0xFFFF));
  }
}

TEST(Element, FloatToNarrowFormatsRoundsToNearestEven) {
  Reference f16 = Reference::of<tf::f16>(16, true, 65536.0);
  Reference e4m3 = Reference::of<tf::fp8e4m3>(8, false, 0);
  Reference e5m2 = Reference::of<tf::fp8e5m2>(8, true, 65536.0);
  std::mt19937 rng(2);
  std::uniform_int_distribution<int> expo(-30, 18);
  std::uniform_real_distribution<float> mant(-2.0f, 2.0f);
  for (int i = 0; i < 200000; ++i) {
    float x = std::ldexp(mant(rng), expo(rng));
    ASSERT_EQ(tf::f16(x).bits, f16.round(x, 16)) << x;
    ASSERT_EQ(tf::fp8e4m3(x).bits, e4m3.round(x, 8)) << x;
    ASSERT_EQ(tf::fp8e5m2(x).bits, e5m2.round(x, 8)) << x;
  }
  // Every midpoint between neighbouring f16 values: ties go to even.
  for (std::size_t k = 0; k + 1 < f16.values.size(); ++k) {
    float mid = float((f16.values[k] + f16.values[k + 1]) / 2);
    ASSERT_EQ(tf::f16(mid).bits, f16.round(mid, 16)) << mid;
  }
}

TEST(Element, OcpFp8Tables) {
  // OCP 8-bit Floating Point Specification (FP8) v1.0, tables 1 and 2.
  struct Row { std::uint8_t bits; float value; };
  const Row e4m3[] = {{0x00, 0.0f}, {0x01, 0x1p-9f}, {0x07, 0x0.ep-6f}, {0x08, 0x1p-6f},
                      {0x38, 1.0f}, {0x3C, 1.5f}, {0x7E, 448.0f}, {0xFE, -448.0f},
                      {0x77, 240.0f}, {0x80, -0.0f}};
  for (Row r : e4m3) {
    EXPECT_EQ(float(tf::fp8e4m3::from_bits(r.bits)), r.value);
    EXPECT_EQ(tf::fp8e4m3(r.value).bits, r.bits);
  }
  const Row e5m2[] = {{0x00, 0.0f}, {0x01, 0x1p-16f}, {0x03, 0x0.cp-14f}, {0x04, 0x1p-14f},
                      {0x3C, 1.0f}, {0x7B, 57344.0f}, {0xFB, -57344.0f}};
  for (Row r : e5m2) {
    EXPECT_EQ(float(tf::fp8e5m2::from_bits(r.bits)), r.value);
    EXPECT_EQ(tf::fp8e5m2(r.value).bits, r.bits);
  }
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(std::isnan(float(tf::fp8e4m3::from_bits(0x7F))));
  EXPECT_TRUE(std::isnan(float(tf::fp8e4m3::from_bits(0xFF))));
  EXPECT_EQ(tf::fp8e4m3(std::nanf("")).bits & 0x7F, 0x7F);
  EXPECT_EQ(tf::fp8e4m3(inf).bits, 0x7E);   // saturating: no inf
  EXPECT_EQ(tf::fp8e4m3(-inf).bits, 0xFE);
  EXPECT_EQ(tf::fp8e4m3(465.0f).bits, 0x7E);
  EXPECT_EQ(tf::fp8e4m3(0x1p-10f).bits, 0x00); // tie to even: 0
  EXPECT_EQ(tf::fp8e4m3(0x1.8p-9f).bits, 0x02); // tie between 1 and 2 ulps
  EXPECT_EQ(float(tf::fp8e5m2::from_bits(0x7C)), inf);
  EXPECT_EQ(float(tf::fp8e5m2::from_bits(0xFC)), -inf);
  EXPECT_TRUE(std::isnan(float(tf::fp8e5m2::from_bits(0x7D))));
  EXPECT_EQ(tf::fp8e5m2(inf).bits, 0x7C);
  EXPECT_EQ(tf::fp8e5m2(61440.0f).bits, 0x7C); // halfway to 2^16: even -> inf
  EXPECT_EQ(tf::fp8e5m2(61439.0f).bits, 0x7B);
  EXPECT_EQ(tf::fp8e5m2(std::nanf("")).bits & 0x7C, 0x7C);
}

TEST(Element, Tf32) {
  EXPECT_EQ(float(tf::tf32(1.0f + 0x1p-11f)), 1.0f);                 // tie, even
  EXPECT_EQ(float(tf::tf32(1.0f + 3 * 0x1p-11f)), 1.0f + 0x1p-9f);   // tie, even
  EXPECT_EQ(float(tf::tf32(1.0f + 0x1p-10f)), 1.0f + 0x1p-10f);
  EXPECT_EQ(float(tf::tf32(0x1.ffffp127f)), std::numeric_limits<float>::infinity());
  EXPECT_TRUE(std::isnan(float(tf::tf32(std::nanf("")))));
  std::mt19937 rng(3);
  for (int i = 0; i < 100000; ++i) {
    std::uint32_t u = rng();
    float f = std::bit_cast<float>(u);
    if (std::isnan(f))
      continue;
    std::uint32_t got = std::bit_cast<std::uint32_t>(float(tf::tf32(f)));
    ASSERT_EQ(got & 0x1FFFu, 0u);
    ASSERT_LE(std::fabs(double(float(tf::tf32(f))) - f), std::max(std::ldexp(std::fabs(double(f)), -11), std::ldexp(1.0, -137)));
  }
}

TEST(Element, ConvertToIntegersSaturates) {
  EXPECT_EQ(tf::convert<std::int8_t>(300.0f), 127);
  EXPECT_EQ(tf::convert<std::int8_t>(-1e9f), -128);
  EXPECT_EQ(tf::convert<std::int8_t>(-3.7f), -3);
  EXPECT_EQ(tf::convert<std::uint8_t>(-5.0f), 0);
  EXPECT_EQ(tf::convert<std::int32_t>(std::nanf("")), 0);
  EXPECT_EQ(tf::convert<std::int32_t>(3e10), 2147483647);
  EXPECT_EQ(tf::convert<tf::bf16>(1.0).bits, 0x3F80);
  EXPECT_EQ(tf::convert<float>(tf::bf16(2.5f)), 2.5f);
}

} // namespace
