//===- tf/runtime/host/tensor_map.hpp - TMA descriptors for tensor args ---===//
//
// Builds the CUtensorMap a kernel's tma::load / tma::store use, from the
// type-erased tensor a launcher receives (tf/runtime/kernel_args.hpp):
//
//   const std::uint32_t box[] = {128, 64};            // outermost first
//   const std::uint32_t order[] = {0, 1};  // the tensor dimension of each
//   CUtensorMap a_map = tf::runtime::make_tensor_map(a, box, order,
//       tf::runtime::TmaSwizzle::bytes128, check);
//
// The box order puts the tensor's unit-stride dimension innermost (TMA's
// dimension 0): {1, 0} boxes a column-major matrix, box extents and the
// copies' coordinates listed in that order.
//
// Boxes reaching past the tensor's extents are zero-filled on load and
// clipped on store, so M, N, K need not be multiples of the tile. What the
// hardware cannot do is reported with the kernel's name instead of letting
// the driver answer "invalid argument": a non-unit innermost stride, other
// strides that are not multiples of 16 bytes (a bf16 matrix needs a row
// length divisible by 8), a pointer not 16-byte aligned, a box extent
// outside 1..256, a swizzled box row longer than its swizzle span, memory
// the GPU cannot read (a host pointer handed to a generated kernel).
//
// cuTensorMapEncodeTiled is a driver function; it is fetched through the
// runtime's cudaGetDriverEntryPointByVersion, so nothing links libcuda.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/host/check.hpp"
#include "tf/runtime/kernel_args.hpp"

#include <cuda.h>
#include <cudaTypedefs.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <span>

namespace tf::runtime {

/// How TMA swizzles a box in shared memory; bytes128 is the layout WGMMA's
/// 128-byte swizzle mode reads (Swizzle(3,4,3) acting on byte offsets).
enum class TmaSwizzle { none, bytes32, bytes64, bytes128 };

/// The span of bytes one swizzle pattern covers: the longest box row.
constexpr std::uint32_t swizzle_span(TmaSwizzle s) {
  switch (s) {
  case TmaSwizzle::none:
    return 0;
  case TmaSwizzle::bytes32:
    return 32;
  case TmaSwizzle::bytes64:
    return 64;
  case TmaSwizzle::bytes128:
    return 128;
  }
  return 0;
}

namespace detail {

inline CUtensorMapDataType tma_data_type(DType t, const CudaCheck &check) {
  switch (t) {
  case DType::bf16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::f16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::f32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::tf32:
    return CU_TENSOR_MAP_DATA_TYPE_TFLOAT32;
  case DType::f64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case DType::i32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  // TMA copies bytes; the 8-bit types need no conversion.
  case DType::fp8e4m3:
  case DType::fp8e5m2:
  case DType::i8:
  case DType::u8:
    return CU_TENSOR_MAP_DATA_TYPE_UINT8;
  }
  check.fail("tensor map: unknown element type %d", static_cast<int>(t));
}

inline CUtensorMapSwizzle tma_swizzle(TmaSwizzle s) {
  switch (s) {
  case TmaSwizzle::none:
    return CU_TENSOR_MAP_SWIZZLE_NONE;
  case TmaSwizzle::bytes32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case TmaSwizzle::bytes64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case TmaSwizzle::bytes128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  }
  return CU_TENSOR_MAP_SWIZZLE_NONE;
}

/// cuTensorMapEncodeTiled, looked up once per program.
inline PFN_cuTensorMapEncodeTiled_v12000
encode_tiled_function(const CudaCheck &check) {
  static PFN_cuTensorMapEncodeTiled_v12000 fn = [&check] {
    void *p = nullptr;
    cudaDriverEntryPointQueryResult found{};
    check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                           cudaEnableDefault, &found),
          "cudaGetDriverEntryPointByVersion(cuTensorMapEncodeTiled)");
    if (found != cudaDriverEntryPointSuccess || !p)
      check.fail("the driver has no cuTensorMapEncodeTiled (query result "
                 "%d); TMA needs a CUDA 12 driver",
                 static_cast<int>(found));
    return reinterpret_cast<PFN_cuTensorMapEncodeTiled_v12000>(p);
  }();
  return fn;
}

} // namespace detail

/// What cuTensorMapEncodeTiled is given for a tensor and a box, innermost
/// dimension first as the driver lists them (tf lists them outermost first).
struct TensorMapArguments {
  cuuint32_t rank = 0;
  cuuint64_t extents[5] = {};
  cuuint64_t strides[4] = {}; ///< bytes, of dimensions 1..rank-1
  cuuint32_t boxes[5] = {};
  cuuint32_t element_strides[5] = {};
};

