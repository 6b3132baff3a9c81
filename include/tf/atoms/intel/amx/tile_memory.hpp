//===- tf/atoms/intel/amx/tile_memory.hpp - TILELOADD / TILESTORED --------===//
//
// intel.amx.TileLoad (TILELOADD tmm, [base + index*scale]) and
// intel.amx.TileStore (TILESTORED [base + index*scale], tmm): one core moves
// a tile of `r` rows by `c` elements between memory and a tile register
// (Intel SDM Vol. 2, TILELOADD/TILELOADDT1, TILESTORED). Row i is read from
// base + i * stride, where the stride is a byte count taken from the index
// register, so the memory side is any (r, c):(s, 1) -- rows of unit stride,
// any row stride s (in elements here; s * element bytes is the instruction's
// stride). The register side is the tile itself: r rows of c * bytes(dtype)
// = colsb bytes, (r, c):(c, 1).
// Limits (palette 1, tile_config.hpp): r <= 16 rows, colsb <= 64 bytes.
// Memory on the CPU target is Storage::gmem.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/intel/amx/tile_config.hpp"

namespace tf::atoms::intel::amx {

namespace tile_memory_detail {
using namespace tf::atoms::detail;

inline constexpr ParamDef params[] = {ParamDef::dtype(
    "dtype", {ParamValue::of(DType::bf16), ParamValue::of(DType::f16),
              ParamValue::of(DType::f32), ParamValue::of(DType::i8),
              ParamValue::of(DType::u8), ParamValue::of(DType::i32)})};

inline constexpr LayoutPattern memory_layouts[] = {layout_pattern(
    pattern_composed("(r,c):(s,1)"), cite("SDM TILELOADD"))};
inline constexpr LayoutPattern tile_layouts[] = {layout_pattern(
    pattern_composed("(r,c):(c,1)", {}, Int(0)), cite("SDM 18.2 tiles"))};

constexpr OperandPattern operand(Name name, Access access, Storage storage,
                                 List<LayoutPattern> layouts) {
  OperandPattern o;
  o.name = name;
  o.access = access;
  o.shape = pattern_shape("(r,c)");
  o.dtype = dtype_of("dtype");
  o.storage = storage;
  o.layouts = layouts;
  return o;
}

inline constexpr OperandPattern load_operands[] = {
    operand("src", Access::read, Storage::gmem, memory_layouts),
    operand("dst", Access::write, Storage::amx_tile, tile_layouts)};
inline constexpr OperandPattern store_operands[] = {
    operand("src", Access::read, Storage::amx_tile, tile_layouts),
    operand("dst", Access::write, Storage::gmem, memory_layouts)};

/// Palette 1 limits on the tile operand; a tile register starts at its
/// first byte (tf places tile register t at byte t * 1 KiB of amx_tile).
constexpr FixedVector<OperandLimit, 4> tile_limits(Name tile) {
  using K = OperandLimit::Kind;
  return {limit(tile, K::rank_max, 2, cite("SDM 18.2 tiles")),
          limit(tile, K::mode_extent_max, max_rows, cite("SDM palette 1 rows"),
                {}, 0),
          limit(tile, K::inner_bytes_max, max_colsb,
                cite("SDM palette 1 colsb")),
          limit(tile, K::base_align_bytes, tile_bytes,
                cite("SDM 18.2 tile register"))};
}
inline constexpr auto load_limits = tile_limits("dst");
inline constexpr auto store_limits = tile_limits("src");

} // namespace tile_memory_detail

/// intel.amx.TileLoad: TILELOADD, memory -> tile register.
inline constexpr Contract tile_load{
    .id = "intel.amx.TileLoad",
    .kind = AtomKind::copy,
    .capability = "amx.tile",
    .execution_mesh = amx_detail::one_core,
    .params = tile_memory_detail::params,
    .operands = tile_memory_detail::load_operands,
    .limits = List<OperandLimit>(tile_memory_detail::load_limits.items,
                                 tile_memory_detail::load_limits.size()),
    .atom_shape = {},
};

/// intel.amx.TileStore: TILESTORED, tile register -> memory.
inline constexpr Contract tile_store{
    .id = "intel.amx.TileStore",
    .kind = AtomKind::copy,
    .capability = "amx.tile",
    .execution_mesh = amx_detail::one_core,
    .params = tile_memory_detail::params,
    .operands = tile_memory_detail::store_operands,
    .limits = List<OperandLimit>(tile_memory_detail::store_limits.items,
                                 tile_memory_detail::store_limits.size()),
    .atom_shape = {},
};

} // namespace tf::atoms::intel::amx
