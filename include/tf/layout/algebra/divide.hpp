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

/// How the two halves (tiles, rests) of a divide or product are arranged:
/// zipped ((t0,t1,...),(r0,r1,...)), tiled ((t0,t1,...),r0,r1,...) or flat
/// (t0,t1,...,r0,r1,...). Shared by the divide and product forms.
enum class Grouping : std::uint8_t { zipped, tiled, flat };

/// Arranges (tiles, rests) as `g` says.
constexpr Result<Layout> grouped(const Layout &tiles, const Layout &rests,
                                 Grouping g, const char *name) {
  Layout out;
  if (g == Grouping::flat)
    append_modes_of(out, tiles);
  else
    append_mode(out, tiles);
  if (g == Grouping::zipped)
    append_mode(out, rests);
  else
    append_modes_of(out, rests);
  return fits(out, name);
}

/// `op` applied to mode i of `a` and element i of `t` gives (tile_i, rest_i);
/// modes of A past the tiler join the rests. The halves are then arranged as
/// `g` says; `name` is the operation, for messages.
template <class Op>
constexpr Result<Layout> by_mode_grouped(const Layout &a, const Tiler &t, Op op,
                                         Grouping g, const char *name) {
  Result<Layout> modes = by_mode(a, t, op, name);
  if (!modes)
    return modes;
  Layout tiles, rests;
  for (int i = 0; i < modes->rank(); ++i) {
    Layout m = modes->mode(i);
    if (i < t.rank()) {
      append_mode(tiles, m.mode(0));
      append_mode(rests, m.mode(1));
    } else {
      append_mode(rests, m);
    }
  }
  return grouped(tiles, rests, g, name);
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
  return detail::by_mode(
      a, t,
      [](const Layout &m, const Layout &b) { return logical_divide(m, b); },
      "logical_divide");
}

/// ((tile), (rest)): zipped_divide with one tile is logical_divide.
constexpr Result<Layout> zipped_divide(const Layout &a, const Layout &b) {
  return logical_divide(a, b);
}

/// (tile, rest modes...): the rest of logical_divide unpacked,
/// `tiled_divide(8:1, 2:1)` -> `(2,4):(1,2)`.
constexpr Result<Layout> tiled_divide(const Layout &a, const Layout &b) {
  Result<Layout> d = logical_divide(a, b);
  if (!d)
    return d;
  return detail::grouped(d->mode(0), d->mode(1), detail::Grouping::tiled,
                         "tiled_divide");
}

/// (tile modes..., rest modes...): both halves of logical_divide unpacked.
constexpr Result<Layout> flat_divide(const Layout &a, const Layout &b) {
  Result<Layout> d = logical_divide(a, b);
  if (!d)
    return d;
  return detail::grouped(d->mode(0), d->mode(1), detail::Grouping::flat,
                         "flat_divide");
}

namespace detail {
/// logical_divide of one mode by one tiler element, for by_mode_grouped.
inline constexpr auto divide_mode = [](const Layout &m, const Layout &b) {
  return logical_divide(m, b);
};
} // namespace detail

/// ((tile0, tile1, ...), (rest0, rest1, ..., A_t, ...)):
/// `zipped_divide((8,6):(6,1), [2:1, 3:1])` -> `((2,3),(4,2)):((6,1),(12,3))`.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> zipped_divide(const Layout &a, const Tiler &t) {
  return detail::by_mode_grouped(a, t, detail::divide_mode,
                                 detail::Grouping::zipped, "zipped_divide");
}

/// ((tile0, tile1, ...), rest0, rest1, ..., A_t, ...):
/// `tiled_divide((8,6):(6,1), [2:1, 3:1])` -> `((2,3),4,2):((6,1),12,3)`.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> tiled_divide(const Layout &a, const Tiler &t) {
  return detail::by_mode_grouped(a, t, detail::divide_mode,
                                 detail::Grouping::tiled, "tiled_divide");
}

/// (tile0, tile1, ..., rest0, rest1, ..., A_t, ...):
/// `flat_divide((8,6):(6,1), [2:1, 3:1])` -> `(2,3,4,2):(6,1,12,3)`.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> flat_divide(const Layout &a, const Tiler &t) {
  return detail::by_mode_grouped(a, t, detail::divide_mode,
                                 detail::Grouping::flat, "flat_divide");
}

} // namespace tf
