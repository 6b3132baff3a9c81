//===- test/lower/RegisterFragmentTest.cpp - The accumulator's registers --===//
//
// lower::RegisterFragment reads (thread, register) -> (row, column) from the
// WGMMA match's fragment of C and the contract's register numbering
// (tf/atoms/nv/sm90/wgmma.hpp); the runtime's wgmma::accumulator_coord is
// written from the same contract data by runtime/tools/gen_wgmma.cpp. Both
// must be PTX's D fragment (PTX ISA, "WGMMA .m64nNk16 register fragment
// layout for accumulator matrix D", the same for k32): register
// d[4 j + 2 h + e] of thread (warp, lane8, lane4) holds row
// 16 warp + 8 h + lane8, column 8 j + 2 lane4 + e -- for every N the
// contract allows, with 16-bit and 8-bit inputs.
//
//===----------------------------------------------------------------------===//
#include "WgmmaAccumulator.h"

#include "tf/schedule/contract_facts.hpp"

// The generated runtime header is CUDA; on the host its functions are
// plain constexpr functions.
#ifndef __host__
#define __host__
#endif
#ifndef __device__
#define __device__
#endif
#include "tf/runtime/sm90/wgmma_accumulator.cuh"

#include <gtest/gtest.h>

namespace {

/// PTX's figure, written out.
tf::lower::FragmentCoord ptxAccumulator(std::int64_t Thread, std::int64_t Reg) {
  const std::int64_t Warp = Thread / 32, Lane8 = Thread % 32 / 4,
                     Lane4 = Thread % 4;
  const std::int64_t J = Reg / 4, H = Reg / 2 % 2, E = Reg % 2;
  return {16 * Warp + 8 * H + Lane8, 8 * J + 2 * Lane4 + E};
}

/// The match of wgmmaSite(\p N, \p Type) as the engine would record it.
/// For n = 8 the engine refuses the site today: it drops the accumulator's
/// extent-1 leaf (c = 1) before unifying it with the contract's fragment,
/// which then lacks a leaf. The fragment it would record is the site's
/// accumulator, as for every other n.
tf::MatchReport recorded(std::int64_t N, tf::DType Type) {
  tf::MatchReport R = tf_test::wgmmaMatch(N, Type);
  if (R.accepted || N != 8)
    return R;
  const tf::Site S = tf_test::wgmmaSite(N, Type);
  tf::OperandFragment C;
  C.name = "C";
  C.pattern = 3;
  C.variant = 0;
  C.kind = tf::OperandLayoutKind::shard;
  C.shard = S.operands[2].shard;
  R.fragments = {C};
  return R;
}

TEST(RegisterFragment, WgmmaAccumulatorIsPtxsForEveryForm) {
  const tf::ParamDef *N =
      tf::detail::find_param(tf::atoms::nv::sm90::wgmma, "n");
  ASSERT_TRUE(N && N->has_range);
  EXPECT_EQ(N->lo, 8);
  EXPECT_EQ(N->hi, 256);
  EXPECT_EQ(N->step, 8);
  int Forms = 0;
  for (tf::DType Type : {tf::DType::bf16, tf::DType::f16, tf::DType::fp8e4m3})
    for (std::int64_t Cols = N->lo; Cols <= N->hi; Cols += N->step) {
      SCOPED_TRACE(std::string(tf::name(Type)) + " n=" + std::to_string(Cols));
      const tf::MatchReport M = recorded(Cols, Type);
      EXPECT_EQ(M.accepted, Cols != 8);
      llvm::Expected<tf::lower::RegisterFragment> R =
          tf::lower::RegisterFragment::fromMatch(tf::atoms::nv::sm90::wgmma,
                                                 M, "C");
      ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
      ASSERT_EQ(R->threads(), 128);
      ASSERT_EQ(R->registers(), Cols / 2);
      EXPECT_EQ(R->rows(), 64);
      EXPECT_EQ(R->columns(), Cols);
      int Wrong = 0;
      for (std::int64_t T = 0; T < 128; ++T)
        for (std::int64_t Reg = 0; Reg < Cols / 2; ++Reg) {
          const tf::lower::FragmentCoord Ptx = ptxAccumulator(T, Reg);
          const tf::sm90::wgmma::FragmentCoord Runtime =
              tf::sm90::wgmma::accumulator_coord(static_cast<int>(T),
                                                 static_cast<int>(Reg));
          Wrong += R->coord(T, Reg) != Ptx;
          Wrong += Runtime.row != Ptx.Row || Runtime.col != Ptx.Col;
        }
      EXPECT_EQ(Wrong, 0);
      ++Forms;
    }
  EXPECT_EQ(Forms, 3 * 32);
}

// Without the contract's numbering the shard's own local index would
// number the registers (h, j, e) lexicographically: register 2 would be
// column 8, not row 8. The numbering is what makes the map PTX's.
TEST(RegisterFragment, NumberingComesFromTheContract) {
  tf::Contract Lexicographic = tf::atoms::nv::sm90::wgmma;
  tf::LayoutPattern C = Lexicographic.operands[3].layouts[0];
  ASSERT_EQ(C.register_strides,
            (tf::FixedVector<std::int64_t, 8>{2, 4, 1}));
  C.register_strides = {};
  tf::OperandPattern Ops[4] = {Lexicographic.operands[0],
                               Lexicographic.operands[1],
                               Lexicographic.operands[2],
                               Lexicographic.operands[3]};
  Ops[3].layouts = tf::List<tf::LayoutPattern>(&C, 1);
  Lexicographic.operands = Ops;
  const tf::MatchReport M = tf_test::wgmmaMatch(64, tf::DType::bf16);
  ASSERT_TRUE(M.accepted);
  llvm::Expected<tf::lower::RegisterFragment> R =
      tf::lower::RegisterFragment::fromMatch(Lexicographic, M, "C");
  ASSERT_TRUE(bool(R)) << llvm::toString(R.takeError());
  EXPECT_EQ(R->coord(0, 2), (tf::lower::FragmentCoord{0, 8}));
  EXPECT_EQ(ptxAccumulator(0, 2), (tf::lower::FragmentCoord{8, 0}));
}

TEST(RegisterFragment, RefusesAnOperandWithoutOne) {
  const tf::MatchReport M = tf_test::wgmmaMatch(64, tf::DType::bf16);
  llvm::Expected<tf::lower::RegisterFragment> R =
      tf::lower::RegisterFragment::fromMatch(tf::atoms::nv::sm90::wgmma, M,
                                             "B");
  ASSERT_FALSE(bool(R));
  EXPECT_EQ(llvm::toString(R.takeError()),
            "the register fragment of operand 'B' of nv.sm90.Wgmma: the "
            "match recorded none");
}

} // namespace
