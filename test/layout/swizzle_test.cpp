//===- test/layout/swizzle_test.cpp - Swizzles and composed layouts -------===//
//
// Swizzle<B,M,S> on byte offsets: validity, involution, bijection, the named
// TMA/WGMMA modes checked against hand-derived chunk formulas, and the
// element offsets of composed layouts.
//
//===----------------------------------------------------------------------===//
#include "tf/layout/composed_layout.hpp"
#include "tf/layout/text.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using tf::IntTuple;
using tf::Swizzle;

const Swizzle valid_swizzles[] = {{0, 0, 0}, {1, 4, 3}, {2, 4, 3}, {3, 4, 3},
                                  {3, 3, 3}, {2, 0, 4}, {3, 4, -3}, {1, 0, -1},
                                  {4, 2, 6}, {5, 10, -7}};

TEST(Swizzle, Validation) {
  for (const Swizzle &sw : valid_swizzles)
    EXPECT_TRUE(tf::is_valid_swizzle(sw))
        << sw.bits << "," << sw.base << "," << sw.shift;
  EXPECT_EQ(tf::make_swizzle(3, 4, 2).error().message(),
            "swizzle shift |2| is smaller than its 3 bits; source and target "
            "bits would overlap");
  EXPECT_EQ(tf::make_swizzle(3, 4, -2).error().message(),
            "swizzle shift |-2| is smaller than its 3 bits; source and target "
            "bits would overlap");
  EXPECT_EQ(tf::make_swizzle(-1, 4, 3).error().message(),
            "swizzle bits (-1) and base (4) must not be negative");
  EXPECT_EQ(tf::make_swizzle(3, 50, 10).error().message(),
            "swizzle reads bit 62; the highest usable bit is 61");
  EXPECT_EQ(tf::make_swizzle(3, 50, 10).error().code, tf::Errc::precondition);
  EXPECT_TRUE(tf::make_swizzle(0, 7, 0).ok());
}

TEST(Swizzle, IdentityWithoutBits) {
  for (const Swizzle &sw : {Swizzle{0, 0, 0}, Swizzle{0, 4, 3}, Swizzle{}}) {
    EXPECT_TRUE(sw.is_identity());
    for (std::int64_t x = 0; x < 4096; x += 7)
      EXPECT_EQ(sw(x), x);
  }
}

TEST(Swizzle, MatchesDefinition) {
  // S >= 0: bits [M+S, M+S+B) into [M, M+B).
  EXPECT_EQ((Swizzle{3, 4, 3})(0x380), 0x3F0);
  EXPECT_EQ((Swizzle{3, 4, 3})(0x0F), 0x0F);
  // S < 0 (CuTe's meaning): bits [M, M+B) into [M-S, M-S+B).
  EXPECT_EQ((Swizzle{2, 0, -3})(0b00011), 0b11011);
  EXPECT_EQ((Swizzle{2, 0, -3}).source_mask(), 0b00011);
  EXPECT_EQ((Swizzle{2, 0, -3}).target_mask(), 0b11000);
  EXPECT_EQ((Swizzle{3, 4, 3}).source_mask(), 0x380);
  EXPECT_EQ((Swizzle{3, 4, 3}).target_mask(), 0x70);
}

TEST(Swizzle, Involution) {
  for (const Swizzle &sw : valid_swizzles)
    for (std::int64_t x = 0; x < (1 << 17); x += 3)
      ASSERT_EQ(sw(sw(x)), x) << sw.bits << "," << sw.base << "," << sw.shift;
}

TEST(Swizzle, BijectionOnEveryAlignedBlock) {
  for (const Swizzle &sw : valid_swizzles) {
    // The swizzle touches bits below `span` only, so it permutes each
    // aligned block of that many bytes.
    int distance = sw.shift < 0 ? -sw.shift : sw.shift;
    std::int64_t span = std::int64_t(1) << (sw.base + distance + sw.bits);
    for (std::int64_t block : {std::int64_t(0), span, 5 * span}) {
      std::vector<bool> hit(span, false);
      for (std::int64_t x = 0; x < span; ++x) {
        std::int64_t y = sw(block + x) - block;
        ASSERT_GE(y, 0);
        ASSERT_LT(y, span);
        ASSERT_FALSE(hit[y]);
        hit[y] = true;
      }
    }
  }
  std::vector<bool> hit(1024, false);
  for (std::int64_t x = 0; x < 1024; ++x) {
    std::int64_t y = tf::swizzle_for(tf::SwizzleMode::bytes128)(x);
    ASSERT_LT(y, 1024);
    ASSERT_FALSE(hit[y]);
    hit[y] = true;
  }
}

