//===- tf/layout/algebra/inverse.hpp - Right and left inverses ------------===//
//
// right_inverse(A) is the largest R that A undoes from the left on [0, size R):
// A(R(i)) == i. left_inverse(A) is an L with L(A(i)) == i when A is injective
// (in general A(L(A(i))) == A(i), CuTe's quasi-inverse). Both are CuTe's
// through φ: the "position stride" of a leaf of A, the index step one step of
// that leaf makes, is the product of the extents after it (lexicographic).
//
// Ties between equal strides (only in non-injective layouts) are broken in
// favour of the innermost leaf, as CuTe does through φ.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/algebra/coalesce.hpp"

#include <cstdint>

namespace tf {

namespace detail {

/// Coalesced A innermost first with each mode's position stride; `order`
/// lists mode indices by increasing stride (stable, innermost first on ties).
struct InverseInput {
  FlatModes modes{};
  Int position[max_int_tuple_nodes] = {};
  int order[max_int_tuple_nodes] = {};
};

constexpr Result<InverseInput> inverse_input(const Layout &a) {
  Result<FlatModes> f = flat_modes(a);
  if (!f)
    return f.error();
  InverseInput in;
  in.modes = coalesce_inner_first(*f);
  Int pos = Int::constant(1);
  int n = static_cast<int>(in.modes.size());
  for (int i = 0; i < n; ++i) {
    in.position[i] = pos;
    Result<Int> next = mul(pos, in.modes[i].shape);
    if (!next)
      return next.error();
    pos = *next;
    in.order[i] = i;
  }
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && in.modes[in.order[j]].stride.value <
                                 in.modes[in.order[j - 1]].stride.value;
         --j) {
      int t = in.order[j];
      in.order[j] = in.order[j - 1];
      in.order[j - 1] = t;
    }
  return in;
}

} // namespace detail

/// The layout R with A(R(i)) == i for i < size(R), as large as the chain of
/// A's strides 1, s0, s0*s1, ... allows: `right_inverse((4,2):(1,4))` ->
/// `(2,4):(1,2)`, `right_inverse(4:2)` -> `1:0`.
/// Strides not on the chain (negative, 0, gaps) end it.
/// @post A(R(i)) == i for 0 <= i < size(R); R is coalesced
constexpr Result<Layout> right_inverse(const Layout &a) {
  Result<detail::InverseInput> in = detail::inverse_input(a);
  if (!in)
    return in.error();
  detail::FlatModes inner;
  std::int64_t next = 1; // the stride the chain needs next
  for (std::size_t k = 0; k < in->modes.size(); ++k) {
    const detail::FlatMode &m = in->modes[in->order[k]];
    if (m.stride.value == next) {
      inner.push_back(detail::FlatMode{m.shape, in->position[in->order[k]]});
      // A chain past 64 bits ends: no stride continues it.
      if (!checked_mul(m.shape.value, m.stride.value, next))
        break;
    }
  }
  return detail::build_inner_first(
      detail::coalesce_inner_first(detail::reversed(inner)));
}

/// The layout L with L(A(i)) == i for i < size(A) when A is injective (and
/// A(L(A(i))) == A(i) in general): `left_inverse(4:2)` -> `(4,2):(1,0)`,
/// `left_inverse((4,2):(1,4))` -> `(2,4):(1,2)`.
/// @pre A has no negative strides; sorted by stride, each nonzero stride is
///      a multiple of the previous one (Errc::precondition).
/// @post L(A(i)) == i for i < size(A) if A is injective; L is coalesced
constexpr Result<Layout> left_inverse(const Layout &a) {
  Result<detail::InverseInput> in = detail::inverse_input(a);
  if (!in)
    return in.error();
  detail::FlatModes inner;
  Int below = Int::constant(1);   // product of the result extents so far
  Int stride = Int::constant(0);  // offsets below the smallest stride map to 0
  int n = static_cast<int>(in->modes.size());
  for (int k = 0; k < n; ++k) {
    const detail::FlatMode &m = in->modes[in->order[k]];
    if (m.stride.value < 0)
      return make_error(Errc::precondition,
                        "left_inverse does not support the negative stride {}",
                        m.stride.value);
    if (m.stride.value == 0)
      continue;
    if (m.stride.value % below.value != 0)
      return make_error(Errc::precondition,
                        "left_inverse requires divisible strides: {} is not "
                        "a multiple of {}",
                        m.stride.value, below.value);
    Int extent = detail::quot(m.stride, below);
    inner.push_back(detail::FlatMode{extent, stride});
    // below · extent is m's stride: no product to overflow.
    below = combine_kind(below, extent, m.stride.value);
    stride = in->position[in->order[k]];
  }
  Int last = n > 0 ? in->modes[in->order[n - 1]].shape : Int::constant(1);
  inner.push_back(detail::FlatMode{last, stride});
  return detail::build_inner_first(
      detail::coalesce_inner_first(detail::reversed(inner)));
}

} // namespace tf
