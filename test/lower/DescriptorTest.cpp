//===- test/lower/DescriptorTest.cpp - WGMMA descriptors from layouts -----===//
//
// wgmmaDescriptor (plugin/lower/sm90/Descriptor.h) on WGMMA sites of a 128 x 256
// x 64 bf16 tile over the optimal GEMM's compute mesh, with A and B slots in
// every swizzle mode, K-major and MN-major. The expected fields follow from
// the layouts by hand: SBO is the byte distance between 8-row groups, LBO
// between the K-adjacent core matrices (no swizzle) or the MN-adjacent
// swizzle atoms (MN-major), and each atom starts where its (m, k) or (k, n)
// corner lies in the unswizzled layout. Last, the refusals behind
// err_tf_lower_descriptor, on fragments broken by hand.
//
//===----------------------------------------------------------------------===//
#include "lower/sm90/Descriptor.h"

#include "tf/atoms/nv/sm90/wgmma.hpp"
#include "tf/contract/describe.hpp"
#include "tf/layout/text/parse.hpp"

#include <gtest/gtest.h>

namespace {

using tf::lower::sm90::SmemDescriptor;
using tf::SwizzleMode;

const tf::Mesh Threads =
    tf::mesh("thread", tf::IntTuple{3, 128}, "warpgroup", "participant");
const tf::Mesh Compute = Threads.sub(tf::range(1, 3), tf::_).reshape(
    tf::IntTuple{2, 4, 8, 4}, "group", "warp", "lane8", "lane4");

tf::ComposedLayout composed(const char *Text) {
  tf::Result<tf::ComposedLayout> L = tf::parse_composed_layout(Text);
  EXPECT_TRUE(L.ok()) << Text;
  return L ? *L : tf::ComposedLayout{};
}

/// The engine's report for A (128 x 64) and B (64 x 256) in these layouts.
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

SmemDescriptor descriptor(const tf::MatchReport &R, const char *Operand,
                          std::vector<std::int64_t> Coord) {
  const tf::OperandFragment *F = R.fragment(Operand);
  EXPECT_NE(F, nullptr) << Operand;
  if (!F)
    return {};
  llvm::Expected<SmemDescriptor> D =
      tf::lower::sm90::wgmmaDescriptor(*F, tf::DType::bf16, Coord);
  EXPECT_TRUE(bool(D)) << (D ? "" : llvm::toString(D.takeError()));
  return D ? *D : SmemDescriptor{};
}

SmemDescriptor fields(std::int64_t Start, std::int64_t Lbo, std::int64_t Sbo,
                      SwizzleMode Mode) {
  SmemDescriptor D;
  D.Start = Start;
  D.LeadingUsed = Lbo >= 0;
  D.LeadingBytes = Lbo >= 0 ? Lbo : 0;
  D.StrideBytes = Sbo;
  D.Swizzle = Mode;
  return D;
}

// The K-major B of the optimal GEMM's siblings: N rows of 64 K elements.
const char *const BKMajor128 = "(64,256):(1,64) | Swizzle(3,4,3)";
// The optimal GEMM's N-major B: four 64-column panels.
const char *const BNMajor128 = "(64,(4,64)):(64,(4096,1)) | Swizzle(3,4,3)";

TEST(Descriptor, KMajorSwizzle128) {
  // 128-byte rows, 8-row groups 1024 bytes apart; k-steps 32 bytes along
  // the row (the hardware swizzles the address bits), m-blocks 64 rows.
  tf::MatchReport R = matchGemm(
      "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)", BKMajor128,
      "K", "K");
  EXPECT_EQ(descriptor(R, "A", {0, 0}), fields(0, -1, 1024, SwizzleMode::bytes128));
  EXPECT_EQ(descriptor(R, "A", {0, 3}), fields(96, -1, 1024, SwizzleMode::bytes128));
  EXPECT_EQ(descriptor(R, "A", {1, 1}), fields(8192 + 32, -1, 1024, SwizzleMode::bytes128));
  EXPECT_EQ(descriptor(R, "B", {2, 0}), fields(64, -1, 1024, SwizzleMode::bytes128));
  EXPECT_EQ(descriptor(R, "A", {0, 0}).swizzleField(), 1);
}

TEST(Descriptor, KMajorSwizzle64) {
  // 64-byte rows (32 elements): K is two column blocks of 128 rows.
  tf::MatchReport R = matchGemm(
      "((16,8),(2,32)):((256,32),(4096,1)) | Swizzle(2,4,3)", BKMajor128,
      "K", "K");
  EXPECT_EQ(descriptor(R, "A", {0, 0}), fields(0, -1, 512, SwizzleMode::bytes64));
  EXPECT_EQ(descriptor(R, "A", {0, 1}), fields(32, -1, 512, SwizzleMode::bytes64));
  EXPECT_EQ(descriptor(R, "A", {0, 2}), fields(8192, -1, 512, SwizzleMode::bytes64));
  EXPECT_EQ(descriptor(R, "A", {1, 3}), fields(4096 + 8192 + 32, -1, 512, SwizzleMode::bytes64));
  EXPECT_EQ(descriptor(R, "A", {0, 0}).swizzleField(), 2);
}

TEST(Descriptor, KMajorSwizzle32) {
  // 32-byte rows (16 elements): one column block per k-step.
  tf::MatchReport R = matchGemm(
      "((16,8),(4,16)):((128,16),(2048,1)) | Swizzle(1,4,3)", BKMajor128,
      "K", "K");
  EXPECT_EQ(descriptor(R, "A", {0, 0}), fields(0, -1, 256, SwizzleMode::bytes32));
  EXPECT_EQ(descriptor(R, "A", {1, 2}), fields(2048 + 8192, -1, 256, SwizzleMode::bytes32));
  EXPECT_EQ(descriptor(R, "A", {0, 0}).swizzleField(), 3);
}

TEST(Descriptor, KMajorInterleave) {
  // No swizzle: dense 8 x 16-byte core matrices, 128 bytes apart along M
  // (SBO) and 2048 along K (LBO); a k-step spans two core matrices.
  tf::MatchReport R = matchGemm("((16,8),(8,8)):((64,8),(1024,1))",
                                BKMajor128, "K", "K");
  EXPECT_EQ(descriptor(R, "A", {0, 0}), fields(0, 2048, 128, SwizzleMode::none));
  EXPECT_EQ(descriptor(R, "A", {1, 1}), fields(1024 + 4096, 2048, 128, SwizzleMode::none));
  EXPECT_EQ(descriptor(R, "A", {0, 0}).swizzleField(), 0);
}

TEST(Descriptor, NMajorSwizzle128) {
  // The optimal GEMM's B: 64-column panels 8192 bytes apart (LBO), 8 K rows
  // of 128 bytes per group (SBO 1024), k-steps 16 rows = 2048 bytes.
  tf::MatchReport R = matchGemm(
      "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)", BNMajor128,
      "K", "MN");
  EXPECT_EQ(descriptor(R, "B", {0, 0}), fields(0, 8192, 1024, SwizzleMode::bytes128));
  EXPECT_EQ(descriptor(R, "B", {3, 0}), fields(6144, 8192, 1024, SwizzleMode::bytes128));
}

TEST(Descriptor, NMajorSwizzle64) {
  // 32-column panels of 64-byte rows, 4096 bytes apart.
  tf::MatchReport R = matchGemm(
      "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)",
      "(64,(8,32)):(32,(2048,1)) | Swizzle(2,4,3)", "K", "MN");
  EXPECT_EQ(descriptor(R, "B", {0, 0}), fields(0, 4096, 512, SwizzleMode::bytes64));
  EXPECT_EQ(descriptor(R, "B", {1, 0}), fields(1024, 4096, 512, SwizzleMode::bytes64));
}

TEST(Descriptor, MMajorSwizzle128) {
  // A with M contiguous: 64-row runs (M blocks 8192 bytes apart), K rows of
  // 128 bytes, 8 per group (SBO 1024), k-steps 2048 bytes.
  tf::MatchReport R =
      matchGemm("((2,64),64):((4096,1),64) | Swizzle(3,4,3)", BNMajor128,
                "MN", "MN");
  SmemDescriptor D = descriptor(R, "A", {1, 2});
  EXPECT_EQ(D.Start, 8192 + 4096);
  EXPECT_EQ(D.StrideBytes, 1024);
  EXPECT_EQ(D.Swizzle, SwizzleMode::bytes128);
}

TEST(Descriptor, SwizzleModes) {
  EXPECT_EQ(tf::lower::sm90::swizzleModeOf({}), SwizzleMode::none);
  EXPECT_EQ(tf::lower::sm90::swizzleModeOf({1, 4, 3}), SwizzleMode::bytes32);
  EXPECT_EQ(tf::lower::sm90::swizzleModeOf({2, 4, 3}), SwizzleMode::bytes64);
  EXPECT_EQ(tf::lower::sm90::swizzleModeOf({3, 4, 3}), SwizzleMode::bytes128);
  // An element-unit swizzle (CuTe's Swizzle<3,3,3> on 16-bit types) is not
  // a byte-address mode.
  EXPECT_EQ(tf::lower::sm90::swizzleModeOf({3, 3, 3}), std::nullopt);
}

// The refusals behind err_tf_lower_descriptor (the rule of cuda_sm90 reports
// them at the WGMMA site). A site the contract accepted has a fragment in a
// canonical layout, so no source reaches them; they are built here by
// breaking an accepted fragment: a swizzle that is no WGMMA mode, a layout
// that binds no `sbo`, a start known only at run time.
std::string refusal(const tf::OperandFragment &F) {
  llvm::Expected<SmemDescriptor> D =
      tf::lower::sm90::wgmmaDescriptor(F, tf::DType::bf16, {0, 0});
  EXPECT_FALSE(bool(D));
  return D ? "" : llvm::toString(D.takeError());
}

TEST(Descriptor, Refusals) {
  tf::MatchReport R = matchGemm(
      "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)", BKMajor128,
      "K", "K");
  const tf::OperandFragment *A = R.fragment("A");
  ASSERT_NE(A, nullptr);

  tf::OperandFragment Element = *A;
  Element.layout.swizzle = {3, 3, 3};
  EXPECT_EQ(refusal(Element),
            "operand A: swizzle ((8,8),16):((512,64),1) | Swizzle(3,3,3) "
            "is no WGMMA swizzle mode");

  tf::OperandFragment NoSbo = *A;
  NoSbo.bindings.values = {};
  for (const tf::Binding &B : A->bindings.values)
    if (B.name != tf::Name("sbo"))
      NoSbo.bindings.values.push_back(B);
  EXPECT_EQ(refusal(NoSbo), "operand A: the canonical layout binds no sbo");

  tf::OperandFragment Dynamic = *A;
  Dynamic.layout.offset = tf::Int::dynamic();
  EXPECT_EQ(refusal(Dynamic),
            "operand A: the atom's start is not a compile-time constant");
}

} // namespace
