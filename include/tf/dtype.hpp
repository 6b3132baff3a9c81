//===- tf/dtype.hpp - Element types ---------------------------------------===//
//
// The element types tensors, contracts and targets speak of. Names are short
// and PTX-like (`bf16`, `fp8e4m3`), as users and agents write them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <string_view>

namespace tf {

enum class DType : std::uint8_t {
  bf16,
  f16,
  f32,
  tf32,
  fp8e4m3,
  fp8e5m2,
  i8,
  u8,
  i32,
  f64,
};

inline constexpr DType all_dtypes[] = {DType::bf16,    DType::f16,  DType::f32,
                                       DType::tf32,    DType::fp8e4m3,
                                       DType::fp8e5m2, DType::i8,   DType::u8,
                                       DType::i32,     DType::f64};

/// Storage bits of one element (tf32 is stored in 32 bits).
constexpr int bits(DType t) {
  switch (t) {
  case DType::fp8e4m3:
  case DType::fp8e5m2:
  case DType::i8:
  case DType::u8:
    return 8;
  case DType::bf16:
  case DType::f16:
    return 16;
  case DType::f32:
  case DType::tf32:
  case DType::i32:
    return 32;
  case DType::f64:
    return 64;
  }
  return 0;
}

constexpr int bytes(DType t) { return bits(t) / 8; }

/// The written name: "bf16", "fp8e4m3", ...
constexpr std::string_view name(DType t) {
  switch (t) {
  case DType::bf16: return "bf16";
  case DType::f16: return "f16";
  case DType::f32: return "f32";
  case DType::tf32: return "tf32";
  case DType::fp8e4m3: return "fp8e4m3";
  case DType::fp8e5m2: return "fp8e5m2";
  case DType::i8: return "i8";
  case DType::u8: return "u8";
  case DType::i32: return "i32";
  case DType::f64: return "f64";
  }
  return "?";
}

/// The element type as C++ code names it: "float" for f32, "tf::bf16" for
/// the types tf defines ("tf::tf32" is stored as a float but is its own
/// name).
constexpr std::string_view cpp_name(DType t) {
  switch (t) {
  case DType::bf16: return "tf::bf16";
  case DType::f16: return "tf::f16";
  case DType::f32: return "float";
  case DType::tf32: return "tf::tf32";
  case DType::fp8e4m3: return "tf::fp8e4m3";
  case DType::fp8e5m2: return "tf::fp8e5m2";
  case DType::i8: return "signed char";
  case DType::u8: return "unsigned char";
  case DType::i32: return "int";
  case DType::f64: return "double";
  }
  return "?";
}

/// The DType written `text`, if any.
constexpr bool parse_dtype(std::string_view text, DType &out) {
  for (DType t : all_dtypes)
    if (name(t) == text) {
      out = t;
      return true;
    }
  return false;
}

/// Where a tensor lives.
enum class Storage : std::uint8_t {
  gmem, ///< global memory
  smem, ///< shared memory (one CTA's)
  rmem, ///< registers, distributed over the threads of a mesh
  amx_tile, ///< AMX tile registers (tmm0..tmm7) of one core
};

constexpr std::string_view name(Storage s) {
  switch (s) {
  case Storage::gmem: return "gmem";
  case Storage::smem: return "smem";
  case Storage::rmem: return "rmem";
  case Storage::amx_tile: return "amx_tile";
  }
  return "?";
}

} // namespace tf
