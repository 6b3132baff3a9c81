//===- tf/layout/layout.hpp - Layouts: shape and stride -------------------===//
//
// A Layout maps coordinates of its shape to offsets: L(c) = sum c_i * d_i.
// A linear index is turned into a coordinate lexicographically (the last mode
// varies fastest), so `(3,128)` with default strides is `(3,128):(128,1)` and
// `((2,8,8),(4,16)):((4096,512,64),(16,1))` is the row-major 128x64 tile.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/int_tuple.hpp"
#include "tf/support/fixed_vector.hpp"

#include <cstdint>

namespace tf {

struct Layout {
  IntTuple shape{};
  IntTuple stride{};

  constexpr int rank() const { return shape.rank(); }
  constexpr int depth() const { return shape.depth(); }
  /// Top-level mode `i` as a layout of its own.
  constexpr Layout mode(int i) const { return {shape.mode(i), stride.mode(i)}; }
  constexpr bool overflow() const { return shape.overflow() || stride.overflow(); }

  friend constexpr bool operator==(const Layout &, const Layout &) = default;
};

/// Row-major (lexicographic) strides for `shape`, compact: (3,(4,5)) gives
/// (20,(5,1)). Dynamic extents give dynamic strides.
constexpr IntTuple compact_row_major(const IntTuple &shape, Int current = 1) {
  // Walk the leaves from last to first, accumulating the product.
  IntTuple stride = shape;
  for (int i = shape.leaf_count() - 1; i >= 0; --i) {
    stride.set_leaf(i, current);
    const Int &s = shape.leaf_at(i);
    // A symbolic or unknown factor makes the rest unknown until run time:
    // strides have no expression form for products of symbols. A product
    // beyond 64 bits has no value either (size() then refuses the shape).
    std::int64_t next = 0;
    current = current.has_value() && s.has_value() &&
                      checked_mul(current.value, s.value, next)
                  ? combine_kind(current, s, next)
                  : Int::dynamic();
  }
  return stride;
}

/// The compact row-major layout of `shape`.
constexpr Layout make_layout(const IntTuple &shape) {
  return {shape, compact_row_major(shape)};
}

/// A layout from `shape` and `stride`. @pre congruent(shape, stride)
constexpr Result<Layout> make_layout(const IntTuple &shape,
                                     const IntTuple &stride) {
  if (!congruent(shape, stride))
    return make_error(Errc::mismatch,
                      "shape and stride must have the same structure");
  return Layout{shape, stride};
}

/// The layout whose top-level modes are those of `a` followed by those of `b`;
/// a rank-1 operand contributes itself as one mode: concat_layouts(A, B) is
/// the two-mode layout (A, B).
constexpr Layout concat_layouts(const Layout &a, const Layout &b) {
  Layout out;
  out.shape.push_back(a.shape);
  out.stride.push_back(a.stride);
  out.shape.push_back(b.shape);
  out.stride.push_back(b.stride);
  return out;
}

/// Number of coordinates in the domain.
constexpr Result<std::int64_t> size(const Layout &l) { return product(l.shape); }

/// Number of coordinates of a shape.
constexpr Result<std::int64_t> size(const IntTuple &shape) {
  return product(shape);
}

/// The coordinate of linear index `idx` in `shape`, lexicographically: the
/// last mode varies fastest and the first mode with a leaf takes what
/// remains, so idx2crd(7, (2,4)) = (1,3) and, past the domain,
/// idx2crd(3, ((),3)) = ((),3). An empty mode `()` has no leaf to extend: it
/// holds one coordinate, the empty one (composition extends the same leaf).
/// The result is congruent to `shape`.
constexpr Result<IntTuple> idx2crd(std::int64_t idx, const IntTuple &shape) {
  if (shape.is_leaf())
    return IntTuple(idx);
  int outermost = 0;
  while (outermost < shape.rank() - 1 && shape.mode(outermost).leaf_count() == 0)
    ++outermost;
  // after[i]: how many indices one step of mode i spans.
  std::int64_t after[max_int_tuple_nodes] = {};
  std::int64_t span = 1;
  for (int i = shape.rank() - 1; i >= 0; --i) {
    after[i] = span;
    Result<std::int64_t> n = product(shape.mode(i));
    if (!n)
      return n.error();
    span *= *n;
  }
  IntTuple out;
  for (int i = 0; i < shape.rank(); ++i) {
    IntTuple m = shape.mode(i);
    std::int64_t here = idx / after[i];
    if (i > outermost)
      here %= *product(m);
    Result<IntTuple> c = idx2crd(here, m);
    if (!c)
      return c.error();
    out.push_back(*c);
  }
  return out;
}

namespace detail {

/// The terms c_i * d_i of the offset of `crd` under (shape, stride), one per
/// leaf of the shape, appended to `terms` (a leaf coordinate of a tuple mode
/// is a linear index into that mode, read lexicographically). A term beyond
/// 64 bits is refused.
constexpr Result<bool>
offset_terms(const IntTuple &crd, const IntTuple &shape, const IntTuple &stride,
             FixedVector<std::int64_t, max_int_tuple_nodes> &terms) {
  if (shape.is_leaf()) {
    if (!crd.is_leaf())
      return make_error(Errc::mismatch,
                        "coordinate has more modes than the shape");
    Result<std::int64_t> c = crd.leaf().get();
    if (!c)
      return c.error();
    Result<std::int64_t> d = stride.leaf().get();
    if (!d)
      return d.error();
    std::int64_t term = 0;
    if (!checked_mul(*c, *d, term))
      return make_error(Errc::capacity, "the offset does not fit in 64 bits");
    terms.push_back(term);
    return true;
  }
  if (crd.is_leaf()) {
    Result<std::int64_t> c = crd.leaf().get();
    if (!c)
      return c.error();
    Result<IntTuple> full = idx2crd(*c, shape);
    if (!full)
      return full.error();
    return offset_terms(*full, shape, stride, terms);
  }
  if (crd.rank() != shape.rank())
    return make_error(Errc::mismatch,
                      "coordinate has {} modes but the shape has {}",
                      crd.rank(), shape.rank());
  for (int i = 0; i < shape.rank(); ++i)
    if (Result<bool> r = offset_terms(crd.mode(i), shape.mode(i),
                                      stride.mode(i), terms);
        !r)
      return r;
  return true;
}

} // namespace detail

/// The offset of coordinate `crd` under (shape, stride): the sum of its
/// leaves' terms c_i * d_i, refused only when that sum (or a term) does not
/// fit in 64 bits -- not when a partial sum in one order would not: the
/// terms are added a negative one while the sum is not negative and a
/// positive one while it is, so no partial sum leaves the range until only
/// terms of one sign remain, and then it leaves it only if the total does.
/// (Summed mode by mode, (3,(2,5)):(1,(-(2^63-1),-3)) at (2,(1,1)) would
/// overflow at -(2^63-1) - 3 although the offset, -2^63, fits; coalesced to
/// (3,2,5) the same point was then defined, so the two disagreed.)
constexpr Result<std::int64_t> crd2idx(const IntTuple &crd,
                                       const IntTuple &shape,
                                       const IntTuple &stride) {
  FixedVector<std::int64_t, max_int_tuple_nodes> terms;
  if (Result<bool> r = detail::offset_terms(crd, shape, stride, terms); !r)
    return r.error();
  std::int64_t sum = 0;
  std::size_t next_positive = 0, next_negative = 0;
  const std::size_t n = terms.size();
  auto next_of_sign = [&](std::size_t &from, bool negative) {
    while (from < n && (terms[from] < 0) != negative)
      ++from;
    return from;
  };
  for (std::size_t added = 0; added < n; ++added) {
    const bool want_negative = sum >= 0;
    std::size_t i = next_of_sign(want_negative ? next_negative : next_positive,
                                 want_negative);
    if (i == n) // only terms of the other sign remain
      i = next_of_sign(want_negative ? next_positive : next_negative,
                       !want_negative);
    if (!checked_add(sum, terms[i], sum))
      return make_error(Errc::capacity, "the offset does not fit in 64 bits");
    ++(terms[i] < 0 ? next_negative : next_positive);
  }
  return sum;
}

/// L(crd): the offset of a coordinate or (for a leaf) of a linear index.
constexpr Result<std::int64_t> evaluate(const Layout &l, const IntTuple &crd) {
  return crd2idx(crd, l.shape, l.stride);
}

/// L(i) for linear index `i`.
constexpr Result<std::int64_t> evaluate(const Layout &l, std::int64_t i) {
  return crd2idx(IntTuple(i), l.shape, l.stride);
}

/// One past the largest offset: L(size-1) + 1 for non-negative strides; in
/// general max over the domain of L, plus one (0 for an empty domain).
constexpr Result<std::int64_t> cosize(const Layout &l) {
  std::int64_t hi = 0;
  bool any = false;
  for (int i = 0; i < l.shape.leaf_count(); ++i) {
    Result<std::int64_t> s = l.shape.leaf_at(i).get();
    if (!s)
      return s.error();
    Result<std::int64_t> d = l.stride.leaf_at(i).get();
    if (!d)
      return d.error();
    if (*s == 0)
      return std::int64_t(0);
    std::int64_t reach = 0;
    if (*d > 0 && !(checked_mul(*s - 1, *d, reach) && checked_add(hi, reach, hi)))
      return make_error(Errc::capacity,
                        "the largest offset does not fit in 64 bits");
    any = true;
  }
  if (!any && !l.shape.is_leaf())
    return std::int64_t(1);
  if (hi == INT64_MAX)
    return make_error(Errc::capacity, "the cosize does not fit in 64 bits");
  return hi + 1;
}

/// φ: reverses every tuple of shape and stride. φ(A) read lexicographically
/// is the same function of the linear index as A read colexicographically,
/// which is how CuTe layouts and their tests carry over to tf.
constexpr Layout phi(const Layout &l) {
  return {reverse_modes(l.shape), reverse_modes(l.stride)};
}

} // namespace tf
