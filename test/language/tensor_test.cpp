// Tensors: indexing through the H200 GEMM's layouts and swizzles, dynamic
// extents and strides, bounded windows, buffers and rings.
#include "tf/ops/buffer.hpp"
#include "tf/tensor.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <set>
#include <vector>

namespace {

// Decision (4): the lhs slot, a row-major 128x64 bf16 tile, 128-byte swizzle.
using LhsSlot = tf::Tensor<tf::bf16, "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)", tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16, "((4,2,8),(4,64)):((4096,512,64),(1024,1)) | Swizzle(3,4,3)", tf::smem>;
// Decision (3): the accumulator, grouped into its M and N modes.
using Acc = tf::Tensor<float, "((2@group,4@warp,2,8@lane8),(32,4@lane4,2)):((16384,16,8,1),(512,128,64))", tf::rmem>;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

static_assert(LhsSlot::rank == 2 && LhsSlot::static_extent(0) == 128 && LhsSlot::static_extent(1) == 64);
static_assert(LhsSlot::is_static && LhsSlot::text.has_swizzle);
static_assert(Acc::static_extent(0) == 128 && Acc::static_extent(1) == 256);
static_assert(Matrix::dynamic_extents == 2 && Matrix::dynamic_strides == 1);
static_assert(Matrix::static_extent(0) == -1);
static_assert(sizeof(Matrix) <= 48, "a view holds the pointer and its run-time values");
static_assert(tf::TensorLike<Matrix> && tf::TensorLike<tf::Buffer<Acc>>);

TEST(Tensor, SwizzledLhsSlotElementsLandWhereTheSwizzleSays) {
  tf::Buffer<LhsSlot> buf;
  const LhsSlot &t = buf.view();
  EXPECT_EQ(buf.cosize(), 128 * 64);
  std::set<std::int64_t> seen;
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < 64; ++k) {
      // Byte address of the row-major element, bits 7..9 XORed into 4..6.
      std::int64_t byte = 2 * (64 * m + k);
      std::int64_t want = (byte ^ ((byte >> 3) & 0x70)) / 2;
      ASSERT_EQ(t.offset({m, k}), want) << m << "," << k;
      seen.insert(want);
      t(m, k) = tf::bf16(float(m * 64 + k));
    }
  EXPECT_EQ(seen.size(), 128u * 64u);
  // The 16-byte chunk of row 1, column 0 moves to chunk 1 (byte 144).
  EXPECT_EQ(float(buf.data()[72]), 64.0f);
  EXPECT_EQ(float(t(1, 0)), 64.0f);
  EXPECT_EQ(t(127, 63).get(), tf::bf16(127.0f * 64 + 63));
}

TEST(Tensor, RhsSlotAgreesWithComposedLayoutEvaluation) {
  constexpr tf::ComposedLayout c = tf::composed_layout<
      "((4,2,8),(4,64)):((4096,512,64),(1024,1)) | Swizzle(3,4,3)">;
  RhsSlot t(nullptr);
  for (int k = 0; k < 64; ++k)
    for (int n = 0; n < 256; n += 3)
      ASSERT_EQ(t.offset({k, n}), tf::evaluate(c, tf::IntTuple{k, n}, 2).value());
}

TEST(Tensor, AccumulatorIndexesTheShardCodomain) {
  tf::Buffer<Acc> acc;
  EXPECT_EQ(acc.cosize(), 128 * 256);
  const Acc &a = acc.view();
  EXPECT_EQ(a.offset({0, 0}), 0);
  EXPECT_EQ(a.offset({64, 0}), 16384);  // 2@group
  EXPECT_EQ(a.offset({16, 0}), 16);     // 4@warp
  EXPECT_EQ(a.offset({1, 0}), 1);       // 8@lane8
  EXPECT_EQ(a.offset({0, 1}), 64);      // e
  EXPECT_EQ(a.offset({0, 2}), 128);     // 4@lane4
  EXPECT_EQ(a.offset({0, 8}), 512);
  std::set<std::int64_t> seen;
  for (int m = 0; m < 128; ++m)
    for (int n = 0; n < 256; ++n)
      seen.insert(a.offset({m, n}));
  EXPECT_EQ(seen.size(), 128u * 256u);
  EXPECT_EQ(*seen.rbegin(), 128 * 256 - 1);
}

