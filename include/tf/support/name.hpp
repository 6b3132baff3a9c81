//===- tf/support/name.hpp - Names stored inline --------------------------===//
//
// Mesh axis names, topology levels and symbolic extents are stored inline, so
// that meshes and layouts holding them are structural values usable as
// template arguments (a `const char*` would not be).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string_view>

namespace tf {

/// A short identifier of at most `Name::max_length` characters.
struct Name {
  static constexpr std::size_t max_length = 23;
  char text[max_length + 1] = {};

  constexpr Name() = default;
  /// Copies at most max_length characters of `s`; use `fits` to check first.
  constexpr Name(std::string_view s) {
    for (std::size_t i = 0; i < s.size() && i < max_length; ++i)
      text[i] = s[i];
  }
  constexpr Name(const char *s) : Name(std::string_view(s)) {}

  static constexpr bool fits(std::string_view s) { return s.size() <= max_length; }

  constexpr std::size_t size() const {
    std::size_t n = 0;
    while (n < max_length && text[n] != '\0')
      ++n;
    return n;
  }
  constexpr bool empty() const { return text[0] == '\0'; }
  constexpr std::string_view view() const { return {text, size()}; }

  friend constexpr bool operator==(const Name &a, const Name &b) {
    return a.view() == b.view();
  }
  friend constexpr bool operator==(const Name &a, std::string_view b) {
    return a.view() == b;
  }
  friend constexpr bool operator==(const Name &a, const char *b) {
    return a.view() == std::string_view(b);
  }
};

} // namespace tf
