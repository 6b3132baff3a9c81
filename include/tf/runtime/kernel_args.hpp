//===- tf/runtime/kernel_args.hpp - The type-erased kernel argument ABI ---===//
//
// What a generated launcher receives from tf::launch. The emitted `.cu` is
// self-contained: it does not include the user's headers or tf's layout
// types, so tensors cross the boundary as plain descriptions
//
//   TensorArg{data, rank, dtype, storage, extents[], strides[]}
//
// where dimension 0 is the outermost (tf writes coordinates
// lexicographically, last mode fastest) and strides count elements. A
// tf::Tensor with hierarchical modes is described by its leaves, outermost first, so
// "(?,?)" is rank 2 and "((2,64),?)" rank 3. Every other argument travels
// as the address of the caller's object; the launcher was generated from
// the kernel's signature and knows its type.
//
// This header needs no CUDA and no other tf header but dtype.hpp, so the
// header library (tf/launch.hpp), the generated code and its host runtime
// all include it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/dtype.hpp"

#include <cstdint>
#include <span>

namespace tf::runtime {

/// The most dimensions a TensorArg describes (TMA's limit is 5).
inline constexpr int max_tensor_rank = 8;

/// A strided view of memory: a tensor argument with its type erased.
struct TensorArg {
  void *data = nullptr;
  int rank = 0;
  DType dtype = DType::f32;
  Storage storage = Storage::gmem;
  std::int64_t extents[max_tensor_rank] = {}; ///< outermost first
  std::int64_t strides[max_tensor_rank] = {}; ///< in elements

  constexpr std::int64_t size() const {
    std::int64_t n = 1;
    for (int i = 0; i < rank; ++i)
      n *= extents[i];
    return n;
  }
};

/// One kernel argument: a tensor, or the address of any other value.
struct KernelArg {
  enum class Kind : std::uint8_t { tensor, value };
  Kind kind = Kind::value;
  TensorArg tensor{};          ///< for Kind::tensor
  const void *value = nullptr; ///< for Kind::value: the caller's object
};

/// A launch as the launcher sees it: the extent of the kernel's grid (its
/// outermost topology, as tf::grid(G) gave it) and the arguments in the
/// kernel's parameter order.
struct LaunchRequest {
  std::int64_t grid = 0;
  std::span<const KernelArg> args;
};

/// A generated implementation of one kernel. It returns when the work is
/// done (or enqueued on the default stream and synchronized; the launcher
/// decides and documents it) and stops the program with a message naming
/// the kernel on any failure.
using Launcher = void (*)(const LaunchRequest &);

} // namespace tf::runtime
