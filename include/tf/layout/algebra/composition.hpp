//===- tf/layout/algebra/composition.hpp - Functional composition ---------===//
//
// R = A ∘ B is the layout with R(c) = A(B(c)) for every coordinate c of B,
// shaped like B (each leaf of B may become a flat tuple). It is CuTe's
// composition through φ: flatten and coalesce A, then walk each leaf n:d of B
// through A's modes from the innermost outwards, dividing d out of the modes
// it skips and splitting n over the modes it covers. A's outermost mode is
// unbounded, as tf evaluates past the domain (layout.hpp, idx2crd).
//
// The preconditions are checked exactly, so a refused composition is one
// whose result is not this by-leaf layout, never a silently wrong layout:
//  * stride: at each mode of A a leaf passes through, A's extent and the
//    remaining stride divide one way or the other (or the leaf ends inside
//    that one mode);
//  * shape: when a leaf spills past a mode, its remaining extent is a
//    multiple of what that mode provides;
//  * no carry: the leaves of B are composed one by one, which equals A(B(c))
//    only if adding their offsets never carries across a mode boundary of A.
// CuTe checks the first two only where they are static, and not the third.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/algebra/coalesce.hpp"

#include <cstdint>
#include <initializer_list>
#include <numeric>

namespace tf {

/// Top-level modes a Tiler holds at most.
inline constexpr std::size_t max_tiler_rank = 4;

/// A tuple of layouts applied "by mode": element i acts on top-level mode i
/// of the layout it tiles, as in CuTe (tf does not reverse tilers; φ is only
/// for comparing single layouts with CuTe).
struct Tiler {
  FixedVector<Layout, max_tiler_rank> modes{};
  bool overflowed = false;

