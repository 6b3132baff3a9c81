//===- tf/ops/common.hpp - What every op shares ----------------------------===//
//
// Ops take views (tf::Tensor, tf::Window) or buffers, read their elements
// through the layout and bounds, and return results as tf::Buffers in rmem:
// an rmem tf::Tensor's result keeps its layout text (a register tile keeps
// its distribution), any other operand's result is compact row-major over
// its extents.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/ops/buffer.hpp"
#include "tf/tensor.hpp"

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tf::detail {

/// The view of a buffer, or the view itself.
template <class V> constexpr decltype(auto) view_of(const V &v) {
  if constexpr (requires { v.view(); })
    return v.view();
  else
    return (v);
}
template <class V>
using view_t = std::remove_cvref_t<decltype(view_of(std::declval<const V &>()))>;

/// The static extents of view type `V` (-1 where dynamic).
template <class V> constexpr std::array<std::int64_t, V::rank> static_extents() {
  std::array<std::int64_t, V::rank> out{};
  for (int i = 0; i < V::rank; ++i)
    out[static_cast<std::size_t>(i)] = V::static_extent(i);
  return out;
}

template <class V>
std::array<std::int64_t, V::rank> extents_of(const V &v) {
  std::array<std::int64_t, V::rank> out{};
  for (int i = 0; i < V::rank; ++i)
    out[static_cast<std::size_t>(i)] = v.extent(i);
  return out;
}

/// Whether a copy between views of types `A` and `B` has a source element
/// for every destination element: equal ranks, or the view of higher rank
/// has extent 1 in its extra leading modes -- a batch of matrices' tile
/// (1, BM, BK) fills a BM x BK tile (TMA's box of a rank-3 tensor map),
/// and back.
template <class A, class B> constexpr bool copy_ranks_agree() {
  constexpr int extra = A::rank > B::rank ? A::rank - B::rank : B::rank - A::rank;
  for (int i = 0; i < extra; ++i)
    if ((A::rank > B::rank ? A::static_extent(i) : B::static_extent(i)) != 1)
      return false;
  return true;
}

/// Whether the static extents of the modes a copy between `A` and `B` pairs
/// (the trailing modes of the view of higher rank) agree.
template <class A, class B> constexpr bool copy_extents_agree() {
  constexpr int rank = A::rank < B::rank ? A::rank : B::rank;
  for (int i = 0; i < rank; ++i) {
    const std::int64_t x = A::static_extent(A::rank - rank + i),
                       y = B::static_extent(B::rank - rank + i);
    if (x >= 0 && y >= 0 && x != y)
      return false;
  }
  return true;
}

/// Coordinate `c` of a rank-From view as the coordinate of the same element
/// of a rank-To view that adds or drops unit leading modes (copy_ranks_agree).
template <std::size_t To, std::size_t From>
constexpr std::array<std::int64_t, To>
unit_modes_cast(const std::array<std::int64_t, From> &c) {
  std::array<std::int64_t, To> out{};
  if constexpr (To >= From) {
    for (std::size_t i = 0; i < From; ++i)
      out[To - From + i] = c[i];
  } else {
    for (std::size_t i = 0; i < To; ++i)
      out[i] = c[From - To + i];
  }
  return out;
}

/// Whether the static extents of `A` and `B` agree mode by mode.
template <class A, class B> constexpr bool static_extents_agree() {
  if constexpr (A::rank != B::rank) {
    return true; // the rank check reports this
  } else {
    for (int i = 0; i < A::rank; ++i) {
      std::int64_t x = A::static_extent(i), y = B::static_extent(i);
      if (x >= 0 && y >= 0 && x != y)
        return false;
    }
    return true;
  }
}

/// The static extents of view type `V` (-1 where dynamic) as a type: a
/// static_assert on extents_agree_v of two of them prints both when they
/// differ (`extents_agree_v<std::integer_sequence<long, 128, 256>,
/// std::integer_sequence<long, 256, 128>>`).
template <class V, class I = std::make_index_sequence<V::rank>>
struct static_extents_seq;
template <class V, std::size_t... I>
struct static_extents_seq<V, std::index_sequence<I...>> {
  using type = std::integer_sequence<std::int64_t, V::static_extent(I)...>;
};
template <class V> using static_extents_t = typename static_extents_seq<V>::type;

/// Whether two static_extents_t agree mode by mode (a dynamic extent agrees
/// with any); true for different ranks, which the rank check reports.
template <class X, class Y> inline constexpr bool extents_agree_v = true;
template <std::int64_t... X, std::int64_t... Y>
  requires(sizeof...(X) == sizeof...(Y))
inline constexpr bool
    extents_agree_v<std::integer_sequence<std::int64_t, X...>,
                    std::integer_sequence<std::int64_t, Y...>> =
        ((X < 0 || Y < 0 || X == Y) && ...);

/// Stops with `what` ("... mode {} ... ({} vs {})") unless the extents agree.
template <class A, class B>
void check_extents(const char *what, const A &a, const B &b) {
  for (int i = 0; i < A::rank; ++i)
    if (a.extent(i) != b.extent(i))
      tensor_fatal(what, i, a.extent(i), b.extent(i));
}

/// Calls f(c) for every coordinate c of `extents`, last mode fastest.
template <std::size_t R, class F>
void for_each_coord(const std::array<std::int64_t, R> &extents, F &&f) {
  std::array<std::int64_t, R> c{};
  for (std::int64_t e : extents)
    if (e <= 0)
      return;
  while (true) {
    f(static_cast<const std::array<std::int64_t, R> &>(c));
    std::size_t i = R;
    while (i > 0) {
      --i;
      if (++c[i] < extents[i])
        break;
      c[i] = 0;
      if (i == 0)
        return;
    }
    if constexpr (R == 0)
      return;
  }
}

/// The tensor type of an op's result with elements `D` for operand view `V`.
template <class D, class V> struct result_tensor {
  using type = Tensor<D, shape_text<static_extents<V>()>(), Storage::rmem>;
};
template <class D, class V>
  requires(V::storage == Storage::rmem && requires { typename V::template rebind_rmem<D>; })
struct result_tensor<D, V> {
  using type = typename V::template rebind_rmem<D>;
};
template <class D, class V>
using result_tensor_t = typename result_tensor<D, V>::type;

/// A zero-filled result buffer of elements `D` shaped like view `v`.
template <class D, class V> Buffer<result_tensor_t<D, V>> result_like(const V &v) {
  using R = result_tensor_t<D, V>;
  if constexpr (requires { typename V::template rebind_rmem<D>; } &&
                V::storage == Storage::rmem) {
    return Buffer<R>(v.leaf_extents());
  } else {
    return Buffer<R>(extents_of(v));
  }
}

/// PTX's max/min: NaN only when both operands are NaN.
template <class C> constexpr C max_of(C a, C b) {
  if (a != a)
    return b;
  if (b != b)
    return a;
  return a < b ? b : a;
}
template <class C> constexpr C min_of(C a, C b) {
  if (a != a)
    return b;
  if (b != b)
    return a;
  return b < a ? b : a;
}

} // namespace tf::detail
