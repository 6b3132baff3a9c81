//===- tf/layout/algebra/complement.hpp - The complement of a layout ------===//
//
// complement(A, M) is the layout C that enumerates, in increasing offset
// order, the "copies" of A that tile [0, M): (A, C) read as one layout
// reaches every offset below M exactly once when A is compact enough. It is
// CuTe's complement through φ, so tf lists C's modes outermost first: C's
// strides decrease from left to right.
//
// Stride-0 and extent-1 leaves of A do not reach new offsets and are ignored.
// The remaining leaves, sorted by stride, must be disjoint with divisible
// strides (each stride a multiple of the span extent*stride of the one
// below); CuTe asserts only the disjointness, and only when static.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/algebra/coalesce.hpp"

#include <cstdint>

namespace tf {

/// The layout C of the offsets below `cotarget` that A does not reach,
/// ordered so that A's image repeated at C's offsets tiles them:
/// `complement(4:2, 24)` -> `(3,2):(8,1)` and `complement((2,2):(6,1), 24)`
/// -> `(2,3):(12,2)` (φ of CuTe's `(2,3):(1,8)` and `(3,2):(2,12)`).
/// @pre A has no negative strides; sorted by stride, A's leaves (stride-0
///      and extent-1 leaves aside) satisfy stride[k+1] % (extent[k] *
///      stride[k]) == 0 (Errc::precondition); cotarget >= 1.
/// @post A(i) != C(j) for i < size(A), 0 < j < size(C); C's strides decrease
///       and C is coalesced; size(A) * size(C) >= cotarget when A is
///       injective.
constexpr Result<Layout> complement(const Layout &a, const Int &cotarget) {
  Result<std::int64_t> m = cotarget.get();
  if (!m)
    return m.error();
  if (*m < 1)
    return make_error(Errc::mismatch,
                      "complement needs a positive cotarget, not {}", *m);
  Result<detail::FlatModes> f = detail::flat_modes(a);
  if (!f)
    return f.error();
  // Keep the leaves that reach new offsets, then sort them by stride
  // (insertion sort: stable, and ranks are small).
  detail::FlatModes lex;
  for (const detail::FlatMode &x : *f) {
    if (x.stride.value < 0)
      return make_error(Errc::precondition,
                        "complement does not support the negative stride {}",
                        x.stride.value);
    if (x.shape.value != 1 && x.stride.value != 0)
      lex.push_back(x);
  }
  detail::FlatModes sorted = detail::coalesce_inner_first(lex);
  for (std::size_t i = 1; i < sorted.size(); ++i)
    for (std::size_t j = i; j > 0 && sorted[j].stride.value <
                                         sorted[j - 1].stride.value;
         --j) {
      detail::FlatMode t = sorted[j];
      sorted[j] = sorted[j - 1];
      sorted[j - 1] = t;
    }

  detail::FlatModes inner; // result, innermost (smallest stride) first
  Int reached = Int::constant(1); // span of the modes placed so far
  for (const detail::FlatMode &x : sorted) {
    if (x.stride.value < reached.value)
      return make_error(Errc::precondition,
                        "complement requires disjoint modes: stride {} lies "
                        "inside the span {} of the modes below it",
                        x.stride.value, reached.value);
    if (x.stride.value % reached.value != 0)
      return make_error(Errc::precondition,
                        "complement requires divisible strides: {} is not a "
                        "multiple of the span {} of the modes below it",
                        x.stride.value, reached.value);
    inner.push_back(detail::FlatMode{detail::quot(x.stride, reached), reached});
    Result<Int> span = detail::mul(x.stride, x.shape);
    if (!span)
      return span.error();
    reached = *span;
  }
  inner.push_back(
      detail::FlatMode{detail::ceil_quot(cotarget, reached), reached});
  return detail::build_inner_first(
      detail::coalesce_inner_first(detail::reversed(inner)));
}

/// complement(A, cosize(A)): the gaps of A inside its own span,
/// `complement((2,2):(4,1))` -> `2:2`.
constexpr Result<Layout> complement(const Layout &a) {
  Result<std::int64_t> c = cosize(a);
  if (!c)
    return c.error();
  return complement(a, detail::kind_of(a, *c));
}

} // namespace tf
