//===- test/interp/MachineTest.cpp - The interpreter's hardware pieces ----===//
//
// plugin/interp/Machine.h on its own: mbarrier phases and their errors, the
// shared-memory swizzles on byte addresses, TMA boxes with out-of-bounds
// fill and clipping in every swizzle mode (expected addresses written out
// from the XOR of address bits, not through the function under test),
// WGMMA opcode parsing and the descriptor's 64-bit encoding.
//
//===----------------------------------------------------------------------===//
#include "interp/Machine.h"

#include "tf/element.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace {

using tf::DType;
using tf::SwizzleMode;
using tf::interp::Mbarrier;

std::string errorText(llvm::Error E) {
  return E ? llvm::toString(std::move(E)) : std::string();
}

//===- mbarrier -----------------------------------------------------------===//

TEST(Mbarrier, PhasesAndParity) {
  Mbarrier M;
  ASSERT_FALSE(errorText(M.init(2)).size());
  // Phase 0 is pending; the phase "before" it (parity 1) counts as done.
  EXPECT_TRUE(M.parityCompleted(1));
  EXPECT_FALSE(M.parityCompleted(0));
  EXPECT_EQ(errorText(M.arrive(1)), "");
  EXPECT_EQ(M.phase(), 0);
  EXPECT_EQ(M.pendingArrivals(), 1);
  EXPECT_EQ(errorText(M.arrive(1)), "");
  // Phase 0 completed: parity flips, the count resets.
  EXPECT_EQ(M.phase(), 1);
  EXPECT_EQ(M.pendingArrivals(), 2);
  EXPECT_TRUE(M.parityCompleted(0));
  EXPECT_FALSE(M.parityCompleted(1));
  EXPECT_EQ(errorText(M.arrive(2)), "");
  EXPECT_EQ(M.phase(), 2);
  EXPECT_TRUE(M.parityCompleted(1));
}

TEST(Mbarrier, TransactionBytes) {
  Mbarrier M;
  ASSERT_EQ(errorText(M.init(1)), "");
  // arrive.expect_tx: the bytes are registered, then the arrival; the phase
  // waits for the bytes.
  EXPECT_EQ(errorText(M.expectTx(16384)), "");
  EXPECT_EQ(errorText(M.arrive(1)), "");
  EXPECT_EQ(M.phase(), 0);
  EXPECT_EQ(errorText(M.completeTx(8192)), "");
  EXPECT_EQ(M.phase(), 0);
  EXPECT_EQ(errorText(M.completeTx(8192)), "");
  EXPECT_EQ(M.phase(), 1);
  EXPECT_EQ(M.pendingTx(), 0);
  // A copy may complete before its expect_tx while the arrival is pending.
  EXPECT_EQ(errorText(M.completeTx(64)), "");
  EXPECT_EQ(M.pendingTx(), -64);
  EXPECT_EQ(errorText(M.expectTx(64)), "");
  EXPECT_EQ(errorText(M.arrive(1)), "");
  EXPECT_EQ(M.phase(), 2);
}

TEST(Mbarrier, MulticastBytesBeforeTheExpectTx) {
  // A peer CTA's multicast completes its boxes on this CTA's barrier before
  // the CTA's own producer registered the phase's bytes: the count goes
  // below zero while the arrival is pending, and the phase completes only
  // when the arrival and every byte are in.
  Mbarrier M;
  ASSERT_EQ(errorText(M.init(1)), "");
  EXPECT_EQ(errorText(M.completeTx(8192)), "");
  EXPECT_EQ(errorText(M.completeTx(8192)), "");
  EXPECT_EQ(M.pendingTx(), -16384);
  EXPECT_EQ(M.phase(), 0);
  EXPECT_EQ(M.describe(), "phase 0 (parity 0), 1 of 1 arrivals and -16384 "
                          "transaction bytes pending");
  // arrive.expect_tx of the phase's 32768 bytes: half of them still due.
  EXPECT_EQ(errorText(M.expectTx(32768)), "");
  EXPECT_EQ(errorText(M.arrive(1)), "");
  EXPECT_EQ(M.phase(), 0);
  EXPECT_EQ(M.pendingTx(), 16384);
  EXPECT_EQ(errorText(M.completeTx(8192)), "");
  EXPECT_EQ(M.phase(), 0);
  EXPECT_EQ(errorText(M.completeTx(8192)), "");
  EXPECT_EQ(M.phase(), 1);
  EXPECT_TRUE(M.parityCompleted(0));
  // The next phase the same way; the expect_tx exactly cancels the early
  // bytes, and the phase still waits for the arrival that carried it.
  EXPECT_EQ(errorText(M.completeTx(32768)), "");
  EXPECT_EQ(errorText(M.expectTx(32768)), "");
  EXPECT_EQ(M.phase(), 1);
  EXPECT_EQ(errorText(M.arrive(1)), "");
  EXPECT_EQ(M.phase(), 2);

  // PTX's range: down to -(2^20 - 1) while an arrival is pending.
  Mbarrier L;
  ASSERT_EQ(errorText(L.init(1)), "");
  EXPECT_EQ(errorText(L.completeTx(Mbarrier::MaxCount)), "");
  EXPECT_NE(errorText(L.completeTx(1)).find("below -1048575"),
            std::string::npos);
  // Bytes beyond the phase's remain an error once every arrival is in:
  // at the arrival that finds them...
  Mbarrier N;
  ASSERT_EQ(errorText(N.init(1)), "");
  EXPECT_EQ(errorText(N.completeTx(64)), "");
  EXPECT_NE(errorText(N.arrive(1)).find("64 transaction bytes completed"),
            std::string::npos);
  // ...and at the copy that completes them.
  Mbarrier P;
  ASSERT_EQ(errorText(P.init(1)), "");
  EXPECT_EQ(errorText(P.expectTx(128)), "");
  EXPECT_EQ(errorText(P.arrive(1)), "");
  EXPECT_EQ(errorText(P.completeTx(64)), "");
  EXPECT_NE(errorText(P.completeTx(128)).find("underflow"), std::string::npos);
}

