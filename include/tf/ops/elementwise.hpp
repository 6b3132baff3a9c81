//===- tf/ops/elementwise.hpp - copy, cast, element-wise ops --------------===//
//
// Element-wise ops on views of any rank. Operands must have the same rank,
// the same extents (checked at compile time where both are static, when
// called otherwise) and, for binary ops and copy, the same element type.
// Results are rmem tf::Buffers (see tf/ops/common.hpp); arithmetic happens in
// the compute type (float for the narrow floats) and rounds to the element
// type once, to nearest even.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/ops/activation_math.hpp"
#include "tf/ops/common.hpp"

#include <cmath>
#include <concepts>
#include <cstdint>
#include <type_traits>

namespace tf {

/// Copies `src` into `dst` element by element (same element type, rank and
/// extents); elements outside a window's bounds are read as 0 / not written.
template <class Src, class Dst>
[[clang::annotate("tf.op.copy")]] void copy(const Src &src, Dst &&dst) {
  using S = detail::view_t<Src>;
  using D = detail::view_t<Dst>;
  static_assert(std::is_same_v<typename S::element_type, typename D::element_type>,
                "tf::copy: source and destination element types differ; "
                "convert the source first: tf::copy(tf::cast<T>(src), dst)");
  static_assert(S::rank == D::rank,
                "tf::copy: source and destination ranks differ");
  static_assert(detail::static_extents_agree<S, D>(),
                "tf::copy: source and destination extents differ; copy a "
                "tile of the larger one, e.g. dst.tile<BM, BN>(m0, n0)");
  const S &s = detail::view_of(src);
  const D &d = detail::view_of(dst);
  detail::check_extents("tf::copy: the extents of mode {} differ ({} vs {})",
                        s, d);
  detail::for_each_coord(detail::extents_of(s),
                         [&](const auto &c) { d.at(c) = s.at(c).get(); });
}

/// `t` with every element converted to `To` (round to nearest even; integer
/// targets truncate and saturate, see tf::convert).
template <class To, class V>
[[clang::annotate("tf.op.cast")]] auto cast(const V &t) {
  static_assert(Element<To>,
                "tf::cast: the target must be an element type: tf::bf16, "
                "tf::f16, tf::tf32, tf::fp8e4m3, tf::fp8e5m2, float, double, "
                "std::int8_t, std::uint8_t or std::int32_t");
  using A = detail::view_t<V>;
  const A &a = detail::view_of(t);
  auto out = detail::result_like<To>(a);
  const auto &o = out.view();
  detail::for_each_coord(detail::extents_of(a), [&](const auto &c) {
    o.at(c) = convert<To>(widen(a.at(c).get()));
  });
  return out;
}

namespace detail {
/// The element-wise binary op `f` over two views of the same element type,
/// rank and extents (checked at run time with message `extents_message`),
/// computed in the compute type and rounded once to the element type.
template <class L, class R, class F>
auto zip_with(const L &lhs, const R &rhs, const char *extents_message, F f) {
  using T = typename view_t<L>::element_type;
  const auto &x = view_of(lhs);
  const auto &y = view_of(rhs);
  check_extents(extents_message, x, y);
  auto out = result_like<T>(x);
  const auto &o = out.view();
  for_each_coord(extents_of(x), [&](const auto &c) {
    compute_type<T> a = widen(x.at(c).get()), b = widen(y.at(c).get());
    o.at(c) = convert<T>(f(a, b));
  });
  return out;
}
} // namespace detail

/// Element by element, `a + b`.
template <class L, class R>
[[clang::annotate("tf.op.add")]] auto add(const L &lhs, const R &rhs) {
  using A = detail::view_t<L>;
  using B = detail::view_t<R>;
  using T = typename A::element_type;
  static_assert(std::is_same_v<T, typename B::element_type>,
                "tf::add: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(A::rank == B::rank, "tf::add: the operands' ranks differ");
  static_assert(detail::extents_agree_v<detail::static_extents_t<A>,
                                         detail::static_extents_t<B>>,
                "tf::add: the operands' extents differ");
  return detail::zip_with(
      lhs, rhs, "tf::add: the extents of mode {} differ ({} vs {})",
      [](auto a, auto b) { return a + b; });
}

/// Element by element, `a - b`.
template <class L, class R>
[[clang::annotate("tf.op.sub")]] auto sub(const L &lhs, const R &rhs) {
  using A = detail::view_t<L>;
  using B = detail::view_t<R>;
  using T = typename A::element_type;
  static_assert(std::is_same_v<T, typename B::element_type>,
                "tf::sub: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(A::rank == B::rank, "tf::sub: the operands' ranks differ");
  static_assert(detail::extents_agree_v<detail::static_extents_t<A>,
                                         detail::static_extents_t<B>>,
                "tf::sub: the operands' extents differ");
  return detail::zip_with(
      lhs, rhs, "tf::sub: the extents of mode {} differ ({} vs {})",
      [](auto a, auto b) { return a - b; });
}

/// Element by element, `a * b`.
template <class L, class R>
[[clang::annotate("tf.op.mul")]] auto mul(const L &lhs, const R &rhs) {
  using A = detail::view_t<L>;
  using B = detail::view_t<R>;
  using T = typename A::element_type;
  static_assert(std::is_same_v<T, typename B::element_type>,
                "tf::mul: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(A::rank == B::rank, "tf::mul: the operands' ranks differ");
  static_assert(detail::extents_agree_v<detail::static_extents_t<A>,
                                         detail::static_extents_t<B>>,
                "tf::mul: the operands' extents differ");
  return detail::zip_with(
      lhs, rhs, "tf::mul: the extents of mode {} differ ({} vs {})",
      [](auto a, auto b) { return a * b; });
}

/// Element by element, the larger of `a` and `b` (NaN only if both are NaN, as PTX max).
template <class L, class R>
[[clang::annotate("tf.op.maximum")]] auto maximum(const L &lhs, const R &rhs) {
  using A = detail::view_t<L>;
  using B = detail::view_t<R>;
  using T = typename A::element_type;
  static_assert(std::is_same_v<T, typename B::element_type>,
                "tf::maximum: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(A::rank == B::rank, "tf::maximum: the operands' ranks differ");
  static_assert(detail::extents_agree_v<detail::static_extents_t<A>,
                                         detail::static_extents_t<B>>,
                "tf::maximum: the operands' extents differ");
  return detail::zip_with(
      lhs, rhs, "tf::maximum: the extents of mode {} differ ({} vs {})",
      [](auto a, auto b) { return detail::max_of(a, b); });
}

/// Element by element, the smaller of `a` and `b` (NaN only if both are NaN, as PTX min).
template <class L, class R>
[[clang::annotate("tf.op.minimum")]] auto minimum(const L &lhs, const R &rhs) {
  using A = detail::view_t<L>;
  using B = detail::view_t<R>;
  using T = typename A::element_type;
  static_assert(std::is_same_v<T, typename B::element_type>,
                "tf::minimum: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(A::rank == B::rank, "tf::minimum: the operands' ranks differ");
  static_assert(detail::extents_agree_v<detail::static_extents_t<A>,
                                         detail::static_extents_t<B>>,
                "tf::minimum: the operands' extents differ");
  return detail::zip_with(
      lhs, rhs, "tf::minimum: the extents of mode {} differ ({} vs {})",
      [](auto a, auto b) { return detail::min_of(a, b); });
}

/// Element by element, `-a`.
template <class V>
[[clang::annotate("tf.op.neg")]] auto neg(const V &t) {
  using A = detail::view_t<V>;
  using T = typename A::element_type;
  const A &x = detail::view_of(t);
  auto out = detail::result_like<T>(x);
  const auto &o = out.view();
  detail::for_each_coord(detail::extents_of(x), [&](const auto &c) {
    compute_type<T> a = widen(x.at(c).get());
    o.at(c) = convert<T>(-a);
  });
  return out;
}

/// Element by element, e to the power `a` (floating element types only).
template <class V>
[[clang::annotate("tf.op.exp")]] auto exp(const V &t) {
  using A = detail::view_t<V>;
  using T = typename A::element_type;
  static_assert(is_floating_element<T>,
                "tf::exp: needs a floating-point element type; convert "
                "integers first: tf::exp(tf::cast<float>(t))");
  const A &x = detail::view_of(t);
  auto out = detail::result_like<T>(x);
  const auto &o = out.view();
  detail::for_each_coord(detail::extents_of(x), [&](const auto &c) {
    compute_type<T> a = widen(x.at(c).get());
    o.at(c) = convert<T>(std::exp(a));
  });
  return out;
}

/// Element by element, `a * s` for a floating-point scalar `s` (a kernel
/// parameter such as a GEMM's alpha), in the compute type, rounded once.
template <class V, std::floating_point S>
[[clang::annotate("tf.op.scale")]] auto scale(const V &t, S s) {
  using A = detail::view_t<V>;
  using T = typename A::element_type;
  static_assert(is_floating_element<T>,
                "tf::scale: needs a floating-point element type; convert "
                "integers first: tf::scale(tf::cast<float>(t), s)");
  const A &x = detail::view_of(t);
  auto out = detail::result_like<T>(x);
  const auto &o = out.view();
  detail::for_each_coord(detail::extents_of(x), [&](const auto &c) {
    compute_type<T> a = widen(x.at(c).get());
    o.at(c) = convert<T>(a * static_cast<compute_type<T>>(s));
  });
  return out;
}

/// Element by element, `max(a, 0)` (NaN stays NaN).
template <class V>
[[clang::annotate("tf.op.relu")]] auto relu(const V &t) {
  using A = detail::view_t<V>;
  using T = typename A::element_type;
  const A &x = detail::view_of(t);
  auto out = detail::result_like<T>(x);
  const auto &o = out.view();
  detail::for_each_coord(detail::extents_of(x), [&](const auto &c) {
    compute_type<T> a = widen(x.at(c).get());
    o.at(c) = convert<T>(a > 0 ? a : (a != a ? a : compute_type<T>(0)));
  });
  return out;
}

namespace detail {
/// The element-wise unary op `f` over a view, computed in the compute type
/// and rounded once to the element type.
template <class V, class F> auto map_floating(const V &t, F f) {
  using A = view_t<V>;
  using T = typename A::element_type;
  const A &x = view_of(t);
  auto out = result_like<T>(x);
  const auto &o = out.view();
  for_each_coord(extents_of(x), [&](const auto &c) {
    compute_type<T> a = widen(x.at(c).get());
    o.at(c) = convert<T>(f(a));
  });
  return out;
}
} // namespace detail

/// Element by element, GELU in its tanh approximation (tf::activation::gelu_tanh;
/// floating element types only).
template <class V>
[[clang::annotate("tf.op.gelu_tanh")]] auto gelu_tanh(const V &t) {
  static_assert(is_floating_element<typename detail::view_t<V>::element_type>,
                "tf::gelu_tanh: needs a floating-point element type; convert "
                "integers first: tf::gelu_tanh(tf::cast<float>(t))");
  return detail::map_floating(t, [](auto a) { return activation::gelu_tanh(a); });
}

/// Element by element, GELU through the error function (tf::activation::gelu_erf;
/// floating element types only).
template <class V>
[[clang::annotate("tf.op.gelu_erf")]] auto gelu_erf(const V &t) {
  static_assert(is_floating_element<typename detail::view_t<V>::element_type>,
                "tf::gelu_erf: needs a floating-point element type; convert "
                "integers first: tf::gelu_erf(tf::cast<float>(t))");
  return detail::map_floating(t, [](auto a) { return activation::gelu_erf(a); });
}

/// Element by element, SiLU `a / (1 + e^-a)` (tf::activation::silu;
/// floating element types only).
template <class V>
[[clang::annotate("tf.op.silu")]] auto silu(const V &t) {
  static_assert(is_floating_element<typename detail::view_t<V>::element_type>,
                "tf::silu: needs a floating-point element type; convert "
                "integers first: tf::silu(tf::cast<float>(t))");
  return detail::map_floating(t, [](auto a) { return activation::silu(a); });
}

} // namespace tf
