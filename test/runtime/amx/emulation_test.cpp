// The emulated tile instructions against cases computed by hand from the
// Intel SDM's pseudo-code (docs/amx.md, "Exact semantics").
#include "tf/runtime/amx/emulated.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cfenv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

namespace {

namespace amx = tf::runtime::amx;
namespace emu = tf::runtime::amx::emulated;

constexpr std::uint16_t bf16_of(float x) {
  return static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(x) >> 16);
}
constexpr std::uint32_t bits(float x) { return std::bit_cast<std::uint32_t>(x); }
constexpr float pow2(int e) {
  float r = 1;
  for (; e > 0; --e)
    r *= 2;
  for (; e < 0; ++e)
    r /= 2;
  return r;
}

/// One row of C (n fp32) += one row of A (2k bf16) . B (k rows of n pairs),
/// through the emulated instructions; returns C's row as stored.
std::vector<std::uint32_t> dpbf16ps(std::vector<std::uint32_t> c,
                                    const std::vector<std::uint16_t> &a,
                                    const std::vector<std::uint16_t> &b) {
  const int n = static_cast<int>(c.size()), k = static_cast<int>(a.size()) / 2;
  emu::tile_loadconfig(amx::make_tile_config({{1, 4 * n}, {1, 4 * k}, {k, 4 * n}}));
  emu::tile_loadd<0>(c.data(), 4 * n);
  emu::tile_loadd<1>(a.data(), 4 * k);
  emu::tile_loadd<2>(b.data(), 4 * n);
  emu::tile_dpbf16ps<0, 1, 2>();
  emu::tile_stored<0>(c.data(), 4 * n);
  emu::tile_release();
  return c;
}

/// C = 0 plus the pair products a0*b0 + a1*b1 over k: one output element.
std::uint32_t dot(const std::vector<float> &a, const std::vector<float> &b,
                  float c = 0) {
  std::vector<std::uint16_t> a16, b16;
  for (float x : a)
    a16.push_back(bf16_of(x));
  for (float x : b)
    b16.push_back(bf16_of(x));
  return dpbf16ps({bits(c)}, a16, b16)[0];
}

TEST(AmxEmulation, PairProductsAddToTheAccumulator) {
  // 3 + 1*2 + 3*4 = 17
  EXPECT_EQ(dot({1, 3}, {2, 4}, 3), bits(17.0f));
}

TEST(AmxEmulation, EvenAndOddProductsAccumulateSeparatelyOverK) {
  // even: 2^24 then + 1 (a tie, to even: 2^24); odd: -2^24 then + 0.
  // SDM order: (2^24 + -2^24) = 0. Accumulating into C in program order
  // would give 2^24 - 2^24 + 1 = 1.
  EXPECT_EQ(dot({pow2(12), pow2(12), 1, 0}, {pow2(12), -pow2(12), 1, 0}),
            bits(0.0f));
}

TEST(AmxEmulation, RoundsToNearestEven) {
  // 1 + 2^-24 is halfway between 1 and 1 + 2^-23: down to the even 1.
  EXPECT_EQ(dot({1, pow2(-12)}, {1, pow2(-12)}), bits(1.0f));
  // (1 + 2^-23) + 2^-24 is halfway up: to the even 1 + 2^-22.
  EXPECT_EQ(dot({pow2(-12), 0}, {pow2(-12), 0}, 1 + pow2(-23)),
            bits(1 + pow2(-22)));
}

TEST(AmxEmulation, EachAccumulationIsOneFusedMultiplyAdd) {
  // even: 2^-63 * 2^-63 = 2^-126, then + 2^-65 * 2^-65 = 2^-130 exactly:
  // the product 2^-130 alone would be a denormal, flushed if rounded first.
  EXPECT_EQ(dot({pow2(-63), 0, pow2(-65), 0}, {pow2(-63), 0, pow2(-65), 0}),
            bits(pow2(-126) + pow2(-130)));
}

TEST(AmxEmulation, DenormalInputsAreZero) {
  // bf16 0x0001 is 2^-133; times 2^100 it would be a normal 2^-33.
  EXPECT_EQ(dpbf16ps({0}, {0x0001, 0}, {bf16_of(pow2(100)), 0})[0], 0u);
  // A denormal accumulator in C counts as zero: 2^-126, not 2^-126 + 2^-149.
  EXPECT_EQ(dpbf16ps({0x00000001}, {bf16_of(pow2(-63)), 0},
                     {bf16_of(pow2(-63)), 0})[0],
            bits(pow2(-126)));
}

TEST(AmxEmulation, DenormalResultsFlushToSignedZero) {
  // 2^-63 * 2^-64 = 2^-127 is a denormal: flushed.
  EXPECT_EQ(dot({pow2(-63), 0}, {pow2(-64), 0}), 0u);
  // -1.5 * 2^-126 + 2^-126 = -2^-127: flushed to zero of the result's sign.
  EXPECT_EQ(dot({pow2(-63), 0}, {pow2(-63), 0}, -1.5f * pow2(-126)),
            0x80000000u);
}

