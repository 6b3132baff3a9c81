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
#include <type_traits>

namespace tf {

namespace detail {
/// Reached only in constant evaluation, to stop it with this name in the
/// compiler's message.
inline void name_longer_than_23_characters() {}
} // namespace detail

/// A short identifier of at most `Name::max_length` characters.
struct Name {
  static constexpr std::size_t max_length = 23;
  char text[max_length + 1] = {};

  constexpr Name() = default;
  /// Copies `s`. A longer name than max_length does not compile in constant
  /// evaluation (contract ids, mesh axes); at run time it is cut, so check
  /// `fits` first where the text comes from users.
  constexpr Name(std::string_view s) {
    if (std::is_constant_evaluated() && s.size() > max_length)
      detail::name_longer_than_23_characters();
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