TEST(Tensor, DynamicExtentsAndStrides) {
  std::vector<tf::bf16> data(7 * 5);
  Matrix t(data.data(), {7, 5});
  EXPECT_EQ(t.extent(0), 7);
  EXPECT_EQ(t.extent(1), 5);
  EXPECT_EQ(t.size(), 35);
  EXPECT_EQ(t.offset({2, 3}), 13);
  tf::Layout l = t.layout();
  EXPECT_EQ(l.shape.leaf_at(0).value, 7);
  EXPECT_EQ(l.stride.leaf_at(0).value, 5);
  t(2, 3) = 1.5f;
  EXPECT_EQ(float(data[13]), 1.5f);
  float x = t(2, 3);
  EXPECT_EQ(x, 1.5f);
  t(2, 3) += 1.0f;
  EXPECT_EQ(float(t(2, 3)), 2.5f);

  // A column-major view with an explicit leading dimension.
  tf::Tensor<float, "(?,?):(1,?)"> cm(nullptr, {4, 3}, {10});
  EXPECT_EQ(cm.offset({1, 2}), 21);
  // Static extents, run-time strides.
  tf::Tensor<float, "(?,8):(?,1)"> padded(nullptr, {4}, {16});
  EXPECT_EQ(padded.offset({3, 7}), 55);
  // A hierarchical mode: coordinates are linear indices into each mode.
  tf::Tensor<int, "((2,3),4):((1,2),6)"> h(nullptr);
  EXPECT_EQ(h.extent(0), 6);
  EXPECT_EQ(h.offset({4, 1}), 1 * 1 + 1 * 2 + 6);  // 4 = (1,1)
}

TEST(Tensor, WindowsAtTheEdgesAreBounded) {
  const int M = 100, K = 70;
  std::vector<float> data(M * K + 16, -7.0f);
  tf::Tensor<float, "(?,?)"> t(data.data(), {M, K});
  for (int i = 0; i < M * K; ++i)
    data[i] = float(i);
  auto w = t.tile<32, 32>(96, 64);
  static_assert(decltype(w)::static_extent(0) == 32);
  EXPECT_EQ(w.valid_extent(0), 4);
  EXPECT_EQ(w.valid_extent(1), 6);
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      float want = i < 4 && j < 6 ? float((96 + i) * K + 64 + j) : 0.0f;
      ASSERT_EQ(float(w(i, j)), want) << i << "," << j;
      EXPECT_EQ(w(i, j).in_bounds(), i < 4 && j < 6);
    }
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j)
      w(i, j) = 1000.0f;
  for (int i = 0; i < M * K; ++i) {
    bool inside = i / K >= 96 && i % K >= 64;
    ASSERT_EQ(data[i], inside ? 1000.0f : float(i)) << i;
  }
  for (int i = M * K; i < M * K + 16; ++i)
    EXPECT_EQ(data[i], -7.0f);
  // A window of a window keeps the parent's bounds.
  auto inner = w.tile<8, 8>(2, 4);
  EXPECT_EQ(inner.valid_extent(0), 2);
  EXPECT_EQ(inner.valid_extent(1), 2);
  EXPECT_EQ(float(inner(1, 1)), 1000.0f);
  EXPECT_EQ(float(inner(2, 0)), 0.0f);
  // Entirely outside.
  auto outside = t.tile<16, 16>(112, 0);
  EXPECT_EQ(outside.valid_extent(0), 0);
  EXPECT_EQ(float(outside(0, 0)), 0.0f);
}

TEST(Tensor, BuffersHaveValueSemantics) {
  using Tile = tf::Tensor<float, "(4,8)", tf::rmem>;
  auto a = tf::zeros<Tile>();
  a(1, 2) = 3.0f;
  tf::Buffer<Tile> b = a;
  b(1, 2) = 4.0f;
  EXPECT_EQ(float(a(1, 2)), 3.0f);
  EXPECT_EQ(float(b(1, 2)), 4.0f);
  Tile view = a;
  EXPECT_EQ(view.data(), a.data());
  auto e = tf::empty<Tile>();
  EXPECT_TRUE(std::isnan(float(e(0, 0))));
  auto d = tf::zeros<tf::Tensor<float, "(?,8)", tf::smem>>({5});
  EXPECT_EQ(d.extent(0), 5);
  EXPECT_EQ(d.cosize(), 40);
  EXPECT_EQ(float(d(4, 7)), 0.0f);
}

TEST(Tensor, RingRotatesItsSlots) {
  tf::Ring<LhsSlot, 3> ring;
  static_assert(tf::Ring<LhsSlot, 3>::buffers == 3);
  LhsSlot s0 = ring.next(), s1 = ring.next(), s2 = ring.next(), s3 = ring.next();
  EXPECT_EQ(ring.count(), 4);
  EXPECT_NE(s0.data(), s1.data());
  EXPECT_NE(s1.data(), s2.data());
  EXPECT_EQ(s3.data(), s0.data());  // tile k goes to slot k % 3
  EXPECT_EQ(ring.slot(5).data(), s2.data());
  s1(3, 4) = tf::bf16(2.0f);
  EXPECT_EQ(float(ring.slot(4)(3, 4)), 2.0f);
}

} // namespace
