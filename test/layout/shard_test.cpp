//===- test/layout/shard_test.cpp - ShardLayouts and reshard --------------===//
//
// The H200 GEMM's accumulator L_C over the compute mesh: validation, holders of
// every element checked against the PTX ISA wgmma D-fragment layout, the
// in-group part matched against the WGMMA contract's C ShardLayout, coverage,
// replication, and reshard classification.
//
//===----------------------------------------------------------------------===//
#include "tf/layout/mesh_text.hpp"
#include "tf/layout/reshard.hpp"
#include "tf/layout/shard_layout.hpp"
#include "tf/layout/shard_match.hpp"

#include "seed_meshes.hpp"

#include <gtest/gtest.h>

namespace {

using tf::AxisRef;
using tf::Int;
using tf::IntTuple;
using tf::Layout;
using tf::Mesh;
using tf::ShardLayout;

using tf_test::compute;
using tf_test::L;

// L_C = (2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,128,64)
constexpr Layout acc_layout = L(IntTuple{2, 4, 2, 8, 32, 4, 2},
                                IntTuple{16384, 16, 8, 1, 512, 128, 64});
constexpr ShardLayout acc =
    tf::make_shard(acc_layout,
                   {tf::axis("group"), tf::axis("warp"), tf::local,
                    tf::axis("lane8"), tf::local, tf::axis("lane4"), tf::local},
                   compute)
        .value();

// The WGMMA contract's C operand:
// ShardLayout(Layout((4, 2, 8, c, 4, 2), (16, 8, 1, 512, 128, 64)),
//             (S(0), S(2), S(4)), Mesh(('thread',), ... ((4, 8, 4),), ((32, 4, 1),) + p0))
constexpr Mesh warpgroup_pattern{"thread",
                                 L(IntTuple{IntTuple{4, 8, 4}},
                                   IntTuple{IntTuple{32, 4, 1}}),
                                 Int::symbolic("p0"),
                                 {}};
constexpr ShardLayout contract_c =
    tf::make_shard_modes(L(IntTuple{4, 2, 8, Int::symbolic("c"), 4, 2},
                           IntTuple{16, 8, 1, 512, 128, 64}),
                         {0, 2, 4}, warpgroup_pattern)
        .value();

static_assert(tf::check_shard(acc).ok());
static_assert(*tf::local_size(acc) == 128);
static_assert(tf::check_shard(contract_c).ok());

ShardLayout shard(Layout l, tf::FixedVector<AxisRef, tf::max_shard_leaves> a,
                  Mesh m) {
  return *tf::make_shard(l, a, m);
}

TEST(ShardSeed, Accumulator) {
  EXPECT_EQ(tf::local_shape(acc), (IntTuple{2, 32, 2}));
  EXPECT_EQ(tf::to_string(acc),
            "(2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,128,64) "
            "over Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, "
            "lane8, lane4)");
  tf::Result<tf::Coverage> c = tf::check_coverage(acc);
  ASSERT_TRUE(c.ok()) << c.error().message();
  EXPECT_EQ(c->held, 32768);
  EXPECT_EQ(c->cosize, 32768);
}

// PTX ISA, wgmma D fragment (m64nNk16, f32 accumulator): thread
// t = 32*warp + 4*lane8 + lane4 of a warpgroup holds rows
// 16*warp + lane8 + 8*h and columns 8*j + 2*lane4 + e; in L_C the element
// (m, n) of group g's 64x256 tile is offset m + 64*n + 16384*g, and the
// local index runs over (h, j, e).
TEST(ShardSeed, HoldersFollowThePtxFragment) {
  for (std::int64_t g = 0; g < 2; ++g)
    for (std::int64_t m = 0; m < 64; ++m)
      for (std::int64_t n = 0; n < 256; ++n) {
        std::int64_t warp = m / 16, h = (m % 16) / 8, lane8 = m % 8;
        std::int64_t j = n / 8, lane4 = (n % 8) / 2, e = n % 2;
        tf::Result<tf::HolderList> hs =
            tf::holders(acc, m + 64 * n + 16384 * g);
        ASSERT_TRUE(hs.ok()) << hs.error().message();
        ASSERT_EQ(hs->size(), 1u) << m << "," << n;
        EXPECT_EQ((*hs)[0].unit,
                  128 + 128 * g + 32 * warp + 4 * lane8 + lane4)
            << m << "," << n;
        EXPECT_EQ((*hs)[0].local, 64 * h + 2 * j + e) << m << "," << n;
      }
  EXPECT_TRUE(tf::holders(acc, 32768)->empty());
}

TEST(ShardSeed, InGroupPartIsTheContractsC) {
  tf::Result<tf::ShardSlice> part = tf::slice_axis(acc, "group", 0);
  ASSERT_TRUE(part.ok()) << part.error().message();
  EXPECT_EQ(part->element_base, 0);
  EXPECT_EQ(tf::to_string(part->shard),
            "(4@warp,2,8@lane8,32,4@lane4,2):(16,8,1,512,128,64) over "
            "Mesh(thread, (4,8,4):(32,4,1) + 128, warp, lane8, lane4)");
  EXPECT_EQ(tf::to_string(contract_c),
            "(4@0,2,8@1,c,4@2,2):(16,8,1,512,128,64) over Mesh(thread, "
            "((4,8,4)):((32,4,1)) + p0)");
  tf::ShardMatch m = tf::match(contract_c, part->shard);
  ASSERT_TRUE(m.ok) << tf::describe(m, contract_c, part->shard);
  EXPECT_EQ(*m.bindings.value("c"), 32);
  EXPECT_EQ(*m.bindings.value("p0"), 128);

  tf::Result<tf::ShardSlice> second = tf::slice_axis(acc, "group", 1);
  EXPECT_EQ(second->element_base, 16384);
  EXPECT_EQ(second->shard.mesh.offset.value, 256);
  tf::ShardMatch m1 = tf::match(contract_c, second->shard);
  ASSERT_TRUE(m1.ok);
  EXPECT_EQ(*m1.bindings.value("p0"), 256);
}

TEST(ShardSeed, ContractRefusals) {
  // The whole accumulator has one leaf too many for one WGMMA.
  tf::ShardMatch whole = tf::match(contract_c, acc);
  EXPECT_EQ(whole.failure.item, tf::MatchItem::leaf_count);
  EXPECT_EQ(tf::describe(whole, contract_c, acc).substr(
                tf::describe(whole, contract_c, acc).find(": ")),
            ": shape (2,4,2,8,32,4,2) has 7 leaves where (4,2,8,c,4,2) needs 6");
  // Rows and column pairs bound to swapped lanes: valid, but not WGMMA's.
  Mesh group0 = compute.sub(0);
  ShardLayout swapped =
      shard(L(IntTuple{4, 2, 8, 32, 4, 2}, IntTuple{16, 8, 1, 512, 128, 64}),
            {tf::axis("lane4"), tf::local, tf::axis("lane8"), tf::local,
             tf::axis("warp"), tf::local},
            group0);
  tf::ShardMatch m = tf::match(contract_c, swapped);
  EXPECT_EQ(m.failure.item, tf::MatchItem::axis);
  EXPECT_EQ(tf::reason(m.failure, contract_c.layout, swapped.layout,
                       contract_c.mesh.offset),
            "leaf 0 is bound to mesh leaf 2 where the pattern has it bound "
            "to mesh leaf 0");
  // A mesh on the wrong level is refused by the mesh match.
  ShardLayout on_cta = swapped;
  on_cta.mesh.level = "cta";
  tf::ShardMatch cta = tf::match(contract_c, on_cta);
  EXPECT_TRUE(cta.in_mesh);
  EXPECT_EQ(tf::reason(cta.failure, contract_c.mesh.layout,
                       on_cta.mesh.layout, contract_c.mesh.offset),
            "level cta is not thread");
}

TEST(ShardValidate, Errors) {
  auto error = [](Layout l, tf::FixedVector<AxisRef, tf::max_shard_leaves> a,
                  Mesh m) { return tf::make_shard(l, a, m).error().message(); };
  Layout two = L(IntTuple{4, 8}, IntTuple{8, 1});
  Mesh m = compute.sub(0);
  EXPECT_EQ(error(two, {tf::axis("lane"), tf::local}, m),
            "the mesh has no axis named 'lane'");
  EXPECT_EQ(error(two, {tf::axis(5), tf::local}, m),
            "the mesh has no leaf 5; it has 3 leaves");
  EXPECT_EQ(error(two, {tf::axis("warp"), tf::axis(0)}, m),
            "leaves 0 and 1 bind the same mesh leaf 0");
  EXPECT_EQ(error(two, {tf::axis("lane8"), tf::local}, m),
            "leaf 0 has extent 4 but its mesh axis has 8");
  EXPECT_EQ(error(two, {tf::axis("warp")}, m),
            "the layout has 2 leaves but 1 axis bindings");
  EXPECT_EQ(tf::make_shard_modes(two, {2}, m).error().message(),
            "S(2) names no leaf of a layout with 2 leaves");
  EXPECT_EQ(tf::slice_axis(*tf::make_shard(two, {tf::axis("warp"), tf::local},
                                           m),
                           "lane8", 0)
                .error()
                .message(),
            "no leaf is bound to mesh axis 'lane8'");
}

TEST(ShardCoverage, DuplicatesAndHoles) {
  Mesh one = tf::mesh("thread", IntTuple{1});
  ShardLayout twice = shard(L(IntTuple{1, 4, 4}, IntTuple{0, 1, 1}),
                            {tf::axis(0), tf::local, tf::local}, one);
  EXPECT_EQ(tf::check_coverage(twice).error().message(),
            "element 1 is reached by two coordinates of the layout");
  ShardLayout gaps =
      shard(L(IntTuple{1, 4}, IntTuple{0, 2}), {tf::axis(0), tf::local}, one);
  EXPECT_EQ(tf::check_coverage(gaps).error().message(),
            "element 1 is held by no unit");
  tf::Coverage c = *tf::check_coverage(gaps, true);
  EXPECT_EQ(c.held, 4);
  EXPECT_EQ(c.cosize, 7);
}

TEST(ShardReplication, UnboundAxesReplicate) {
  // (4@col,2):(1,4) over a (2,4) mesh: the row axis is unbound, so both rows
  // hold every element at the same local index.
  Mesh grid = tf::mesh("thread", IntTuple{2, 4}, "row", "col");
  ShardLayout rep = shard(L(IntTuple{4, 2}, IntTuple{1, 4}),
                          {tf::axis("col"), tf::local}, grid);
  tf::HolderList hs = *tf::holders(rep, 5);
  ASSERT_EQ(hs.size(), 2u);
  EXPECT_EQ(hs[0], (tf::Holder{1, 1}));
  EXPECT_EQ(hs[1], (tf::Holder{5, 1}));
  EXPECT_TRUE(tf::check_coverage(rep).ok());
  // One leaf bound to a nested mesh mode splits lexicographically.
  Mesh nested = tf::mesh("thread", L(IntTuple{IntTuple{2, 4}},
                                     IntTuple{IntTuple{1, 2}}),
                         "all");
  ShardLayout split =
      shard(L(IntTuple{8}, IntTuple{1}), {tf::axis("all")}, nested);
  EXPECT_EQ((*tf::holders(split, 5))[0], (tf::Holder{1 + 2 * 1, 0}));
}

// ---- reshard ---------------------------------------------------------------

TEST(Reshard, Identical) {
  tf::ReshardPlan p = *tf::reshard(acc, acc);
  EXPECT_EQ(p.kind, tf::ReshardKind::identical);
  EXPECT_EQ(p.elements, 32768);
  EXPECT_EQ(p.moved, 0);
  EXPECT_EQ(p.level.view(), "thread");
  // Bound by index instead of by name: the same distribution.
  ShardLayout by_index = acc;
  by_index.axes[1] = tf::axis(1);
  EXPECT_EQ(tf::reshard(acc, by_index)->kind, tf::ReshardKind::identical);
}

TEST(Reshard, LocalPermutation) {
  // The same elements on the same threads, with j before h locally.
  ShardLayout reordered =
      shard(L(IntTuple{2, 4, 32, 8, 2, 4, 2},
              IntTuple{16384, 16, 512, 1, 8, 128, 64}),
            {tf::axis("group"), tf::axis("warp"), tf::local, tf::axis("lane8"),
             tf::local, tf::axis("lane4"), tf::local},
            compute);
  tf::ReshardPlan p = *tf::reshard(acc, reordered);
  EXPECT_EQ(p.kind, tf::ReshardKind::local_permutation);
  EXPECT_EQ(p.moved, 0);
  // 64h + 2j + e == 4j + 2h + e only for (h, j) = (0, 0) and (1, 31).
  EXPECT_EQ(p.relocated, 32768 - 256 * 4);
}

TEST(Reshard, ExchangeBetweenThreads) {
  // Row blocks on lane4 and column pairs on warp: a unit keeps an element
  // only where warp == lane4.
  ShardLayout swapped =
      shard(acc_layout,
            {tf::axis("group"), tf::axis("lane4"), tf::local,
             tf::axis("lane8"), tf::local, tf::axis("warp"), tf::local},
            compute);
  tf::ReshardPlan p = *tf::reshard(acc, swapped);
  EXPECT_EQ(p.kind, tf::ReshardKind::exchange);
  EXPECT_EQ(p.moved, 32768 / 4 * 3);
}

TEST(Reshard, DroppingReplicasStaysLocal) {
  Mesh grid = tf::mesh("thread", IntTuple{2, 4}, "row", "col");
  ShardLayout rep = shard(L(IntTuple{4, 2}, IntTuple{1, 4}),
                          {tf::axis("col"), tf::local}, grid);
  ShardLayout first_row = shard(L(IntTuple{4, 2}, IntTuple{1, 4}),
                                {tf::axis("col"), tf::local}, grid.sub(0));
  tf::ReshardPlan down = *tf::reshard(rep, first_row);
  EXPECT_EQ(down.kind, tf::ReshardKind::local_permutation);
  EXPECT_EQ(down.relocated, 8);
  // Filling the second row again needs an exchange.
  EXPECT_EQ(tf::reshard(first_row, rep)->kind, tf::ReshardKind::exchange);
}

TEST(Reshard, Errors) {
  ShardLayout half = tf::slice_axis(acc, "group", 0)->shard;
  EXPECT_EQ(tf::reshard(acc, half).error().message(),
            "element 16384 is held by the source but not by the target");
  EXPECT_EQ(tf::reshard(half, acc).error().message(),
            "element 16384 is held by the target but not by the source");
  ShardLayout on_cta = acc;
  on_cta.mesh.level = "cta";
  EXPECT_EQ(tf::reshard(acc, on_cta).error().message(),
            "cannot reshard across topology levels: the source is on level "
            "'thread' and the target is not");
  ShardLayout symbolic = contract_c;
  EXPECT_EQ(tf::reshard(symbolic, symbolic).error().code, tf::Errc::symbolic);
}

} // namespace
