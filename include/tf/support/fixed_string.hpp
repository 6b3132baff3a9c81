//===- tf/support/fixed_string.hpp - String literals as template arguments ===//
//
// A string literal cannot be a template argument, but a structural class
// holding its characters can: `tf::layout<"(3,128)">` deduces
// FixedString<8> from the literal and parses it in constant evaluation.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string_view>

namespace tf {

/// The characters of a string literal of `N` chars (its '\0' included).
template <std::size_t N> struct FixedString {
  char text[N] = {};

  /// Copies the literal, so that `FixedString s = "abc";` deduces N = 4.
  constexpr FixedString(const char (&literal)[N]) {
    for (std::size_t i = 0; i < N; ++i)
      text[i] = literal[i];
  }

  /// The characters without the terminating '\0'.
  constexpr std::string_view view() const { return {text, N - 1}; }
};

} // namespace tf