/// The driver's arguments for boxes of extents `box` of tensor `t` in global
/// memory, in box order `order`: box dimension j (outermost first) is the
/// tensor's dimension order[j], and its extent is box[j]. The last one is
/// the driver's dimension 0, which must have stride 1: a column-major
/// matrix (strides (1, ld)) is addressed in order {1, 0}. Stops the
/// program, naming the kernel and the argument's problem, when the
/// hardware cannot address `t` this way. Needs no driver and no GPU.
inline TensorMapArguments
tensor_map_arguments(const TensorArg &t, std::span<const std::uint32_t> box,
                     std::span<const std::uint32_t> order, TmaSwizzle swizzle,
                     const CudaCheck &check) {
  if (t.storage != Storage::gmem)
    check.fail("tensor map: the tensor is in %.*s, TMA reads global memory",
               static_cast<int>(name(t.storage).size()),
               name(t.storage).data());
  if (t.rank < 1 || t.rank > 5)
    check.fail("tensor map: rank %d; TMA addresses ranks 1 to 5", t.rank);
  if (static_cast<int>(box.size()) != t.rank)
    check.fail("tensor map: %zu box extents for a rank-%d tensor", box.size(),
               t.rank);
  bool seen[5] = {};
  for (std::uint32_t d : order) {
    if (d >= static_cast<std::uint32_t>(t.rank) || seen[d])
      check.fail("tensor map: the box order is not a permutation of the "
                 "tensor's %d dimensions",
                 t.rank);
    seen[d] = true;
  }
  if (static_cast<int>(order.size()) != t.rank)
    check.fail("tensor map: a box order of %zu dimensions for a rank-%d "
               "tensor",
               order.size(), t.rank);
  const std::uint64_t bytes = static_cast<std::uint64_t>(tf::bytes(t.dtype));
  const auto address = reinterpret_cast<std::uintptr_t>(t.data);
  if (address % 16 != 0)
    check.fail("tensor map: the tensor's address %p is not 16-byte aligned",
               t.data);
  const int inner = t.rank - 1; // the innermost box dimension
  if (t.strides[order[inner]] != 1)
    check.fail("tensor map: the innermost dimension has stride %lld; TMA "
               "needs it contiguous (stride 1)",
               static_cast<long long>(t.strides[order[inner]]));

  // The driver lists dimensions innermost first; tf outermost first.
  TensorMapArguments a;
  a.rank = static_cast<cuuint32_t>(t.rank);
  for (int d = 0; d < t.rank; ++d) {
    const int j = inner - d;
    const int i = static_cast<int>(order[j]);
    if (t.extents[i] < 1)
      check.fail("tensor map: dimension %d has extent %lld; TMA needs at "
                 "least 1",
                 i, static_cast<long long>(t.extents[i]));
    if (box[j] < 1 || box[j] > 256)
      check.fail("tensor map: box extent %u of dimension %d is outside 1..256",
                 box[j], i);
    a.extents[d] = static_cast<cuuint64_t>(t.extents[i]);
    a.boxes[d] = box[j];
    a.element_strides[d] = 1;
    if (d > 0) {
      const std::uint64_t stride =
          static_cast<std::uint64_t>(t.strides[i]) * bytes;
      if (t.strides[i] < 1 || stride % 16 != 0)
        check.fail("tensor map: dimension %d has a stride of %lld bytes; "
                   "TMA needs a positive multiple of 16",
                   i, static_cast<long long>(stride));
      a.strides[d - 1] = stride;
    }
  }
  const std::uint64_t row = box[inner] * bytes;
  if (swizzle == TmaSwizzle::none ? row % 16 != 0 : row > swizzle_span(swizzle))
    check.fail("tensor map: a box row of %llu bytes does not fit the "
               "swizzle (at most %u bytes, a multiple of 16 unswizzled)",
               static_cast<unsigned long long>(row), swizzle_span(swizzle));
  return a;
}

/// The box order of a tensor whose last dimension is contiguous: {0, 1, ...}.
inline constexpr std::uint32_t identity_order[] = {0, 1, 2, 3, 4};

/// tensor_map_arguments with the tensor's own order (its last dimension
/// innermost), as a row-major tensor is addressed.
inline TensorMapArguments tensor_map_arguments(const TensorArg &t,
                                               std::span<const std::uint32_t> box,
                                               TmaSwizzle swizzle,
                                               const CudaCheck &check) {
  return tensor_map_arguments(
      t, box, std::span(identity_order).first(std::min<std::size_t>(box.size(), 5)), swizzle, check);
}

/// The TMA descriptor for boxes of extents `box` of tensor `t` in global
/// memory in box order `order` (see tensor_map_arguments), OOB elements
/// zero. Stops the program, naming the kernel and the argument's problem,
/// when the hardware cannot address `t` this way.
inline CUtensorMap make_tensor_map(const TensorArg &t,
                                   std::span<const std::uint32_t> box,
                                   std::span<const std::uint32_t> order,
                                   TmaSwizzle swizzle, const CudaCheck &check) {
  TensorMapArguments a = tensor_map_arguments(t, box, order, swizzle, check);

  // Checked after the arguments: those checks need no driver, so they are
  // testable on machines without a GPU (test/runtime/tensor_map_test.cpp).
  cudaPointerAttributes where{};
  check(cudaPointerGetAttributes(&where, t.data), "cudaPointerGetAttributes");
  if (where.type != cudaMemoryTypeDevice && where.type != cudaMemoryTypeManaged)
    check.fail("tensor map: the tensor at %p is not in device memory; the "
               "generated kernel reads it on the GPU (allocate it with "
               "cudaMalloc)",
               t.data);

  CUtensorMap map{};
  check(detail::encode_tiled_function(check)(
            &map, detail::tma_data_type(t.dtype, check), a.rank, t.data,
            a.extents, a.strides, a.boxes, a.element_strides,
            CU_TENSOR_MAP_INTERLEAVE_NONE, detail::tma_swizzle(swizzle),
            CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
        "cuTensorMapEncodeTiled");
  return map;
}

/// make_tensor_map with the tensor's own order (its last dimension
/// innermost), as a row-major tensor is addressed.
inline CUtensorMap make_tensor_map(const TensorArg &t,
                                   std::span<const std::uint32_t> box,
                                   TmaSwizzle swizzle, const CudaCheck &check) {
  return make_tensor_map(t, box, std::span(identity_order).first(std::min<std::size_t>(box.size(), 5)),
                         swizzle, check);
}

} // namespace tf::runtime
