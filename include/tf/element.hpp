//===- tf/element.hpp - Element types of tensors ---------------------------===//
//
// The C++ types a tensor holds: `float`, `double`, `std::int8_t`,
// `std::uint8_t`, `std::int32_t` as they are, and the narrow floating-point
// formats as small trivially copyable structs holding their bits:
//
//   tf::bf16     1-8-7,  bias 127, IEEE (inf, NaN)        float's top half
//   tf::f16      1-5-10, bias 15,  IEEE (inf, NaN)        binary16
//   tf::fp8e4m3  1-4-3,  bias 7,   no inf, NaN = S.1111.111, max 448 (OCP)
//   tf::fp8e5m2  1-5-2,  bias 15,  IEEE (inf, NaN), max 57344 (OCP)
//   tf::tf32     a float whose low 13 mantissa bits are zero (1-8-10)
//
// Conversions from float round to nearest, ties to even, and are constexpr.
// NaN stays NaN (quiet); a value beyond the largest finite one becomes inf
// where the format has inf, and the largest finite value (448) for fp8e4m3
// (saturating, as OCP's "saturate" mode and PTX's `.satfinite`). Conversions
// to float are exact. `==` compares bits (so +0 != -0 and NaN == NaN of the
// same bits); compare `float(x)` for numeric equality.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/dtype.hpp"

#include <bit>
#include <cstdint>
#include <type_traits>

