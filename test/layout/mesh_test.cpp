//===- test/layout/mesh_test.cpp - Meshes, predicates, matching -----------===//
//
// The H200 GEMM's meshes end to end (threads, loader, compute), slicing
// and reshaping rules and their errors, the WGMMA execution mesh predicates,
// and unification of meshes with contract patterns.
//
//===----------------------------------------------------------------------===//
#include "tf/layout/mesh.hpp"
#include "tf/layout/mesh_literal.hpp"
#include "tf/layout/mesh_match.hpp"
#include "tf/layout/mesh_predicate.hpp"
#include "tf/layout/mesh_text.hpp"

#include "seed_meshes.hpp"

#include <gtest/gtest.h>

namespace {

using tf::Int;
using tf::IntTuple;
using tf::Layout;
using tf::Mesh;

using tf_test::compute;
using tf_test::cta;
using tf_test::L;
using tf_test::loader;
using tf_test::threads;

// The same mesh with its shape written as text, as examples/gemm/optimal.cpp
// writes it.
constexpr Mesh compute_text = threads.sub(tf::range(1, 3), tf::_)
                                  .reshape<"(2,4,8,4)">("group", "warp",
                                                        "lane8", "lane4");

// The WGMMA execution mesh, in call style:
// Mesh(('thread',), ComposedLayout(None, p0, Layout(((*g, 4, 8, 4),), ((*gs, 32, 4, 1),))))
constexpr Mesh wgmma_mesh{
    "thread",
    L(IntTuple{IntTuple{Int::symbolic("g", true), 4, 8, 4}},
      IntTuple{IntTuple{Int::symbolic("gs", true), 32, 4, 1}}),
    Int::symbolic("p0"),
    {}};
constexpr tf::MeshPattern wgmma{wgmma_mesh,
                                {tf::no_backward_step(), tf::each_slot_once(),
                                 tf::offset_multiple_of(128, "p0")}};

// The surface syntax evaluates at compile time.
static_assert(threads.layout == L(IntTuple{3, 128}, IntTuple{128, 1}));
static_assert(loader.layout == L(IntTuple{32}, IntTuple{1}));
static_assert(loader.offset.value == 0);
static_assert(compute.layout ==
              L(IntTuple{2, 4, 8, 4}, IntTuple{128, 32, 4, 1}));
static_assert(compute.offset.value == 128);
static_assert(compute_text == compute);
static_assert(threads.reshape<"(3,(8,16))">().layout ==
              L(IntTuple{3, IntTuple{8, 16}}, IntTuple{128, IntTuple{16, 1}}));
static_assert(*compute.unit(IntTuple{1, 3, 7, 3}) == 128 + 128 + 96 + 28 + 3);
static_assert(tf::match(wgmma, compute).ok);
static_assert(*tf::match(wgmma, compute).bindings.value("p0") == 128);
static_assert(!tf::match(wgmma, cta).ok);
// Predicates see the pattern's grouping: compute's own mode 0, (2):(128), is
// not a contiguous block, the instance's single mode is.
static_assert(!tf::check(tf::each_slot_once(), compute).holds);
static_assert(
    tf::check(tf::each_slot_once(), tf::match(wgmma, compute).instance).holds);

TEST(MeshSeed, ThreadMesh) {
  EXPECT_EQ(*threads.size(), 384);
  EXPECT_EQ(threads.rank(), 2);
  EXPECT_EQ(threads.axes.size(), 2u);
  EXPECT_EQ(threads.axes[0].view(), "warpgroup");
  EXPECT_EQ(threads.axis_index("participant"), 1);
  EXPECT_EQ(threads.axis_index("lane"), -1);
  EXPECT_EQ(*threads.unit(IntTuple{1, 5}), 133);
  EXPECT_EQ(*threads.unit(200), 200);
  EXPECT_EQ(threads.unit(384).error().message(),
            "mesh index 384 is outside a mesh of 384 units");
  EXPECT_EQ(tf::to_string(threads),
            "Mesh(thread, (3,128):(128,1), warpgroup, participant)");
  EXPECT_EQ(tf::to_string(cta), "Mesh(cta, (132):(1), persistent)");
}

TEST(MeshSeed, LoaderIsFirstWarp) {
  // threads[0, :32]: the index drops the warpgroup mode and its name.
  EXPECT_EQ(tf::to_string(loader), "Mesh(thread, (32):(1), participant)");
  EXPECT_EQ(*loader.size(), 32);
  EXPECT_TRUE(loader.contains(31));
  EXPECT_FALSE(loader.contains(32));
}

TEST(MeshSeed, ComputeIsTwoConsumers) {
  Mesh consumers = *threads.try_sub(tf::range(1, 3), tf::_);
  EXPECT_EQ(tf::to_string(consumers),
            "Mesh(thread, (2,128):(128,1) + 128, warpgroup, participant)");
  EXPECT_EQ(tf::to_string(compute),
            "Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, lane8, "
            "lane4)");
  EXPECT_EQ(*compute.size(), 256);
  for (std::int64_t u = 0; u < 384; ++u)
    EXPECT_EQ(compute.contains(u), u >= 128) << u;
  // Linear mesh index i is thread 128 + i: the matrix's offset + 128.
  for (std::int64_t i = 0; i < 256; ++i)
    EXPECT_EQ(*compute.unit(i), 128 + i);
}

TEST(MeshSeed, FitsTopology) {
  EXPECT_TRUE(*tf::fits(compute, tf::topology("thread", 384)));
  EXPECT_EQ(tf::fits(threads, tf::topology("thread", 256)).error().message(),
            "mesh index 256 is unit 256, outside the topology's 256 units");
  EXPECT_EQ(tf::fits(cta, tf::topology("thread", 384)).error().message(),
            "the mesh is on level 'cta', not on the topology's");
  EXPECT_EQ(tf::make_topology("cta", 0).error().message(),
            "topology 'cta' needs a positive extent");
}

TEST(MeshConstruct, NameCountAndDuplicates) {
  EXPECT_EQ(tf::make_mesh("thread", IntTuple{3, 128}, "warpgroup")
                .error()
                .message(),
            "a mesh of rank 2 needs 2 axis names or none; 1 given");
  EXPECT_EQ(tf::make_mesh("thread", IntTuple{3, 128}, "a", "a")
                .error()
                .message(),
            "mesh axis name 'a' is repeated");
  EXPECT_EQ(tf::make_mesh("", IntTuple{3}).error().message(),
            "a mesh needs a topology level");
  Mesh unnamed = *tf::make_mesh("thread", IntTuple{3, 128});
  EXPECT_TRUE(unnamed.axes.empty());
  EXPECT_EQ(tf::to_string(*unnamed.try_sub(1, tf::_)),
            "Mesh(thread, (128):(1) + 128)");
}

TEST(MeshSlice, Errors) {
  EXPECT_EQ(threads.try_sub(3).error().message(),
            "selector [3, 4) is outside mode 0 of the mesh");
  EXPECT_EQ(threads.try_sub(tf::range(2, 4)).error().message(),
            "selector [2, 4) is outside mode 0 of the mesh");
  EXPECT_EQ(threads.try_sub(tf::_, tf::range(5, 5)).error().message(),
            "selector [5, 5) is outside mode 1 of the mesh");
  EXPECT_EQ(threads.try_sub(0, 0, 0).error().message(),
            "sub takes at most one selector per mode; 3 given for a mesh of "
            "rank 2");
  Mesh pattern = wgmma_mesh;
  EXPECT_EQ(pattern.try_sub(0).error().code, tf::Errc::symbolic);
}

TEST(MeshSlice, AllIndicesGiveOneUnit) {
  Mesh one = threads.sub(2, 7);
  EXPECT_EQ(one.rank(), 0);
  EXPECT_EQ(*one.size(), 1);
  EXPECT_EQ(*one.unit(0), 263);
}

TEST(MeshSlice, NestedModesCutAsBoxes) {
  // (2,(4,8)):(32,(8,1)): a range over the nested mode must be whole blocks
  // of its first sub-mode, or lie inside one block.
  Mesh m = tf::mesh("thread", L(IntTuple{2, IntTuple{4, 8}},
                                IntTuple{32, IntTuple{8, 1}}),
                    "row", "col");
  Mesh blocks = *m.try_sub(tf::_, tf::range(8, 24));
  EXPECT_EQ(tf::to_string(blocks),
            "Mesh(thread, (2,(2,8)):(32,(8,1)) + 8, row, col)");
  Mesh inside = *m.try_sub(1, tf::range(18, 22));
  EXPECT_EQ(tf::to_string(inside), "Mesh(thread, ((4)):((1)) + 50, col)");
  EXPECT_EQ(*inside.unit(3), 53);
  EXPECT_EQ(m.try_sub(tf::_, tf::range(6, 10)).error().message(),
            "range [6, 10) of a nested mode is not a box of its shape; cut "
            "whole blocks of 8 or inside one block");
  Mesh index = *m.try_sub(tf::_, 13);
  EXPECT_EQ(tf::to_string(index), "Mesh(thread, (2):(32) + 13, row)");
}

TEST(MeshReshape, ComposesWithCompactShape) {
  Mesh consumers = threads.sub(tf::range(1, 3), tf::_);
  // Reading (2,128):(128,1) as (16,16) keeps thread order.
  EXPECT_EQ(tf::to_string(*consumers.try_reshape(IntTuple{16, 16})),
            "Mesh(thread, (16,16):(16,1) + 128)");
  // A strided mesh: (4,8):(1,4) read as (32) is a nested mode.
  Mesh transposed = tf::mesh("thread", L(IntTuple{4, 8}, IntTuple{1, 4}));
  EXPECT_EQ(tf::to_string(*transposed.try_reshape(IntTuple{32})),
            "Mesh(thread, ((4,8)):((1,4)))");
  EXPECT_EQ(tf::to_string(*transposed.try_reshape(IntTuple{2, 2, 8})),
            "Mesh(thread, (2,2,8):(2,1,4))");
  // Nested shapes on either side: a nested new shape keeps its nesting, and
  // a nested old mode is read through its coalesced leaves.
  EXPECT_EQ(tf::to_string(*transposed.try_reshape(IntTuple{2, IntTuple{2, 8}})),
            "Mesh(thread, (2,(2,8)):(2,(1,4)))");
  Mesh nested = tf::mesh("thread", L(IntTuple{2, IntTuple{4, 8}},
                                     IntTuple{64, IntTuple{8, 1}}));
  EXPECT_EQ(tf::to_string(*nested.try_reshape(IntTuple{8, 8})),
            "Mesh(thread, ((2,4),8):((64,8),1))");
  // Extent-1 modes take stride 0.
  EXPECT_EQ(tf::to_string(*loader.try_reshape(IntTuple{1, 32}, "one", "lane")),
            "Mesh(thread, (1,32):(0,1), one, lane)");
}

TEST(MeshReshape, Errors) {
  EXPECT_EQ(threads.try_reshape(IntTuple{2, 128}).error().message(),
            "cannot reshape 384 units into a shape of size 256");
  Mesh odd = tf::mesh("thread", L(IntTuple{2, 3}, IntTuple{10, 1}));
  EXPECT_EQ(odd.try_reshape(IntTuple{3, 2}).error().message(),
            "composition stride divisibility fails: stride 2 of B and extent "
            "3 of a mode of A divide neither way");
  EXPECT_EQ(threads.try_reshape(IntTuple{384}, "a", "b").error().message(),
            "a mesh of rank 1 needs 1 axis names or none; 2 given");
}

// ---- predicates ----------------------------------------------------------

Mesh one_mode(IntTuple shape, IntTuple stride, std::int64_t offset) {
  return Mesh{"thread", L(IntTuple{shape}, IntTuple{stride}), Int(offset), {}};
}

TEST(MeshPredicate, PrintsAsTheSeed) {
  EXPECT_EQ(tf::to_string(tf::no_backward_step()),
            "each top-level mode has no backward step");
  EXPECT_EQ(tf::to_string(tf::each_slot_once()),
            "each top-level mode reaches each of its own slots exactly once");
  EXPECT_EQ(tf::to_string(tf::offset_multiple_of(128, "p0")), "p0 % 128 == 0");
}

TEST(MeshPredicate, WarpgroupHolds) {
  Mesh warpgroup = one_mode(IntTuple{4, 8, 4}, IntTuple{32, 4, 1}, 256);
  for (const tf::MeshPredicate &p : wgmma.predicates)
    EXPECT_TRUE(tf::check(p, warpgroup).holds) << tf::to_string(p);
}

TEST(MeshPredicate, BackwardStep) {
  Mesh m = one_mode(IntTuple{4, 8, 4}, IntTuple{1, 4, 32}, 128);
  tf::Verdict v = tf::check(tf::no_backward_step(), m);
  EXPECT_FALSE(v.holds);
  EXPECT_EQ(v.reason.message(),
            "top-level mode 0 steps back from unit 224 to unit 132");
  // Still a bijection onto 128 consecutive threads.
  EXPECT_TRUE(tf::check(tf::each_slot_once(), m).holds);
  // The thread mesh's modes step forward, but mode 0 ({0,128,256}) is not
  // a contiguous block.
  EXPECT_TRUE(tf::check(tf::no_backward_step(), threads).holds);
  EXPECT_EQ(tf::check(tf::each_slot_once(), threads).reason.message(),
            "top-level mode 0 reaches unit 128, outside its 3 slots");
}

TEST(MeshPredicate, SlotsReachedOnce) {
  Mesh gap = one_mode(IntTuple{4, 8, 4}, IntTuple{64, 4, 1}, 0);
  EXPECT_EQ(tf::check(tf::each_slot_once(), gap).reason.message(),
            "top-level mode 0 reaches unit 128, outside its 128 slots");
  Mesh twice = one_mode(IntTuple{2, 4}, IntTuple{1, 1}, 0);
  EXPECT_EQ(tf::check(tf::each_slot_once(), twice).reason.message(),
            "top-level mode 0 reaches unit 1 twice");
}

TEST(MeshPredicate, OffsetAlignment) {
  Mesh second = one_mode(IntTuple{4, 8, 4}, IntTuple{32, 4, 1}, 256);
  EXPECT_TRUE(tf::check(tf::offset_multiple_of(128), second).holds);
  Mesh skewed = one_mode(IntTuple{4, 8, 4}, IntTuple{32, 4, 1}, 64);
  EXPECT_EQ(tf::check(tf::offset_multiple_of(128), skewed).reason.message(),
            "p0 = 64 is not a multiple of 128");
  EXPECT_EQ(tf::check(tf::offset_multiple_of(128), wgmma_mesh).reason.message(),
            "p0 has no value; bind it first");
}

// ---- matching --------------------------------------------------------------

TEST(MeshMatch, ComputeMatchesWgmma) {
  tf::MeshMatch m = tf::match(wgmma, compute);
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(*m.bindings.value("p0"), 128);
  EXPECT_EQ(*m.bindings.leaves("g"), IntTuple{2});
  EXPECT_EQ(*m.bindings.leaves("gs"), IntTuple{128});
  EXPECT_EQ(tf::to_string(m.instance),
            "Mesh(thread, ((2,4,8,4)):((128,32,4,1)) + 128)");
  EXPECT_EQ(tf::to_string(wgmma_mesh),
            "Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + p0)");
}

TEST(MeshMatch, OneWarpgroupBindsEmptyVariadic) {
  Mesh group = *compute.try_sub(1);
  EXPECT_EQ(tf::to_string(group),
            "Mesh(thread, (4,8,4):(32,4,1) + 256, warp, lane8, lane4)");
  tf::MeshMatch m = tf::match(wgmma, group);
  ASSERT_TRUE(m.ok);
  EXPECT_EQ(*m.bindings.leaves("g"), IntTuple{});
  EXPECT_EQ(*m.bindings.value("p0"), 256);
  EXPECT_EQ(tf::to_string(m.instance),
            "Mesh(thread, ((4,8,4)):((32,4,1)) + 256)");
}

TEST(MeshMatch, CtaMeshIsRefusedByLevel) {
  tf::MeshMatch m = tf::match(wgmma, cta);
  ASSERT_FALSE(m.ok);
  EXPECT_EQ(m.failure.item, tf::MatchItem::level);
  EXPECT_EQ(tf::describe(m, wgmma, cta),
            "Mesh(cta, (132):(1), persistent) does not match Mesh(thread, "
            "((*g,4,8,4)):((*gs,32,4,1)) + p0): level cta is not thread");
}

TEST(MeshMatch, LoaderIsRefusedByShape) {
  tf::MeshMatch m = tf::match(wgmma, loader);
  ASSERT_FALSE(m.ok);
  EXPECT_EQ(m.failure.item, tf::MatchItem::leaf_count);
  EXPECT_EQ(tf::describe(m, wgmma, loader),
            "Mesh(thread, (32):(1), participant) does not match Mesh(thread, "
            "((*g,4,8,4)):((*gs,32,4,1)) + p0): shape (32) has 1 leaves where "
            "((*g,4,8,4)) needs at least 3");
}

TEST(MeshMatch, ExtentAndStrideMismatch) {
  Mesh wide = tf::mesh("thread", L(IntTuple{2, 4, 16, 2},
                                   IntTuple{128, 32, 2, 1}));
  tf::MeshMatch m = tf::match(wgmma, wide);
  EXPECT_EQ(m.failure.item, tf::MatchItem::extent);
  EXPECT_EQ(tf::reason(m.failure, wgmma_mesh.layout, wide.layout,
                       wgmma_mesh.offset),
            "leaf 2 of (2,4,16,2) has extent 16 where ((*g,4,8,4)) has 8");
  Mesh swapped = tf::mesh("thread", L(IntTuple{4, 8, 4}, IntTuple{32, 1, 8}));
  m = tf::match(wgmma, swapped);
  EXPECT_EQ(m.failure.item, tf::MatchItem::stride);
  EXPECT_EQ(tf::reason(m.failure, wgmma_mesh.layout, swapped.layout,
                       wgmma_mesh.offset),
            "leaf 1 of (32,1,8) has stride 1 where ((*gs,32,4,1)) has 4");
}

TEST(MeshMatch, PredicateFailsAfterBinding) {
  Mesh skewed = compute;
  skewed.offset = Int(64);
  // The structure unifies; the bound offset breaks the alignment.
  EXPECT_TRUE(tf::match(wgmma_mesh, skewed).ok);
  tf::MeshMatch m = tf::match(wgmma, skewed);
  ASSERT_FALSE(m.ok);
  EXPECT_EQ(m.failure.item, tf::MatchItem::predicate);
  EXPECT_EQ(m.failure.leaf, 2);
  EXPECT_EQ(tf::describe(m, wgmma, skewed),
            "Mesh(thread, (2,4,8,4):(128,32,4,1) + 64, group, warp, lane8, "
            "lane4) does not match Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + "
            "p0): p0 % 128 == 0 fails: p0 = 64 is not a multiple of 128");
}

TEST(MeshMatch, SymbolsBindConsistently) {
  Mesh square{"thread",
              L(IntTuple{Int::symbolic("n"), Int::symbolic("n")},
                IntTuple{Int::symbolic("n"), 1}),
              Int(0),
              {}};
  tf::MeshMatch ok = tf::match(square, tf::mesh("thread", IntTuple{4, 4}));
  ASSERT_TRUE(ok.ok);
  EXPECT_EQ(*ok.bindings.value("n"), 4);
  Mesh wide = tf::mesh("thread", IntTuple{4, 8});
  tf::MeshMatch bad = tf::match(square, wide);
  EXPECT_EQ(bad.failure.item, tf::MatchItem::symbol);
  EXPECT_EQ(tf::reason(bad.failure, square.layout, wide.layout, square.offset),
            "n is bound to 4 but leaf 0 is 8");
  // A constant offset must be equal.
  Mesh shifted = tf::mesh("thread", IntTuple{4, 4});
  shifted.offset = Int(16);
  tf::MeshMatch moved = tf::match(square, shifted);
  EXPECT_EQ(tf::reason(moved.failure, square.layout, shifted.layout,
                       square.offset),
            "offset 16 is not 0");
}

TEST(MeshMatch, ExactRankWithoutVariadic) {
  Mesh fixed = one_mode(IntTuple{4, 8, 4}, IntTuple{32, 4, 1}, 0);
  tf::MeshMatch m = tf::match(fixed, compute);
  EXPECT_EQ(m.failure.item, tf::MatchItem::leaf_count);
  EXPECT_EQ(tf::reason(m.failure, fixed.layout, compute.layout, fixed.offset),
            "shape (2,4,8,4) has 4 leaves where ((4,8,4)) needs 3");
}

TEST(MeshMatch, MalformedPattern) {
  Mesh broken{"thread",
              L(IntTuple{Int::symbolic("g", true), 4},
                IntTuple{Int::symbolic("gs"), 1}),
              Int(0),
              {}};
  tf::MeshMatch m = tf::match(broken, tf::mesh("thread", IntTuple{2, 4}));
  EXPECT_EQ(m.failure.item, tf::MatchItem::pattern);
  EXPECT_EQ(tf::reason(m.failure, broken.layout, broken.layout, broken.offset),
            "malformed pattern: pattern leaf 0 must be variadic in shape and "
            "stride together, and at most one leaf may be variadic");
}

TEST(MeshMatch, InstantiateNeedsEverySymbol) {
  tf::Bindings b;
  b.values.push_back({"p0", 128});
  EXPECT_EQ(tf::instantiate(wgmma_mesh, b).error().message(),
            "variadic '*g' is not bound");
}

} // namespace
