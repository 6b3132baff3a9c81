//===- tf/layout/int.hpp - Static, dynamic and symbolic extents -----------===//
//
// The leaf of every shape and stride. Like CuTe's `Int<N>` and `int`, an
// extent is either static (known when the program is compiled) or dynamic
// (known when it runs); instruction contracts also need symbolic extents
// (`n`, `c`, `p0`, and `*g` for "any number of further modes") that are
// bound by unification against concrete layouts.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/support/error.hpp"
#include "tf/support/name.hpp"

#include <cstdint>

namespace tf {

enum class IntKind : std::uint8_t {
  constant, ///< static: fixed when the program is compiled
  dynamic,  ///< known at run time; unknown inside a type
  symbolic, ///< a named unknown of a contract pattern
};

/// One extent, stride or offset.
struct Int {
  IntKind kind = IntKind::constant;
  /// For dynamic extents: whether the run-time value is present.
  bool known = true;
  /// For symbolic extents: `*g` stands for zero or more modes.
  bool variadic = false;
  std::int64_t value = 0;
  Name symbol{};

  constexpr Int() = default;
  constexpr Int(std::int64_t v) : value(v) {}

  static constexpr Int constant(std::int64_t v) { return Int(v); }
  /// A run-time extent whose value is not known yet (`?` in text).
  static constexpr Int dynamic() {
    Int i;
    i.kind = IntKind::dynamic;
    i.known = false;
    return i;
  }
  /// A run-time extent holding its value.
  static constexpr Int dynamic(std::int64_t v) {
    Int i(v);
    i.kind = IntKind::dynamic;
    return i;
  }
  static constexpr Int symbolic(Name name, bool variadic = false) {
    Int i;
    i.kind = IntKind::symbolic;
    i.known = false;
    i.variadic = variadic;
    i.symbol = name;
    return i;
  }

  constexpr bool is_constant() const { return kind == IntKind::constant; }
  constexpr bool is_dynamic() const { return kind == IntKind::dynamic; }
  constexpr bool is_symbolic() const { return kind == IntKind::symbolic; }
  /// Whether a number is available (static, or dynamic with its value).
  constexpr bool has_value() const { return kind != IntKind::symbolic && known; }

  /// The number, or why there is none.
  constexpr Result<std::int64_t> get() const {
    if (is_symbolic())
      return make_error(Errc::symbolic,
                        "extent '{name}' is symbolic; bind it to a value first",
                        symbol);
    if (!known)
      return make_error(Errc::unknown,
                        "a dynamic extent has no value here; it is known only "
                        "at run time");
    return value;
  }

  friend constexpr bool operator==(const Int &a, const Int &b) {
    if (a.kind != b.kind || a.known != b.known)
      return false;
    if (a.is_symbolic())
      return a.variadic == b.variadic && a.symbol == b.symbol;
    return !a.known || a.value == b.value;
  }
};

/// Sets \p out to a + b and returns true when the sum fits in 64 bits;
/// false (out unchanged) otherwise (written out for nvcc, as checked_mul).
constexpr bool checked_add(std::int64_t a, std::int64_t b, std::int64_t &out) {
  const bool fits = b >= 0 ? a <= INT64_MAX - b : a >= INT64_MIN - b;
  if (fits)
    out = a + b;
  return fits;
}

/// The kind of a result computed from `a` and `b`: static only when both are.
/// Sets \p out to a * b and returns true when the product fits in 64 bits;
/// false (out unchanged) otherwise. Written out because nvcc's front end
/// cannot evaluate __builtin_mul_overflow in constant expressions.
constexpr bool checked_mul(std::int64_t a, std::int64_t b, std::int64_t &out) {
  constexpr std::int64_t max = INT64_MAX, min = INT64_MIN;
  bool fits = a == 0 || b == 0 ||
              (a > 0 ? (b > 0 ? a <= max / b : b >= min / a)
                     : (b > 0 ? a >= min / b : b >= max / a));
  if (fits)
    out = a * b;
  return fits;
}

constexpr Int combine_kind(const Int &a, const Int &b, std::int64_t value) {
  return a.is_constant() && b.is_constant() ? Int::constant(value)
                                            : Int::dynamic(value);
}

} // namespace tf
