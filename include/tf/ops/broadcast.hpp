//===- tf/ops/broadcast.hpp - a vector repeated along a new mode ----------===//
//
// tf::broadcast<Axis, Extent>(v) makes a matrix of a vector: mode Axis is
// new, of Extent elements, and every one of its positions repeats v along
// the other mode. It is how a bias vector meets an accumulator tile:
//
//   tf::add(acc, tf::broadcast<0, BM>(tf::cast<float>(bias.tile<BN>(n0))))
//
// adds bias[n0 + j] to every row of column j (one value per column, the
// broadcast runs along the rows); Axis 1 gives one value per row. The
// broadcast is written where it happens, so its shape is checked where the
// result meets the tile: a vector of the wrong length, or broadcast along
// the wrong axis, gives a matrix of other extents than the tile's, which
// the element-wise op refuses at compile time with both extents.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/ops/common.hpp"

#include <array>
#include <cstdint>

namespace tf {

namespace detail {
/// The extents of broadcast<Axis, Extent> over a vector of `length`.
template <int Axis>
constexpr std::array<std::int64_t, 2> broadcast_extents(std::int64_t extent,
                                                        std::int64_t length) {
  return Axis == 0 ? std::array<std::int64_t, 2>{extent, length}
                   : std::array<std::int64_t, 2>{length, extent};
}
} // namespace detail

/// The Extent x n (Axis 0) or n x Extent (Axis 1) matrix whose element
/// (i, j) is v(j) (Axis 0) or v(i) (Axis 1), for a vector v of n elements;
/// a compact row-major rmem buffer.
template <int Axis, std::int64_t Extent, class V>
[[clang::annotate("tf.op.broadcast")]] auto broadcast(const V &v) {
  using A = detail::view_t<V>;
  using T = typename A::element_type;
  static_assert(Axis == 0 || Axis == 1,
                "tf::broadcast: Axis is the new mode of a matrix, 0 (the "
                "vector runs along the columns) or 1 (along the rows)");
  static_assert(A::rank == 1, "tf::broadcast: broadcasts a vector (rank 1)");
  static_assert(Extent > 0, "tf::broadcast: the new mode needs an extent");
  constexpr std::array<std::int64_t, 2> shape =
      detail::broadcast_extents<Axis>(Extent, A::static_extent(0));
  using R = Tensor<T, detail::shape_text<shape>(), Storage::rmem>;
  const A &x = detail::view_of(v);
  Buffer<R> out(detail::broadcast_extents<Axis>(Extent, x.extent(0)));
  const auto &o = out.view();
  detail::for_each_coord(detail::extents_of(o), [&](const auto &c) {
    o.at(c) = x.at({c[1 - Axis]}).get();
  });
  return out;
}

} // namespace tf