TEST(Swizzle, NamedModes) {
  EXPECT_EQ(tf::swizzle_for(tf::SwizzleMode::none), Swizzle{});
  EXPECT_EQ(tf::swizzle_for(tf::SwizzleMode::bytes32), (Swizzle{1, 4, 3}));
  EXPECT_EQ(tf::swizzle_for(tf::SwizzleMode::bytes64), (Swizzle{2, 4, 3}));
  EXPECT_EQ(tf::swizzle_for(tf::SwizzleMode::bytes128), (Swizzle{3, 4, 3}));
  EXPECT_EQ(tf::swizzle_row_bytes(tf::SwizzleMode::bytes32), 32);
  EXPECT_EQ(tf::swizzle_row_bytes(tf::SwizzleMode::bytes128), 128);
  EXPECT_EQ(tf::swizzle_period_bytes(tf::SwizzleMode::bytes64), 512);
  EXPECT_EQ(tf::swizzle_period_bytes(tf::SwizzleMode::bytes128), 1024);
}

// Each mode XORs the 16-byte chunk index within a row of `row_bytes` with the
// row index within the 8-row pattern, scaled down to the chunks a row has:
// 128 B rows use row % 8, 64 B rows (row / 2) % 4, 32 B rows (row / 4) % 2.
TEST(Swizzle, ModesPermuteChunksWithinRows) {
  for (tf::SwizzleMode mode : {tf::SwizzleMode::bytes32,
                               tf::SwizzleMode::bytes64,
                               tf::SwizzleMode::bytes128}) {
    Swizzle sw = tf::swizzle_for(mode);
    std::int64_t row_bytes = tf::swizzle_row_bytes(mode);
    std::int64_t chunks = row_bytes / 16;
    for (std::int64_t byte = 0; byte < 4 * 1024; ++byte) {
      std::int64_t row = byte / row_bytes;
      std::int64_t chunk = byte % row_bytes / 16;
      std::int64_t expected_chunk = chunk ^ ((row * chunks / 8) % chunks);
      ASSERT_EQ(sw(byte), row * row_bytes + expected_chunk * 16 + byte % 16)
          << "mode row bytes " << row_bytes << ", byte " << byte;
    }
  }
}

// The H200 GEMM's lhs slot: a bf16 128x64 row-major tile under the 128 B
// mode.
// Row m is 128 bytes; its eight 16-byte chunks are permuted by XOR with
// m % 8, so element (m, k) lands at 64m + 8((k/8) ^ (m%8)) + k%8.
TEST(ComposedLayout, Bf16Tile128B) {
  tf::ComposedLayout tile = tf::composed_layout<
      "Layout(((2,8,8),(4,16)),((4096,512,64),(16,1))) | Swizzle(3,4,3)">;
  std::vector<bool> hit(128 * 64, false);
  for (std::int64_t m = 0; m < 128; ++m)
    for (std::int64_t k = 0; k < 64; ++k) {
      std::int64_t expected = 64 * m + 8 * ((k / 8) ^ (m % 8)) + k % 8;
      tf::Result<std::int64_t> got = tf::evaluate(tile, IntTuple{m, k}, 2);
      ASSERT_TRUE(got.ok()) << got.error().message();
      ASSERT_EQ(*got, expected) << m << "," << k;
      EXPECT_EQ(*tf::byte_offset(tile, IntTuple{m, k}, 2), 2 * expected);
      EXPECT_EQ(*tf::evaluate(tile, 64 * m + k, 2), expected);
      hit[*got] = true;
    }
  for (bool h : hit)
    EXPECT_TRUE(h);
}

// The same mode on f32 elements: a row still has 128 bytes, now 32 elements.
TEST(ComposedLayout, F32Tile128B) {
  tf::ComposedLayout tile =
      tf::composed_layout<"(8,32):(32,1) | Swizzle(3,4,3)">;
  for (std::int64_t m = 0; m < 8; ++m)
    for (std::int64_t k = 0; k < 32; ++k)
      ASSERT_EQ(*tf::evaluate(tile, IntTuple{m, k}, 4),
                32 * m + 4 * ((k / 4) ^ m) + k % 4);
}

