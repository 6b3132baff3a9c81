//===- tf/atoms/intel/amx/tile_config.hpp - AMX tile configuration --------===//
//
// The ISA constants of AMX palette 1 and the contract of LDTILECFG
// (intel.amx.TileConfig). Intel SDM Vol. 1, ch. 18 "Intel Advanced Matrix
// Extensions" (18.2 tile architecture: 8 tile registers tmm0..tmm7; palette 1:
// at most 16 rows of at most 64 bytes, 1 KiB per tile) and Vol. 2, LDTILECFG:
// the 64-byte memory operand is
//   byte 0       palette_id
//   byte 1       start_row
//   bytes 2..15  reserved, zero
//   bytes 16..47 colsb[16], u16 little-endian: bytes per row of tile i
//   bytes 48..63 rows[16], u8: rows of tile i
// and LDTILECFG raises #GP for an unsupported palette, non-zero reserved
// bytes, rows > 16 or colsb > 64, or a configured tile i >= 8.
//
// One core executes AMX instructions: the AMX target's topology levels are
// "core" and "amx", and every AMX contract's
// execution mesh is one core.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/detail/copy_patterns.hpp"

#include <cstdint>

namespace tf::atoms::intel::amx {

/// Palette 1 (Intel SDM Vol. 1, 18.2; CPUID leaf 1DH).
inline constexpr int palette = 1;
inline constexpr int max_tiles = 8;
inline constexpr int max_rows = 16;
inline constexpr int max_colsb = 64;
inline constexpr int tile_bytes = max_rows * max_colsb; // 1 KiB
inline constexpr int tilecfg_bytes = 64;

/// The shape of one configured tile.
struct TileShape {
  int rows = 0;
  int colsb = 0;
};

/// The 64-byte LDTILECFG operand for `count` tiles of `shapes`, or why not.
/// Unconfigured tiles stay zero, as LDTILECFG requires for i >= 8.
struct TileConfigBlock {
  std::uint8_t bytes[tilecfg_bytes] = {};
};

constexpr Result<TileConfigBlock> encode_tile_config(const TileShape *shapes,
                                                     int count,
                                                     int start_row = 0) {
  if (count < 0 || count > max_tiles)
    return make_error(Errc::out_of_range,
                      "AMX palette 1 has {} tile registers; {} requested",
                      max_tiles, count);
  TileConfigBlock out;
  out.bytes[0] = static_cast<std::uint8_t>(palette);
  out.bytes[1] = static_cast<std::uint8_t>(start_row);
  for (int i = 0; i < count; ++i) {
    if (shapes[i].rows < 0 || shapes[i].rows > max_rows)
      return make_error(Errc::out_of_range,
                        "tile {} has {} rows; palette 1 allows at most {}", i,
                        shapes[i].rows, max_rows);
    if (shapes[i].colsb < 0 || shapes[i].colsb > max_colsb)
      return make_error(Errc::out_of_range,
                        "tile {} has {} bytes per row; palette 1 allows at "
                        "most {}",
                        i, shapes[i].colsb, max_colsb);
    out.bytes[16 + 2 * i] = static_cast<std::uint8_t>(shapes[i].colsb & 0xff);
    out.bytes[17 + 2 * i] = static_cast<std::uint8_t>(shapes[i].colsb >> 8);
    out.bytes[48 + i] = static_cast<std::uint8_t>(shapes[i].rows);
  }
  return out;
}

namespace amx_detail {
using namespace tf::atoms::detail;

/// One core issues the instruction.
inline constexpr MeshPattern one_core{pattern_mesh("core", "(1):(1)"), {}};

constexpr ParamDef int_param(Name name, std::int64_t lo, std::int64_t hi,
                             std::int64_t step, std::int64_t def) {
  ParamDef p;
  p.name = name;
  p.kind = ParamKind::integer;
  p.has_range = true;
  p.lo = lo;
  p.hi = hi;
  p.step = step;
  p.has_default = true;
  p.default_value = ParamValue::of(def);
  return p;
}

constexpr ParamDef palette_param() {
  ParamDef p;
  p.name = "palette";
  p.kind = ParamKind::integer;
  p.allowed = {ParamValue::of(palette)};
  p.has_default = true;
  p.default_value = ParamValue::of(palette);
  return p;
}

inline constexpr ParamDef config_params[] = {
    palette_param(),
    int_param("tiles", 1, max_tiles, 1, max_tiles),
    int_param("rows", 1, max_rows, 1, max_rows),
    int_param("colsb", 1, max_colsb, 1, max_colsb)};

constexpr OperandPattern config_operand() {
  OperandPattern o;
  o.name = "config";
  o.access = Access::read;
  o.shape = pattern_shape("(64)");
  o.dtype = dtype_fixed(DType::u8);
  o.storage = Storage::gmem; // host memory: the CPU target's gmem
  return o;
}
inline constexpr OperandPattern config_operands[] = {config_operand()};

} // namespace amx_detail

/// intel.amx.TileConfig: LDTILECFG of palette 1.
inline constexpr Contract tile_config{
    .id = "intel.amx.TileConfig",
    .kind = AtomKind::config,
    .capability = "amx.tile",
    .execution_mesh = amx_detail::one_core,
    .params = amx_detail::config_params,
    .operands = amx_detail::config_operands,
    .limits = {},
    .atom_shape = {},
};

} // namespace tf::atoms::intel::amx
