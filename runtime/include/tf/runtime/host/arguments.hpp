//===- tf/runtime/host/arguments.hpp - A launcher's argument checks -------===//
//
// What a generated launcher checks of the type-erased arguments before it
// builds tensor maps: each tensor parameter gets a tensor of the dtype and
// rank the kernel was generated for, with extents that fit the kernel's
// 32-bit index arithmetic (tensor_arg), in device memory (device_tensor: a
// host pointer would make the GPU fault far from the cause). A tensor the
// kernel reads through a tensor map is checked for device memory when its
// map is encoded (make_tensor_map), which a launch on buffers seen before
// skips (cached_tensor_map); so the launcher calls tensor_arg for it, and
// device_tensor for any other tensor. Integer and float scalars are read
// as the type the kernel declares. Failures name the kernel, the parameter
// and what was given.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/host/check.hpp"
#include "tf/runtime/kernel_args.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <limits>

namespace tf::runtime {

/// The launch's argument `index`, parameter `name`: a tensor of `dtype` and
/// `rank` with extents of 32-bit ints; fails through `check` otherwise.
/// Makes no CUDA call.
inline const TensorArg &tensor_arg(const LaunchRequest &request, int index,
                                   const char *name, DType dtype, int rank,
                                   const CudaCheck &check) {
  if (index >= static_cast<int>(request.args.size()))
    check.fail("launcher: %zu arguments given, parameter '%s' is number %d",
               request.args.size(), name, index + 1);
  const KernelArg &arg = request.args[index];
  if (arg.kind != KernelArg::Kind::tensor)
    check.fail("launcher: parameter '%s' is a tensor, a value was given", name);
  const TensorArg &t = arg.tensor;
  if (t.dtype != dtype || t.rank != rank)
    check.fail("launcher: parameter '%s' was generated for a rank-%d tensor "
               "of %s, a rank-%d tensor of %s was given",
               name, rank, tf::name(dtype).data(), t.rank,
               tf::name(t.dtype).data());
  for (int d = 0; d < rank; ++d)
    if (t.extents[d] > std::numeric_limits<int>::max())
      check.fail("launcher: parameter '%s' has extent %lld in dimension %d; "
                 "the kernel indexes with 32-bit integers",
                 name, static_cast<long long>(t.extents[d]), d);
  return t;
}

/// tensor_arg, and the tensor is in device memory.
inline const TensorArg &device_tensor(const LaunchRequest &request, int index,
                                      const char *name, DType dtype, int rank,
                                      const CudaCheck &check) {
  const TensorArg &t = tensor_arg(request, index, name, dtype, rank, check);
  cudaPointerAttributes where{};
  check(cudaPointerGetAttributes(&where, t.data), "cudaPointerGetAttributes");
  if (t.storage != Storage::gmem || (where.type != cudaMemoryTypeDevice &&
                                     where.type != cudaMemoryTypeManaged))
    check.fail("launcher: parameter '%s' is not in device memory; the GPU "
               "kernel reads it",
               name);
  return t;
}

/// The integer argument `index` of `request`, which the kernel declares as
/// `T` (the launcher's caller converted it to that type), as the 32-bit
/// value the generated device code computes with.
template <class T>
int integer_arg(const LaunchRequest &request, int index, const char *name,
                const CudaCheck &check) {
  if (index >= static_cast<int>(request.args.size()))
    check.fail("launcher: %zu arguments given, parameter '%s' is number %d",
               request.args.size(), name, index + 1);
  const KernelArg &arg = request.args[index];
  if (arg.kind != KernelArg::Kind::value || !arg.value)
    check.fail("launcher: parameter '%s' is an integer, a tensor was given",
               name);
  const T v = *static_cast<const T *>(arg.value);
  if (static_cast<long long>(v) > std::numeric_limits<int>::max() ||
      static_cast<long long>(v) < std::numeric_limits<int>::min())
    check.fail("launcher: parameter '%s' is %lld; the kernel computes with "
               "32-bit integers",
               name, static_cast<long long>(v));
  return static_cast<int>(v);
}

/// `t` (parameter `name`), which the kernel reads element by element with
/// 32-bit offsets (a fused epilogue's C, bias or residual): every offset
/// sum_d i_d stride_d fits an int; fails through `check` otherwise.
inline void int32_offsets(const TensorArg &t, const char *name,
                          const CudaCheck &check) {
  long long last = 0;
  for (int d = 0; d < t.rank; ++d) {
    if (t.strides[d] < 0)
      check.fail("launcher: parameter '%s' has stride %lld in dimension %d; "
                 "the kernel reads it with non-negative strides",
                 name, static_cast<long long>(t.strides[d]), d);
    if (t.extents[d] > 0)
      last += (t.extents[d] - 1) * t.strides[d];
  }
  if (last > std::numeric_limits<int>::max())
    check.fail("launcher: parameter '%s' spans %lld elements; the kernel "
               "reads it with 32-bit offsets",
               name, last + 1);
}

/// The floating-point argument `index` of `request`, which the kernel
/// declares as `T` (float or double), as the f32 value the generated device
/// code computes with (an epilogue's alpha).
template <class T>
float float_arg(const LaunchRequest &request, int index, const char *name,
                const CudaCheck &check) {
  if (index >= static_cast<int>(request.args.size()))
    check.fail("launcher: %zu arguments given, parameter '%s' is number %d",
               request.args.size(), name, index + 1);
  const KernelArg &arg = request.args[index];
  if (arg.kind != KernelArg::Kind::value || !arg.value)
    check.fail("launcher: parameter '%s' is a float, a tensor was given", name);
  return static_cast<float>(*static_cast<const T *>(arg.value));
}

} // namespace tf::runtime
