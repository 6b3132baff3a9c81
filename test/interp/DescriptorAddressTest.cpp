//===- test/interp/DescriptorAddressTest.cpp - WGMMA reads the layouts ---===//
//
// The interpreter's WGMMA address function (interp::operandAddress, written
// from the PTX ISA's canonical layouts) against the descriptors the
// compiler derives from operand layouts (lower::wgmmaDescriptor, through
// the contract engine): for every atom of a 128 x 256 x 64 bf16 tile and
// every element (mn, k) of it, the byte the hardware reads through the
// encoded descriptor must be the byte where the operand's layout (swizzle
// included) puts element (64 * block + mn, 16 * kstep + k). K-major and
// MN-major A and B, in the 128-, 64- and 32-byte swizzles and without.
//
//===----------------------------------------------------------------------===//
#include "interp/Machine.h"
#include "lower/sm90/Descriptor.h"

#include "tf/atoms/nv/sm90/wgmma.hpp"
#include "tf/contract/describe.hpp"
#include "tf/layout/text/parse.hpp"

#include <gtest/gtest.h>

namespace {

const tf::Mesh Threads =
    tf::mesh("thread", tf::IntTuple{3, 128}, "warpgroup", "participant");
const tf::Mesh Compute =
    Threads.sub(tf::range(1, 3), tf::_)
        .reshape(tf::IntTuple{2, 4, 8, 4}, "group", "warp", "lane8", "lane4");

tf::ComposedLayout composed(const char *Text) {
  tf::Result<tf::ComposedLayout> L = tf::parse_composed_layout(Text);
  EXPECT_TRUE(L.ok()) << Text;
  return L ? *L : tf::ComposedLayout{};
}

/// The engine's report for A (128 x 64) and B (64 x 256) in these layouts,
/// as Lower.cpp builds it for the optimal GEMM's WGMMA site.
tf::MatchReport matchGemm(const char *A, const char *B, const char *AMajor,
                          const char *BMajor) {
  tf::LayoutText Acc =
      tf::parse_layout_text("(2@group,4@warp,2,8@lane8,32,4@lane4,2):"
                            "(16384,16,8,1,512,128,64)")
          .value();
  tf::Site S;
  S.mesh = Compute;
  S.params = {tf::arg("n", 256), tf::arg("dtype", tf::DType::bf16),
              tf::arg("form", tf::choice("SS")),
              tf::arg("a_major", tf::choice(AMajor)),
              tf::arg("b_major", tf::choice(BMajor))};
  S.operands = {
      tf::site_operand("A", {128, 64}, tf::DType::bf16, tf::Storage::smem,
                       composed(A)),
      tf::site_operand("B", {64, 256}, tf::DType::bf16, tf::Storage::smem,
                       composed(B)),
      tf::site_operand("C", {128, 256}, tf::DType::f32, tf::Storage::rmem,
                       tf::make_shard(Acc.layout, Acc.axes, Compute).value()),
  };
  S.repeat = {2, 1, 4};
  tf::MatchReport R = tf::match(tf::atoms::nv::sm90::wgmma, S);
  EXPECT_TRUE(R.accepted) << tf::describe(R, tf::atoms::nv::sm90::wgmma);
  return R;
}

/// Checks every atom of one operand: \p Blocks atoms along MN, 4 k-steps.
/// A is (m, k) of 128 x 64, B is (k, n) of 64 x 256.
void checkOperand(const tf::MatchReport &R, const char *Name,
                  const char *LayoutText, bool MNMajor) {
  const bool IsA = std::string(Name) == "A";
  const tf::OperandFragment *F = R.fragment(Name);
  ASSERT_NE(F, nullptr);
  const tf::ComposedLayout L = composed(LayoutText);
  const std::int64_t Rows = IsA ? 64 : 256; // the atom's MN extent
  const std::int64_t Blocks = IsA ? 2 : 1;
  // The view sits at 16384 bytes, on every swizzle period.
  const std::int64_t View = 16384;
  for (std::int64_t Block = 0; Block < Blocks; ++Block)
    for (std::int64_t KStep = 0; KStep < 4; ++KStep) {
      std::vector<std::int64_t> Coord =
          IsA ? std::vector<std::int64_t>{Block, KStep}
              : std::vector<std::int64_t>{KStep, Block};
      llvm::Expected<tf::lower::sm90::SmemDescriptor> D =
          tf::lower::sm90::wgmmaDescriptor(*F, tf::DType::bf16, Coord);
      ASSERT_TRUE(bool(D)) << llvm::toString(D.takeError());
      llvm::Expected<std::uint64_t> Bits =
          tf::interp::encodeDescriptor(*D, View + D->Start);
      ASSERT_TRUE(bool(Bits)) << llvm::toString(Bits.takeError());
      const tf::interp::MatrixDescriptor M =
          tf::interp::decodeDescriptor(*Bits);
      ASSERT_EQ(M.BaseOffset, 0);
      int Mismatches = 0;
      for (std::int64_t MN = 0; MN < Rows; ++MN)
        for (std::int64_t K = 0; K < 16; ++K) {
          const std::int64_t Row = Block * Rows + MN, Col = KStep * 16 + K;
          // The tile's linear index, read lexicographically: (m, k) of A,
          // (k, n) of B.
          const std::int64_t Linear = IsA ? Row * 64 + Col : Col * 256 + Row;
          tf::Result<std::int64_t> Want = tf::byte_offset(L, Linear, 2);
          ASSERT_TRUE(Want.ok());
          const std::int64_t Got =
              tf::interp::operandAddress(M, MNMajor, 2, MN, K);
          if (Got != View + *Want && ++Mismatches <= 4)
            ADD_FAILURE() << Name << " " << LayoutText << " atom (" << Block
                          << ", " << KStep << ") element (" << MN << ", " << K
                          << "): reads byte " << Got - View
                          << ", the layout puts it at " << *Want;
        }
      EXPECT_EQ(Mismatches, 0) << Name << " " << LayoutText << " atom ("
                               << Block << ", " << KStep << ")";
    }
}

// A K-major in each mode (B the optimal GEMM's N-major one).
const char *const BNMajor128 = "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)";
const char *const AKMajor128 =
    "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)";

struct Case {
  const char *Name;
  const char *A, *B, *AMajor, *BMajor;
};

class DescriptorAddress : public ::testing::TestWithParam<Case> {};

TEST_P(DescriptorAddress, ReadsTheLayoutsElements) {
  const Case C = GetParam();
  tf::MatchReport R = matchGemm(C.A, C.B, C.AMajor, C.BMajor);
  ASSERT_TRUE(R.accepted);
  checkOperand(R, "A", C.A, std::string(C.AMajor) == "MN");
  checkOperand(R, "B", C.B, std::string(C.BMajor) == "MN");
}

INSTANTIATE_TEST_SUITE_P(
    Layouts, DescriptorAddress,
    ::testing::Values(
        // The optimal GEMM: A K-major and B N-major, 128B.
        Case{"Optimal", AKMajor128, BNMajor128, "K", "MN"},
        // A K-major, 64B / 32B / none.
        Case{"AK64", "((16,8),(2,32)):((256,32),(4096,1)) | Swizzle(2,4,3)",
             BNMajor128, "K", "MN"},
        Case{"AK32", "((16,8),(4,16)):((128,16),(2048,1)) | Swizzle(1,4,3)",
             BNMajor128, "K", "MN"},
        Case{"AKNone", "((16,8),(8,8)):((64,8),(1024,1))", BNMajor128, "K",
             "MN"},
        // A M-major, 128B / 64B / 32B / none.
        Case{"AM128", "((2,64),64):((4096,1),64) | Swizzle(3,4,3)", BNMajor128,
             "MN", "MN"},
        Case{"AM64", "((4,32),64):((2048,1),32) | Swizzle(2,4,3)", BNMajor128,
             "MN", "MN"},
        Case{"AM32", "((8,16),64):((1024,1),16) | Swizzle(1,4,3)", BNMajor128,
             "MN", "MN"},
        Case{"AMNone", "((16,8),(8,8)):((64,1),(1024,8))", BNMajor128, "MN",
             "MN"},
        // B K-major, 128B / 64B / 32B / none.
        Case{"BK128", AKMajor128, "(64,256):(1,64) | Swizzle(3,4,3)", "K", "K"},
        Case{"BK64", AKMajor128, "((2,32),256):((8192,1),32) | Swizzle(2,4,3)",
             "K", "K"},
        Case{"BK32", AKMajor128, "((4,16),256):((4096,1),16) | Swizzle(1,4,3)",
             "K", "K"},
        Case{"BKNone", AKMajor128, "((8,8),(32,8)):((2048,1),(64,8))", "K",
             "K"},
        // B N-major, 64B / 32B / none.
        Case{"BN64", AKMajor128, "(64,(8,32)):(32,(2048,1)) | Swizzle(2,4,3)",
             "K", "MN"},
        Case{"BN32", AKMajor128, "(64,(16,16)):(16,(1024,1)) | Swizzle(1,4,3)",
             "K", "MN"},
        Case{"BNNone", AKMajor128, "((8,8),(32,8)):((2048,8),(64,1))", "K",
             "MN"}),
    [](const ::testing::TestParamInfo<Case> &P) {
      return std::string(P.param.Name);
    });

} // namespace
