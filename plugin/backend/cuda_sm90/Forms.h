//===- plugin/backend/cuda_sm90/Forms.h - What cuda_sm90 writes -*- C++ -*-===//
//
// The element types the cuda_sm90 backend writes code for, in one place:
// the backend's test of a site (Rules.cpp, `supports`) accepts only these,
// and its emitter (CudaEmitter.h) writes them, so a kernel the check
// accepts is one the emitter can write ("legal means lowerable").
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_BACKEND_CUDA_SM90_FORMS_H
#define TF_PLUGIN_BACKEND_CUDA_SM90_FORMS_H

#include "tf/dtype.hpp"

#include <optional>
#include <utility>

namespace tf::backend::sm90 {

/// The runtime's name of a WGMMA operand type (tf/runtime/sm90/wgmma.cuh),
/// or null for a type the emitter has no wrapper call for.
inline const char *wgmmaType(DType T) {
  switch (T) {
  case DType::bf16:
    return "wgmma::Type::bf16";
  case DType::f16:
    return "wgmma::Type::f16";
  case DType::fp8e4m3:
    return "wgmma::Type::e4m3";
  case DType::fp8e5m2:
    return "wgmma::Type::e5m2";
  default:
    return nullptr;
  }
}

/// The accumulator type of every WGMMA the emitter writes.
inline constexpr DType WgmmaAccumulator = DType::f32;

/// The CUDA conversion of two f32 values into a 32-bit word of \p T, and the
/// word's type: the types the staged epilogue stores and rounds to; none
/// for any other type.
inline std::optional<std::pair<const char *, const char *>>
pairConversion(DType T) {
  switch (T) {
  case DType::bf16:
    return std::pair{"__floats2bfloat162_rn", "__nv_bfloat162"};
  case DType::f16:
    return std::pair{"__floats2half2_rn", "__half2"};
  case DType::f32:
    return std::pair{"make_float2", "float2"};
  default:
    return std::nullopt;
  }
}

/// The CUDA type of an element of \p T a fused epilogue reads from global
/// memory (it converts it to f32, see epilogueLoads): the types the store
/// writes; none for any other type.
inline const char *loadedType(DType T) {
  switch (T) {
  case DType::bf16:
    return "__nv_bfloat16";
  case DType::f16:
    return "__half";
  case DType::f32:
    return "float";
  default:
    return nullptr;
  }
}

} // namespace tf::backend::sm90

#endif // TF_PLUGIN_BACKEND_CUDA_SM90_FORMS_H
