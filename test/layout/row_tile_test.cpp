//===- test/layout/row_tile_test.cpp - Row tile layout texts --------------===//
//
// tf::row_tile_text (a warp per row) and tf::cta_row_tile_text (a row over
// a CTA's warps): the texts themselves, that each parses as a layout over a
// warp x lane mesh, and that each thread's elements are where the texts'
// comments say -- runs of Vector contiguous columns, lanes side by side,
// the warps side by side in a step.
//
//===----------------------------------------------------------------------===//
#include "tf/layout/mesh.hpp"
#include "tf/layout/row_tile.hpp"
#include "tf/layout/shard_layout.hpp"
#include "tf/layout/text/parse.hpp"

#include <gtest/gtest.h>

#include <string_view>

namespace {

using namespace tf;

static_assert(row_tile_text<4, 1024, 8>().view() ==
              "(4@warp,(4,32@lane,8)):(1024,(256,8,1))");
static_assert(cta_row_tile_text<2048, 256, 8>().view() ==
              "(1,(1,8@warp,32@lane,8)):(2048,(2048,256,8,1))");
static_assert(cta_row_tile_text<32768, 1024, 8>().view() ==
              "(1,(4,32@warp,32@lane,8)):(32768,(8192,256,8,1))");

/// Column of element `reg` of thread (`warp`, `lane`) in a cta_row_tile of
/// Cols columns, Warps warps, Vector-element runs: the file comment's rule.
std::int64_t expectedColumn(std::int64_t Warps, std::int64_t Vector,
                            std::int64_t warp, std::int64_t lane,
                            std::int64_t reg) {
  const std::int64_t Step = Warps * 32 * Vector;
  return reg / Vector * Step + warp * 32 * Vector + lane * Vector + reg % Vector;
}

TEST(RowTile, CtaTileThreadsHoldRunsSideBySide) {
  constexpr auto Text = cta_row_tile_text<4096, 256, 8>();
  Result<LayoutText> T = parse_layout_text(Text.view());
  ASSERT_TRUE(T.ok()) << T.error().message();
  const ShardLayout S{T->layout, T->axes,
                      mesh("thread", IntTuple{8, 32}, "warp", "lane")};
  Result<std::int64_t> Local = local_size(S);
  ASSERT_TRUE(Local.ok()) << Local.error().message();
  EXPECT_EQ(*Local, 16); // 4096 columns over 256 threads
  // Each column has one holder, the thread and register the rule says.
  for (std::int64_t Column = 0; Column < 4096; ++Column) {
    Result<HolderList> H = holders(S, Column);
    ASSERT_TRUE(H.ok()) << H.error().message();
    ASSERT_EQ(H->size(), 1u) << "column " << Column;
    const Holder &X = (*H)[0];
    EXPECT_EQ(expectedColumn(8, 8, X.unit / 32, X.unit % 32, X.local), Column)
        << "thread " << X.unit << " register " << X.local;
  }
}

} // namespace