TEST(AmxEmulation, NaNsPropagateQuietedAndInvalidGivesTheDefaultNaN) {
  // A signalling bf16 NaN 0x7f81 comes out quiet with its payload.
  EXPECT_EQ(dpbf16ps({0}, {0x7f81, 0}, {bf16_of(1), 0})[0], 0x7fc10000u);
  // The first NaN in operand order: A before B.
  EXPECT_EQ(dpbf16ps({0}, {0x7fc2, 0}, {0x7fc3, 0})[0], 0x7fc20000u);
  // The accumulator's own NaN goes first in C + (even + odd).
  EXPECT_EQ(dpbf16ps({0x7fc40000}, {0x7fc5, 0}, {bf16_of(1), 0})[0],
            0x7fc40000u);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(dot({inf, 0}, {0, 0}), 0xffc00000u);   // inf * 0
  EXPECT_EQ(dot({inf, inf}, {1, -1}), 0xffc00000u); // inf + -inf
  EXPECT_EQ(dot({inf, 1}, {1, 1}, 1), bits(inf));
}

TEST(AmxEmulation, IgnoresAndKeepsTheCallersFloatEnvironment) {
  ASSERT_EQ(std::fesetround(FE_UPWARD), 0);
  std::feclearexcept(FE_ALL_EXCEPT);
  EXPECT_EQ(dot({1, pow2(-12)}, {1, pow2(-12)}), bits(1.0f)); // still RNE
  EXPECT_EQ(std::fegetround(), FE_UPWARD);
  EXPECT_EQ(std::fetestexcept(FE_INEXACT), 0); // flags neither set nor read
  std::fesetround(FE_TONEAREST);
}

/// C (one int32) += the four products of A's and B's bytes, via `dot`.
template <class Dot>
std::uint32_t dot_bytes(std::uint32_t c, std::array<std::uint8_t, 4> a,
                        std::array<std::uint8_t, 4> b, Dot dot) {
  emu::tile_loadconfig(amx::make_tile_config({{1, 4}, {1, 4}, {1, 4}}));
  emu::tile_loadd<0>(&c, 4);
  emu::tile_loadd<1>(a.data(), 4);
  emu::tile_loadd<2>(b.data(), 4);
  dot();
  emu::tile_stored<0>(&c, 4);
  return c;
}

TEST(AmxEmulation, ByteDotProductsExtendEachOperandAsNamed) {
  const std::array<std::uint8_t, 4> min = {0x80, 0x80, 0x80, 0x80},
                                    max = {0xff, 0xff, 0xff, 0xff};
  auto ssd = [] { emu::tile_dpbssd<0, 1, 2>(); };
  auto sud = [] { emu::tile_dpbsud<0, 1, 2>(); };
  auto usd = [] { emu::tile_dpbusd<0, 1, 2>(); };
  auto uud = [] { emu::tile_dpbuud<0, 1, 2>(); };
  EXPECT_EQ(dot_bytes(0, min, min, ssd), 4u * 16384);       // -128 * -128
  EXPECT_EQ(dot_bytes(0, min, max, ssd), 4u * 128);         // -128 * -1
  EXPECT_EQ(dot_bytes(0, min, max, sud), std::uint32_t(-4 * 128 * 255));
  EXPECT_EQ(dot_bytes(0, max, min, usd), std::uint32_t(-4 * 255 * 128));
  EXPECT_EQ(dot_bytes(0, max, max, uud), 4u * 255 * 255);
  EXPECT_EQ(dot_bytes(0, {1, 2, 3, 4}, {5, 0xfa, 7, 8}, ssd),
            std::uint32_t(5 - 12 + 21 + 32));
}

TEST(AmxEmulation, ByteDotProductsWrapAround) {
  // INT32_MAX + 4 * 16384 wraps to INT32_MIN + 65535; no saturation.
  const std::array<std::uint8_t, 4> min = {0x80, 0x80, 0x80, 0x80};
  EXPECT_EQ(dot_bytes(0x7fffffff, min, min, [] { emu::tile_dpbssd<0, 1, 2>(); }),
            0x8000ffffu);
}

