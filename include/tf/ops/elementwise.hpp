//===- tf/ops/elementwise.hpp - copy, cast, element-wise ops --------------===//
//
// Element-wise ops on views of any rank. Operands must have the same rank,
// the same extents (checked at compile time where both are static, when
// called otherwise) and, for binary ops and copy, the same element type; a
// binary op (and tf::where's values) may take a floating-point scalar
// instead of one tensor. Operands of different ranks meet through an
// explicit tf::broadcast (tf/ops/broadcast.hpp).
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
/// A scalar operand of an element-wise op: one floating-point number (a
/// kernel parameter, a constant) applied to every element of the other
/// operand, in that operand's compute type.
template <class T>
concept scalar_operand = std::floating_point<std::remove_cvref_t<T>>;

/// Whether a binary op's operands are two tensors of one element type, or a
/// tensor and a scalar.
template <class L, class R> constexpr bool same_element_types() {
  if constexpr (scalar_operand<L> || scalar_operand<R>)
    return true;
  else
    return std::is_same_v<typename view_t<L>::element_type,
                          typename view_t<R>::element_type>;
}
template <class L, class R> constexpr bool same_ranks() {
  if constexpr (scalar_operand<L> || scalar_operand<R>)
    return true;
  else
    return view_t<L>::rank == view_t<R>::rank;
}
/// The static extents of a binary op's operand as a type (static_extents_t;
/// none for a scalar, which agrees with any tensor in extents_agree_v).
template <class T> struct operand_extents {
  using type = std::integer_sequence<std::int64_t>;
};
template <class T>
  requires(!scalar_operand<T>)
struct operand_extents<T> {
  using type = static_extents_t<view_t<T>>;
};
template <class T> using operand_extents_t = typename operand_extents<T>::type;

/// With the tf plugin loaded (`__has_cpp_attribute(tf::mesh)`), the
/// element types and static extents of an element-wise op's tensor
/// operands (tf::where's too) are the plugin's check: it reads them from the
/// call's argument types, for every call outside tf's own functions, and
/// reports at the operand that disagrees, with the cast as a fix-it.
/// Without it, the ops' static_asserts below.
inline constexpr bool header_checks_operands =
#if defined(__has_cpp_attribute)
#if __has_cpp_attribute(tf::mesh)
    false;
#else
    true;
#endif
#else
    true;
#endif
/// same_element_types as an op's static_assert reads it.
template <class L, class R> constexpr bool checked_element_types() {
  return !header_checks_operands || same_element_types<L, R>();
}
/// operand_extents_t as an op's static_assert reads it: no extents
/// (agreeing with any) when the plugin checks them.
template <class T>
using checked_extents_t =
    std::conditional_t<header_checks_operands, operand_extents_t<T>,
                       std::integer_sequence<std::int64_t>>;
/// A scalar operand meets a floating-point tensor only (integer tensors
/// would round it away silently).
template <class L, class R> constexpr bool scalar_meets_floating() {
  if constexpr (scalar_operand<L>)
    return is_floating_element<typename view_t<R>::element_type>;
  else if constexpr (scalar_operand<R>)
    return is_floating_element<typename view_t<L>::element_type>;
  else
    return true;
}
/// At least one operand of a binary op is a tensor.
template <class L, class R>
concept binary_operands = !(scalar_operand<L> && scalar_operand<R>);

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

/// The element-wise binary op `f` over two views of the same element type,
/// rank and extents (checked at run time with message `extents_message`),
/// or over a view and a scalar, computed in the compute type and rounded
/// once to the element type.
template <class L, class R, class F>
auto zip_with(const L &lhs, const R &rhs, const char *extents_message, F f) {
  if constexpr (scalar_operand<L>) {
    using C = compute_type<typename view_t<R>::element_type>;
    return map_floating(rhs, [&](C b) { return f(C(lhs), b); });
  } else if constexpr (scalar_operand<R>) {
    using C = compute_type<typename view_t<L>::element_type>;
    return map_floating(lhs, [&](C a) { return f(a, C(rhs)); });
  } else {
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
}
} // namespace detail

/// Element by element, `a + b`. Either operand may be a floating-point
/// scalar (`tf::add(t, 0.5f)`).
template <class L, class R>
  requires detail::binary_operands<L, R>
[[clang::annotate("tf.op.add")]] auto add(const L &lhs, const R &rhs) {
  static_assert(detail::checked_element_types<L, R>(),
                "tf::add: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(detail::same_ranks<L, R>(),
                "tf::add: the operands' ranks differ; repeat the smaller "
                "one with tf::broadcast<Mode>(t, like)");
  static_assert(detail::extents_agree_v<detail::checked_extents_t<L>,
                                         detail::checked_extents_t<R>>,
                "tf::add: the operands' extents differ");
  static_assert(detail::scalar_meets_floating<L, R>(),
                "tf::add: a scalar operand needs a floating-point tensor");
  return detail::zip_with(
      lhs, rhs, "tf::add: the extents of mode {} differ ({} vs {})",
      [](auto a, auto b) { return a + b; });
}

