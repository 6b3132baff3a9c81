//===- tf/ops/slice.hpp - insert_slice -------------------------------------===//
//
// tf::insert_slice(out, tile, m0, n0, ...) writes `tile` into `out` with its
// first element at (m0, n0, ...): out(m0 + i, n0 + j) = tile(i, j). Elements
// that fall outside `out` are dropped (the edge tiles of extents that are
// not multiples of the tile size). Returns the view of `out`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/ops/common.hpp"

#include <array>
#include <concepts>
#include <cstdint>
#include <type_traits>

namespace tf {

template <class Out, class Tile, std::integral... I>
[[clang::annotate("tf.op.insert_slice")]] auto
insert_slice(Out &&out, const Tile &tile, I... origin) {
  using O = detail::view_t<Out>;
  using T = detail::view_t<Tile>;
  static_assert(std::is_same_v<typename O::element_type, typename T::element_type>,
                "tf::insert_slice: out and tile element types differ; "
                "tf::cast the tile first");
  static_assert(O::rank == T::rank,
                "tf::insert_slice: out and tile ranks differ");
  static_assert(sizeof...(I) == O::rank,
                "tf::insert_slice: give one origin per mode of out");
  const O &o = detail::view_of(out);
  const T &t = detail::view_of(tile);
  std::array<std::int64_t, O::rank> at{static_cast<std::int64_t>(origin)...};
  for (int i = 0; i < O::rank; ++i)
    if (at[static_cast<std::size_t>(i)] < 0)
      detail::tensor_fatal("tf::insert_slice: origin {} of mode {} is negative",
                           at[static_cast<std::size_t>(i)], i);
  detail::for_each_coord(detail::extents_of(t), [&](const auto &c) {
    std::array<std::int64_t, O::rank> p{};
    for (std::size_t i = 0; i < p.size(); ++i) {
      p[i] = at[i] + c[i];
      if (p[i] >= o.extent(static_cast<int>(i)))
        return;
    }
    o.at(p) = t.at(c).get();
  });
  return o;
}

} // namespace tf
