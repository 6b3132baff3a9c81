//===- tf/runtime/erase.hpp - Kernel arguments as the launcher ABI --------===//
//
// tf::launch hands a generated launcher its arguments through the ABI of
// kernel_args.hpp: tensors as TensorArg (leaves outermost first, strides in
// elements, the layout's constant offset folded into the pointer), every
// other value by address. Swizzled views have no affine description and
// travel by address like any other value; no kernel takes one from the host.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/element.hpp"
#include "tf/runtime/kernel_args.hpp"

#include <concepts>
#include <cstdint>
#include <type_traits>

namespace tf::runtime {

/// A tf::Tensor (tf/tensor.hpp) with an affine layout: what TensorArg
/// describes. Matched structurally so this header needs no layout header.
template <class T>
concept AffineTensorView = requires(const T &t) {
  requires Element<typename T::element_type>;
  { T::leaves } -> std::convertible_to<int>;
  { T::storage } -> std::convertible_to<Storage>;
  { t.data() } -> std::convertible_to<const typename T::element_type *>;
  t.leaf_extents()[0];
  t.leaf_strides()[0];
  requires T::text.swizzle.is_identity();
  requires T::leaves <= max_tensor_rank;
};

/// `v` as a kernel argument of the launcher ABI. @post for a tensor, the
/// TensorArg's pointer is the element at coordinate 0
template <class T> KernelArg erase(const T &v) {
  KernelArg out;
  if constexpr (AffineTensorView<T>) {
    out.kind = KernelArg::Kind::tensor;
    TensorArg &t = out.tensor;
    t.data =
        const_cast<std::remove_const_t<typename T::element_type> *>(v.data()) +
        T::text.offset.value;
    t.rank = T::leaves;
    t.dtype = dtype_of<std::remove_const_t<typename T::element_type>>;
    t.storage = T::storage;
    for (int l = 0; l < T::leaves; ++l) {
      t.extents[l] = v.leaf_extents()[l];
      t.strides[l] = v.leaf_strides()[l];
    }
  } else {
    out.value = &v;
  }
  return out;
}

} // namespace tf::runtime
