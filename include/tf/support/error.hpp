//===- tf/support/error.hpp - Errors usable in constant evaluation --------===//
//
// The layout algebra reports failed preconditions as values, so the same code
// serves `static_assert`s (a failure is a compile error naming the problem),
// the plugin (a Clang diagnostic) and the CLI (a one-line error). Messages are
// string literals with `{}` placeholders filled at run time, because neither
// std::string nor formatting is usable in constant evaluation here.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/support/name.hpp"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <type_traits>

namespace tf {

/// What went wrong, for callers that branch on it.
enum class Errc : std::uint8_t {
  parse,        ///< malformed text; `position` says where
  capacity,     ///< more modes or nodes than a value can hold
  unknown,      ///< a dynamic extent without a value where one is needed
  symbolic,     ///< a symbolic extent where a number is needed
  precondition, ///< an algebra precondition fails (divisibility, injectivity)
  mismatch,     ///< operands do not fit together (rank, profile, size)
  out_of_range, ///< an index or coordinate outside the domain
};

/// An error: a static message with up to three integer values and a name
/// substituted for its `{}` (integers) and `{name}` placeholders.
struct Error {
  Errc code = Errc::precondition;
  const char *what = "";
  std::int64_t values[3] = {};
  Name name{};
  /// Byte offset into the parsed text for `Errc::parse`; -1 otherwise.
  int position = -1;

  /// Writes the message into `out` (anything taking `<<` of std::string_view
  /// and std::int64_t): `{}` takes the next value ("?" past the third),
  /// `{name}` the name. Usable in constant evaluation (detail::Message).
  template <class Sink> constexpr void write_message(Sink &out) const {
    int next = 0;
    for (const char *p = what; *p; ++p) {
      if (p[0] == '{' && p[1] == '}') {
        if (next < 3)
          out << values[next++];
        else
          out << std::string_view("?");
        ++p;
      } else if (std::string_view(p).starts_with("{name}")) {
        out << name.view();
        p += 5;
      } else {
        out << std::string_view(p, 1);
      }
    }
  }

  /// The message with its placeholders filled in.
  std::string message() const {
    struct Text {
      std::string out;
      Text &operator<<(std::string_view s) {
        out += s;
        return *this;
      }
      Text &operator<<(std::int64_t v) {
        out += std::to_string(v);
        return *this;
      }
    } text;
    write_message(text);
    return text.out;
  }
};

constexpr Error make_error(Errc code, const char *what, std::int64_t a = 0,
                           std::int64_t b = 0, std::int64_t c = 0) {
  Error e;
  e.code = code;
  e.what = what;
  e.values[0] = a;
  e.values[1] = b;
  e.values[2] = c;
  return e;
}

constexpr Error make_error(Errc code, const char *what, Name name) {
  Error e;
  e.code = code;
  e.what = what;
  e.name = name;
  return e;
}

namespace detail {
/// Reached only in constant evaluation when a precondition fails; not being
/// constexpr makes the compiler stop here and print `what` in its note.
inline void layout_precondition_failed(const char *what) { (void)what; }

[[noreturn]] inline void fatal(const Error &e) {
  std::fprintf(stderr, "tf: error: %s\n", e.message().c_str());
  std::abort();
}
} // namespace detail

/// A value or the Error that prevented it. `T` must be default-constructible.
template <class T> class Result {
public:
  constexpr Result(T value) : Value(value), Ok(true) {}
  constexpr Result(Error error) : Err(error), Ok(false) {}

  constexpr bool ok() const { return Ok; }
  constexpr explicit operator bool() const { return Ok; }
  constexpr const Error &error() const { return Err; }
  constexpr const T &operator*() const { return Value; }
  constexpr const T *operator->() const { return &Value; }

  /// The value; a failed result stops compilation in constant evaluation and
  /// the program (with the message on stderr) at run time.
  constexpr const T &value() const {
    if (!Ok) {
      if (std::is_constant_evaluated())
        detail::layout_precondition_failed(Err.what);
      else
        detail::fatal(Err);
    }
    return Value;
  }

private:
  T Value{};
  Error Err{};
  bool Ok = false;
};

} // namespace tf