TEST(Mbarrier, Errors) {
  Mbarrier M;
  EXPECT_NE(errorText(M.arrive(1)).find("never initialized"),
            std::string::npos);
  EXPECT_NE(errorText(M.init(0)).find("count 0"), std::string::npos);
  ASSERT_EQ(errorText(M.init(2)), "");
  EXPECT_NE(errorText(M.arrive(3)).find("too many arrivals"),
            std::string::npos);
  // Every arrival in, bytes beyond the expected ones: underflow.
  Mbarrier T;
  ASSERT_EQ(errorText(T.init(1)), "");
  EXPECT_EQ(errorText(T.expectTx(128)), "");
  EXPECT_EQ(errorText(T.arrive(1)), "");
  EXPECT_NE(errorText(T.completeTx(256)).find("underflow"), std::string::npos);
  Mbarrier U;
  ASSERT_EQ(errorText(U.init(1)), "");
  EXPECT_NE(errorText(U.expectTx(Mbarrier::MaxCount + 1)).find("past"),
            std::string::npos);
}

//===- Swizzle ------------------------------------------------------------===//

/// The hardware's swizzle written out: 16-byte chunk bits [4, 4+B) XOR the
/// 128-byte row bits [7, 7+B).
std::int64_t xorBits(std::int64_t Address, int B) {
  const std::int64_t Mask = (std::int64_t(1) << B) - 1;
  return Address ^ (((Address >> 7) & Mask) << 4);
}

TEST(Swizzle, ModesOnAddresses) {
  using tf::interp::swizzleAddress;
  EXPECT_EQ(swizzleAddress(SwizzleMode::bytes128, 0x380), 0x3F0);
  for (std::int64_t A = 0; A < 4096; A += 2) {
    EXPECT_EQ(swizzleAddress(SwizzleMode::none, A), A);
    EXPECT_EQ(swizzleAddress(SwizzleMode::bytes32, A), xorBits(A, 1));
    EXPECT_EQ(swizzleAddress(SwizzleMode::bytes64, A), xorBits(A, 2));
    EXPECT_EQ(swizzleAddress(SwizzleMode::bytes128, A), xorBits(A, 3));
  }
}

//===- TMA ----------------------------------------------------------------===//

struct BoxCase {
  SwizzleMode Mode;
  int Bits; // the XOR's width
  std::int64_t Inner;
};

class TmaBox : public ::testing::TestWithParam<BoxCase> {};

