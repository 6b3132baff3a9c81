//===- test/layout/static_checks.cpp - The algebra in constant evaluation -===//
//
// Key cases of every algebra operation as static_asserts: this file passing
// compilation is the test (also run by clang 22 with -fsyntax-only
// -fno-exceptions -fno-rtti, ctest "layout-static-clang"). The gtest at the
// end only records that it compiled. Expected values are φ of CuTe's where
// CuTe has one (algebra_test.cpp explains each).
//
//===----------------------------------------------------------------------===//
#include "tf/layout/algebra.hpp"

#include <gtest/gtest.h>

namespace {

using tf::Errc;
using tf::Int;
using tf::IntTuple;
using tf::Layout;
using tf::Result;
using tf::Tiler;

constexpr Layout L(const IntTuple &shape, const IntTuple &stride) {
  return Layout{shape, stride};
}
constexpr bool is(const Result<Layout> &r, const Layout &want) {
  return r.ok() && *r == want;
}
constexpr bool fails(const Result<Layout> &r, Errc code) {
  return !r.ok() && r.error().code == code;
}

// The H200 GEMM's row-major 128x64 A tile and the WGMMA execution mesh.
constexpr Layout tile = L({{2, 8, 8}, {4, 16}}, {{4096, 512, 64}, {16, 1}});
constexpr Layout mesh = L({4, 8, 4}, {32, 4, 1});

// coalesce
static_assert(is(tf::coalesce(tile), L(8192, 1)));
static_assert(is(tf::coalesce(mesh), L(128, 1)));
static_assert(is(tf::coalesce(tile, IntTuple{1, 1}), L({128, 64}, {64, 1})));
static_assert(is(tf::coalesce(L({2, {1, 6}}, {1, {7, 2}})), L({2, 6}, {1, 2})));
static_assert(is(tf::coalesce(L({1, 1}, {3, 5})), L(1, 0)));
static_assert(is(tf::filter(L({4, {2, 3}}, {0, {3, 1}})), L(6, 1)));
static_assert(tf::coalesce(tile)->shape.leaf().is_constant());
static_assert(fails(tf::coalesce(L({Int::symbolic("n"), 4}, {4, 1})),
                    Errc::symbolic));

// composition: CuTe's guide example through φ, a by-mode tiler, refusals
static_assert(is(tf::composition(L({2, 6}, {2, 8}), L({3, 4}, {1, 3})),
                 L({3, {2, 2}}, {8, {2, 24}})));
static_assert(is(tf::composition(L({2, 10}, {4, 16}), L({4, 5}, {5, 1})),
                 L({{2, 2}, 5}, {{4, 80}, 16})));
static_assert(is(tf::composition(L({{8, 4}, 12}, {{1, 13}, 59}),
                                 Tiler{L(8, 2), L(3, 4)}),
                 L({{4, 2}, 3}, {{1, 26}, 236})));
// The mesh read through the tile: thread t owns offset t.
static_assert(is(tf::composition(tile, mesh), L({4, 8, 4}, {32, 4, 1})));
static_assert(fails(tf::composition(L({2, 4}, {10, 1}), L(3, 3)),
                    Errc::precondition));
static_assert(fails(tf::composition(L({2, 4}, {10, 1}), L({2, 3}, {2, 1})),
                    Errc::precondition));

// complement
static_assert(is(tf::complement(L(4, 2), 24), L({3, 2}, {8, 1})));
static_assert(is(tf::complement(L({2, 2}, {6, 1}), 24), L({2, 3}, {12, 2})));
static_assert(is(tf::complement(L(4, 1), 24), L(6, 4)));
static_assert(is(tf::complement(mesh, 512), L(4, 128)));
static_assert(fails(tf::complement(L({2, 2}, {3, 2})), Errc::precondition));

// inverses
static_assert(is(tf::right_inverse(L({4, 2}, {1, 4})), L({2, 4}, {1, 2})));
static_assert(is(tf::left_inverse(L({4, 2}, {1, 4})), L({2, 4}, {1, 2})));
static_assert(is(tf::left_inverse(L(4, 2)), L({4, 2}, {1, 0})));
static_assert(is(tf::right_inverse(L(4, 2)), L(1, 0)));
static_assert(is(tf::right_inverse(mesh), L(128, 1)));

// divide: (tile, rest), each mode φ of CuTe's
static_assert(is(tf::logical_divide(L({3, 2, 4}, {8, 1, 2}), L(4, 2)),
                 L({{2, 2}, {3, 2}}, {{1, 4}, {8, 2}})));
static_assert(is(tf::zipped_divide(L({128, 64}, {64, 1}),
                                   Tiler{L(64, 1), L(16, 1)}),
                 L({{64, 16}, {2, 4}}, {{64, 1}, {4096, 16}})));
static_assert(is(tf::tiled_divide(L(8, 1), L(2, 1)), L({2, 4}, {1, 2})));
static_assert(is(tf::flat_divide(L({8, 6}, {6, 1}), Tiler{L(2, 1), L(3, 1)}),
                 L({2, 3, 4, 2}, {6, 1, 12, 3})));

// product
static_assert(is(tf::logical_product(L({2, 2}, {1, 4}), L(6, 1)),
                 L({{2, 2}, {3, 2}}, {{1, 4}, {8, 2}})));
static_assert(is(tf::blocked_product(L({5, 2}, {1, 5}), L({4, 3}, {3, 1})),
                 L({{4, 5}, 6}, {{30, 1}, 5})));
static_assert(is(tf::raked_product(L({5, 2}, {1, 5}), L({4, 3}, {3, 1})),
                 L({{5, 4}, {2, 3}}, {{1, 30}, {5, 10}})));

} // namespace

// Everything above was checked by the compiler; reaching run time means it
// held.
TEST(StaticChecks, CompiledMeansPassed) { SUCCEED(); }
