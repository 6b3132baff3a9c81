// LDTILECFG's operand: the #GP checks and agreement with the contract.
#include "tf/runtime/amx/tile_config.hpp"

#include "tf/atoms/intel/amx/tile_config.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace {

namespace amx = tf::runtime::amx;

std::string gp(const amx::TileConfig &config) {
  auto fault = amx::check_tile_config(config);
  if (!fault)
    return "";
  EXPECT_EQ(fault->exception, amx::Exception::gp);
  EXPECT_STREQ(fault->instruction, "LDTILECFG");
  return fault->why;
}

TEST(AmxTileConfig, MatchesTheContractsEncodingByteForByte) {
  namespace contract = tf::atoms::intel::amx;
  const contract::TileShape shapes[] = {{16, 64}, {1, 4}, {0, 0}, {7, 33}};
  auto encoded = contract::encode_tile_config(shapes, 4);
  ASSERT_TRUE(encoded);
  const amx::TileConfig config =
      amx::make_tile_config({{16, 64}, {1, 4}, {0, 0}, {7, 33}});
  EXPECT_EQ(std::memcmp(&config, encoded->bytes, 64), 0);
  EXPECT_EQ(amx::max_rows, contract::max_rows);
  EXPECT_EQ(amx::max_colsb, contract::max_colsb);
  EXPECT_EQ(amx::tile_registers, contract::max_tiles);
}

TEST(AmxTileConfig, AcceptsPaletteOneWithinItsLimitsAndTheInitState) {
  EXPECT_EQ(gp(amx::make_tile_config({{16, 64}, {1, 1}, {0, 0}})), "");
  EXPECT_EQ(gp(amx::TileConfig{}), "");
  amx::TileConfig init; // palette 0 reads nothing else
  init.rows[3] = 99;
  EXPECT_EQ(gp(init), "");
}

TEST(AmxTileConfig, RefusesWhatLdtilecfgRefuses) {
  amx::TileConfig c = amx::make_tile_config({{16, 64}});
  c.palette_id = 2;
  EXPECT_EQ(gp(c), "palette 2 is not supported (only 0 and 1 are)");
  c = amx::make_tile_config({{16, 64}});
  c.reserved[5] = 1;
  EXPECT_EQ(gp(c), "reserved byte 7 is not zero");
  EXPECT_EQ(gp(amx::make_tile_config({{17, 64}})),
            "tile 0 has 17 rows; palette 1 allows at most 16");
  EXPECT_EQ(gp(amx::make_tile_config({{1, 4}, {16, 65}})),
            "tile 1 has 65 bytes per row; palette 1 allows at most 64");
  EXPECT_EQ(gp(amx::make_tile_config({{0, 4}})),
            "tile 0 has 0 rows of 4 bytes; an unused tile has both zero");
  EXPECT_EQ(gp(amx::make_tile_config({{4, 0}})),
            "tile 0 has 4 rows of 0 bytes; an unused tile has both zero");
  c = amx::make_tile_config({});
  c.rows[8] = 1;
  c.colsb[8] = 4;
  EXPECT_EQ(gp(c), "tile 8 is configured; palette 1 has 8 tile registers");
}

} // namespace
