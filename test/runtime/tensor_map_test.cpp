//===- test/runtime/tensor_map_test.cpp - make_tensor_map's arguments -----===//
//
// What make_tensor_map hands cuTensorMapEncodeTiled: the driver lists
// dimensions innermost first, the launcher (and the LIR) outermost first, so
// extents, strides and box extents are reversed -- a box in the launcher's
// order would copy a 64 x 128 box where the kernel expects 128 x 64. And
// arguments TMA cannot address stop the program with a message naming the
// kernel and the problem, before any driver call (so this runs without a
// GPU). The encoding itself is exercised on the GPU by test/gpu.
//
//===----------------------------------------------------------------------===//
#include "tf/runtime/host/tensor_map.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace {

using tf::runtime::TensorArg;
using tf::runtime::TmaSwizzle;

/// A row-major bf16 matrix at a 16-byte-aligned (never dereferenced) address.
TensorArg matrix(std::int64_t rows, std::int64_t cols,
                 std::int64_t row_stride) {
  TensorArg t;
  t.data = reinterpret_cast<void *>(std::uintptr_t{1} << 20);
  t.rank = 2;
  t.dtype = tf::DType::bf16;
  t.extents[0] = rows;
  t.extents[1] = cols;
  t.strides[0] = row_stride;
  t.strides[1] = 1;
  return t;
}

void make(const TensorArg &t, std::uint32_t rows, std::uint32_t cols,
          TmaSwizzle swizzle = TmaSwizzle::bytes128) {
  const std::uint32_t box[] = {rows, cols};
  (void)tf::runtime::make_tensor_map(t, box, swizzle,
                                     tf::runtime::CudaCheck{"ex::gemm"});
}

TEST(TensorMapArguments, InnermostDimensionFirst) {
  // A 200 x 300 bf16 matrix with rows of 304 elements, boxes of 128 rows of
  // 64 columns (the optimal GEMM's A map).
  const std::uint32_t box[] = {128, 64};
  const tf::runtime::TensorMapArguments a = tf::runtime::tensor_map_arguments(
      matrix(200, 300, 304), box, TmaSwizzle::bytes128,
      tf::runtime::CudaCheck{"ex::gemm"});
  EXPECT_EQ(a.rank, 2u);
  EXPECT_EQ(a.extents[0], 300u);
  EXPECT_EQ(a.extents[1], 200u);
  EXPECT_EQ(a.boxes[0], 64u);
  EXPECT_EQ(a.boxes[1], 128u);
  EXPECT_EQ(a.strides[0], 304u * 2);
  EXPECT_EQ(a.element_strides[0], 1u);
  EXPECT_EQ(a.element_strides[1], 1u);
}

TEST(TensorMapArguments, ColumnMajorInBoxOrder) {
  // B of a 300 x 200 (K x N) GEMM stored N x K with rows of 304 (strides
  // (1, 304)), boxes of 256 columns of 64 k in box order {1, 0} (nt.cpp's
  // B map): the driver's dimension 0 is k, the contiguous one.
  TensorArg t = matrix(300, 200, 1);
  t.strides[0] = 1;
  t.strides[1] = 304;
  const std::uint32_t box[] = {256, 64}, order[] = {1, 0};
  const tf::runtime::TensorMapArguments a = tf::runtime::tensor_map_arguments(
      t, box, order, TmaSwizzle::bytes128, tf::runtime::CudaCheck{"ex::nt"});
  EXPECT_EQ(a.rank, 2u);
  EXPECT_EQ(a.extents[0], 300u);
  EXPECT_EQ(a.extents[1], 200u);
  EXPECT_EQ(a.boxes[0], 64u);
  EXPECT_EQ(a.boxes[1], 256u);
  EXPECT_EQ(a.strides[0], 304u * 2);
}

TEST(TensorMapDeathTest, TheBoxOrderIsAPermutation) {
  TensorArg t = matrix(64, 64, 64);
  const std::uint32_t box[] = {64, 64}, order[] = {1, 1};
  EXPECT_DEATH((void)tf::runtime::tensor_map_arguments(
                   t, box, order, TmaSwizzle::bytes128,
                   tf::runtime::CudaCheck{"ex::gemm"}),
               "tensor map: the box order is not a permutation of the "
               "tensor's 2 dimensions");
}