/// Element by element, `a - b`. Either operand may be a floating-point
/// scalar (`tf::sub(t, 0.5f)`).
template <class L, class R>
  requires detail::binary_operands<L, R>
[[clang::annotate("tf.op.sub")]] auto sub(const L &lhs, const R &rhs) {
  static_assert(detail::checked_element_types<L, R>(),
                "tf::sub: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(detail::same_ranks<L, R>(),
                "tf::sub: the operands' ranks differ; repeat the smaller "
                "one with tf::broadcast<Mode>(t, like)");
  static_assert(detail::extents_agree_v<detail::checked_extents_t<L>,
                                         detail::checked_extents_t<R>>,
                "tf::sub: the operands' extents differ");
  static_assert(detail::scalar_meets_floating<L, R>(),
                "tf::sub: a scalar operand needs a floating-point tensor");
  return detail::zip_with(
      lhs, rhs, "tf::sub: the extents of mode {} differ ({} vs {})",
      [](auto a, auto b) { return a - b; });
}

/// Element by element, `a * b`. Either operand may be a floating-point
/// scalar (`tf::mul(t, 0.5f)`).
template <class L, class R>
  requires detail::binary_operands<L, R>
[[clang::annotate("tf.op.mul")]] auto mul(const L &lhs, const R &rhs) {
  static_assert(detail::checked_element_types<L, R>(),
                "tf::mul: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(detail::same_ranks<L, R>(),
                "tf::mul: the operands' ranks differ; repeat the smaller "
                "one with tf::broadcast<Mode>(t, like)");
  static_assert(detail::extents_agree_v<detail::checked_extents_t<L>,
                                         detail::checked_extents_t<R>>,
                "tf::mul: the operands' extents differ");
  static_assert(detail::scalar_meets_floating<L, R>(),
                "tf::mul: a scalar operand needs a floating-point tensor");
  return detail::zip_with(
      lhs, rhs, "tf::mul: the extents of mode {} differ ({} vs {})",
      [](auto a, auto b) { return a * b; });
}

/// Element by element, `a / b` (IEEE division: x / 0 is inf or NaN). Either operand may be a floating-point
/// scalar (`tf::div(t, 0.5f)`).
template <class L, class R>
  requires detail::binary_operands<L, R>
[[clang::annotate("tf.op.div")]] auto div(const L &lhs, const R &rhs) {
  static_assert(detail::checked_element_types<L, R>(),
                "tf::div: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(detail::same_ranks<L, R>(),
                "tf::div: the operands' ranks differ; repeat the smaller "
                "one with tf::broadcast<Mode>(t, like)");
  static_assert(detail::extents_agree_v<detail::checked_extents_t<L>,
                                         detail::checked_extents_t<R>>,
                "tf::div: the operands' extents differ");
  static_assert(detail::scalar_meets_floating<L, R>(),
                "tf::div: a scalar operand needs a floating-point tensor");
  return detail::zip_with(
      lhs, rhs, "tf::div: the extents of mode {} differ ({} vs {})",
      [](auto a, auto b) { return a / b; });
}

/// Element by element, the larger of `a` and `b` (NaN only if both are NaN, as PTX max). Either operand may be a floating-point
/// scalar (`tf::maximum(t, 0.5f)`).
template <class L, class R>
  requires detail::binary_operands<L, R>
[[clang::annotate("tf.op.maximum")]] auto maximum(const L &lhs, const R &rhs) {
  static_assert(detail::checked_element_types<L, R>(),
                "tf::maximum: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(detail::same_ranks<L, R>(),
                "tf::maximum: the operands' ranks differ; repeat the smaller "
                "one with tf::broadcast<Mode>(t, like)");
  static_assert(detail::extents_agree_v<detail::checked_extents_t<L>,
                                         detail::checked_extents_t<R>>,
                "tf::maximum: the operands' extents differ");
  static_assert(detail::scalar_meets_floating<L, R>(),
                "tf::maximum: a scalar operand needs a floating-point tensor");
  return detail::zip_with(
      lhs, rhs, "tf::maximum: the extents of mode {} differ ({} vs {})",
      [](auto a, auto b) { return detail::max_of(a, b); });
}

/// Element by element, the smaller of `a` and `b` (NaN only if both are NaN, as PTX min). Either operand may be a floating-point
/// scalar (`tf::minimum(t, 0.5f)`).
template <class L, class R>
  requires detail::binary_operands<L, R>
