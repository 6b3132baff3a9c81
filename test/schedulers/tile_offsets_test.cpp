//===- test/schedulers/tile_offsets_test.cpp - tf::tile_offsets -----------===//
#include "tf/scheduler/tile_offsets.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

namespace {

template <class R> std::vector<std::int64_t> collect(const R &range) {
  std::vector<std::int64_t> out;
  for (auto k : range)
    out.push_back(k);
  return out;
}

TEST(TileOffsets, ExactMultiple) {
  EXPECT_EQ(collect(tf::tile_offsets(256, 64)),
            (std::vector<std::int64_t>{0, 64, 128, 192}));
}

TEST(TileOffsets, PartialLastTile) {
  EXPECT_EQ(collect(tf::tile_offsets(130, 64)),
            (std::vector<std::int64_t>{0, 64, 128}));
  EXPECT_EQ(collect(tf::tile_offsets(1, 64)), (std::vector<std::int64_t>{0}));
  EXPECT_EQ(tf::tile_offsets(130, 64).size(), 3);
}

TEST(TileOffsets, EmptyExtent) {
  EXPECT_TRUE(tf::tile_offsets(0, 64).empty());
  EXPECT_EQ(collect(tf::tile_offsets(0, 64)), std::vector<std::int64_t>{});
}

TEST(TileOffsets, StaticStep) {
  constexpr int BK = 64;
  std::int64_t K = 200; // a run-time extent
  EXPECT_EQ(collect(tf::tile_offsets<BK>(K)),
            (std::vector<std::int64_t>{0, 64, 128, 192}));
  static_assert(tf::tile_offsets<BK>(200).size() == 4);
  static_assert(std::is_same_v<decltype(tf::tile_offsets<BK>(K))::value_type,
                               std::int64_t>);
}

TEST(TileOffsets, ValueTypeFollowsTheArguments) {
  static_assert(std::is_same_v<decltype(tf::tile_offsets(10, 2))::value_type, int>);
  static_assert(std::is_same_v<
                decltype(tf::tile_offsets(std::int64_t{10}, 2))::value_type,
                std::int64_t>);
  // The loop variable as the GEMM examples write it: a range-for over ints.
  int sum = 0;
  for (int k : tf::tile_offsets(std::int64_t{100}, 32))
    sum += k;
  EXPECT_EQ(sum, 0 + 32 + 64 + 96);
}

TEST(TileOffsets, Exhaustive) {
  for (std::int64_t extent = 0; extent <= 40; ++extent)
    for (std::int64_t step = 1; step <= 12; ++step) {
      std::vector<std::int64_t> want;
      for (std::int64_t k = 0; k < extent; k += step)
        want.push_back(k);
      const auto range = tf::tile_offsets(extent, step);
      EXPECT_EQ(collect(range), want) << extent << " by " << step;
      EXPECT_EQ(range.size(), static_cast<std::int64_t>(want.size()));
      for (std::int64_t i = 0; i < range.size(); ++i)
        EXPECT_EQ(range[i], want[static_cast<std::size_t>(i)]);
    }
}

TEST(TileOffsets, ErrorsAreValues) {
  EXPECT_EQ(tf::make_tile_offsets(10, 0).error().message(),
            "tf::tile_offsets(extent, step) needs a positive step; 0 given");
  EXPECT_EQ(tf::make_tile_offsets(10, -4).error().message(),
            "tf::tile_offsets(extent, step) needs a positive step; -4 given");
  EXPECT_EQ(tf::make_tile_offsets(-1, 4).error().message(),
            "tf::tile_offsets(extent, step) needs an extent >= 0; -1 given");
  EXPECT_EQ(tf::make_tile_offsets(10u, 0u).error().message(),
            "tf::tile_offsets(extent, step) needs a positive step; 0 given");
}

TEST(TileOffsetsDeathTest, BadStepStops) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  int step = 0;
  EXPECT_DEATH(tf::tile_offsets(128, step),
               "tf: error: tf::tile_offsets\\(extent, step\\) needs a positive "
               "step; 0 given");
}

} // namespace
