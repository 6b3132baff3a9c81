//===- test/schedulers/persistent_tiles_test.cpp - tf::persistent_tiles ---===//
//
// Exhaustive coverage for small grids (every tile exactly once, in range,
// against an independent enumeration of the L2-grouped order), the grouping
// property, the clock, clusters with tail rows, the worked example of
// docs/language/schedulers.md, and the launch-time checks.
//
//===----------------------------------------------------------------------===//
#include "tf/launch.hpp"
#include "tf/layout/text.hpp"
#include "tf/scheduler/persistent_tiles.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <utility>
#include <vector>

namespace {

using Coord = std::pair<std::int64_t, std::int64_t>;

std::vector<tf::Tile> tiles_of(std::int64_t p, std::int64_t P, std::int64_t GM,
                               std::int64_t GN, tf::PersistentTilesOptions o) {
  std::vector<tf::Tile> out;
  const tf::PersistentTiles schedule =
      tf::make_persistent_tiles(p, P, GM, GN, o).value();
  for (tf::Tile t : schedule)
    out.push_back(t);
  return out;
}

/// The L2-grouped order written as loops, independently of the formula:
/// groups of `group` rows (the last one shorter), inside a group column by
/// column, down the rows of the group; column-major transposes the grid.
std::vector<Coord> reference_order(std::int64_t GM, std::int64_t GN,
                                   std::int64_t group, bool column_major) {
  const std::int64_t slow = column_major ? GN : GM;
  const std::int64_t fast = column_major ? GM : GN;
  std::vector<Coord> order;
  for (std::int64_t first = 0; first < slow; first += group)
    for (std::int64_t b = 0; b < fast; ++b)
      for (std::int64_t a = first; a < first + group && a < slow; ++a)
        order.push_back(column_major ? Coord{b, a} : Coord{a, b});
  return order;
}

TEST(GroupedTile, MatchesTheReferenceOrder) {
  for (std::int64_t GM = 1; GM <= 12; ++GM)
    for (std::int64_t GN = 1; GN <= 12; ++GN)
      for (std::int64_t group : {1, 2, 3, 5, 8, 12, 20})
        for (bool cm : {false, true}) {
          const std::vector<Coord> want = reference_order(GM, GN, group, cm);
          for (std::int64_t id = 0; id < GM * GN; ++id) {
            const tf::TileCoord c = tf::grouped_tile(id, GM, GN, group, cm);
            ASSERT_EQ(Coord(c.m, c.n), want[static_cast<std::size_t>(id)])
                << "id " << id << " of " << GM << "x" << GN << " group "
                << group << (cm ? " column-major" : "");
          }
        }
}

TEST(GroupedTile, GroupOfOneIsRowOrColumnMajor) {
  for (std::int64_t id = 0; id < 35; ++id) {
    EXPECT_EQ(tf::grouped_tile(id, 5, 7, 1), (tf::TileCoord{id / 7, id % 7}));
    EXPECT_EQ(tf::grouped_tile(id, 5, 7, 1, true),
              (tf::TileCoord{id % 5, id / 5}));
  }
}

TEST(GroupedTile, ErrorsAreValues) {
  EXPECT_EQ(tf::make_grouped_tile(30, 6, 5, 2).error().message(),
            "tile id 30 is outside a grid of 6 x 5 tiles");
  EXPECT_EQ(tf::make_grouped_tile(0, 6, 5, 0).error().message(),
            "group_m must be >= 1; 0 given");
  EXPECT_EQ(tf::make_grouped_tile(0, 0, 5, 1).error().message(),
            "a grid of tiles needs GM, GN >= 1; 0 x 5 given");
}

// Every tile exactly once over all CTAs, all in range, each CTA's clock
// 0, 1, 2, ..., indices increasing and consistent with (m, n).
TEST(PersistentTiles, ExhaustiveCoverage) {
  int configurations = 0;
  for (std::int64_t GM = 1; GM <= 12; ++GM)
    for (std::int64_t GN = 1; GN <= 12; ++GN)
      for (std::int64_t P = 1; P <= 16; ++P)
        for (std::int64_t group : {1, 2, 3, 8})
          for (bool cm : {false, true})
            for (std::int64_t c : {1, 2}) {
              if (P % c != 0)
                continue;
              ++configurations;
              const tf::PersistentTilesOptions o{group, cm, c};
              const std::int64_t GMc = (GM + c - 1) / c;
              const std::vector<Coord> order =
                  reference_order(GMc, GN, group, cm);
              std::vector<int> seen(static_cast<std::size_t>(GM * GN), 0);
              for (std::int64_t p = 0; p < P; ++p) {
                std::int64_t clock = 0, last_index = -1;
                for (const tf::Tile &t : tiles_of(p, P, GM, GN, o)) {
                  ASSERT_TRUE(t.m >= 0 && t.m < GM && t.n >= 0 && t.n < GN)
                      << GM << "x" << GN << " P " << P << " CTA " << p
                      << " got (" << t.m << "," << t.n << ")";
                  ++seen[static_cast<std::size_t>(t.m * GN + t.n)];
                  ASSERT_EQ(t.iteration, clock++);
                  ASSERT_GT(t.index, last_index);
                  last_index = t.index;
                  // index = s*c + r: s is a super-tile id of this CTA's
                  // cluster, r its rank, and s maps to (m / c, n).
                  const std::int64_t s = t.index / c;
                  ASSERT_EQ(t.index % c, p % c);
                  ASSERT_EQ(s % (P / c), p / c);
                  ASSERT_EQ(order[static_cast<std::size_t>(s)],
                            Coord(t.m / c, t.n));
                  ASSERT_EQ(t.m % c, p % c);
                }
              }
              for (std::int64_t i = 0; i < GM * GN; ++i)
                ASSERT_EQ(seen[static_cast<std::size_t>(i)], 1)
                    << "tile (" << i / GN << "," << i % GN << ") of " << GM
                    << "x" << GN << " P " << P << " group " << group
                    << (cm ? " column-major" : "") << " cluster " << c;
            }
  EXPECT_EQ(configurations, 12 * 12 * (16 + 8) * 4 * 2);
}

// Without clusters, CTA p takes exactly the ids p, p+P, ... of the order.
TEST(PersistentTiles, CtaTakesEveryPthId) {
  for (std::int64_t P : {1, 3, 4, 7, 16})
    for (bool cm : {false, true}) {
      const std::vector<Coord> order = reference_order(9, 7, 3, cm);
      for (std::int64_t p = 0; p < P; ++p) {
        std::vector<Coord> want, got;
        for (std::int64_t id = p; id < 63; id += P)
          want.push_back(order[static_cast<std::size_t>(id)]);
        for (const tf::Tile &t : tiles_of(p, P, 9, 7, {3, cm, 1}))
          got.push_back({t.m, t.n});
        EXPECT_EQ(got, want) << "CTA " << p << " of " << P;
      }
    }
}

// Within one wave, consecutive CTAs whose ids fall in the same group stay in
// that group's band of group_m rows and in the same or the next column; a
// wave spans at most ceil(P / (group_m*GN)) + 1 groups.
TEST(PersistentTiles, WavesStayWithinGroups) {
  for (std::int64_t GM : {5, 8, 12})
    for (std::int64_t GN : {3, 7, 12})
      for (std::int64_t P : {4, 6, 16})
        for (std::int64_t group : {2, 3, 8}) {
          std::vector<std::vector<tf::Tile>> per_cta;
          for (std::int64_t p = 0; p < P; ++p)
            per_cta.push_back(tiles_of(p, P, GM, GN, {group, false, 1}));
          for (std::size_t w = 0; w < per_cta[0].size(); ++w) {
            std::vector<std::int64_t> bands;
            for (std::int64_t p = 0; p < P; ++p) {
              const auto &mine = per_cta[static_cast<std::size_t>(p)];
              if (w >= mine.size())
                break;
              const tf::Tile &t = mine[w];
              ASSERT_EQ(t.iteration, static_cast<std::int64_t>(w));
              ASSERT_EQ(t.index, static_cast<std::int64_t>(w) * P + p);
              if (bands.empty() || bands.back() != t.m / group)
                bands.push_back(t.m / group);
              if (p == 0)
                continue;
              const tf::Tile &prev = per_cta[static_cast<std::size_t>(p - 1)][w];
              if (prev.index / (group * GN) != t.index / (group * GN))
                continue; // crossed into the next group
              EXPECT_EQ(prev.m / group, t.m / group);
              EXPECT_LT(std::abs(prev.m - t.m), group);
              EXPECT_TRUE(t.n == prev.n || t.n == prev.n + 1);
            }
            EXPECT_LE(static_cast<std::int64_t>(bands.size()),
                      (P + group * GN - 1) / (group * GN) + 1);
          }
        }
}

// docs/language/schedulers.md, "Worked example": GM = 6, GN = 5, P = 4,
// group_m = 2.
TEST(PersistentTiles, WorkedExample) {
  const std::vector<std::vector<Coord>> want = {
      {{0, 0}, {0, 2}, {0, 4}, {2, 1}, {2, 3}, {4, 0}, {4, 2}, {4, 4}},
      {{1, 0}, {1, 2}, {1, 4}, {3, 1}, {3, 3}, {5, 0}, {5, 2}, {5, 4}},
      {{0, 1}, {0, 3}, {2, 0}, {2, 2}, {2, 4}, {4, 1}, {4, 3}},
      {{1, 1}, {1, 3}, {3, 0}, {3, 2}, {3, 4}, {5, 1}, {5, 3}},
  };
  for (std::int64_t p = 0; p < 4; ++p) {
    std::vector<Coord> got;
    for (auto [m, n] : tf::PersistentTiles(p, 4, 6, 5, {.group_m = 2}))
      got.push_back({m, n});
    EXPECT_EQ(got, want[static_cast<std::size_t>(p)]) << "CTA " << p;
  }
}

// The roles of a CTA (producer, MMA, epilogue) each walk their own schedule
// and see the same tiles at the same clock.
TEST(PersistentTiles, RolesShareOneClock) {
  const tf::PersistentTilesOptions o{.group_m = 3, .column_major = true};
  for (std::int64_t p = 0; p < 5; ++p) {
    const std::vector<tf::Tile> producer = tiles_of(p, 5, 7, 9, o);
    const std::vector<tf::Tile> consumer = tiles_of(p, 5, 7, 9, o);
    EXPECT_EQ(producer, consumer);
    for (std::size_t i = 0; i < producer.size(); ++i)
      EXPECT_EQ(producer[i].iteration, static_cast<std::int64_t>(i));
  }
  // Stepping one iterator and reading the clock, as a pipeline does.
  auto it = tf::PersistentTiles(1, 4, 6, 5, {.group_m = 2}).begin();
  EXPECT_EQ((*it).iteration, 0);
  ++it;
  EXPECT_EQ((*it).iteration, 1);
  EXPECT_EQ((*it).m, 1);
  EXPECT_EQ((*it).n, 2);
}

// cluster = 2 with GM = 5: the last row of super-tiles has one tile row, so
// rank-1 CTAs skip it; their clock counts only the tiles they get.
TEST(PersistentTiles, ClusterTailRowIsSkipped) {
  const tf::PersistentTilesOptions o{.group_m = 8, .cluster = 2};
  // P = 4: clusters {0,1} and {2,3}; 3 super-rows x 3 columns = 9 super-tiles.
  const std::vector<std::vector<Coord>> want = {
      {{0, 0}, {4, 0}, {2, 1}, {0, 2}, {4, 2}},
      {{1, 0}, {3, 1}, {1, 2}}, // skips (5, 0) and (5, 2)
      {{2, 0}, {0, 1}, {4, 1}, {2, 2}},
      {{3, 0}, {1, 1}, {3, 2}}, // skips (5, 1)
  };
  for (std::int64_t p = 0; p < 4; ++p) {
    std::vector<Coord> got;
    std::int64_t clock = 0;
    for (const tf::Tile &t : tiles_of(p, 4, 5, 3, o)) {
      got.push_back({t.m, t.n});
      EXPECT_EQ(t.iteration, clock++);
    }
    EXPECT_EQ(got, want[static_cast<std::size_t>(p)]) << "CTA " << p;
  }
  // Cluster peers work on the same super-tile: same index / c and n.
  const std::vector<tf::Tile> lead = tiles_of(0, 4, 6, 3, o);
  const std::vector<tf::Tile> peer = tiles_of(1, 4, 6, 3, o);
  ASSERT_EQ(lead.size(), peer.size());
  for (std::size_t i = 0; i < lead.size(); ++i) {
    EXPECT_EQ(lead[i].index / 2, peer[i].index / 2);
    EXPECT_EQ(lead[i].n, peer[i].n);
    EXPECT_EQ(lead[i].m + 1, peer[i].m);
  }
}

TEST(PersistentTiles, EmptyGrid) {
  EXPECT_TRUE(tiles_of(0, 4, 0, 5, {}).empty());
  EXPECT_TRUE(tiles_of(3, 4, 5, 0, {}).empty());
  // More CTAs than tiles: the extra CTAs get none.
  EXPECT_EQ(tiles_of(5, 8, 2, 3, {}).size(), 1u);
  EXPECT_TRUE(tiles_of(6, 8, 2, 3, {}).empty());
}

TEST(PersistentTiles, ErrorsAreValues) {
  EXPECT_EQ(tf::make_persistent_tiles(4, 4, 6, 5).error().message(),
            "persistent CTA 4 is outside a mesh of 4 CTAs");
  EXPECT_EQ(tf::make_persistent_tiles(0, 5, 6, 5, {.cluster = 2})
                .error()
                .message(),
            "5 persistent CTAs do not form clusters of 2; the number of CTAs "
            "must be a multiple of the cluster size");
  EXPECT_EQ(tf::make_persistent_tiles(0, 4, 6, 5, {.group_m = 0})
                .error()
                .message(),
            "group_m must be >= 1; 0 given");
  EXPECT_EQ(tf::make_persistent_tiles(0, 4, -1, 5).error().message(),
            "a grid of tiles needs GM, GN >= 0; -1 x 5 given");
}

// --- inside tf::launch ------------------------------------------------------

constexpr tf::Mesh cta16 = tf::mesh("cta", tf::layout<"(16)">, "persistent");
constexpr tf::Mesh cta_dyn = tf::mesh("cta", tf::layout<"(?)">, "persistent");
constexpr tf::Mesh threads = tf::mesh("thread", tf::layout<"(128)">);

void persistent_kernel(std::atomic<int> *seen, std::atomic<int> *bad,
                       std::int64_t GM, std::int64_t GN, tf::Mesh mesh,
                       tf::PersistentTilesOptions o) {
  std::int64_t clock = 0;
  for (tf::Tile t : tf::persistent_tiles(mesh, GM, GN, o)) {
    auto [m, n] = t;
    seen[m * GN + n].fetch_add(1);
    if (t.iteration != clock++)
      bad->fetch_add(1);
  }
}

TEST(PersistentTilesLaunch, EveryTileOnceOverTheGrid) {
  for (const tf::Mesh &mesh : {cta16, cta_dyn})
    for (std::int64_t c : {1, 2}) {
      const std::int64_t GM = 11, GN = 7;
      std::vector<std::atomic<int>> seen(GM * GN);
      std::atomic<int> bad{0};
      tf::launch(persistent_kernel, tf::grid(16), seen.data(), &bad, GM, GN,
                 mesh, tf::PersistentTilesOptions{.group_m = 3, .cluster = c});
      for (auto &s : seen)
        EXPECT_EQ(s.load(), 1);
      EXPECT_EQ(bad.load(), 0);
    }
}

TEST(PersistentTilesLaunch, MeshWithAnOffsetMapsUnitsToIndices) {
  // A 2-D mesh of 8 CTAs, (2,4):(1,2): CTA u is at mesh index (u%2)*4 + u/2.
  constexpr tf::Mesh mesh2d = tf::mesh("cta", tf::layout<"(2,4):(1,2)">);
  std::vector<std::atomic<int>> first(8);
  tf::launch(
      [&] {
        for (tf::Tile t : tf::persistent_tiles(mesh2d, 1, 8, {.group_m = 1})) {
          first[static_cast<std::size_t>(t.index)] =
              static_cast<int>(tf::unit_index());
          break;
        }
      },
      tf::grid(8));
  for (int i = 0; i < 8; ++i)
    EXPECT_EQ(first[static_cast<std::size_t>(i)].load(), (i % 4) * 2 + i / 4)
        << "tile id " << i;
}

using PersistentTilesDeathTest = ::testing::Test;

TEST_F(PersistentTilesDeathTest, MeshMustMatchTheGrid) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(tf::launch([] { (void)tf::persistent_tiles(cta16, 4, 4); },
                          tf::grid(8)),
               "tf: error: tf::persistent_tiles: the CTA mesh has 16 units but "
               "tf::launch runs 8 CTAs; launch tf::grid\\(16\\) or give the "
               "mesh 8 units");
}

TEST_F(PersistentTilesDeathTest, ClusterMustDivideTheCtas) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(tf::launch(
                   [] { (void)tf::persistent_tiles(cta_dyn, 4, 4, {.cluster = 3}); },
                   tf::grid(8)),
               "tf: error: tf::persistent_tiles: 8 persistent CTAs do not form "
               "clusters of 3");
}

TEST_F(PersistentTilesDeathTest, OutsideALaunch) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH((void)tf::persistent_tiles(cta16, 4, 4),
               "tf::persistent_tiles\\(\"cta\"\\) was called outside tf::launch");
}

TEST_F(PersistentTilesDeathTest, MeshOfAnotherLevel) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(tf::launch([] { (void)tf::persistent_tiles(threads, 4, 4); },
                          tf::grid(2)),
               "level 'thread' has no current unit");
}

} // namespace
