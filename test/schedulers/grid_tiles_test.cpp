//===- test/schedulers/grid_tiles_test.cpp - tf::grid_tiles ---------------===//
#include "tf/launch.hpp"
#include "tf/layout/text.hpp"
#include "tf/scheduler/grid_tiles.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace {

constexpr tf::Mesh cta_dyn = tf::mesh("cta", tf::layout<"(?)">, "tile");
constexpr tf::Mesh cta12 = tf::mesh("cta", tf::layout<"(12)">, "tile");

TEST(GridTiles, OneTileRowMajor) {
  for (std::int64_t p = 0; p < 12; ++p) {
    const tf::GridTiles g(p, 3, 4);
    EXPECT_EQ(g.tile(), (tf::Tile{p / 4, p % 4, 0, p}));
    int count = 0;
    for (auto [m, n] : g) {
      EXPECT_EQ(m, p / 4);
      EXPECT_EQ(n, p % 4);
      ++count;
    }
    EXPECT_EQ(count, 1);
  }
}

TEST(GridTiles, ColumnMajorAndGrouped) {
  for (std::int64_t p = 0; p < 12; ++p) {
    EXPECT_EQ(tf::GridTiles(p, 3, 4, {.column_major = true}).tile(),
              (tf::Tile{p % 3, p / 3, 0, p}));
    const tf::TileCoord c = tf::grouped_tile(p, 3, 4, 2);
    EXPECT_EQ(tf::GridTiles(p, 3, 4, {.group_m = 2}).tile(),
              (tf::Tile{c.m, c.n, 0, p}));
  }
  EXPECT_EQ(tf::make_grid_tiles(12, 3, 4).error().message(),
            "tile id 12 is outside a grid of 3 x 4 tiles");
}

void grid_kernel(std::atomic<int> *owner, std::int64_t GN, tf::Mesh mesh,
                 tf::GridTilesOptions o) {
  int count = 0;
  for (tf::Tile t : tf::grid_tiles(mesh, 12 / GN, GN, o)) {
    auto [m, n] = t;
    owner[m * GN + n] = static_cast<int>(tf::unit_index());
    if (t.iteration != 0 || t.index != tf::unit_index())
      owner[m * GN + n] = -100;
    ++count;
  }
  if (count != 1)
    owner[0] = -200;
}

TEST(GridTilesLaunch, EachCtaGetsItsTile) {
  for (const tf::Mesh &mesh : {cta_dyn, cta12})
    for (bool cm : {false, true}) {
      std::vector<std::atomic<int>> owner(12);
      for (auto &o : owner)
        o = -1;
      tf::launch(grid_kernel, tf::grid(12), owner.data(), std::int64_t{4}, mesh,
                 tf::GridTilesOptions{.column_major = cm});
      for (std::int64_t m = 0; m < 3; ++m)
        for (std::int64_t n = 0; n < 4; ++n)
          EXPECT_EQ(owner[static_cast<std::size_t>(m * 4 + n)].load(),
                    cm ? n * 3 + m : m * 4 + n);
    }
}

using GridTilesDeathTest = ::testing::Test;

TEST_F(GridTilesDeathTest, GridMustBeOneCtaPerTile) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(tf::launch([] { (void)tf::grid_tiles(cta_dyn, 3, 5); },
                          tf::grid(12)),
               "tf: error: tf::grid_tiles: tf::launch runs 12 CTAs but the "
               "grid of tiles has GM x GN = 3 x 5 = 15 tiles; one CTA per "
               "tile needs tf::grid\\(15\\)");
}

TEST_F(GridTilesDeathTest, MeshMustMatchTheGrid) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(tf::launch([] { (void)tf::grid_tiles(cta12, 2, 3); },
                          tf::grid(6)),
               "tf::grid_tiles: the CTA mesh has 12 units but tf::launch runs "
               "6 CTAs");
}

TEST_F(GridTilesDeathTest, OutsideALaunch) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH((void)tf::grid_tiles(cta12, 3, 4),
               "tf::grid_tiles\\(\"cta\"\\) was called outside tf::launch");
}

} // namespace
