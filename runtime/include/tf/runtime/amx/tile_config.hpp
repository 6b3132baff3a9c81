//===- tf/runtime/amx/tile_config.hpp - LDTILECFG's 64-byte operand -------===//
//
// The memory operand of LDTILECFG / STTILECFG (Intel SDM Vol. 2, LDTILECFG,
// Table 3-10 "Memory Area Layout"), byte for byte:
//   byte 0       palette_id   0 = the INIT state, 1 = palette 1
//   byte 1       start_row    restart row of an interrupted load or store
//   bytes 2..15  reserved, zero
//   bytes 16..47 colsb[16]    u16: bytes per row of tile i (i >= 8: zero)
//   bytes 48..63 rows[16]     u8: rows of tile i (i >= 8: zero)
// and the checks LDTILECFG makes before it loads anything: a #GP for a
// palette other than 0 or 1, a non-zero reserved byte, rows > 16 or
// colsb > 64 (palette 1, CPUID leaf 1DH), a tile with only one of rows and
// colsb zero ("if a tile row and column pair is not used ... they must have
// the value zero"), or parameters for a tile i >= 8.
//
// The same bytes as the contract's encode_tile_config
// (tf/atoms/intel/amx/tile_config.hpp); this copy is plain C++20 with no
// dependency on the header library, so generated code and the emulation can
// use it alone.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/amx/fault.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace tf::runtime::amx {

/// Palette 1 (Intel SDM Vol. 1, 18.2; CPUID leaf 1DH).
inline constexpr int tile_registers = 8;
inline constexpr int max_rows = 16;
inline constexpr int max_colsb = 64;

/// A tile register's number, tmm0..tmm7: checked where the instruction
/// names it, at compile time.
template <int T>
concept TileRegister = 0 <= T && T < tile_registers;

/// TDPBF16PS and TDPB*D name three different tiles (#UD otherwise).
template <int C, int A, int B>
concept DistinctTiles = TileRegister<C> && TileRegister<A> &&
                        TileRegister<B> && C != A && C != B && A != B;

/// The shape of one configured tile: `rows` rows of `colsb` bytes.
struct TileShape {
  int rows = 0;
  int colsb = 0;
};

/// LDTILECFG's memory operand (64 bytes, 64-byte aligned as the
/// intrinsics' users conventionally keep it).
struct alignas(64) TileConfig {
  std::uint8_t palette_id = 0;
  std::uint8_t start_row = 0;
  std::uint8_t reserved[14] = {};
  std::uint16_t colsb[16] = {};
  std::uint8_t rows[16] = {};

  /// The shape of tile `t` as configured.
  constexpr TileShape shape(int t) const { return {rows[t], colsb[t]}; }

  friend constexpr bool operator==(const TileConfig &,
                                   const TileConfig &) = default;
};
static_assert(sizeof(TileConfig) == 64, "LDTILECFG reads 64 bytes");

/// Palette 1 with tile i of `shapes[i]`; tiles not listed stay unconfigured
/// (zero). The result is not checked: check_tile_config says what LDTILECFG
/// would refuse.
constexpr TileConfig make_tile_config(std::initializer_list<TileShape> shapes) {
  TileConfig config;
  config.palette_id = 1;
  int t = 0;
  for (TileShape s : shapes) {
    if (t < 16) {
      config.rows[t] = static_cast<std::uint8_t>(s.rows);
      config.colsb[t] = static_cast<std::uint16_t>(s.colsb);
    }
    ++t;
  }
  return config;
}

/// The #GP LDTILECFG raises for `config`, if any (Intel SDM Vol. 2,
/// LDTILECFG).
inline std::optional<Fault> check_tile_config(const TileConfig &config) {
  auto gp = [](std::string why) {
    return Fault{Exception::gp, "LDTILECFG", std::move(why)};
  };
  if (config.palette_id > 1)
    return gp("palette " + std::to_string(config.palette_id) +
              " is not supported (only 0 and 1 are)");
  if (config.palette_id == 0)
    return std::nullopt; // the INIT state: nothing else is read
  for (int i = 0; i < 14; ++i)
    if (config.reserved[i] != 0)
      return gp("reserved byte " + std::to_string(2 + i) + " is not zero");
  for (int t = 0; t < 16; ++t) {
    const std::string tile = "tile " + std::to_string(t);
    if (t >= tile_registers) {
      if (config.rows[t] != 0 || config.colsb[t] != 0)
        return gp(tile + " is configured; palette 1 has " +
                  std::to_string(tile_registers) + " tile registers");
      continue;
    }
    if (config.rows[t] > max_rows)
      return gp(tile + " has " + std::to_string(config.rows[t]) +
                " rows; palette 1 allows at most " + std::to_string(max_rows));
    if (config.colsb[t] > max_colsb)
      return gp(tile + " has " + std::to_string(config.colsb[t]) +
                " bytes per row; palette 1 allows at most " +
                std::to_string(max_colsb));
    if ((config.rows[t] == 0) != (config.colsb[t] == 0))
      return gp(tile + " has " + std::to_string(config.rows[t]) + " rows of " +
                std::to_string(config.colsb[t]) +
                " bytes; an unused tile has both zero");
  }
  return std::nullopt;
}

} // namespace tf::runtime::amx
