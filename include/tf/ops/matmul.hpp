//===- tf/ops/matmul.hpp - acc += a * b ------------------------------------===//
//
// tf::matmul(acc, a, b) with the instruction left undecided: acc (M x N,
// float, registers) += a (M x K) * b (K x N), products and sums in float,
// over k in increasing order. a and b have the same element type; every
// extent pair is checked at compile time where both are static.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/ops/common.hpp"

#include <cstdint>
#include <type_traits>

namespace tf {

template <class Acc, class L, class R>
[[clang::annotate("tf.op.matmul")]] void matmul(Acc &&acc, const L &lhs,
                                                const R &rhs) {
  using C = detail::view_t<Acc>;
  using A = detail::view_t<L>;
  using B = detail::view_t<R>;
  static_assert(std::is_same_v<typename C::element_type, float>,
                "tf::matmul: the accumulator must hold float (f32); "
                "accumulate in float and tf::cast the result");
  static_assert(C::storage == Storage::rmem || C::storage == Storage::amx_tile,
                "tf::matmul: the accumulator must live in registers: "
                "declare it tf::Tensor<float, \"...\", tf::rmem> (AMX: "
                "tf::amx_tile)");
  static_assert(std::is_same_v<typename A::element_type,
                               typename B::element_type>,
                "tf::matmul: lhs and rhs element types differ; tf::cast one "
                "of them");
  static_assert(C::rank == 2 && A::rank == 2 && B::rank == 2,
                "tf::matmul: acc, lhs and rhs must be matrices (rank 2): "
                "acc M x N, lhs M x K, rhs K x N");
  static_assert(detail::extents_agree<A::static_extent(1), B::static_extent(0)>,
                "tf::matmul: the K extents of lhs (mode 1) and rhs (mode 0) "
                "differ");
  static_assert(detail::extents_agree<C::static_extent(0), A::static_extent(0)>,
                "tf::matmul: the M extents of acc (mode 0) and lhs (mode 0) "
                "differ");
  static_assert(detail::extents_agree<C::static_extent(1), B::static_extent(1)>,
                "tf::matmul: the N extents of acc (mode 1) and rhs (mode 1) "
                "differ");
  const C &c = detail::view_of(acc);
  const A &a = detail::view_of(lhs);
  const B &b = detail::view_of(rhs);
  const std::int64_t M = a.extent(0), K = a.extent(1), N = b.extent(1);
  if (b.extent(0) != K)
    detail::tensor_fatal("tf::matmul: the K extents of lhs ({}) and rhs ({}) "
                         "differ",
                         K, b.extent(0));
  if (c.extent(0) != M || c.extent(1) != N)
    detail::tensor_fatal("tf::matmul: acc is {} x {} but lhs * rhs is {} x "
                         "N; acc must be M x N",
                         c.extent(0), c.extent(1), M);
  for (std::int64_t m = 0; m < M; ++m)
    for (std::int64_t n = 0; n < N; ++n) {
      float s = c.at({m, n}).get();
      for (std::int64_t k = 0; k < K; ++k)
        s += static_cast<float>(widen(a.at({m, k}).get())) *
             static_cast<float>(widen(b.at({k, n}).get()));
      c.at({m, n}) = s;
    }
}

} // namespace tf
