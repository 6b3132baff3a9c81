//===- tf/runtime/sm90/register_tile.cuh - Register tiles -------*- CUDA -*-===//
//
// What the generated code of register programs (row kernels: loads of a
// tile into registers, elementwise math, reductions along a row, stores)
// calls: conversions between a register's element type and f32, in which
// all register math is done, and vector moves of a thread's consecutive
// registers to and from global memory.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>

namespace tf::sm90 {

__device__ __forceinline__ float to_f32(float x) { return x; }
__device__ __forceinline__ float to_f32(__nv_bfloat16 x) {
  return __bfloat162float(x);
}
__device__ __forceinline__ float to_f32(__half x) { return __half2float(x); }

/// f32 rounded to nearest even into T.
template <class T> __device__ __forceinline__ T from_f32(float x);
template <> __device__ __forceinline__ float from_f32<float>(float x) {
  return x;
}
template <> __device__ __forceinline__ __nv_bfloat16 from_f32(float x) {
  return __float2bfloat16_rn(x);
}
template <> __device__ __forceinline__ __half from_f32(float x) {
  return __float2half_rn(x);
}

namespace detail {
template <int Bytes> struct Vector;
template <> struct Vector<4> { using type = unsigned; };
template <> struct Vector<8> { using type = uint2; };
template <> struct Vector<16> { using type = uint4; };
} // namespace detail

/// Registers dst[0 .. V) = src[0 .. V), one load of V * sizeof(T) bytes
/// through the read-only path. @pre src aligned to it
template <int V, class T>
__device__ __forceinline__ void load_vector(T *dst, const T *src) {
  using W = typename detail::Vector<V * sizeof(T)>::type;
  const W w = __ldg(reinterpret_cast<const W *>(src));
  std::memcpy(dst, &w, sizeof(W));
}

/// dst[0 .. V) = registers src[0 .. V), one store. @pre dst aligned to it
template <int V, class T>
__device__ __forceinline__ void store_vector(T *dst, const T *src) {
  using W = typename detail::Vector<V * sizeof(T)>::type;
  W w;
  std::memcpy(&w, src, sizeof(W));
  *reinterpret_cast<W *>(dst) = w;
}

/// Whether p is aligned to Bytes.
template <int Bytes>
__device__ __forceinline__ bool aligned(const void *p) {
  return reinterpret_cast<std::uintptr_t>(p) % Bytes == 0;
}

} // namespace tf::sm90
