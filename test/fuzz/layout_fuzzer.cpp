//===- test/fuzz/layout_fuzzer.cpp - The layout text parser and algebra ---===//
//
// Input: up to three lines, A, B and a number M. Every line that parses as
// layout text must print back to text that parses to the same value
// (parse_layout_text and to_string are inverses). When A and B are plain,
// static layouts of small size, the algebra's postconditions
// (test/layout/algebra_checks.hpp, the properties the GoogleTest suites
// check) must hold for every operation that does not refuse them:
// coalesce, composition, complement (against M), left and right inverse,
// logical divide and product. A failure aborts with both texts and the
// broken property.
//
//===----------------------------------------------------------------------===//
#include "../layout/algebra_checks.hpp"
#include "tf/layout/text.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace {

/// Point-by-point checks walk the whole domain and codomain (the operands'
/// and the result's): keep them small.
constexpr std::int64_t MaxCheckedSize = 4096;

[[noreturn]] void broken(std::string_view what, std::string_view a,
                         std::string_view b = {}) {
  std::fprintf(stderr, "layout_fuzzer: %.*s\n  A: %.*s\n  B: %.*s\n",
               int(what.size()), what.data(), int(a.size()), a.data(),
               int(b.size()), b.data());
  std::abort();
}

void require(const ::testing::AssertionResult &R, std::string_view a,
             std::string_view b = {}) {
  if (!R)
    broken(R.message(), a, b);
}

/// Parses \p Text and checks the print/parse round trip.
std::optional<tf::LayoutText> roundTrip(std::string_view Text) {
  tf::Result<tf::LayoutText> Parsed = tf::parse_layout_text(Text);
  if (!Parsed) {
    const tf::Error &E = Parsed.error();
    (void)E.message();
    if (E.code == tf::Errc::parse &&
        (E.position < 0 || std::size_t(E.position) > Text.size()))
      broken("parse error position outside the text", Text);
    return std::nullopt;
  }
  std::string Printed = tf::to_string(*Parsed);
  tf::Result<tf::LayoutText> Again = tf::parse_layout_text(Printed);
  if (!Again)
    broken("printed text does not parse: " + Printed + ": " +
               Again.error().message(),
           Text);
  if (!(*Again == *Parsed))
    broken("printed text parses to another layout: " + Printed, Text);
  if (tf::to_string(*Again) != Printed)
    broken("printing is not stable: " + Printed, Text);
  return *Parsed;
}

/// A layout the point-by-point checks can afford: plain, static, small.
bool checkable(const tf::LayoutText &T) {
  if (T.has_axes || T.has_offset || T.has_swizzle ||
      !tf::is_static(T.layout.shape) || !tf::is_static(T.layout.stride))
    return false;
  tf::Result<std::int64_t> Size = tf::size(T.layout);
  tf::Result<std::int64_t> Cosize = tf::cosize(T.layout);
  return Size && Cosize && *Size >= 1 && *Size <= MaxCheckedSize &&
         *Cosize <= MaxCheckedSize;
}

void checkUnary(const tf::Layout &A, std::string_view TA,
                std::optional<std::int64_t> M) {
  if (tf::coalesce(A))
    require(tf_test::coalesce_ok(A), TA);
  if (tf::right_inverse(A))
    require(tf_test::right_inverse_ok(A), TA);
  if (tf::left_inverse(A))
    require(tf_test::left_inverse_ok(A), TA);
  if (M && *M >= 1 && *M <= MaxCheckedSize && tf::complement(A, *M))
    require(tf_test::complement_ok(A, *M), TA);
}

void checkBinary(const tf::Layout &A, const tf::Layout &B, std::string_view TA,
                 std::string_view TB) {
  if (tf::composition(A, B))
    require(tf_test::composition_ok(A, B), TA, TB);
  // The quotient is (B, complement of B in size A): a B that repeats
  // elements (stride 0) leaves a large complement, ((340,6),(7,6)) for
  // (40,6):(0,6) / (340,6):(0,6).
  if (tf::Result<tf::Layout> Quotient = tf::logical_divide(A, B)) {
    tf::Result<std::int64_t> Points = tf::size(*Quotient);
    if (Points && *Points <= MaxCheckedSize)
      require(tf_test::logical_divide_ok(A, B), TA, TB);
  }
  tf::Result<std::int64_t> ProductCosize = tf::size(A);
  if (ProductCosize && *ProductCosize * *tf::cosize(B) <= MaxCheckedSize &&
      tf::logical_product(A, B))
    require(tf_test::logical_product_ok(A, B), TA, TB);
}

std::optional<std::int64_t> number(std::string_view Text) {
  std::int64_t V = 0;
  if (Text.empty() || Text.size() > 9)
    return std::nullopt;
  for (char C : Text) {
    if (C < '0' || C > '9')
      return std::nullopt;
    V = V * 10 + (C - '0');
  }
  return V;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *Data,
                                      std::size_t Size) {
  std::string_view Input(reinterpret_cast<const char *>(Data), Size);
  std::string_view Lines[3];
  for (std::string_view &Line : Lines) {
    std::size_t End = Input.find('\n');
    Line = Input.substr(0, End);
    Input = End == std::string_view::npos ? std::string_view()
                                          : Input.substr(End + 1);
  }
  std::optional<tf::LayoutText> A = roundTrip(Lines[0]);
  std::optional<tf::LayoutText> B = roundTrip(Lines[1]);
  if (!A || !checkable(*A))
    return 0;
  checkUnary(A->layout, Lines[0], number(Lines[2]));
  if (B && checkable(*B))
    checkBinary(A->layout, B->layout, Lines[0], Lines[1]);
  return 0;
}
