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

/// Registers dst[0 .. V) = src[0 .. V) where `inside`, else zeros: one
/// predicated load, the registers set to zero first, so that the tile's
/// registers stay packed as the load leaves them (a branch would merge
/// them element by element). src is not read where !inside. The compiler
/// may move it as it moves arithmetic: the emitter uses it only in
/// programs that load all their tiles before they store any, where a
/// thread's store depends on the loads of what it stores and may pass only
/// loads of other addresses.
/// @pre src aligned to V * sizeof(T) bytes, which is 4, 8 or 16
template <int V, class T>
__device__ __forceinline__ void load_vector_if(T *dst, const T *src,
                                               bool inside) {
  constexpr int Bytes = V * sizeof(T);
  static_assert(Bytes == 4 || Bytes == 8 || Bytes == 16,
                "a vector load moves 4, 8 or 16 bytes");
  if constexpr (Bytes == 16) {
    uint4 w = make_uint4(0, 0, 0, 0);
    asm("{\n .reg .pred p;\n setp.ne.b32 p, %4, 0;\n"
                 " @p ld.global.nc.v4.u32 {%0, %1, %2, %3}, [%5];\n}"
                 : "+r"(w.x), "+r"(w.y), "+r"(w.z), "+r"(w.w)
                 : "r"(static_cast<int>(inside)), "l"(src));
    std::memcpy(dst, &w, Bytes);
  } else if constexpr (Bytes == 8) {
    uint2 w = make_uint2(0, 0);
    asm("{\n .reg .pred p;\n setp.ne.b32 p, %2, 0;\n"
                 " @p ld.global.nc.v2.u32 {%0, %1}, [%3];\n}"
                 : "+r"(w.x), "+r"(w.y)
                 : "r"(static_cast<int>(inside)), "l"(src));
    std::memcpy(dst, &w, Bytes);
  } else {
    unsigned w = 0;
    asm("{\n .reg .pred p;\n setp.ne.b32 p, %1, 0;\n"
                 " @p ld.global.nc.u32 %0, [%2];\n}"
                 : "+r"(w)
                 : "r"(static_cast<int>(inside)), "l"(src));
    std::memcpy(dst, &w, Bytes);
  }
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
