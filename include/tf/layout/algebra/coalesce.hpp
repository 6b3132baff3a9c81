//===- tf/layout/algebra/coalesce.hpp - Coalesce and filter ----------------===//
//
// Coalescing rewrites a layout into the fewest flat modes with the same
// function of the linear index; every other algebra operation starts from it.
// The helpers in `detail` hold a layout as a flat list of (extent, stride)
// leaves with numbers, which is the form the algorithms of this folder work
// on; they keep each leaf's IntKind so that static inputs give static results.
//
// Reading is lexicographic (docs/layout/notation.md): the last leaf is the
// innermost (fastest) one, so two adjacent leaves `s0:d0, s1:d1` merge when
// d0 == s1 * d1 into `(s0*s1):d1`. This is CuTe's rule read through φ.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/layout.hpp"

#include <cstdint>

namespace tf {

namespace detail {

/// One leaf of a flattened layout, extent and stride both with numbers.
struct FlatMode {
  Int shape{};
  Int stride{};
};

using FlatModes = FixedVector<FlatMode, max_int_tuple_nodes>;

/// a · b, of a's and b's kind; an error when the product leaves 64 bits
/// (the algebra's strides, spans and cotargets of operands near 2^63).
constexpr Result<Int> mul(const Int &a, const Int &b) {
  std::int64_t v = 0;
  if (!checked_mul(a.value, b.value, v))
    return make_error(Errc::capacity,
                      "a stride or span of the result, {} x {}, does not fit "
                      "in 64 bits",
                      a.value, b.value);
  return combine_kind(a, b, v);
}
constexpr Int quot(const Int &a, const Int &b) {
  return combine_kind(a, b, a.value / b.value);
}
/// ⌈a / b⌉ for a, b > 0, without forming a + b - 1 (which leaves 64 bits
/// for a cotarget near 2^63).
constexpr Int ceil_quot(const Int &a, const Int &b) {
  return combine_kind(a, b,
                      a.value / b.value + (a.value % b.value != 0 ? 1 : 0));
}
/// The kind of an Int computed from every leaf of `l`.
constexpr Int kind_of(const Layout &l, std::int64_t v) {
  return is_static(l.shape) && is_static(l.stride) ? Int::constant(v)
                                                   : Int::dynamic(v);
}

/// The number of coordinates of `shape` as an Int, static if `shape` is.
constexpr Result<Int> size_int(const IntTuple &shape) {
  Result<std::int64_t> n = product(shape);
  if (!n)
    return n.error();
  return is_static(shape) ? Int::constant(*n) : Int::dynamic(*n);
}

constexpr Error capacity_error(const char *what) {
  return make_error(Errc::capacity, what);
}

/// Checks what every operation needs from an operand: no overflowed value,
/// congruent shape and stride, no extent of 0 (the operations divide by
/// extents).
constexpr Result<bool> check_operand(const Layout &l) {
  if (l.overflow())
    return capacity_error("layout operand has more nodes than an IntTuple "
                          "holds");
  if (!congruent(l.shape, l.stride))
    return make_error(Errc::mismatch,
                      "shape and stride must have the same structure");
  for (int i = 0; i < l.shape.leaf_count(); ++i)
    if (l.shape.leaf_at(i).has_value() && l.shape.leaf_at(i).value == 0)
      return make_error(Errc::precondition,
                        "a layout operand has an extent of 0");
  return true;
}

/// The leaves of `l` in written (lexicographic) order, with their numbers;
/// symbolic or unknown leaves give the error of Int::get().
constexpr Result<FlatModes> flat_modes(const Layout &l) {
  Result<bool> ok = check_operand(l);
  if (!ok)
    return ok.error();
  FlatModes out;
  for (int i = 0; i < l.shape.leaf_count(); ++i) {
    const Int &s = l.shape.leaf_at(i);
    const Int &d = l.stride.leaf_at(i);
    Result<std::int64_t> sv = s.get();
    if (!sv)
      return sv.error();
    Result<std::int64_t> dv = d.get();
    if (!dv)
      return dv.error();
    out.push_back(FlatMode{s, d});
  }
  return out;
}

/// `modes` in the opposite order.
constexpr FlatModes reversed(const FlatModes &modes) {
  FlatModes out;
  for (std::size_t i = modes.size(); i-- > 0;)
    out.push_back(modes[i]);
  return out;
}

/// Merges the lexicographically ordered `lex` into the fewest modes and
/// returns them innermost first. Extent-1 leaves are dropped, except the
/// outermost when `keep_outer`: composition evaluates A past its domain,
/// where the outermost mode keeps counting, so its stride must survive.
constexpr FlatModes coalesce_inner_first(const FlatModes &lex,
                                         bool keep_outer = false) {
  FlatModes out;
  for (std::size_t k = lex.size(); k-- > 0;) {
    const FlatMode &m = lex[k];
    bool outer = k == 0;
    if (m.shape.value == 1 && !(keep_outer && outer))
      continue;
    // The stride that continues the mode inside; a product past 64 bits
    // continues nothing (no stride is that large), and extents whose product
    // leaves 64 bits stay two modes.
    std::int64_t next = 0, merged = 0;
    if (!out.empty() &&
        checked_mul(out.back().shape.value, out.back().stride.value, next) &&
        m.stride.value == next &&
        checked_mul(out.back().shape.value, m.shape.value, merged)) {
      out.back().shape = combine_kind(out.back().shape, m.shape, merged);
      continue;
    }
    out.push_back(m);
  }
  if (keep_outer && out.empty())
    out.push_back(FlatMode{Int::constant(1), Int::constant(0)});
  return out;
}

/// The layout of flat modes given innermost first: none is `1:0`, one is a
/// leaf, more are a flat tuple written outermost first.
constexpr Layout build_inner_first(const FlatModes &inner) {
  if (inner.empty())
    return Layout{IntTuple(Int::constant(1)), IntTuple(Int::constant(0))};
  if (inner.size() == 1)
    return Layout{IntTuple(inner[0].shape), IntTuple(inner[0].stride)};
  Layout out;
  for (std::size_t i = inner.size(); i-- > 0;) {
    out.shape.push_back(inner[i].shape);
    out.stride.push_back(inner[i].stride);
  }
  return out;
}

/// The layout whose top-level modes are `modes[0..n)`.
template <std::size_t N>
constexpr Layout tuple_of(const FixedVector<Layout, N> &modes) {
  Layout out;
  for (const Layout &m : modes) {
    out.shape.push_back(m.shape);
    out.stride.push_back(m.stride);
  }
  return out;
}

/// Appends `m` as a new last top-level mode of `out`.
constexpr void append_mode(Layout &out, const Layout &m) {
  out.shape.push_back(m.shape);
  out.stride.push_back(m.stride);
}

/// Appends the top-level modes of `m` (a leaf is one mode) to `out`.
constexpr void append_modes_of(Layout &out, const Layout &m) {
  for (int i = 0; i < m.rank(); ++i)
    append_mode(out, m.mode(i));
}

} // namespace detail

/// Merges adjacent modes into the fewest flat modes with the same function
/// on the domain: `(2,(1,6)):(1,(7,2))` -> `(2,6):(1,2)` and
/// `(4,2):(2,1)` -> `8:1`; a layout of only extent-1 modes gives `1:0`.
/// @post size(R) == size(A), depth(R) <= 1, R(i) == A(i) for i < size(A)
constexpr Result<Layout> coalesce(const Layout &a) {
  Result<detail::FlatModes> f = detail::flat_modes(a);
  if (!f)
    return f.error();
  return detail::build_inner_first(detail::coalesce_inner_first(*f));
}

/// Coalesces "by mode": a leaf `profile` coalesces all of `a`; a tuple
/// profile applies to the top-level modes of `a` in order and keeps the
/// modes it does not reach: `((2,4),(3,2)):((8,2),(2,1))` with profile
/// `(1,1)` -> `(8,6):(2,1)`, each mode coalesced on its own.
/// @pre rank(profile) <= rank(a) when profile is a tuple
constexpr Result<Layout> coalesce(const Layout &a, const IntTuple &profile) {
  if (profile.is_leaf())
    return coalesce(a);
  if (profile.rank() > a.rank())
    return make_error(Errc::mismatch,
                      "coalesce profile has {} modes but the layout has {}",
                      profile.rank(), a.rank());
  Layout out;
  for (int i = 0; i < a.rank(); ++i) {
    if (i >= profile.rank()) {
      detail::append_mode(out, a.mode(i));
      continue;
    }
    Result<Layout> m = coalesce(a.mode(i), profile.mode(i));
    if (!m)
      return m;
    detail::append_mode(out, *m);
  }
  if (out.overflow())
    return detail::capacity_error("coalesce result needs more nodes than an "
                                  "IntTuple holds");
  return out;
}

/// Replaces the extent of every stride-0 leaf by 1, keeping the structure:
/// `(4,(2,3)):(0,(3,1))` -> `(1,(2,3)):(0,(3,1))`.
/// @post R is congruent with A and every stride-0 leaf of R has extent 1
constexpr Result<Layout> filter_zeros(const Layout &a) {
  Result<bool> ok = detail::check_operand(a);
  if (!ok)
    return ok.error();
  Layout out = a;
  for (int i = 0; i < a.stride.leaf_count(); ++i) {
    const Int &d = a.stride.leaf_at(i);
    if (d.has_value() && d.value == 0)
      out.shape.set_leaf(i, Int::constant(1));
  }
  return out;
}

/// Drops stride-0 and extent-1 leaves and coalesces the rest: the layout of
/// the distinct offsets `A` reaches, `(4,(2,3)):(0,(3,1))` -> `6:1`.
constexpr Result<Layout> filter(const Layout &a) {
  Result<Layout> z = filter_zeros(a);
  if (!z)
    return z;
  return coalesce(*z);
}

} // namespace tf
