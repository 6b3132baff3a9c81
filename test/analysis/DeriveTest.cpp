// What follows from a decision (plugin/analysis/Derive.h): the shared-memory
// tile TMA writes for a box, the accumulator a contract's register fragment
// tiles to -- checked against the example GEMM's hand-written declarations.
#include "analysis/Derive.h"

#include "tf/atoms/registry.hpp"
#include "tf/layout/mesh_literal.hpp"
#include "tf/layout/text/literal.hpp"
#include "tf/layout/text/print.hpp"

#include <gtest/gtest.h>

namespace {

using namespace tf;
using tf::analysis::leadingGroups;
using tf::analysis::panelLayout;
using tf::analysis::tiledAccumulator;

constexpr Swizzle Sw128{3, 4, 3};

std::string text(const std::optional<ComposedLayout> &L) {
  return L ? to_string(*L) : std::string("none");
}

TEST(Derive, PanelLayoutsAreTheExampleTiles) {
  // B 64 x 256 and the staged 128 x 256 tile: 64-element panels of bf16.
  EXPECT_EQ(text(panelLayout({64, 256}, 2, Sw128)),
            "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)");
  EXPECT_EQ(text(panelLayout({128, 256}, 2, Sw128)),
            "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)");
  // A row that fits the swizzle is plain row-major; a narrower row takes
  // the swizzle of its width; fp8 rows are 128 elements wide.
  EXPECT_EQ(text(panelLayout({128, 64}, 2, Sw128)), "(128,64):(64,1) | Swizzle(3,4,3)");
  EXPECT_EQ(text(panelLayout({64, 32}, 2, Sw128)), "(64,32):(32,1) | Swizzle(2,4,3)");
  EXPECT_EQ(text(panelLayout({64, 256}, 1, Sw128)),
            "(64,(2,128)):(128,(8192,1)) | Swizzle(3,4,3)");
  // Unswizzled: row-major whatever the width.
  EXPECT_EQ(text(panelLayout({64, 256}, 2, Swizzle{})), "(64,256):(256,1)");
  // Panels that do not divide the row, or another rank: none.
  EXPECT_EQ(text(panelLayout({64, 96}, 2, Sw128)), "none");
  EXPECT_EQ(text(panelLayout({8, 8, 64}, 2, Sw128)), "none");
}

TEST(Derive, ColumnMajorPanelsAreTheRowMajorOnesTransposed) {
  // B 64 x 256 stored K-major (mode 0 contiguous): the 256 x 64 row-major
  // tile with its modes swapped; a 128-row column as two panels of 64
  // rows, each 64 x 64.
  EXPECT_EQ(text(panelLayout({64, 256}, 2, Sw128, 0)),
            "(64,256):(1,64) | Swizzle(3,4,3)");
  EXPECT_EQ(text(panelLayout({128, 64}, 2, Sw128, 0)),
            "((2,64),64):((4096,1),64) | Swizzle(3,4,3)");
}

TEST(Derive, TiledAccumulatorIsTheExampleAccumulator) {
  const Contract *C = find_contract("nv.sm90.Wgmma");
  ASSERT_NE(C, nullptr);
  const ShardLayout *Fragment = nullptr;
  for (const OperandPattern &P : C->operands)
    if (P.name == Name("C"))
      for (const LayoutPattern &L : P.layouts)
        if (L.kind == LayoutPatternKind::shard)
          Fragment = &L.shard;
  ASSERT_NE(Fragment, nullptr);
  constexpr Mesh Threads =
      mesh("thread", layout<"(3,128)">, "warpgroup", "participant");
  constexpr Mesh Compute = Threads.sub(range(1, 3), _).reshape<"(2,4,8,4)">(
      "group", "warp", "lane8", "lane4");
  auto shown = [&](std::int64_t AN, std::int64_t TM, std::int64_t TN) {
    std::optional<ShardLayout> L =
        tiledAccumulator(*Fragment, Compute, 64, AN, TM, TN);
    return L ? to_string(L->layout, L->axes) : std::string("none");
  };
  // 128 x 256 with n = 256: the example's Acc, written by hand.
  EXPECT_EQ(shown(256, 128, 256),
            "((2@group,4@warp,2,8@lane8),(32,4@lane4,2)):((16384,16,8,1),(512,128,64))");
  // N split into atoms one after another: the same layout for n = 64.
  EXPECT_EQ(shown(64, 128, 256), shown(256, 128, 256));
  EXPECT_EQ(shown(128, 128, 128),
            "((2@group,4@warp,2,8@lane8),(16,4@lane4,2)):((8192,16,8,1),(512,128,64))");
  // BM = 256: each group runs two rows of atoms one after another.
  EXPECT_EQ(shown(256, 256, 256),
            "((2@group,2,4@warp,2,8@lane8),(32,4@lane4,2)):((32768,16384,16,8,1),(512,128,64))");
  // A tile the groups and atoms do not divide: none.
  EXPECT_EQ(shown(256, 64, 256), "none");
  EXPECT_EQ(shown(96, 128, 256), "none");
  // The compute mesh runs two warpgroups side by side; one warpgroup of
  // its own, one; a mesh that is not warpgroups, none.
  EXPECT_EQ(leadingGroups(*Fragment, Compute), 2);
  constexpr Mesh One = mesh("thread", layout<"(1,4,8,4)">, "group", "warp",
                            "lane8", "lane4");
  EXPECT_EQ(leadingGroups(*Fragment, One), 1);
  EXPECT_EQ(shown(64, 64, 64), "none");
  EXPECT_EQ(to_string(tiledAccumulator(*Fragment, One, 64, 64, 64, 64)->layout,
                      tiledAccumulator(*Fragment, One, 64, 64, 64, 64)->axes),
            "((4@warp,2,8@lane8),(8,4@lane4,2)):((16,8,1),(512,128,64))");
  EXPECT_EQ(leadingGroups(*Fragment, Threads), 0);
}

} // namespace
