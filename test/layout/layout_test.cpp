//===- test/layout/layout_test.cpp - Shapes, strides, evaluation ----------===//
#include "tf/layout/layout.hpp"

#include <gtest/gtest.h>

namespace {

using tf::IntTuple;
using tf::Layout;

TEST(IntTuple, RankDepthLeaves) {
  IntTuple t{2, {3, 4}, {{5}}};
  EXPECT_EQ(t.rank(), 3);
  EXPECT_EQ(t.depth(), 3);
  EXPECT_EQ(t.leaf_count(), 4);
  EXPECT_EQ(t.mode(1), (IntTuple{3, 4}));
  EXPECT_EQ(tf::flatten(t), (IntTuple{2, 3, 4, 5}));
  EXPECT_EQ(IntTuple(7).rank(), 1);
  EXPECT_EQ(IntTuple(7).depth(), 0);
  EXPECT_EQ(*tf::product(t), 120);
}

TEST(IntTuple, CapacityOverflowIsReported) {
  IntTuple t;
  for (std::size_t i = 0; i < tf::max_int_tuple_nodes; ++i)
    t.push_back(2);
  EXPECT_TRUE(t.overflow());
}

TEST(IntTuple, SymbolicAndDynamicHaveNoProduct) {
  IntTuple t{tf::Int::symbolic("c"), 4};
  auto p = tf::product(t);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error().code, tf::Errc::symbolic);
  EXPECT_EQ(p.error().message(),
            "extent 'c' is symbolic; bind it to a value first");
  IntTuple d{tf::Int::dynamic(), 4};
  EXPECT_EQ(tf::product(d).error().code, tf::Errc::unknown);
  EXPECT_EQ(*tf::product(IntTuple{tf::Int::dynamic(3), 4}), 12);
}

TEST(Layout, DefaultStridesAreRowMajor) {
  Layout l = tf::make_layout(IntTuple{3, {4, 5}});
  EXPECT_EQ(l.stride, (IntTuple{20, {5, 1}}));
  for (int i = 0; i < 60; ++i)
    EXPECT_EQ(*tf::evaluate(l, i), i);
}

TEST(Layout, SeedSmemTileIsRowMajor128x64) {
  Layout a = *tf::make_layout(IntTuple{{2, 8, 8}, {4, 16}},
                              IntTuple{{4096, 512, 64}, {16, 1}});
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < 64; ++k)
      ASSERT_EQ(*tf::evaluate(a, IntTuple{m, k}), 64 * m + k);
  EXPECT_EQ(*tf::size(a), 8192);
  EXPECT_EQ(*tf::cosize(a), 8192);
}

TEST(Layout, WgmmaExecutionMeshIsThreadIdsInOrder) {
  Layout mesh = *tf::make_layout(IntTuple{4, 8, 4}, IntTuple{32, 4, 1});
  for (int t = 0; t < 128; ++t)
    EXPECT_EQ(*tf::evaluate(mesh, t), t);
}

TEST(Layout, Idx2CrdIsLexicographic) {
  EXPECT_EQ(*tf::idx2crd(7, IntTuple{2, 4}), (IntTuple{1, 3}));
  EXPECT_EQ(*tf::idx2crd(11, IntTuple{2, {2, 3}}), (IntTuple{1, {1, 2}}));
  // The first mode takes what remains, as CuTe's last mode does.
  EXPECT_EQ(*tf::idx2crd(9, IntTuple{2, 4}), (IntTuple{2, 1}));
}

TEST(Layout, MismatchedStructureIsAnError) {
  auto l = tf::make_layout(IntTuple{2, 3}, IntTuple{1});
  ASSERT_FALSE(l.ok());
  EXPECT_EQ(l.error().code, tf::Errc::mismatch);
  Layout ok = tf::make_layout(IntTuple{2, 3});
  EXPECT_EQ(tf::evaluate(ok, IntTuple{1, 2, 3}).error().code, tf::Errc::mismatch);
}

TEST(Layout, PhiKeepsTheFunctionOfTheLinearIndex) {
  // CuTe (2,3):(1,2) read colexicographically is (3,2):(2,1) read
  // lexicographically: both are the identity on 0..5.
  Layout cute = *tf::make_layout(IntTuple{{2, 2}, 3}, IntTuple{{1, 12}, 4});
  Layout ours = tf::phi(cute);
  EXPECT_EQ(ours.shape, (IntTuple{3, {2, 2}}));
  EXPECT_EQ(ours.stride, (IntTuple{4, {12, 1}}));
  for (int i = 0; i < 12; ++i) {
    // Colexicographic evaluation of the CuTe layout, by hand.
    int c0 = i % 2, c1 = (i / 2) % 2, c2 = i / 4;
    EXPECT_EQ(*tf::evaluate(ours, i), c0 * 1 + c1 * 12 + c2 * 4);
  }
}

} // namespace
