//===- tf/ops/broadcast.hpp - Repeating a tensor along a new mode ---------===//
//
// tf::broadcast<Mode>(t, like) is the one way operands of different ranks
// meet: `t` repeated along mode `Mode` of `like`, so that it has `like`'s
// extents. It is the inverse of a reduction along the same mode: a row
// tile's statistics `s = tf::reduce_max<1>(x)` (M elements) come back over
// the row as tf::broadcast<1>(s, x) (M x N); a bias of N elements goes over
// the rows as tf::broadcast<0>(bias, x).
//
// The layout check: `t`'s modes are `like`'s without `Mode`, in order, with
// the same extents. A wrong rank or mode stops the compile here; a wrong
// extent stops the run here with both extents, and the tf plugin reports it
// at compile time at the call, with the mode and both extents
// (err_tf_op_extents), where a static_assert could only print a fixed text.
// The result is an rmem tensor of `t`'s element type laid out as `like`
// (a register tile keeps its distribution).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/ops/common.hpp"

#include <array>
#include <cstdint>

namespace tf {

/// `t` repeated along mode `Mode` of `like`: result(c) = t(c without mode
/// Mode), over `like`'s extents.
template <int Mode, class V, class Like>
[[clang::annotate("tf.op.broadcast")]] auto broadcast(const V &t,
                                                      const Like &like) {
  using A = detail::view_t<V>;
  using L = detail::view_t<Like>;
  static_assert(Mode >= 0 && Mode < L::rank,
                "tf::broadcast: the mode is not a mode of `like`; modes count "
                "from 0 to rank - 1");
  static_assert(A::rank + 1 == L::rank,
                "tf::broadcast: the tensor needs one mode less than `like` "
                "(broadcast<Mode>(t, like) adds mode Mode)");
  using T = typename A::element_type;
  const A &x = detail::view_of(t);
  const L &l = detail::view_of(like);
  for (int i = 0, at = 0; i < L::rank; ++i) {
    if (i == Mode)
      continue;
    if (x.extent(at) != l.extent(i))
      detail::tensor_fatal("tf::broadcast: mode {} of the tensor has extent "
                           "{}, the matching mode of `like` {}",
                           at, x.extent(at), l.extent(i));
    ++at;
  }
  auto out = detail::result_like<T>(l);
  const auto &o = out.view();
  detail::for_each_coord(
      detail::extents_of(l), [&](const std::array<std::int64_t, L::rank> &c) {
        std::array<std::int64_t, A::rank> from{};
        for (int i = 0, at = 0; i < L::rank; ++i)
          if (i != Mode)
            from[static_cast<std::size_t>(at++)] = c[static_cast<std::size_t>(i)];
        o.at(c) = x.at(from).get();
      });
  return out;
}

} // namespace tf
