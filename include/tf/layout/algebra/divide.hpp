//===- tf/layout/algebra/divide.hpp - Logical divide and its forms --------===//
//
// Dividing A by a tile B splits A's domain into "which element of the tile"
// and "which tile": logical_divide(A, B) = A ∘ (B, complement(B, size A)),
// a two-mode layout (tile, rest). tf keeps CuTe's grouping (tile first) but
// builds it with tf's own primitives, so the linear index of the result is
// read lexicographically (rest fastest); it is therefore not φ of CuTe's
// result (that would be (rest, tile)). Each mode on its own is φ of CuTe's.
//
// With a Tiler, mode i of A is divided by tiler element i (no reversal) and
// the forms regroup the per-mode (tile_i, rest_i):
//   logical_divide : ((tile0,rest0), (tile1,rest1), ..., A_t, ...)
//   zipped_divide  : ((tile0,tile1,...), (rest0,rest1,..., A_t, ...))
//   tiled_divide   : ((tile0,tile1,...), rest0, rest1, ..., A_t, ...)
//   flat_divide    : (tile0, tile1, ..., rest0, rest1, ..., A_t, ...)
// where A_t, ... are the modes of A the tiler does not reach.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/algebra/complement.hpp"
#include "tf/layout/algebra/composition.hpp"

#include <cstdint>

namespace tf {

namespace detail {

constexpr Result<Layout> checked(const Layout &l, const char *what) {
  if (l.overflow())
    return capacity_error(what);
  return l;
}

/// The per-mode results of a by-mode operation with `t`, split into their two
/// halves, with A's untouched modes; shared by the divide and product forms.
struct Halves {
  Layout first{};  // (first0, first1, ...)
  Layout second{}; // (second0, second1, ..., A_t, ...)
};

template <class Op>
constexpr Result<Halves> by_mode_halves(const Layout &a, const Tiler &t,
                                        Op op, const char *too_many) {
  if (t.overflowed)
    return capacity_error("tiler has more modes than a Tiler holds");
  if (t.rank() > a.rank())
    return make_error(Errc::mismatch, too_many, t.rank(), a.rank());
  Halves h;
  for (int i = 0; i < a.rank(); ++i) {
    if (i >= t.rank()) {
      append_mode(h.second, a.mode(i));
      continue;
    }
    Result<Layout> m = op(a.mode(i), t[i]);
    if (!m)
      return m.error();
    append_mode(h.first, m->mode(0));
    append_mode(h.second, m->mode(1));
  }
  return h;
}

} // namespace detail

/// Splits A into (tile, rest) = A ∘ (B, complement(B, size A)):
/// `logical_divide((3,2,4):(8,1,2), 4:2)` -> `((2,2),(3,2)):((1,4),(8,2))`,
/// the modes of CuTe's `((2,2),(2,3)):((4,1),(2,8))` each through φ.
/// @pre size(A) is known; the complement and the composition exist
/// @post R = (A ∘ B, A ∘ complement(B, size A)) as two top-level modes
constexpr Result<Layout> logical_divide(const Layout &a, const Layout &b) {
  Result<Int> n = detail::size_int(a.shape);
  if (!n)
    return n.error();
  Result<Layout> c = complement(b, *n);
  if (!c)
    return c;
  return composition(a, concat_layouts(b, *c));
}

/// logical_divide by mode: mode i becomes (tile_i, rest_i), modes of A past
/// the tiler are kept: `logical_divide((8,6):(6,1), [2:1, 3:1])` ->
/// `((2,4),(3,2)):((6,12),(1,3))`.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> logical_divide(const Layout &a, const Tiler &t) {
  if (t.overflowed)
    return detail::capacity_error("logical_divide tiler has more modes than "
                                  "a Tiler holds");
  if (t.rank() > a.rank())
    return make_error(Errc::mismatch,
                      "logical_divide tiler has {} modes but the layout has {}",
                      t.rank(), a.rank());
  Layout out;
  for (int i = 0; i < a.rank(); ++i) {
    if (i >= t.rank()) {
      detail::append_mode(out, a.mode(i));
      continue;
    }
    Result<Layout> m = logical_divide(a.mode(i), t[i]);
    if (!m)
      return m;
    detail::append_mode(out, *m);
  }
  return detail::checked(out, "logical_divide result needs more nodes than "
                              "an IntTuple holds");
}