/// A 10 x 70 bf16 tensor (element (r, c) = r * 100 + c + 1, exact in bf16
/// up to 256 only, so values are kept small and distinct per row and
/// column modulo 256), a box of 8 rows x Inner columns at (4, 40): rows
/// 10, 11 and columns from 70 are outside.
TEST_P(TmaBox, LoadFillsZeroAndStoreClips) {
  const BoxCase C = GetParam();
  constexpr std::int64_t Rows = 10, Cols = 70;
  std::vector<tf::bf16> Global(Rows * Cols);
  for (std::int64_t R = 0; R < Rows; ++R)
    for (std::int64_t Col = 0; Col < Cols; ++Col)
      Global[R * Cols + Col] = tf::bf16(float((R * 7 + Col) % 250 + 1));
  tf::interp::TensorArg Arg{
      "t", Global.data(), DType::bf16, {Rows, Cols}, {Cols, 1}};
  tf::lower::TensorMap Map;
  Map.Tensor = "t";
  Map.Element = DType::bf16;
  Map.Box = {8, C.Inner};
  Map.Order = {0, 1};
  Map.Swizzle = C.Mode;
  ASSERT_EQ(errorText(tf::interp::checkTensorMap(Map, Arg, false)), "");

  const std::int64_t Base = 2048; // on every pattern's period
  std::vector<std::uint8_t> Smem(8192, 0xFF);
  const std::int64_t Coords[] = {4, 40};
  llvm::Expected<std::int64_t> Written =
      tf::interp::tmaLoad(Map, Arg, Coords, Smem, Base);
  ASSERT_TRUE(bool(Written)) << llvm::toString(Written.takeError());
  EXPECT_EQ(*Written, 8 * C.Inner * 2);
  for (std::int64_t R = 0; R < 8; ++R)
    for (std::int64_t Col = 0; Col < C.Inner; ++Col) {
      const std::int64_t Address =
          xorBits(Base + (R * C.Inner + Col) * 2, C.Bits);
      std::uint16_t Bits;
      std::memcpy(&Bits, &Smem[Address], 2);
      const std::int64_t GR = 4 + R, GC = 40 + Col;
      const std::uint16_t Want =
          GR < Rows && GC < Cols ? Global[GR * Cols + GC].bits : 0;
      EXPECT_EQ(Bits, Want) << "box element (" << R << ", " << Col << ")";
    }
  // Nothing outside the box's bytes was written.
  for (std::int64_t A = 0; A < Base; ++A)
    EXPECT_EQ(Smem[A], 0xFF);
  for (std::int64_t A = Base + 8 * C.Inner * 2; A < 8192; ++A)
    EXPECT_EQ(Smem[A], 0xFF);

  // The store writes back what is inside the tensor and nothing else.
  std::vector<tf::bf16> Out(Rows * Cols, tf::bf16::from_bits(0x7FC1));
  tf::interp::TensorArg OutArg{
      "t", Out.data(), DType::bf16, {Rows, Cols}, {Cols, 1}};
  ASSERT_EQ(errorText(tf::interp::tmaStore(Map, OutArg, Coords, Smem, Base)),
            "");
  for (std::int64_t R = 0; R < Rows; ++R)
    for (std::int64_t Col = 0; Col < Cols; ++Col) {
      const bool InBox = R >= 4 && R < 12 && Col >= 40 && Col < 40 + C.Inner;
      EXPECT_EQ(Out[R * Cols + Col].bits,
                InBox ? Global[R * Cols + Col].bits : 0x7FC1)
          << "(" << R << ", " << Col << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(Modes, TmaBox,
                         ::testing::Values(BoxCase{SwizzleMode::bytes128, 3,
                                                   64},
                                           BoxCase{SwizzleMode::bytes64, 2, 32},
                                           BoxCase{SwizzleMode::bytes32, 1, 16},
                                           BoxCase{SwizzleMode::none, 0, 24}));

TEST(TmaBox, NegativeCoordinatesReadZero) {
  std::vector<float> Global(16 * 16);
  for (std::size_t I = 0; I < Global.size(); ++I)
    Global[I] = float(I + 1);
  tf::interp::TensorArg Arg{"t", Global.data(), DType::f32, {16, 16}, {16, 1}};
  tf::lower::TensorMap Map;
  Map.Tensor = "t";
  Map.Element = DType::f32;
  Map.Box = {4, 4};
  Map.Order = {0, 1};
  std::vector<std::uint8_t> Smem(64, 0xFF);
  const std::int64_t Coords[] = {-2, 14};
  llvm::Expected<std::int64_t> W =
      tf::interp::tmaLoad(Map, Arg, Coords, Smem, 0);
  ASSERT_TRUE(bool(W)) << llvm::toString(W.takeError());
  for (int R = 0; R < 4; ++R)
    for (int C = 0; C < 4; ++C) {
      float V;
      std::memcpy(&V, &Smem[(R * 4 + C) * 4], 4);
      const int GR = R - 2, GC = 14 + C;
      EXPECT_EQ(V, GR >= 0 && GC < 16 ? Global[GR * 16 + GC] : 0.0f);
    }
}

TEST(TmaBox, MapChecks) {
  std::vector<tf::bf16> Global(10 * 300);
  tf::interp::TensorArg Arg{
      "t", Global.data(), DType::bf16, {10, 300}, {300, 1}};
  tf::lower::TensorMap Map;
  Map.Tensor = "t";
  Map.Element = DType::bf16;
  Map.Box = {8, 64};
  Map.Order = {0, 1};
  Map.Swizzle = SwizzleMode::bytes64;
  EXPECT_NE(errorText(tf::interp::checkTensorMap(Map, Arg, false))
                .find("128 bytes under the 64-byte swizzle"),
            std::string::npos);
  Map.Swizzle = SwizzleMode::bytes128;
  EXPECT_EQ(errorText(tf::interp::checkTensorMap(Map, Arg, false)), "");
  // 300 bf16 = 600 bytes a row: cuTensorMapEncodeTiled would refuse it.
  EXPECT_NE(errorText(tf::interp::checkTensorMap(Map, Arg, true))
                .find("stride of 600 bytes"),
            std::string::npos);
  Map.Element = DType::f16;
  EXPECT_NE(
      errorText(tf::interp::checkTensorMap(Map, Arg, false)).find("holds bf16"),
      std::string::npos);
  Map.Element = DType::bf16;
  Map.Box = {8, 300};
  Map.Order = {0, 1};
  EXPECT_NE(errorText(tf::interp::checkTensorMap(Map, Arg, false))
                .find("outside 1..256"),
            std::string::npos);
}

//===- WGMMA --------------------------------------------------------------===//

TEST(WgmmaAtom, ChecksTheShape) {
  using tf::lower::MmaAtom;
  for (const MmaAtom &Good :
       {MmaAtom{64, 256, 16, DType::bf16, DType::bf16, DType::f32},
        MmaAtom{64, 64, 8, DType::tf32, DType::tf32, DType::f32},
        MmaAtom{64, 8, 16, DType::f16, DType::f16, DType::f32}}) {
    llvm::Error E = tf::interp::checkWgmmaAtom(Good);
    EXPECT_FALSE(bool(E)) << llvm::toString(std::move(E));
  }
  for (const MmaAtom &Bad :
       {MmaAtom{64, 256, 32, DType::bf16, DType::bf16, DType::f32},
        MmaAtom{64, 257, 16, DType::bf16, DType::bf16, DType::f32},
        MmaAtom{128, 256, 16, DType::bf16, DType::bf16, DType::f32},
        MmaAtom{64, 256, 16, DType::bf16, DType::fp8e4m3, DType::f32}}) {
    llvm::Error E = tf::interp::checkWgmmaAtom(Bad);
    EXPECT_TRUE(bool(E)) << tf::lower::sm90::wgmmaOpcode(Bad);
    llvm::consumeError(std::move(E));
  }
}

TEST(Descriptor, EncodesTheFields) {
  tf::lower::sm90::SmemDescriptor D;
  D.Start = 96;
  D.LeadingUsed = false;
  D.StrideBytes = 1024;
  D.Swizzle = SwizzleMode::bytes128;
  llvm::Expected<std::uint64_t> Bits =
      tf::interp::encodeDescriptor(D, 49152 + 96);
  ASSERT_TRUE(bool(Bits)) << llvm::toString(Bits.takeError());
  EXPECT_EQ(*Bits & 0x3FFF, (49152u + 96) >> 4);
  EXPECT_EQ((*Bits >> 16) & 0x3FFF, 1u); // unused LBO: 1
  EXPECT_EQ((*Bits >> 32) & 0x3FFF, 64u);
  EXPECT_EQ((*Bits >> 49) & 0x7, 0u);
  EXPECT_EQ(*Bits >> 62, 1u);
  tf::interp::MatrixDescriptor M = tf::interp::decodeDescriptor(*Bits);
  EXPECT_EQ(M.StartAddress, 49152 + 96);
  EXPECT_EQ(M.StrideBytes, 1024);
  EXPECT_EQ(M.Mode, SwizzleMode::bytes128);

  D.LeadingUsed = true;
  D.LeadingBytes = 8192;
  D.Swizzle = SwizzleMode::bytes32;
  Bits = tf::interp::encodeDescriptor(D, 0);
  ASSERT_TRUE(bool(Bits));
  EXPECT_EQ((*Bits >> 16) & 0x3FFF, 512u);
  EXPECT_EQ(*Bits >> 62, 3u);
  EXPECT_EQ(tf::interp::decodeDescriptor(*Bits).LeadingBytes, 8192);

  // Not multiples of 16, or too large for 14 bits: refused.
  D.StrideBytes = 1000;
  Bits = tf::interp::encodeDescriptor(D, 0);
  EXPECT_FALSE(bool(Bits));
  llvm::consumeError(Bits.takeError());
  D.StrideBytes = 1024;
  D.LeadingBytes = 1 << 18;
  Bits = tf::interp::encodeDescriptor(D, 0);
  EXPECT_FALSE(bool(Bits));
  llvm::consumeError(Bits.takeError());
  D.LeadingBytes = 16;
  Bits = tf::interp::encodeDescriptor(D, 40);
  EXPECT_FALSE(bool(Bits));
  llvm::consumeError(Bits.takeError());
}

} // namespace