namespace tf {
namespace detail {

/// A binary floating-point format narrower than float.
struct FloatFormat {
  int exponent_bits;
  int mantissa_bits;
  /// The top exponent encodes inf (mantissa 0) and NaN; otherwise (fp8e4m3)
  /// only S.1..1.1..1 is NaN and there is no inf.
  bool ieee;
};

inline constexpr FloatFormat bf16_format{8, 7, true};
inline constexpr FloatFormat f16_format{5, 10, true};
inline constexpr FloatFormat tf32_format{8, 10, true};
inline constexpr FloatFormat fp8e4m3_format{4, 3, false};
inline constexpr FloatFormat fp8e5m2_format{5, 2, true};

/// `m / 2^shift` rounded to nearest, ties to even.
constexpr std::uint32_t round_shift(std::uint32_t m, int shift) {
  if (shift <= 0)
    return m << -shift;
  if (shift >= 32)
    return 0;
  std::uint32_t q = m >> shift;
  std::uint32_t rem = m & ((std::uint32_t(1) << shift) - 1);
  std::uint32_t half = std::uint32_t(1) << (shift - 1);
  if (rem > half || (rem == half && (q & 1)))
    ++q;
  return q;
}

/// The bits of `f` in `fmt` (sign in bit E+M), rounded to nearest even.
constexpr std::uint32_t encode_float(float f, FloatFormat fmt) {
  const int E = fmt.exponent_bits, M = fmt.mantissa_bits;
  const std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  const std::uint32_t sign = (u >> 31) << (E + M);
  const std::uint32_t a = u & 0x7FFFFFFFu;
  const std::uint32_t top = (std::uint32_t(1) << E) - 1;
  const std::uint32_t man_mask = (std::uint32_t(1) << M) - 1;
  const std::uint32_t nan =
      fmt.ieee ? (top << M) | (std::uint32_t(1) << (M - 1)) : (top << M) | man_mask;
  // Overflow: inf where the format has it, the largest finite value otherwise.
  const std::uint32_t overflow =
      fmt.ieee ? top << M : (top << M) | (man_mask - 1);
  if (a > 0x7F800000u)
    return sign | nan;
  if (a == 0x7F800000u)
    return sign | overflow;
  if (a == 0)
    return sign;
  const int bias = (1 << (E - 1)) - 1;
  const int emin = 1 - bias;
  const int fexp = static_cast<int>(a >> 23);
  const std::uint32_t m = fexp ? (a & 0x7FFFFFu) | 0x800000u : a & 0x7FFFFFu;
  int e2 = fexp ? fexp - 150 : -149; // |f| = m * 2^e2
  int lg = e2 + static_cast<int>(std::bit_width(m)) - 1;
  int te = lg < emin ? emin : lg; // the exponent of the quantum's binade
  std::uint32_t q = round_shift(m, te - M - e2);
  if (q >> (M + 1)) { // rounded up into the next binade
    q >>= 1;
    ++te;
  }
  if (q < (std::uint32_t(1) << M)) // subnormal or zero
    return sign | q;
  std::uint32_t biased = static_cast<std::uint32_t>(te + bias);
  std::uint32_t mbits = q & man_mask;
  std::uint32_t max_biased = fmt.ieee ? top - 1 : top;
  if (biased > max_biased || (!fmt.ieee && biased == top && mbits == man_mask))
    return sign | overflow;
  return sign | (biased << M) | mbits;
}

/// `x * 2^k`, exactly (for results float can hold).
constexpr float scale2(float x, int k) {
  for (; k > 0; --k)
    x *= 2.0f;
  for (; k < 0; ++k)
    x *= 0.5f;
  return x;
}

/// The float value of `bits` in `fmt`; exact.
constexpr float decode_float(std::uint32_t bits, FloatFormat fmt) {
  const int E = fmt.exponent_bits, M = fmt.mantissa_bits;
  const bool negative = (bits >> (E + M)) & 1;
  const std::uint32_t top = (std::uint32_t(1) << E) - 1;
  const std::uint32_t man_mask = (std::uint32_t(1) << M) - 1;
  const std::uint32_t e = (bits >> M) & top;
  const std::uint32_t m = bits & man_mask;
  const std::uint32_t sign = negative ? 0x80000000u : 0u;
  if (e == top && (fmt.ieee || m == man_mask))
    return std::bit_cast<float>(sign | (fmt.ieee && m == 0 ? 0x7F800000u
                                                           : 0x7FC00000u));
  const int bias = (1 << (E - 1)) - 1;
  float v = e == 0 ? scale2(static_cast<float>(m), 1 - bias - M)
                   : scale2(static_cast<float>(m | (man_mask + 1)),
                            static_cast<int>(e) - bias - M);
  return negative ? -v : v;
}

/// float -> bf16 bits: round to nearest even on the top half; NaN quiet.
constexpr std::uint16_t float_to_bf16_bits(float f) {
  std::uint32_t u = std::bit_cast<std::uint32_t>(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u)
    return static_cast<std::uint16_t>((u >> 16) | 0x40u);
  u += 0x7FFFu + ((u >> 16) & 1u);
  return static_cast<std::uint16_t>(u >> 16);
}

} // namespace detail

/// bfloat16: float's sign, exponent and top 7 mantissa bits.
struct bf16 {
  std::uint16_t bits = 0;
  constexpr bf16() = default;
  constexpr explicit bf16(float f) : bits(detail::float_to_bf16_bits(f)) {}
  static constexpr bf16 from_bits(std::uint16_t b) {
    bf16 r;
    r.bits = b;
    return r;
  }
  constexpr operator float() const {
    return std::bit_cast<float>(std::uint32_t(bits) << 16);
  }
  friend constexpr bool operator==(const bf16 &, const bf16 &) = default;
};

namespace detail {
/// What f16 and the fp8 types share: their bits in `Format`, conversion from
/// float (round to nearest even, per the format's inf/NaN rules) and exact
/// conversion to float.
template <class Self, class Bits, FloatFormat Format> struct EncodedFloat {
  Bits bits = 0;
  static constexpr Self from_bits(Bits b) {
    Self r;
    r.bits = b;
    return r;
  }
  constexpr operator float() const { return decode_float(bits, Format); }
  friend constexpr bool operator==(const Self &a, const Self &b) {
    return a.bits == b.bits;
  }

protected:
  constexpr EncodedFloat() = default;
  constexpr explicit EncodedFloat(float f)
      : bits(static_cast<Bits>(encode_float(f, Format))) {}
};
} // namespace detail

/// IEEE binary16.
struct f16 : detail::EncodedFloat<f16, std::uint16_t, detail::f16_format> {
  constexpr f16() = default;
  constexpr explicit f16(float f) : EncodedFloat(f) {}
};

/// OCP FP8 E4M3: no inf; conversions saturate to +-448; NaN is S.1111.111.
struct fp8e4m3
    : detail::EncodedFloat<fp8e4m3, std::uint8_t, detail::fp8e4m3_format> {
  constexpr fp8e4m3() = default;
  constexpr explicit fp8e4m3(float f) : EncodedFloat(f) {}
};

/// OCP FP8 E5M2: IEEE-like (inf, NaN), max 57344.
struct fp8e5m2
    : detail::EncodedFloat<fp8e5m2, std::uint8_t, detail::fp8e5m2_format> {
  constexpr fp8e5m2() = default;
  constexpr explicit fp8e5m2(float f) : EncodedFloat(f) {}
};

/// TensorFloat-32: stored as a float whose low 13 mantissa bits are zero
/// (rounded to nearest even on conversion).
struct tf32 {
  float value = 0.0f;
  constexpr tf32() = default;
  constexpr explicit tf32(float f)
      : value(std::bit_cast<float>(
            detail::encode_float(f, detail::tf32_format) << 13)) {}
  constexpr operator float() const { return value; }
  friend constexpr bool operator==(const tf32 &a, const tf32 &b) {
    return std::bit_cast<std::uint32_t>(a.value) ==
           std::bit_cast<std::uint32_t>(b.value);
  }
};

/// What tf knows of an element type; only the types below are elements.
template <class T> struct element_traits {};

#define TF_ELEMENT_TRAITS_(Type, DT, Compute)                                  \
  template <> struct element_traits<Type> {                                    \
    static constexpr DType dtype = DType::DT;                                  \
    using compute_type = Compute;                                              \
  }
TF_ELEMENT_TRAITS_(bf16, bf16, float);
TF_ELEMENT_TRAITS_(f16, f16, float);
TF_ELEMENT_TRAITS_(tf32, tf32, float);
TF_ELEMENT_TRAITS_(fp8e4m3, fp8e4m3, float);
TF_ELEMENT_TRAITS_(fp8e5m2, fp8e5m2, float);
TF_ELEMENT_TRAITS_(float, f32, float);
TF_ELEMENT_TRAITS_(double, f64, double);
TF_ELEMENT_TRAITS_(std::int8_t, i8, std::int32_t);
TF_ELEMENT_TRAITS_(std::uint8_t, u8, std::int32_t);
TF_ELEMENT_TRAITS_(std::int32_t, i32, std::int32_t);
#undef TF_ELEMENT_TRAITS_

/// A type tensors can hold: bf16, f16, tf32, fp8e4m3, fp8e5m2, float,
/// double, std::int8_t, std::uint8_t, std::int32_t.
template <class T>
concept Element = requires { element_traits<T>::dtype; };

/// The DType of element type `T`: `tf::dtype_of<tf::bf16> == DType::bf16`.
template <Element T> inline constexpr DType dtype_of = element_traits<T>::dtype;

/// The type ops compute in for `T`: float for every floating type narrower
/// than double, double for double, std::int32_t for integers.
template <Element T>
using compute_type = typename element_traits<T>::compute_type;

/// Whether `T` is a floating-point element type.
template <class T>
inline constexpr bool is_floating_element =
    Element<T> && std::is_floating_point_v<compute_type<T>>;

/// `x` as its compute type: float(bf16), the value itself otherwise.
template <Element T> constexpr compute_type<T> widen(T x) {
  return static_cast<compute_type<T>>(x);
}

/// `x` converted to element type `To`: floating targets round to nearest
/// even (from double through float); integer targets truncate toward zero
/// and saturate to their range, NaN giving 0.
template <Element To, class From> constexpr To convert(From x) {
  if constexpr (std::is_same_v<To, From>) {
    return x;
  } else if constexpr (std::is_floating_point_v<compute_type<To>>) {
    if constexpr (std::is_class_v<To>)
      return To(static_cast<float>(static_cast<double>(x)));
    else
      return static_cast<To>(static_cast<double>(x));
  } else {
    double v = static_cast<double>(x);
    constexpr double lo = std::is_signed_v<To>
                              ? -double(std::uint64_t(1) << (8 * sizeof(To) - 1))
                              : 0.0;
    constexpr double hi = std::is_signed_v<To>
                              ? double(std::uint64_t(1) << (8 * sizeof(To) - 1)) - 1
                              : double(std::uint64_t(1) << (8 * sizeof(To))) - 1;
    if (!(v == v))
      return To(0);
    if (v <= lo)
      return static_cast<To>(lo);
    if (v >= hi)
      return static_cast<To>(hi);
    return static_cast<To>(v);
  }
}

} // namespace tf
