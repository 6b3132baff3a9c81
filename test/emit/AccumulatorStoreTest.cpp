//===- test/emit/AccumulatorStoreTest.cpp - Accumulator pairs into a view -===//
//
// accumulatorStore (plugin/backend/cuda_sm90/AccumulatorStore.h) on staged tiles of two
// warpgroups' m64n256 accumulators: the optimal GEMM's four 128 x 64 panels
// with the 128-byte swizzle, a plain row-major tile, and layouts it must
// refuse (a transposed tile that splits register pairs, a wrong shape);
// and warpgroups holding several m64n128 blocks each (BM = 256: two block
// rows; an N split: two block columns).
// The accumulator is the WGMMA contract's fragment of C as a match records
// it (test/lower/WgmmaAccumulator.h). Expected values follow from the
// layouts by hand: thread (group, warp, lane8, lane4) starts at row
// 64 group + 16 warp + lane8, column 2 lane4; pair p is rows + 8 (p % 2),
// columns + 8 (p / 2).
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/AccumulatorStore.h"
#include "WgmmaAccumulator.h"

#include <gtest/gtest.h>

namespace {

/// The message of \p S's error ("" when it succeeded).
std::string refusal(llvm::Expected<tf::backend::sm90::AccumulatorStore> S) {
  return S ? "" : llvm::toString(S.takeError());
}

/// Two warpgroups' bf16 accumulators of \p Blocks m64nN blocks each into
/// \p View.
llvm::Expected<tf::backend::sm90::AccumulatorStore>
store(const tf::lower::Region &View, std::int64_t N = 256,
      tf::lower::AccumulatorBlocks Blocks = {}) {
  llvm::Expected<tf::lower::RegisterFragment> Acc =
      tf_test::wgmmaAccumulator(N, tf::DType::bf16);
  if (!Acc)
    return Acc.takeError();
  return tf::backend::sm90::accumulatorStore(View, *Acc, Blocks, 2);
}

tf::lower::Region view(const char *Layout, std::int64_t Rows,
                       std::int64_t Cols) {
  tf::lower::Region R;
  R.Kind = tf::lower::RegionKind::Buffer;
  R.Name = "staged_tile";
  R.Element = tf::DType::bf16;
  R.Layout = Layout;
  R.Shape = {Rows, Cols};
  return R;
}

TEST(AccumulatorStore, SwizzledPanels) {
  // Four 128 x 64 panels of 128-byte rows: a row is 128 bytes, a panel
  // 16384; columns 64..127 are in the next panel.
  auto S = store(view("(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)", 128, 256));
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->GroupBytes, 64 * 128);
  EXPECT_EQ(S->WarpBytes, 16 * 128);
  EXPECT_EQ(S->RowBytes, 128);
  EXPECT_EQ(S->QuadBytes, 4);
  ASSERT_EQ(S->PairBytes.size(), 64u);
  EXPECT_EQ(S->PairBytes[0], 0);
  EXPECT_EQ(S->PairBytes[1], 8 * 128); // rows + 8
  EXPECT_EQ(S->PairBytes[2], 16);      // columns + 8
  EXPECT_EQ(S->PairBytes[16], 16384);  // column 64: the second panel
  EXPECT_EQ(S->PairBytes[63], 3 * 16384 + 8 * 128 + 7 * 16);
  EXPECT_EQ(S->Sw, (tf::Swizzle{3, 4, 3}));
}

TEST(AccumulatorStore, RowMajor) {
  auto S =
      store(view("(128,256):(256,1)", 128, 256));
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->RowBytes, 512);
  EXPECT_EQ(S->GroupBytes, 64 * 512);
  EXPECT_EQ(S->PairBytes[1], 8 * 512);
  EXPECT_TRUE(S->Sw.is_identity());
}

TEST(AccumulatorStore, RefusesSplitPairs) {
  // Column-major: columns e = 0 and 1 of a pair are 256 bytes apart.
  EXPECT_NE(refusal(store(view("(128,256):(1,128)", 128, 256)))
                .find("not a thread base plus a constant"),
            std::string::npos);
}

TEST(AccumulatorStore, RefusesOtherShapes) {
  EXPECT_NE(refusal(store(view("(64,256):(256,1)", 64, 256)))
                .find("is not the 128 x 256 accumulator tile"),
            std::string::npos);
}

TEST(AccumulatorStore, TwoBlockRowsPerWarpgroup) {
  // BM = 256, BN = 128: warpgroup g holds rows [128 g, 128 g + 128) as two
  // m64n128 blocks; the tile is two 256 x 64 panels of 128-byte rows.
  auto S = store(view("(256,(2,64)):(64,(16384,1)) | Swizzle(3,4,3)", 256, 128),
                 128, {2, 1});
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->GroupBytes, 128 * 128);
  EXPECT_EQ(S->Pairs, 32);
  ASSERT_EQ(S->PairBytes.size(), 64u);
  EXPECT_EQ(S->PairBytes[2], 16);             // block 0, columns + 8
  EXPECT_EQ(S->PairBytes[16], 32768);         // column 64: the second panel
  EXPECT_EQ(S->PairBytes[32], 64 * 128);      // block 1: rows + 64
  EXPECT_EQ(S->PairBytes[33], 72 * 128);      // and + 8
  EXPECT_EQ(S->Group.Row, 128);
  EXPECT_EQ(S->Pair[32].Row, 64);
  EXPECT_EQ(S->Pair[32].Col, 0);
}

TEST(AccumulatorStore, TwoBlockColumnsPerWarpgroup) {
  // An N split: warpgroup g holds rows [64 g, 64 g + 64) of a 128 x 256
  // tile as two m64n128 blocks side by side.
  auto S = store(view("(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)", 128, 256),
                 128, {1, 2});
  ASSERT_TRUE(bool(S)) << llvm::toString(S.takeError());
  EXPECT_EQ(S->GroupBytes, 64 * 128);
  ASSERT_EQ(S->PairBytes.size(), 64u);
  EXPECT_EQ(S->PairBytes[32], 2 * 16384);     // block 1: column 128
  EXPECT_EQ(S->Pair[32].Row, 0);
  EXPECT_EQ(S->Pair[32].Col, 128);
  EXPECT_EQ(S->Pair[63].Col, 128 + 15 * 8);
}

TEST(AccumulatorStore, RefusesATileOfOtherBlocks) {
  // Two block rows per warpgroup make a 256-row tile, not 128.
  EXPECT_NE(refusal(store(view("(128,(4,64)):(64,(8192,1))", 128, 256), 128,
                          {2, 1}))
                .find("is not the 256 x 128 accumulator tile"),
            std::string::npos);
}

} // namespace