  constexpr Tiler() = default;
  constexpr Tiler(std::initializer_list<Layout> layouts) {
    for (const Layout &l : layouts)
      overflowed = !modes.push_back(l) || overflowed;
  }
  constexpr int rank() const { return static_cast<int>(modes.size()); }
  constexpr const Layout &operator[](int i) const { return modes[i]; }
};

namespace detail {

/// Leaves of B composed so far: modes of all results in lexicographic order,
/// `start[k]` and `count[k]` locating leaf k's.
struct LeafResults {
  FlatModes modes{};
  int start[max_int_tuple_nodes] = {};
  int count[max_int_tuple_nodes] = {};
  bool overflowed = false;
};

/// A ∘ (n:d) for one leaf, appended to `out` (lexicographic order).
/// `a` is coalesced A, innermost first, with its outermost mode last.
constexpr Result<bool> compose_leaf(const FlatModes &a, const Int &n,
                                    const Int &d, LeafResults &out, int leaf) {
  FlatModes inner; // result modes, innermost first
  if (d.value < 0)
    return make_error(Errc::precondition,
                      "composition does not support the negative stride {} "
                      "in B",
                      d.value);
  if (n.value == 1 || d.value == 0) {
    // Every coordinate maps to A(0) = 0 or there is a single one.
    inner.push_back(FlatMode{n, d.value == 0 ? d : Int::constant(0)});
  } else {
    Int rest = n;  // extent of the leaf not yet placed
    Int stride = d; // the leaf's stride measured in the current mode's units
    std::size_t last = a.size() - 1;
    for (std::size_t k = 0; k < last && rest.value > 1; ++k) {
      const FlatMode &m = a[k];
      if (stride.value % m.shape.value == 0) {
        stride = quot(stride, m.shape); // the leaf steps over this mode
        continue;
      }
      if (m.shape.value % stride.value == 0) {
        Int fits = quot(m.shape, stride);
        if (rest.value <= fits.value) {
          Result<Int> st = mul(stride, m.stride);
          if (!st)
            return st.error();
          inner.push_back(FlatMode{rest, *st});
          rest = Int::constant(1);
          break;
        }
        if (rest.value % fits.value != 0)
          return make_error(Errc::precondition,
                            "composition shape divisibility fails: {} "
                            "elements of B do not split into runs of {} of a "
                            "mode of A of extent {}",
                            rest.value, fits.value, m.shape.value);
        Result<Int> st = mul(stride, m.stride);
        if (!st)
          return st.error();
        inner.push_back(FlatMode{fits, *st});
        rest = quot(rest, fits);
        stride = combine_kind(stride, m.shape, 1);
        continue;
      }
      // Neither divides: exact only if the whole leaf stays inside this mode.
      // (rest - 1) * stride < extent, asked without forming the product.
      if (stride.value < m.shape.value &&
          rest.value - 1 <= (m.shape.value - 1) / stride.value) {
        Result<Int> st = mul(stride, m.stride);
        if (!st)
          return st.error();
        inner.push_back(FlatMode{rest, *st});
        rest = Int::constant(1);
        break;
      }
      return make_error(Errc::precondition,
                        "composition stride divisibility fails: stride {} of "
                        "B and extent {} of a mode of A divide neither way",
                        stride.value, m.shape.value);
    }
    if (rest.value > 1) {
      Result<Int> st = mul(stride, a[last].stride);
      if (!st)
        return st.error();
      inner.push_back(FlatMode{rest, *st});
    }
    if (inner.empty())
      inner.push_back(FlatMode{n, Int::constant(0)});
  }
  out.start[leaf] = static_cast<int>(out.modes.size());
  out.count[leaf] = static_cast<int>(inner.size());
  for (std::size_t i = inner.size(); i-- > 0;)
    out.overflowed = !out.modes.push_back(inner[i]) || out.overflowed;
  return true;
}

/// max over c < n of (c*d mod p): how far one leaf of B reaches into the
/// digit below a mode boundary p of A (n > 0, d >= 0, p > 0). Nothing here
/// forms c * d, which leaves 64 bits for extents and strides near 2^63.
constexpr std::int64_t max_residue(std::int64_t n, std::int64_t d,
                                   std::int64_t p) {
  if (n <= 1 || d == 0)
    return 0;
  if (n - 1 <= (p - 1) / d) // (n - 1) * d < p: no wrap
    return (n - 1) * d;
  std::int64_t step = d % p;
  if (step == 0)
    return 0;
  // The residues c*d mod p are the multiples of g = gcd(d, p) below p, in a
  // cycle of p / g; a leaf that runs the whole cycle reaches p - g.
  std::int64_t g = std::gcd(step, p);
  if (n >= p / g)
    return p - g;
  std::int64_t best = 0;
  std::int64_t r = 0;
  for (std::int64_t c = 1; c < n; ++c) {
    r = r >= p - step ? r - (p - step) : r + step; // (r + step) mod p
    best = r > best ? r : best;
  }
  return best;
}

/// The layout of B's structure with leaf k replaced by its result.
constexpr Layout graft(const IntTuple &tree, int &leaf,
                       const LeafResults &res) {
  if (tree.is_leaf()) {
    int k = leaf++;
    FlatModes inner;
    for (int i = res.start[k] + res.count[k]; i-- > res.start[k];)
      inner.push_back(res.modes[i]);
    return build_inner_first(inner);
  }
  Layout out;
  for (int i = 0; i < tree.rank(); ++i)
    append_mode(out, graft(tree.mode(i), leaf, res));
  return out;
}

} // namespace detail

/// The layout R = A ∘ B with R(c) = A(B(c)), shaped like B:
/// `(2,6):(2,8) ∘ (3,4):(1,3)` -> `(3,(2,2)):(8,(2,24))`, the φ of CuTe's
/// `(6,2):(8,2) ∘ (4,3):(3,1)` -> `((2,2),3):((24,2),8)`.
/// @pre B has no negative strides; the stride, shape and no-carry conditions
///      of the file comment hold (Errc::precondition names the values).
/// @post R(c) == A(B(c)) for all coordinates c of B; R's shape refines B's.
constexpr Result<Layout> composition(const Layout &a, const Layout &b) {
  Result<detail::FlatModes> af = detail::flat_modes(a);
  if (!af)
    return af.error();
  Result<detail::FlatModes> bf = detail::flat_modes(b);
  if (!bf)
    return bf.error();
  detail::FlatModes inner = detail::coalesce_inner_first(*af, true);

  detail::LeafResults res;
  for (std::size_t k = 0; k < bf->size(); ++k) {
    Result<bool> ok = detail::compose_leaf(inner, (*bf)[k].shape,
                                           (*bf)[k].stride, res,
                                           static_cast<int>(k));
    if (!ok)
      return ok.error();
  }

  // Composing leaf by leaf is exact only if no sum of B's leaf offsets
  // carries across an inner mode boundary of A (whose strides, A being
  // coalesced, differ from those of a carry).
  std::int64_t boundary = 1;
  for (std::size_t j = 0; j + 1 < inner.size(); ++j) {
    if (!checked_mul(boundary, inner[j].shape.value, boundary))
      return detail::capacity_error("composition: the size of A does not fit "
                                    "in 64 bits");
    // The sum saturates: a reach past 64 bits carries all the same.
    std::int64_t reach = 0;
    for (const detail::FlatMode &m : *bf)
      if (m.shape.value > 0 &&
          !checked_add(reach,
                       detail::max_residue(m.shape.value, m.stride.value,
                                           boundary),
                       reach))
        reach = INT64_MAX;
    if (reach >= boundary)
      return make_error(Errc::precondition,
                        "composition of the modes of B carries across a mode "
                        "boundary of A: offsets reach {} below the boundary "
                        "at {}",
                        reach, boundary);
  }

  int leaf = 0;
  Layout out = detail::graft(b.shape, leaf, res);
  if (res.overflowed || out.overflow())
    return detail::capacity_error("composition result needs more nodes than "
                                  "an IntTuple holds");
  return out;
}

namespace detail {

/// `out`, or the capacity error of operation `name` if it overflowed.
constexpr Result<Layout> fits(const Layout &out, const char *name) {
  if (out.overflow())
    return make_error(Errc::capacity,
                      "the result of {name} needs more nodes than an IntTuple "
                      "holds",
                      Name(name));
  return out;
}

/// Mode i of the result is op(A_i, T[i]); modes of A past the tiler are kept.
/// The by-mode form of composition, divide and product; `name` is the
/// operation, for messages.
template <class Op>
constexpr Result<Layout> by_mode(const Layout &a, const Tiler &t, Op op,
                                 const char *name) {
  if (t.overflowed)
    return capacity_error("tiler has more modes than a Tiler holds");
  if (t.rank() > a.rank())
    return make_error(Errc::mismatch,
                      "the tiler has {} modes but the layout has only {}",
                      t.rank(), a.rank());
  Layout out;
  for (int i = 0; i < a.rank(); ++i) {
    if (i >= t.rank()) {
      append_mode(out, a.mode(i));
      continue;
    }
    Result<Layout> m = op(a.mode(i), t[i]);
    if (!m)
      return m;
    append_mode(out, *m);
  }
  return fits(out, name);
}

} // namespace detail

/// Composition "by mode": mode i of the result is A_i ∘ T[i], and the modes
/// of A that T does not reach are kept: `(8,6):(6,1) ∘ [2:4]` ->
/// `(2:24, 6:1)`, i.e. `(2,6):(24,1)`.
/// @pre rank(T) <= rank(A), and each A_i ∘ T[i] exists
constexpr Result<Layout> composition(const Layout &a, const Tiler &t) {
  return detail::by_mode(
      a, t, [](const Layout &m, const Layout &b) { return composition(m, b); },
      "composition");
}

} // namespace tf