[[clang::annotate("tf.op.minimum")]] auto minimum(const L &lhs, const R &rhs) {
  static_assert(detail::checked_element_types<L, R>(),
                "tf::minimum: the operands' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(detail::same_ranks<L, R>(),
                "tf::minimum: the operands' ranks differ; repeat the smaller "
                "one with tf::broadcast<Mode>(t, like)");
  static_assert(detail::extents_agree_v<detail::checked_extents_t<L>,
                                         detail::checked_extents_t<R>>,
                "tf::minimum: the operands' extents differ");
  static_assert(detail::scalar_meets_floating<L, R>(),
                "tf::minimum: a scalar operand needs a floating-point tensor");
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

/// Element by element, `1 / sqrt(a)` (floating element types only).
template <class V>
[[clang::annotate("tf.op.rsqrt")]] auto rsqrt(const V &t) {
  static_assert(is_floating_element<typename detail::view_t<V>::element_type>,
                "tf::rsqrt: needs a floating-point element type; convert "
                "integers first: tf::rsqrt(tf::cast<float>(t))");
  return detail::map_floating(t, [](auto a) { return 1 / std::sqrt(a); });
}

/// Element by element, 2 to the power `a` (floating element types only):
/// with a factor log2(e) folded into its operand, the exp of softmax that
/// the GPU's ex2 instruction computes.
template <class V>
[[clang::annotate("tf.op.exp2")]] auto exp2(const V &t) {
  static_assert(is_floating_element<typename detail::view_t<V>::element_type>,
                "tf::exp2: needs a floating-point element type; convert "
                "integers first: tf::exp2(tf::cast<float>(t))");
  return detail::map_floating(t, [](auto a) { return std::exp2(a); });
}

/// A std::uint8_t tensor shaped like `t`: 1 where the element of `t` lies
/// inside the tensor it views (a bounded tile's elements beyond the
/// tensor's extents are 0), 0 elsewhere -- the mask of a row's last,
/// partial column tile.
template <class V>
[[clang::annotate("tf.op.in_bounds")]] auto in_bounds(const V &t) {
  using A = detail::view_t<V>;
  const A &x = detail::view_of(t);
  auto out = detail::result_like<std::uint8_t>(x);
  const auto &o = out.view();
  detail::for_each_coord(detail::extents_of(x), [&](const auto &c) {
    o.at(c) = std::uint8_t(x.at(c).in_bounds() ? 1 : 0);
  });
  return out;
}

namespace detail {
/// The element type of tf::where's result: that of its tensor value.
template <class A, class B>
using where_element_t = typename std::conditional_t<scalar_operand<A>, view_t<B>,
                                                    view_t<A>>::element_type;

/// Operand `v` of tf::where at coordinate `c` in the compute type of `T`.
template <class T, class V, class Coord>
compute_type<T> where_value(const V &v, const Coord &c) {
  if constexpr (scalar_operand<V>)
    return compute_type<T>(v);
  else
    return widen(view_of(v).at(c).get());
}
} // namespace detail

/// Element by element, `mask ? a : b`: `mask` is a tensor of any element
/// type (nonzero is true, e.g. tf::in_bounds(tile)); `a` and `b` are tensors
/// of one element type shaped like `mask`, or one of them a floating-point
/// scalar (`tf::where(tf::in_bounds(tile), x, -INFINITY)`).
template <class M, class A, class B>
  requires detail::binary_operands<A, B>
[[clang::annotate("tf.op.where")]] auto where(const M &mask, const A &a,
                                              const B &b) {
  using Mask = detail::view_t<M>;
  static_assert(detail::checked_element_types<A, B>(),
                "tf::where: the values' element types differ; convert one "
                "with tf::cast<T>(...)");
  static_assert(detail::same_ranks<A, B>() && detail::same_ranks<M, A>() &&
                    detail::same_ranks<M, B>(),
                "tf::where: the mask's and the values' ranks differ");
  static_assert(detail::extents_agree_v<detail::checked_extents_t<A>,
                                         detail::checked_extents_t<B>> &&
                    detail::extents_agree_v<detail::checked_extents_t<M>,
                                            detail::checked_extents_t<A>> &&
                    detail::extents_agree_v<detail::checked_extents_t<M>,
                                            detail::checked_extents_t<B>>,
                "tf::where: the mask's and the values' extents differ");
  static_assert(detail::scalar_meets_floating<A, B>(),
                "tf::where: a scalar value needs a floating-point tensor");
  using T = detail::where_element_t<A, B>;
  const Mask &m = detail::view_of(mask);
  if constexpr (!detail::scalar_operand<A>)
    detail::check_extents("tf::where: the extents of mode {} differ ({} vs {})",
                          m, detail::view_of(a));
  if constexpr (!detail::scalar_operand<B>)
    detail::check_extents("tf::where: the extents of mode {} differ ({} vs {})",
                          m, detail::view_of(b));
  auto out = [&] {
    if constexpr (detail::scalar_operand<A>)
      return detail::result_like<T>(detail::view_of(b));
    else
      return detail::result_like<T>(detail::view_of(a));
  }();
  const auto &o = out.view();
  detail::for_each_coord(detail::extents_of(m), [&](const auto &c) {
    bool pick = widen(m.at(c).get()) != 0;
    o.at(c) = convert<T>(pick ? detail::where_value<T>(a, c)
                              : detail::where_value<T>(b, c));
  });
  return out;
}

} // namespace tf
