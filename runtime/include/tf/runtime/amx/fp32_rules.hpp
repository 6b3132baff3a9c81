//===- tf/runtime/amx/fp32_rules.hpp - TDPBF16PS's fp32 arithmetic --------===//
//
// The floating-point rules of TDPBF16PS (Intel SDM Vol. 2, TDPBF16PS,
// "Description"): "'Round to nearest even' rounding mode is used when doing
// each accumulation of the FMA. Output denormals are always flushed to zero
// and input denormals are always treated as zero. MXCSR is not consulted nor
// updated." -- and the pseudo-code's comments, "FP32 FMA with DAZ=FTZ=1, RNE
// rounding. MXCSR is neither consulted nor updated. No exceptions raised or
// denoted."
//
// Here, exactly:
//   - bf16 -> fp32 is make_fp32: the 16 bits become the upper half of the
//     fp32 word (exact; a bf16 NaN keeps its payload);
//   - DAZ: every input of an operation that is an fp32 denormal (exponent 0,
//     fraction != 0) is replaced by zero of the same sign -- the bf16
//     operands after make_fp32 and the accumulators, including the
//     destination tile's values as loaded;
//   - an FMA rounds a * b + c once (the product is never rounded on its own;
//     a product of two bf16 is exact in fp32 anyway unless it leaves fp32's
//     normal range);
//   - RNE, and the result's denormals are flushed to zero of the result's
//     sign (FTZ) after rounding;
//   - NaN: a NaN operand propagates quieted (its payload kept, the quiet bit
//     set), the first NaN in operand order (a, b, c for an FMA; x, y for an
//     addition); an invalid operation with no NaN operand (inf * 0,
//     inf - inf) gives the default NaN 0xFFC00000 (x86's "QNaN floating-point
//     indefinite");
//   - the host's MXCSR (rounding mode, FTZ, DAZ, flags) has no effect and is
//     left as it was: FloatEnvironmentGuard runs the arithmetic in the
//     default environment and restores the caller's afterwards.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <initializer_list>

namespace tf::runtime::amx::fp32 {

inline constexpr std::uint32_t sign_bit = 0x80000000u;
inline constexpr std::uint32_t exponent_bits = 0x7f800000u;
inline constexpr std::uint32_t fraction_bits = 0x007fffffu;
inline constexpr std::uint32_t quiet_bit = 0x00400000u;
/// x86's "QNaN floating-point indefinite".
inline constexpr std::uint32_t default_nan = 0xffc00000u;

constexpr std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }
constexpr float from_bits(std::uint32_t b) { return std::bit_cast<float>(b); }

/// make_fp32: bf16 `x` as the upper half of an fp32 word.
constexpr float make_fp32(std::uint16_t x) {
  return from_bits(static_cast<std::uint32_t>(x) << 16);
}

constexpr bool is_nan(float x) {
  return (bits(x) & exponent_bits) == exponent_bits &&
         (bits(x) & fraction_bits) != 0;
}

constexpr bool is_denormal(float x) {
  return (bits(x) & exponent_bits) == 0 && (bits(x) & fraction_bits) != 0;
}

/// A denormal becomes zero of its sign (DAZ on inputs, FTZ on outputs).
constexpr float flush_denormal(float x) {
  return is_denormal(x) ? from_bits(bits(x) & sign_bit) : x;
}

constexpr float quiet(float nan) { return from_bits(bits(nan) | quiet_bit); }

/// Runs the enclosing scope's arithmetic in the default floating-point
/// environment (round to nearest even, no FTZ/DAZ) and gives the caller's
/// environment, flags included, back on exit.
class FloatEnvironmentGuard {
public:
  FloatEnvironmentGuard() {
    std::fegetenv(&saved_);
    std::fesetenv(FE_DFL_ENV);
  }
  ~FloatEnvironmentGuard() { std::fesetenv(&saved_); }
  FloatEnvironmentGuard(const FloatEnvironmentGuard &) = delete;
  FloatEnvironmentGuard &operator=(const FloatEnvironmentGuard &) = delete;

private:
  std::fenv_t saved_;
};

/// The result of an operation whose operands are already DAZ'd: NaN rules,
/// then FTZ. `computed` came from the host in the default environment.
constexpr float finish(float computed) {
  if (is_nan(computed))
    return from_bits(default_nan);
  return flush_denormal(computed);
}

/// a * b + c, rounded once, with DAZ/FTZ and the NaN rules above.
/// @pre a FloatEnvironmentGuard is alive
inline float fma(float a, float b, float c) {
  a = flush_denormal(a);
  b = flush_denormal(b);
  c = flush_denormal(c);
  for (float x : {a, b, c})
    if (is_nan(x))
      return quiet(x);
  return finish(std::fma(a, b, c));
}

/// x + y with DAZ/FTZ and the NaN rules above.
/// @pre a FloatEnvironmentGuard is alive
inline float add(float x, float y) {
  x = flush_denormal(x);
  y = flush_denormal(y);
  for (float v : {x, y})
    if (is_nan(v))
      return quiet(v);
  volatile float sum = x + y; // rounded to fp32 here, whatever FLT_EVAL_METHOD
  return finish(sum);
}

} // namespace tf::runtime::amx::fp32
