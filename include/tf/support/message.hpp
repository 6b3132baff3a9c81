//===- tf/support/message.hpp - Compile-time diagnostic text --------------===//
//
// detail::Message is a fixed-size text built in constant evaluation, which
// clang prints as a static_assert message (C++26 user-generated messages,
// accepted by clang >= 17 as an extension in C++20). Other compilers print
// the literal message given beside it: TF_STATIC_CHECK(cond, "literal",
// message) chooses. The header library's checks (tf::schedule's, malformed
// layout literals) build their messages with it, so a refusal names the
// values it concerns.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tf::detail {

/// A static_assert message assembled at compile time: append text, numbers
/// and anything with a `name(x)` found by lookup (dtypes, storages);
/// `data()`/`size()` make it a C++26 user-generated message.
struct Message {
  static constexpr std::size_t capacity = 640;
  char text[capacity] = {};
  std::size_t length = 0;

  constexpr Message() = default;
  constexpr explicit Message(std::string_view s) { *this << s; }

  constexpr Message &operator<<(std::string_view s) {
    for (char ch : s)
      if (length + 1 < capacity)
        text[length++] = ch;
    return *this;
  }
  constexpr Message &operator<<(const char *s) { return *this << std::string_view(s); }
  constexpr Message &operator<<(char ch) { return *this << std::string_view(&ch, 1); }
  constexpr Message &operator<<(std::int64_t v) {
    char digits[24] = {};
    int n = 0;
    bool negative = v < 0;
    std::uint64_t u = negative ? std::uint64_t(0) - std::uint64_t(v) : std::uint64_t(v);
    do {
      digits[n++] = static_cast<char>('0' + u % 10);
      u /= 10;
    } while (u != 0);
    if (negative)
      *this << '-';
    while (n > 0)
      *this << digits[--n];
    return *this;
  }
  constexpr Message &operator<<(int v) { return *this << std::int64_t(v); }
  template <class T>
    requires requires(T v) {
      { name(v) } -> std::convertible_to<std::string_view>;
    }
  constexpr Message &operator<<(T v) {
    return *this << std::string_view(name(v));
  }
  constexpr const char *data() const { return text; }
  constexpr std::size_t size() const { return length; }
};

} // namespace tf::detail

/// TF_STATIC_CHECK(cond, "literal", message): a static_assert whose text is
/// `message` (a detail::Message) on clang, and the literal on compilers
/// without user-generated messages (g++, nvcc); both name the fix.
#if defined(__clang__) && !defined(__CUDACC__) && __clang_major__ >= 17
#define TF_STATIC_CHECK(cond, literal, message)                                \
  _Pragma("clang diagnostic push")                                             \
  _Pragma("clang diagnostic ignored \"-Wc++26-extensions\"")                   \
  static_assert(cond, message);                                                \
  _Pragma("clang diagnostic pop")
#define TF_STATIC_CHECK_MESSAGES 1
#else
#define TF_STATIC_CHECK(cond, literal, message) static_assert(cond, literal);
#define TF_STATIC_CHECK_MESSAGES 0
#endif