TEST(TensorMapDeathTest, TheOrdersInnermostDimensionMustBeContiguous) {
  // A row-major matrix boxed in order {1, 0}: its dimension 0 is strided.
  TensorArg t = matrix(64, 64, 64);
  const std::uint32_t box[] = {64, 64}, order[] = {1, 0};
  EXPECT_DEATH((void)tf::runtime::tensor_map_arguments(
                   t, box, order, TmaSwizzle::bytes128,
                   tf::runtime::CudaCheck{"ex::gemm"}),
               "innermost dimension has stride 64");
}

TEST(TensorMapArguments, RankThree) {
  // A batch of 3 matrices of 40 x 72 f32, each padded to 48 rows.
  TensorArg t;
  t.data = reinterpret_cast<void *>(std::uintptr_t{1} << 20);
  t.rank = 3;
  t.dtype = tf::DType::f32;
  const std::int64_t extents[] = {3, 40, 72}, strides[] = {48 * 72, 72, 1};
  for (int d = 0; d < 3; ++d) {
    t.extents[d] = extents[d];
    t.strides[d] = strides[d];
  }
  const std::uint32_t box[] = {1, 16, 8};
  const tf::runtime::TensorMapArguments a = tf::runtime::tensor_map_arguments(
      t, box, TmaSwizzle::bytes32, tf::runtime::CudaCheck{"ex::bmm"});
  EXPECT_EQ(a.rank, 3u);
  EXPECT_EQ(a.extents[0], 72u);
  EXPECT_EQ(a.extents[1], 40u);
  EXPECT_EQ(a.extents[2], 3u);
  EXPECT_EQ(a.boxes[0], 8u);
  EXPECT_EQ(a.boxes[1], 16u);
  EXPECT_EQ(a.boxes[2], 1u);
  EXPECT_EQ(a.strides[0], 72u * 4);
  EXPECT_EQ(a.strides[1], 48u * 72 * 4);
}

TEST(TensorMapDeathTest, RowsMustBeMultiplesOf16Bytes) {
  // N = 250 bf16: 500-byte rows. TMA needs a multiple of 16 (N % 8 == 0).
  EXPECT_DEATH(make(matrix(64, 250, 250), 64, 64),
               "tf: error: kernel 'ex::gemm': tensor map: dimension 0 has a "
               "stride of 500 bytes; TMA needs a positive multiple of 16");
}

TEST(TensorMapDeathTest, TheInnermostDimensionMustBeContiguous) {
  TensorArg t = matrix(64, 64, 64);
  t.strides[0] = 1;
  t.strides[1] = 64; // column-major
  EXPECT_DEATH(make(t, 64, 64), "innermost dimension has stride 64");
}

TEST(TensorMapDeathTest, BoxesHaveAtMost256ElementsPerDimension) {
  EXPECT_DEATH(make(matrix(512, 512, 512), 512, 64),
               "box extent 512 of dimension 0 is outside 1..256");
}

TEST(TensorMapDeathTest, ASwizzledBoxRowFitsTheSwizzleSpan) {
  // 128 bf16 = 256 bytes per box row; the 128B swizzle spans 128.
  EXPECT_DEATH(make(matrix(64, 512, 512), 64, 128),
               "a box row of 256 bytes does not fit the swizzle");
}

TEST(TensorMapDeathTest, PointersAre16ByteAligned) {
  TensorArg t = matrix(64, 64, 64);
  t.data = reinterpret_cast<void *>((std::uintptr_t{1} << 20) + 8);
  EXPECT_DEATH(make(t, 64, 64), "is not 16-byte aligned");
}

TEST(TensorMapDeathTest, OnlyGlobalMemoryAndRanksOneToFive) {
  TensorArg t = matrix(64, 64, 64);
  t.storage = tf::Storage::smem;
  EXPECT_DEATH(make(t, 64, 64),
               "the tensor is in smem, TMA reads global memory");
  TensorArg r = matrix(64, 64, 64);
  r.rank = 6;
  EXPECT_DEATH(make(r, 64, 64), "rank 6; TMA addresses ranks 1 to 5");
}

} // namespace
