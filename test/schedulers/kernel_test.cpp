//===- test/schedulers/kernel_test.cpp - Kernel attribute values ----------===//
//
// tf::target ids, tf::dyn topologies and tf::grid.
//
//===----------------------------------------------------------------------===//
#include "tf/kernel.hpp"
#include "tf/launch.hpp"

#include <gtest/gtest.h>

namespace {

TEST(Target, NamesDevicesAndArchitectures) {
  constexpr tf::Target h200 = tf::target("nvidia.h200_sxm");
  static_assert(h200.id == "nvidia.h200_sxm");
  EXPECT_EQ(tf::target("intel.amx").id.view(), "intel.amx");
  EXPECT_EQ(tf::target("nvidia.sm90"), tf::Target{"nvidia.sm90"});
  EXPECT_FALSE(tf::target("nvidia.sm90") == tf::target("nvidia.sm80"));
}

TEST(Target, MalformedIdsAreErrors) {
  EXPECT_EQ(tf::make_target("").error().message(),
            "a target id is empty; write one like \"nvidia.h200_sxm\"");
  EXPECT_EQ(tf::make_target("h200").error().message(),
            "target id 'h200' needs a vendor prefix, like \"nvidia.h200_sxm\" "
            "or \"intel.amx\"");
  EXPECT_EQ(tf::make_target("nvidia..h200").error().message(),
            "target id 'nvidia..h200' has an empty part between dots");
  EXPECT_EQ(tf::make_target("nvidia.").error().message(),
            "target id 'nvidia.' has an empty part between dots");
  EXPECT_EQ(tf::make_target("NVIDIA.H200").error().message(),
            "target id 'NVIDIA.H200' may hold only lower-case letters, digits, "
            "'_' and '.'");
  EXPECT_EQ(tf::make_target("nvidia.a_very_long_device_name").error().message(),
            "a target id has at most 23 characters; this one has 30");
}

TEST(Topology, DynExtentIsGivenAtLaunch) {
  constexpr tf::Topology grid = tf::topology("cta", tf::dyn);
  static_assert(grid.extent.is_dynamic() && !grid.extent.has_value());
  EXPECT_EQ(grid.level.view(), "cta");
  // Static extents keep working, through either overload.
  static_assert(tf::topology("cta", 132) == tf::topology("cta", tf::Int(132)));
  EXPECT_EQ(tf::make_topology("cta", tf::Int(0)).error().message(),
            "topology 'cta' needs a positive extent");
  EXPECT_EQ(tf::make_topology("cta", tf::Int::symbolic("n")).error().message(),
            "topology 'cta' needs a number or tf::dyn as its extent, not a "
            "symbol");
  EXPECT_EQ(tf::make_topology("", tf::dyn).error().message(),
            "a topology level needs a name");
}

TEST(Grid, FromExtentOrTopology) {
  static_assert(tf::grid(132) == tf::Grid{"cta", 132});
  EXPECT_EQ(tf::grid(tf::topology("cta", 8)).extent, 8);
  EXPECT_EQ(tf::make_grid(0).error().message(),
            "tf::grid needs a positive number of CTAs; 0 given");
  EXPECT_EQ(tf::make_grid(tf::topology("cta", tf::dyn)).error().message(),
            "topology 'cta' has no extent (tf::dyn); launch it with "
            "tf::grid(G)");
}

TEST(ResidentCtas, PositiveCountsOnly) {
  static_assert(tf::resident_ctas(6).count == 6);
  static_assert(tf::ResidentCtas{}.count == 1); // the default: one per SM
  EXPECT_EQ(tf::make_resident_ctas(0).error().message(),
            "tf::resident_ctas needs a positive count of CTAs, not 0");
  EXPECT_EQ(tf::make_resident_ctas(-2).error().message(),
            "tf::resident_ctas needs a positive count of CTAs, not -2");
}

TEST(GridDeathTest, NonPositiveExtentStops) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  std::int64_t g = -3;
  EXPECT_DEATH(tf::grid(g), "tf::grid needs a positive number of CTAs; -3 given");
}

} // namespace
