// Header-level checks of tensor types, buffers and rings: each CASE fails to
// compile with a message that names the fix, with clang and with g++.
//
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=ELEMENT
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=ELEMENT
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=SWIZZLE
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=SWIZZLE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=OFFSET
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=OFFSET
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=EXTENTS
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=EXTENTS
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=NODYN
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=NODYN
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=6 %s 2>&1 | FileCheck %s --check-prefix=STRIDES
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=6 %s 2>&1 | FileCheck %s --check-prefix=STRIDES
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=7 %s 2>&1 | FileCheck %s --check-prefix=COORDS
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=7 %s 2>&1 | FileCheck %s --check-prefix=COORDS
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=8 %s 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=8 %s 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=9 %s 2>&1 | FileCheck %s --check-prefix=ORIGIN
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=9 %s 2>&1 | FileCheck %s --check-prefix=ORIGIN
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=10 %s 2>&1 | FileCheck %s --check-prefix=GMEMBUF
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=10 %s 2>&1 | FileCheck %s --check-prefix=GMEMBUF
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=11 %s 2>&1 | FileCheck %s --check-prefix=ZEROSDYN
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=11 %s 2>&1 | FileCheck %s --check-prefix=ZEROSDYN
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=12 %s 2>&1 | FileCheck %s --check-prefix=RING
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=12 %s 2>&1 | FileCheck %s --check-prefix=RING
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=13 %s 2>&1 | FileCheck %s --check-prefix=MALFORMED
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=13 %s 2>&1 | FileCheck %s --check-prefix=MALFORMED

#include "tf/ops/buffer.hpp"

using Smem = tf::Tensor<float, "(8,64)", tf::smem>;

void f(float *p) {
  (void)p;
#if CASE == 1
  // ELEMENT: error:{{.*}}tf::Tensor: the element type must be one of
  tf::Tensor<long, "(4)"> t;
#elif CASE == 2
  // SWIZZLE: error:{{.*}}tf::Tensor: the swizzle's base bit M splits elements
  tf::Tensor<float, "(8,64):(64,1) | Swizzle(3,1,3)"> t;
#elif CASE == 3
  // OFFSET: error:{{.*}}tf::Tensor: the layout's offset must be a number
  tf::Tensor<float, "(8,64):(64,1) + ?"> t;
#elif CASE == 4
  // EXTENTS: error:{{.*}}tf::Tensor: give one extent per '?' in the layout's shape
  tf::Tensor<float, "(?,?)"> t(p, {4});
#elif CASE == 5
  // NODYN: error:{{.*}}tf::Tensor: the layout has '?' extents; construct the view as Tensor(ptr, {extents...})
  tf::Tensor<float, "(?,?)"> t(p);
#elif CASE == 6
  // STRIDES: error:{{.*}}tf::Tensor: give one stride per '?' in the layout's stride
  tf::Tensor<float, "(?,?):(?,?)"> t(p, {4, 4}, {1});
#elif CASE == 7
  // COORDS: error:{{.*}}tf::Tensor: give one coordinate per mode of the tensor
  tf::Tensor<float, "(4,4)"> t(p);
  float x = t(1, 2, 3);
#elif CASE == 8
  // TILE: error:{{.*}}tf::Tensor::tile: give one tile extent per mode of the tensor
  tf::Tensor<float, "(?,?)"> t(p, {4, 4});
  auto w = t.tile<2>(0, 0);
#elif CASE == 9
  // ORIGIN: error:{{.*}}tf::Tensor::tile: give one origin per mode of the tensor
  tf::Tensor<float, "(?,?)"> t(p, {4, 4});
  auto w = t.tile<2, 2>(0);
#elif CASE == 10
  // GMEMBUF: error:{{.*}}tf::Buffer: buffers hold smem, rmem or amx_tile tensors
  auto b = tf::zeros<tf::Tensor<float, "(4,4)">>();
#elif CASE == 11
  // ZEROSDYN: error:{{.*}}tf::zeros: the tensor type has '?' extents; give them
  auto b = tf::zeros<tf::Tensor<float, "(?,4)", tf::smem>>();
#elif CASE == 12
  // RING: error:{{.*}}tf::Ring: a ring needs at least one buffer
  tf::Ring<Smem, 0> r;
#elif CASE == 13
  // MALFORMED: error:
  // MALFORMED: expected {{\\?}}',{{\\?}}' or {{\\?}}'){{\\?}}' to close the tuple
  tf::Tensor<float, "((2,8 8),(4,16))"> t;
#endif
}
