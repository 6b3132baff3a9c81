//===- tf/layout/text/literal.hpp - Layouts from string literals ----------===//
//
// `tf::layout<"((2,8,8),(4,16)):((4096,512,64),(16,1))">` is a Layout
// constant parsed while compiling. A malformed literal does not compile, and
// the compiler's error shows what the parser expected and at which byte; with
// clang:
//
//   note: in call to 'layout_text_error(&"expected ',' or ')' to close the
//         tuple"[0], &<template param FixedString<17>{"((2,8 8),(4,16))"}>
//         .text[6], 0, 0)'
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/text/parse.hpp"
#include "tf/support/fixed_string.hpp"

#include <cstdint>

namespace tf {
namespace detail {

/// Reached only in constant evaluation of a malformed layout literal, and
/// never a constant expression: ordering pointers into unrelated objects is
/// unspecified. g++ and clang both print the operands of the comparison they
/// reject, which carries the message and the literal at the failing byte into
/// the compiler's error.
/// `values` fill the message's `{}` placeholders; clang prints them too.
constexpr bool layout_text_error(const char *expected, const char *at,
                                 std::int64_t value0, std::int64_t value1) {
  (void)value0;
  (void)value1;
  return expected < at;
}

/// The value of the literal `text` once parsed; a parse error stops
/// compilation with its message.
template <class T>
constexpr T text_constant(const Result<T> &parsed, const char *text) {
  int at = parsed.ok() || parsed.error().position < 0 ? 0
                                                      : parsed.error().position;
  // g++ skips evaluating a discarded comparison, so its value is used.
  if (!parsed.ok() &&
      layout_text_error(parsed.error().what, text + at,
                        parsed.error().values[0], parsed.error().values[1]))
    return T{};
  return *parsed;
}

} // namespace detail

/// The Layout written in `Text`, parsed at compile time:
/// `tf::layout<"(3,128)">` is (3,128):(128,1).
template <FixedString Text>
inline constexpr Layout layout =
    detail::text_constant(parse_layout(Text.view()), Text.text);

/// The ComposedLayout written in `Text`, parsed at compile time:
/// `tf::composed_layout<"(8,64):(64,1) | Swizzle(3,4,3)">`.
template <FixedString Text>
inline constexpr ComposedLayout composed_layout =
    detail::text_constant(parse_composed_layout(Text.view()), Text.text);

} // namespace tf
