//===- tf/layout/algebra/product.hpp - Logical, blocked, raked products ---===//
//
// A product repeats a block A over the pattern of a layout B:
// logical_product(A, B) = (A, complement(A, size A · cosize B) ∘ B), two
// top-level modes (block, repetition), built with tf's primitives and read
// lexicographically (like logical_divide, not φ of CuTe's result).
//
// blocked_product and raked_product interleave the modes of the block and of
// the repetition R: with A and B padded to the same rank r by appending 1:0
// modes and P = logical_product(A, B) = (A, R),
//   blocked mode j = coalesce((R_j, A_j))   (A_j fastest: whole blocks)
//   raked   mode j = coalesce((A_j, R_j))   (R_j fastest: blocks interleaved)
// Correspondence with CuTe: for equal ranks, φ of CuTe's result on φ(A),
// φ(B) equals tf's, CuTe mode i being tf mode r-1-i (CuTe pads at its end,
// which is tf's front; tf pads at its end so that mode j of A meets mode j of
// B, as tilers do).
//
// The by-mode forms with a Tiler mirror the divide forms (divide.hpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/algebra/complement.hpp"
#include "tf/layout/algebra/composition.hpp"
#include "tf/layout/algebra/divide.hpp"

#include <cstdint>

namespace tf {

/// (A, complement(A, size A · cosize B) ∘ B): A repeated at B's pattern,
/// `logical_product((2,2):(2,1), 3:1)` -> `((2,2),3):((2,1),4)`.
/// @pre size(A) and cosize(B) are known; the complement and the composition
///      exist
/// @post mode 0 is A; mode 1 has B's shape
constexpr Result<Layout> logical_product(const Layout &a, const Layout &b) {
  Result<Int> n = detail::size_int(a.shape);
  if (!n)
    return n.error();
  Result<std::int64_t> cb = cosize(b);
  if (!cb)
    return cb.error();
  Result<Int> cotarget = detail::mul(*n, detail::kind_of(b, *cb));
  if (!cotarget)
    return cotarget.error();
  Result<Layout> c = complement(a, *cotarget);
  if (!c)
    return c;
  Result<Layout> r = composition(*c, b);
  if (!r)
    return r;
  return detail::checked(concat_layouts(a, *r),
                         "logical_product result needs more nodes than an "
                         "IntTuple holds");
}

/// logical_product by mode: mode i becomes (A_i, R_i), modes past the tiler
/// are kept.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> logical_product(const Layout &a, const Tiler &t) {
  return detail::by_mode(
      a, t,
      [](const Layout &m, const Layout &b) { return logical_product(m, b); },
      "logical_product");
}

namespace detail {
/// logical_product of one mode by one tiler element, for by_mode_grouped.
inline constexpr auto product_mode = [](const Layout &m, const Layout &b) {
  return logical_product(m, b);
};
} // namespace detail

/// ((A_0, A_1, ...), (R_0, R_1, ..., A_t, ...)) of the by-mode product.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> zipped_product(const Layout &a, const Tiler &t) {
  return detail::by_mode_grouped(a, t, detail::product_mode,
                                 detail::Grouping::zipped, "zipped_product");
}

/// ((A_0, A_1, ...), R_0, R_1, ..., A_t, ...) of the by-mode product.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> tiled_product(const Layout &a, const Tiler &t) {
  return detail::by_mode_grouped(a, t, detail::product_mode,
                                 detail::Grouping::tiled, "tiled_product");
}

/// (A_0, A_1, ..., R_0, R_1, ..., A_t, ...) of the by-mode product.
/// @pre rank(T) <= rank(A)
constexpr Result<Layout> flat_product(const Layout &a, const Tiler &t) {
  return detail::by_mode_grouped(a, t, detail::product_mode,
                                 detail::Grouping::flat, "flat_product");
}

namespace detail {

/// `l` as a tuple of `r` top-level modes, appending 1:0 modes.
constexpr Layout pad_to_rank(const Layout &l, int r) {
  Layout out;
  append_modes_of(out, l);
  for (int i = l.rank(); i < r; ++i)
    append_mode(out, Layout{IntTuple(Int::constant(1)),
                            IntTuple(Int::constant(0))});
  return out;
}

constexpr Result<Layout> interleaved_product(const Layout &a, const Layout &b,
                                             bool blocked) {
  int r = a.rank() > b.rank() ? a.rank() : b.rank();
  Layout pa = pad_to_rank(a, r);
  Layout pb = pad_to_rank(b, r);
  Result<Layout> p = logical_product(pa, pb);
  if (!p)
    return p;
  Layout rep = p->mode(1);
  Layout out;
  for (int j = 0; j < r; ++j) {
    Layout pair = blocked ? concat_layouts(rep.mode(j), pa.mode(j))
                          : concat_layouts(pa.mode(j), rep.mode(j));
    Result<Layout> m = coalesce(pair);
    if (!m)
      return m;
    append_mode(out, *m);
  }
  return checked(out, blocked ? "blocked_product result needs more nodes "
                                "than an IntTuple holds"
                              : "raked_product result needs more nodes than "
                                "an IntTuple holds");
}

} // namespace detail

/// Mode j is (R_j, A_j) coalesced: blocks of A laid out at B's pattern,
/// `blocked_product((2,2):(2,1), (2,3):(3,1))` ->
/// `((2,2),(3,2)):((12,2),(4,1))`.
/// @pre as logical_product on A and B padded to a common rank with 1:0
/// @post rank(R) == max(rank A, rank B); each mode is coalesced
constexpr Result<Layout> blocked_product(const Layout &a, const Layout &b) {
  return detail::interleaved_product(a, b, true);
}

/// Mode j is (A_j, R_j) coalesced: the elements of A interleaved at B's
/// pattern, `raked_product((2,2):(2,1), (2,3):(3,1))` ->
/// `((2,2),(2,3)):((2,12),(1,4))`.
/// @pre as logical_product on A and B padded to a common rank with 1:0
/// @post rank(R) == max(rank A, rank B); each mode is coalesced
constexpr Result<Layout> raked_product(const Layout &a, const Layout &b) {
  return detail::interleaved_product(a, b, false);
}

} // namespace tf