/// zipped_divide with one tile is logical_divide: `((tile), (rest))`.
constexpr Result<Layout> zipped_divide(const Layout &a, const Layout &b) {
  return logical_divide(a, b);
}

/// ((tile0, tile1, ...), (rest0, rest1, ..., A_t, ...)):
/// `zipped_divide((8,6):(6,1), [2:1, 3:1])` -> `((2,3),(4,2)):((6,1),(12,3))`.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> zipped_divide(const Layout &a, const Tiler &t) {
  Result<detail::Halves> h = detail::by_mode_halves(
      a, t,
      [](const Layout &m, const Layout &b) { return logical_divide(m, b); },
      "zipped_divide tiler has {} modes but the layout has {}");
  if (!h)
    return h.error();
  return detail::checked(concat_layouts(h->first, h->second),
                         "zipped_divide result needs more nodes than an "
                         "IntTuple holds");
}

/// (tile, rest modes...): the rest of logical_divide unpacked,
/// `tiled_divide(8:1, 2:1)` -> `(2,4):(1,2)`.
constexpr Result<Layout> tiled_divide(const Layout &a, const Layout &b) {
  Result<Layout> d = logical_divide(a, b);
  if (!d)
    return d;
  Layout out;
  detail::append_mode(out, d->mode(0));
  detail::append_modes_of(out, d->mode(1));
  return detail::checked(out, "tiled_divide result needs more nodes than an "
                              "IntTuple holds");
}

/// ((tile0, tile1, ...), rest0, rest1, ..., A_t, ...):
/// `tiled_divide((8,6):(6,1), [2:1, 3:1])` -> `((2,3),4,2):((6,1),12,3)`.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> tiled_divide(const Layout &a, const Tiler &t) {
  Result<detail::Halves> h = detail::by_mode_halves(
      a, t,
      [](const Layout &m, const Layout &b) { return logical_divide(m, b); },
      "tiled_divide tiler has {} modes but the layout has {}");
  if (!h)
    return h.error();
  Layout out;
  detail::append_mode(out, h->first);
  detail::append_modes_of(out, h->second);
  return detail::checked(out, "tiled_divide result needs more nodes than an "
                              "IntTuple holds");
}

/// (tile modes..., rest modes...): both halves of logical_divide unpacked.
constexpr Result<Layout> flat_divide(const Layout &a, const Layout &b) {
  Result<Layout> d = logical_divide(a, b);
  if (!d)
    return d;
  Layout out;
  detail::append_modes_of(out, d->mode(0));
  detail::append_modes_of(out, d->mode(1));
  return detail::checked(out, "flat_divide result needs more nodes than an "
                              "IntTuple holds");
}

/// (tile0, tile1, ..., rest0, rest1, ..., A_t, ...):
/// `flat_divide((8,6):(6,1), [2:1, 3:1])` -> `(2,3,4,2):(6,1,12,3)`.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> flat_divide(const Layout &a, const Tiler &t) {
  Result<detail::Halves> h = detail::by_mode_halves(
      a, t,
      [](const Layout &m, const Layout &b) { return logical_divide(m, b); },
      "flat_divide tiler has {} modes but the layout has {}");
  if (!h)
    return h.error();
  Layout out;
  detail::append_modes_of(out, h->first);
  detail::append_modes_of(out, h->second);
  return detail::checked(out, "flat_divide result needs more nodes than an "
                              "IntTuple holds");
}

} // namespace tf
