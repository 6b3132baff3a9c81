//===- test/layout/algebra_checks.hpp - Properties of the layout algebra --===//
//
// The postconditions each algebra operation promises, checked point by point
// over the domain; shared by the ported CuTe cases (algebra_test.cpp) and the
// randomized ones (random_test.cpp). Each returns an AssertionResult naming
// the operands and the first failing point.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/algebra.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <ostream>
#include <set>
#include <string>

namespace tf_test {

using tf::IntTuple;
using tf::Layout;

inline std::string str(const IntTuple &t) {
  if (t.is_leaf())
    return std::to_string(t.leaf().value);
  std::string s = "(";
  for (int i = 0; i < t.rank(); ++i)
    s += (i ? "," : "") + str(t.mode(i));
  return s + ")";
}
inline std::string str(const Layout &l) {
  return str(l.shape) + ":" + str(l.stride);
}

/// A layout written in tf order.
inline Layout L(const IntTuple &shape, const IntTuple &stride) {
  return *tf::make_layout(shape, stride);
}
/// A layout written as CuTe writes it, converted through φ.
inline Layout C(const IntTuple &shape, const IntTuple &stride) {
  return tf::phi(L(shape, stride));
}

inline std::int64_t sz(const Layout &l) { return *tf::size(l); }
inline std::int64_t at(const Layout &l, std::int64_t i) {
  return *tf::evaluate(l, i);
}

/// Whether every coordinate of `b` is one of `r`: r refines b's leaves.
inline bool compatible(const IntTuple &b, const IntTuple &r) {
  if (b.is_leaf())
    return *tf::product(r) == b.leaf().value;
  if (r.is_leaf() || r.rank() != b.rank())
    return false;
  for (int i = 0; i < b.rank(); ++i)
    if (!compatible(b.mode(i), r.mode(i)))
      return false;
  return true;
}

inline ::testing::AssertionResult coalesce_ok(const Layout &a) {
  auto r = tf::coalesce(a);
  if (!r)
    return ::testing::AssertionFailure()
           << "coalesce " << str(a) << ": " << r.error().message();
  if (sz(*r) != sz(a) || r->depth() > 1)
    return ::testing::AssertionFailure()
           << "coalesce " << str(a) << " -> " << str(*r) << ": size/depth";
  for (std::int64_t i = 0; i < sz(a); ++i)
    if (at(*r, i) != at(a, i))
      return ::testing::AssertionFailure()
             << "coalesce " << str(a) << " -> " << str(*r) << " differs at "
             << i;
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult composition_ok(const Layout &a,
                                                 const Layout &b) {
  auto r = tf::composition(a, b);
  if (!r)
    return ::testing::AssertionFailure() << str(a) << " o " << str(b) << ": "
                                         << r.error().message();
  if (!compatible(b.shape, r->shape))
    return ::testing::AssertionFailure() << str(a) << " o " << str(b)
                                         << " -> " << str(*r)
                                         << ": shape not compatible with B";
  for (std::int64_t i = 0; i < sz(b); ++i)
    if (at(*r, i) != at(a, at(b, i)))
      return ::testing::AssertionFailure()
             << str(a) << " o " << str(b) << " -> " << str(*r)
             << ": R(" << i << ") = " << at(*r, i) << " but A(B(" << i
             << ")) = " << at(a, at(b, i));
  return ::testing::AssertionSuccess();
}

/// CuTe's complement postconditions (test/unit/cute/core/complement.cpp).
/// `cute_bound`: also CuTe's cosize(C) <= round_up(M, cosize(A)), which
/// holds for its test inputs but not for every M (complement(3:3, 28) is
/// (4,3):(9,1), cosize 30, in CuTe as in tf).
inline ::testing::AssertionResult complement_ok(const Layout &a,
                                                std::int64_t m,
                                                bool cute_bound = false) {
  auto r = tf::complement(a, m);
  if (!r)
    return ::testing::AssertionFailure() << "complement(" << str(a) << ", "
                                         << m << "): " << r.error().message();
  const Layout &c = *r;
  auto fail = [&](const char *what) {
    return ::testing::AssertionFailure() << "complement(" << str(a) << ", "
                                         << m << ") -> " << str(c) << ": "
                                         << what;
  };
  Layout both = tf::concat_layouts(a, c);
  std::int64_t cos_a = *tf::cosize(a), cos_c = *tf::cosize(c);
  std::int64_t cos_both = *tf::cosize(both);
  if (cos_both < m)
    return fail("cosize((A,C)) < M");
  if (cute_bound && cos_c > (m + cos_a - 1) / cos_a * cos_a)
    return fail("cosize(C) > round_up(M, cosize(A))");
  std::set<std::int64_t> image;
  for (std::int64_t j = 0; j < sz(a); ++j)
    image.insert(at(a, j));
  for (std::int64_t i = 1; i < sz(c); ++i) {
    if (!(at(c, i - 1) < at(c, i)))
      return fail("not ordered");
    if (image.count(at(c, i)))
      return fail("not disjoint from A");
  }
  std::int64_t filtered = sz(*tf::filter(a));
  if (sz(c) > cos_c || sz(c) < m / filtered || cos_c < m / filtered)
    return fail("size bounds");
  if (cos_both > cos_c + cos_a)
    return fail("cosize((A,C)) > cosize(C) + cosize(A)");
  auto again = tf::complement(both);
  if (!again || sz(*again) != 1)
    return fail("(A,C) leaves codomain over");
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult right_inverse_ok(const Layout &a) {
  auto r = tf::right_inverse(a);
  if (!r)
    return ::testing::AssertionFailure() << "right_inverse " << str(a) << ": "
                                         << r.error().message();
  for (std::int64_t i = 0; i < sz(*r); ++i)
    if (at(a, at(*r, i)) != i)
      return ::testing::AssertionFailure()
             << "right_inverse " << str(a) << " -> " << str(*r)
             << ": A(R(" << i << ")) = " << at(a, at(*r, i));
  return ::testing::AssertionSuccess();
}

inline bool injective(const Layout &a) {
  std::set<std::int64_t> seen;
  for (std::int64_t i = 0; i < sz(a); ++i)
    if (!seen.insert(at(a, i)).second)
      return false;
  return true;
}

/// L(A(i)) == i for injective A; A(L(A(i))) == A(i) always.
inline ::testing::AssertionResult left_inverse_ok(const Layout &a) {
  auto r = tf::left_inverse(a);
  if (!r)
    return ::testing::AssertionFailure() << "left_inverse " << str(a) << ": "
                                         << r.error().message();
  bool inj = injective(a);
  // Overlapping modes have no quasi-inverse to check.
  if (!inj && !injective(*tf::filter(a)))
    return ::testing::AssertionSuccess();
  for (std::int64_t i = 0; i < sz(a); ++i) {
    std::int64_t back = at(*r, at(a, i));
    if ((inj && back != i) || at(a, back) != at(a, i))
      return ::testing::AssertionFailure()
             << "left_inverse " << str(a) << " -> " << str(*r) << ": L(A("
             << i << ")) = " << back;
  }
  return ::testing::AssertionSuccess();
}

/// logical_divide(A, B) is (tile, rest) and, as a function of the linear
/// index, A ∘ (B, complement(B, size A)).
inline ::testing::AssertionResult logical_divide_ok(const Layout &a,
                                                    const Layout &b) {
  auto r = tf::logical_divide(a, b);
  if (!r)
    return ::testing::AssertionFailure() << str(a) << " / " << str(b) << ": "
                                         << r.error().message();
  auto fail = [&](const char *what) {
    return ::testing::AssertionFailure() << str(a) << " / " << str(b)
                                         << " -> " << str(*r) << ": " << what;
  };
  if (r->rank() != 2 || !compatible(b.shape, r->mode(0).shape))
    return fail("not (tile, rest) with the tile shaped like B");
  Layout t = tf::concat_layouts(b, *tf::complement(b, sz(a)));
  if (!compatible(t.shape, r->shape))
    return fail("not shaped like (B, B*)");
  for (std::int64_t i = 0; i < sz(*r); ++i)
    if (at(*r, i) != at(a, at(t, i)))
      return fail("R(i) != A((B,B*)(i))");
  return ::testing::AssertionSuccess();
}

/// logical_product(A, B) is (A, A* ∘ B): mode 0 is A, mode 1 is shaped like
/// B and equals complement(A, size A * cosize B) ∘ B; when A and B are
/// injective so is the product.
inline ::testing::AssertionResult logical_product_ok(const Layout &a,
                                                     const Layout &b) {
  auto r = tf::logical_product(a, b);
  if (!r)
    return ::testing::AssertionFailure() << str(a) << " x " << str(b) << ": "
                                         << r.error().message();
  auto fail = [&](const char *what) {
    return ::testing::AssertionFailure() << str(a) << " x " << str(b)
                                         << " -> " << str(*r) << ": " << what;
  };
  if (r->rank() != 2 || !(r->mode(0) == a) ||
      !compatible(b.shape, r->mode(1).shape))
    return fail("not (A, R) with R shaped like B");
  Layout star = *tf::complement(a, sz(a) * *tf::cosize(b));
  Layout rep = r->mode(1);
  for (std::int64_t j = 0; j < sz(b); ++j)
    if (at(rep, j) != at(star, at(b, j)))
      return fail("R(j) != A*(B(j))");
  if (injective(a) && injective(b) && !injective(*r))
    return fail("not injective");
  return ::testing::AssertionSuccess();
}

} // namespace tf_test

namespace tf {
/// GoogleTest prints layouts in tf notation.
inline void PrintTo(const Layout &l, std::ostream *os) { *os << tf_test::str(l); }
} // namespace tf
