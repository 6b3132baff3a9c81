//===- tf/layout/text/literal.hpp - Layouts from string literals ----------===//
//
// `tf::layout<"((2,8,8),(4,16)):((4096,512,64),(16,1))">` is a Layout
// constant parsed while compiling; so are tf::composed_layout<"...">,
// tf::int_tuple<"..."> (tf/layout/mesh_literal.hpp) and the layout text of a
// tf::Tensor type. A malformed literal is one error, its static_assert
// naming what the parser expected with the text and a caret under the
// failing byte; with clang:
//
//   error: static assertion failed: tf: malformed layout text: expected ','
//          or ')' to close the tuple
//       ((2,8,8),(4,16):((4096,512,64),(16,1))
//                      ^
//   note: in instantiation of ... requested here   (the user's line)
//
// Compilers without user-generated static_assert messages (g++, nvcc) print
// the message and the failing byte in a note instead. Everything built from
// the malformed literal sees a default value, so the one error is not
// followed by others about the same text. With the tf plugin loaded the
// plugin reports the error itself, at the failing byte inside the string
// literal (err_tf_layout_text), and the header stays silent.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/text/parse.hpp"
#include "tf/support/fixed_string.hpp"
#include "tf/support/message.hpp"

#include <cstdint>
#include <type_traits>

/// With the tf plugin loaded (`__has_cpp_attribute(tf::mesh)` is 1), it
/// reports malformed layout literals at the failing byte of the string
/// literal, which a static_assert cannot point at.
#if defined(__has_cpp_attribute)
#if __has_cpp_attribute(tf::mesh)
#define TF_LAYOUT_TEXT_CHECKS 0
#endif
#endif
#ifndef TF_LAYOUT_TEXT_CHECKS
#define TF_LAYOUT_TEXT_CHECKS 1
#endif

namespace tf {
namespace detail {

/// Reached only in constant evaluation of a malformed layout literal on
/// compilers without user-generated static_assert messages, and never a
/// constant expression: ordering pointers into unrelated objects is
/// unspecified. g++ prints the operands of the comparison it rejects, which
/// carries the message and the literal at the failing byte into its note.
constexpr bool layout_text_error(const char *expected, const char *at,
                                 std::int64_t value0, std::int64_t value1) {
  (void)value0;
  (void)value1;
  return expected < at;
}

/// `e`'s message with its placeholders filled (Error::write_message).
constexpr Message &operator<<(Message &m, const Error &e) {
  e.write_message(m);
  return m;
}

/// The error of a malformed literal: the parser's message, the text and a
/// caret under the failing byte.
constexpr Message layout_text_message(const Error &e, std::string_view text) {
  Message m;
  m << "tf: malformed layout text: " << e << "\n    " << text << "\n    ";
  for (int i = 0; i < e.position && i < static_cast<int>(text.size()); ++i)
    m << ' ';
  m << '^';
  return m;
}

/// The literal `Text` parsed by `Parse`: its value, or a default one after
/// the literal's single error.
template <FixedString Text, auto Parse> struct parsed_literal {
  static constexpr auto result = Parse(Text.view());
  using value_type = std::remove_cvref_t<decltype(*result)>;
  static constexpr value_type value = result.ok() ? *result : value_type{};

#if TF_LAYOUT_TEXT_CHECKS
#if TF_STATIC_CHECK_MESSAGES
  TF_STATIC_CHECK(result.ok(), "", layout_text_message(result.error(), Text.view()))
#else
  static constexpr int at =
      result.ok() || result.error().position < 0 ? 0 : result.error().position;
  static_assert(result.ok() ||
                    layout_text_error(result.error().what, Text.text + at,
                                      result.error().values[0],
                                      result.error().values[1]),
                "tf: malformed layout text; the note shows what the parser "
                "expected and the text from the failing byte on");
#endif
#endif
};

} // namespace detail

/// The Layout written in `Text`, parsed at compile time:
/// `tf::layout<"(3,128)">` is (3,128):(128,1).
template <FixedString Text>
inline constexpr Layout layout = detail::parsed_literal<Text, parse_layout>::value;

/// The ComposedLayout written in `Text`, parsed at compile time:
/// `tf::composed_layout<"(8,64):(64,1) | Swizzle(3,4,3)">`.
template <FixedString Text>
inline constexpr ComposedLayout composed_layout =
    detail::parsed_literal<Text, parse_composed_layout>::value;

} // namespace tf