TEST(AmxEmulation, LoadsAndStoresConfiguredRowsAndBytesWithAStride) {
  // A 3 x 8-byte tile from rows 20 bytes apart, then into rows 12 apart.
  std::vector<std::uint8_t> src(60), dst(36, 0xee);
  for (int i = 0; i < 60; ++i)
    src[i] = static_cast<std::uint8_t>(i);
  emu::tile_loadconfig(amx::make_tile_config({{3, 8}}));
  emu::tile_loadd<0>(src.data(), 20);
  emu::tile_stored<0>(dst.data(), 12);
  for (int r = 0; r < 3; ++r)
    for (int j = 0; j < 12; ++j)
      EXPECT_EQ(dst[12 * r + j], j < 8 ? 20 * r + j : 0xee) << r << "," << j;
  // A negative stride walks memory downwards.
  emu::tile_loadd<0>(src.data() + 40, -20);
  emu::tile_stored<0>(dst.data(), 12);
  EXPECT_EQ(dst[0], 40);
  EXPECT_EQ(dst[12], 20);
  EXPECT_EQ(dst[24], 0);
  emu::tile_release();
}

TEST(AmxEmulation, BytesOutsideTheConfiguredShapeAreZero) {
  // A 2 x 4-byte tile from memory full of 0xff: the register's other rows
  // and bytes are zero (write_row_and_zero, zero_upper_rows).
  std::vector<std::uint8_t> src(64 * 16, 0xff);
  emu::tile_loadconfig(amx::make_tile_config({{2, 4}}));
  emu::tile_loadd<0>(src.data(), 64);
  const emu::TileState &s = emu::tile_state();
  for (int r = 0; r < 16; ++r)
    for (int j = 0; j < 64; ++j)
      EXPECT_EQ(s.tiles[0][64 * r + j], r < 2 && j < 4 ? 0xff : 0);
  emu::tile_zero<0>();
  EXPECT_EQ(s.tiles[0][0], 0);
  emu::tile_release();
}

TEST(AmxEmulation, ConfigurationAndReleaseFollowLdtilecfgAndTilerelease) {
  const amx::TileConfig config = amx::make_tile_config({{16, 64}, {4, 8}});
  emu::tile_loadconfig(config);
  amx::TileConfig stored;
  emu::tile_storeconfig(stored);
  EXPECT_EQ(stored, config);
  emu::tile_release();
  emu::tile_storeconfig(stored);
  EXPECT_EQ(stored, amx::TileConfig{}); // STTILECFG of the INIT state
  emu::tile_loadconfig(amx::TileConfig{}); // palette 0: INIT as well
  EXPECT_FALSE(emu::tile_state().configured);
}

TEST(AmxEmulation, TileStateBelongsToTheThread) {
  emu::tile_loadconfig(amx::make_tile_config({{1, 4}}));
  bool other_configured = true;
  std::thread([&] { other_configured = emu::tile_state().configured; }).join();
  EXPECT_FALSE(other_configured);
  EXPECT_TRUE(emu::tile_state().configured);
  emu::tile_release();
}

TEST(AmxEmulation, DotProductShapeChecksAreTheSdmsUndefinedOpcodes) {
  emu::TileState s;
  auto fault = [&](int c, int a, int b) {
    auto f = emu::check_dot_product(s, c, a, b, "TDPBF16PS");
    return f ? f->why : std::string();
  };
  EXPECT_EQ(fault(0, 1, 2),
            "no tile configuration is loaded (TILES_CONFIGURED = 0)");
  s.configured = true;
  s.config = amx::make_tile_config({{16, 64}, {16, 64}, {16, 64}, {8, 64},
                                    {16, 32}, {8, 64}});
  EXPECT_EQ(fault(0, 1, 2), "");
  EXPECT_EQ(fault(0, 1, 7), "tmm7 is not configured");
  EXPECT_EQ(fault(0, 3, 2), "tmm0 has 16 rows but tmm3 has 8");
  EXPECT_EQ(fault(0, 1, 4), "tmm0 has 64 bytes per row but tmm4 has 32");
  EXPECT_EQ(fault(0, 1, 5), "tmm1 has 64 bytes per row, so tmm5 needs 16 "
                            "rows, not 8");
  EXPECT_EQ(emu::check_dot_product(s, 0, 3, 2, "TDPBSSD")->exception,
            amx::Exception::ud);
}

TEST(AmxEmulationDeathTest, FaultsStopTheProgramNamingTheInstruction) {
  emu::tile_release();
  EXPECT_DEATH(emu::tile_loadd<0>(nullptr, 0),
               "emulated AMX: #UD in TILELOADD: no tile configuration");
  amx::TileConfig bad = amx::make_tile_config({{17, 64}});
  EXPECT_DEATH(emu::tile_loadconfig(bad),
               "emulated AMX: #GP in LDTILECFG: tile 0 has 17 rows");
  auto mismatched = [] {
    emu::tile_loadconfig(amx::make_tile_config({{16, 64}, {8, 64}, {16, 64}}));
    emu::tile_dpbf16ps<0, 1, 2>();
  };
  EXPECT_DEATH(mismatched(), "#UD in TDPBF16PS: tmm0 has 16 rows but tmm1 has 8");
}

} // namespace
