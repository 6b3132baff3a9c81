//===- tf/ops/reduce.hpp - Reductions along a mode ------------------------===//
//
// tf::reduce_sum<Mode>(t) and tf::reduce_max<Mode>(t) remove mode `Mode`:
// an M x N tensor reduced along mode 1 gives M elements (a rank-1 tensor
// gives one element, shape (1)). Sums accumulate in the compute type (float
// for the narrow floats) in increasing coordinate order and round once.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/ops/common.hpp"

#include <array>
#include <cstdint>
#include <limits>

namespace tf {
namespace detail {

/// The extents of `V` without mode `Mode` ((1) for rank 1), -1 where dynamic.
template <class V, int Mode> constexpr auto reduced_static_extents() {
  constexpr std::size_t R = V::rank > 1 ? V::rank - 1 : 1;
  std::array<std::int64_t, R> out{};
  if constexpr (V::rank == 1) {
    out[0] = 1;
  } else {
    std::size_t at = 0;
    for (int i = 0; i < V::rank; ++i)
      if (i != Mode)
        out[at++] = V::static_extent(i);
  }
  return out;
}

template <class V, int Mode, class Init, class Step>
auto reduce(const V &x, Init init, Step step) {
  using T = typename V::element_type;
  using Out = Tensor<T, shape_text<reduced_static_extents<V, Mode>()>(),
                     Storage::rmem>;
  constexpr std::size_t R = V::rank > 1 ? V::rank - 1 : 1;
  std::array<std::int64_t, R> ext{};
  if constexpr (V::rank == 1) {
    ext[0] = 1;
  } else {
    std::size_t at = 0;
    for (int i = 0; i < V::rank; ++i)
      if (i != Mode)
        ext[at++] = x.extent(i);
  }
  Buffer<Out> out(ext);
  const Out &o = out.view();
  for_each_coord(ext, [&](const std::array<std::int64_t, R> &oc) {
    std::array<std::int64_t, V::rank> c{};
    std::size_t at = 0;
    for (int i = 0; i < V::rank; ++i)
      if (i != Mode)
        c[static_cast<std::size_t>(i)] = oc[at++];
    compute_type<T> acc = init;
    for (std::int64_t k = 0; k < x.extent(Mode); ++k) {
      c[static_cast<std::size_t>(Mode)] = k;
      acc = step(acc, widen(x.at(c).get()));
    }
    o.at(oc) = convert<T>(acc);
  });
  return out;
}

} // namespace detail

/// The sum of `t` along mode `Mode`.
template <int Mode, class V>
[[clang::annotate("tf.op.reduce_sum")]] auto reduce_sum(const V &t) {
  using A = detail::view_t<V>;
  static_assert(Mode >= 0 && Mode < A::rank,
                "tf::reduce_sum: the mode is not a mode of the tensor; "
                "modes count from 0 to rank - 1");
  using C = compute_type<typename A::element_type>;
  return detail::reduce<A, Mode>(detail::view_of(t), C(0),
                                 [](C acc, C v) { return C(acc + v); });
}

/// The largest element of `t` along mode `Mode` (NaNs are skipped unless
/// all are NaN; an empty mode gives -inf, or the lowest integer).
template <int Mode, class V>
[[clang::annotate("tf.op.reduce_max")]] auto reduce_max(const V &t) {
  using A = detail::view_t<V>;
  static_assert(Mode >= 0 && Mode < A::rank,
                "tf::reduce_max: the mode is not a mode of the tensor; "
                "modes count from 0 to rank - 1");
  using C = compute_type<typename A::element_type>;
  C init = std::numeric_limits<C>::has_infinity
               ? -std::numeric_limits<C>::infinity()
               : std::numeric_limits<C>::lowest();
  return detail::reduce<A, Mode>(detail::view_of(t), init,
                                 [](C acc, C v) { return detail::max_of(acc, v); });
}

} // namespace tf