TEST(ComposedLayout, OffsetComesBeforeTheSwizzle) {
  // sw((offset + L(c)) * bytes): an offset of one 128-byte row moves every
  // element into the next row's chunk pattern.
  tf::ComposedLayout tile{{3, 4, 3}, 64, tf::Layout{{8, 64}, {64, 1}}};
  for (std::int64_t k = 0; k < 64; ++k)
    EXPECT_EQ(*tf::evaluate(tile, IntTuple{0, k}, 2),
              64 + 8 * ((k / 8) ^ 1) + k % 8);
}

TEST(ComposedLayout, Errors) {
  tf::ComposedLayout tile{{3, 4, 3}, 0, tf::Layout{{8, 64}, {64, 1}}};
  EXPECT_EQ(tf::evaluate(tile, 3, 3).error().message(),
            "element size 3 is not a power of two bytes");
  EXPECT_EQ(tf::evaluate(tile, 3, 32).error().message(),
            "swizzle base bit 4 splits 32-byte elements");
  EXPECT_TRUE(tf::evaluate(tile, 3, 16).ok());
  EXPECT_TRUE(tf::evaluate(tf::ComposedLayout{{}, 0, tile.layout}, 3, 32).ok());
  EXPECT_EQ(tf::evaluate(tf::ComposedLayout{{3, 4, 2}, 0, tile.layout}, 3, 2)
                .error()
                .code,
            tf::Errc::precondition);
  tf::ComposedLayout symbolic{{3, 4, 3}, tf::Int::symbolic("p0"), tile.layout};
  EXPECT_EQ(tf::evaluate(symbolic, 0, 2).error().code, tf::Errc::symbolic);
  tf::ComposedLayout negative{{3, 4, 3}, -1, tile.layout};
  EXPECT_EQ(tf::evaluate(negative, 0, 2).error().code, tf::Errc::out_of_range);
}

// The same arithmetic in constant evaluation.
constexpr tf::ComposedLayout lhs_tile = tf::composed_layout<
    "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)">;
static_assert(*tf::evaluate(lhs_tile, IntTuple{1, 0}, 2) == 72);
static_assert(*tf::evaluate(lhs_tile, IntTuple{7, 63}, 2) == 7 * 64 + 7);
static_assert(*tf::byte_offset(lhs_tile, IntTuple{1, 0}, 2) == 144);
static_assert(tf::Swizzle{3, 4, 3}(0x380) == 0x3F0);
static_assert(!tf::is_valid_swizzle({3, 4, 2}));


// CuTe's swizzle_layout test (test/unit/cute/core/swizzle_layout.cpp) checks
// that slicing a swizzled layout by a row or a column gives the same offsets
// as the whole. Its three layouts through φ; one-byte elements, so byte and
// element offsets coincide as in CuTe's element-indexed swizzles.
TEST(SwizzleCuTe, SlicesAgreeWithTheWhole) {
  const tf::ComposedLayout cases[] = {
      *tf::parse_composed_layout("(8,8):(1,8) | Swizzle(3,0,3)"),
      *tf::parse_composed_layout("(8,8):(1,8) | Swizzle(3,0,-3)"),
      *tf::parse_composed_layout(
          "((2,2,2),(2,2,2)):((16,1,4),(8,2,32)) | Swizzle(2,1,3)"),
  };
  for (const tf::ComposedLayout &c : cases) {
    std::vector<bool> seen(64, false);
    for (int i = 0; i < 8; ++i) {
      // Row i as a composed layout of its own: the row's offset moves into
      // the composed layout's offset, before the swizzle.
      tf::ComposedLayout row{c.swizzle, *tf::evaluate(c.layout.mode(0), i),
                             c.layout.mode(1)};
      tf::ComposedLayout col{c.swizzle, *tf::evaluate(c.layout.mode(1), i),
                             c.layout.mode(0)};
      for (int j = 0; j < 8; ++j) {
        std::int64_t whole = *tf::evaluate(c, IntTuple{i, j}, 1);
        EXPECT_EQ(*tf::evaluate(row, j, 1), whole) << tf::to_string(c);
        EXPECT_EQ(*tf::evaluate(col, j, 1), *tf::evaluate(c, IntTuple{j, i}, 1))
            << tf::to_string(c);
        ASSERT_GE(whole, 0);
        ASSERT_LT(whole, 64);
        EXPECT_FALSE(seen[whole]) << "offset " << whole << " twice";
        seen[whole] = true;
      }
    }
  }
}

} // namespace
