//===- tf/runtime/amx/emulated.hpp - AMX tile instructions in C++ ---------===//
//
// The AMX instructions as the Intel SDM's pseudo-code defines them (Vol. 2:
// LDTILECFG, STTILECFG, TILELOADD, TILESTORED, TILEZERO, TILERELEASE,
// TDPBF16PS, TDPBSSD/TDPBSUD/TDPBUSD/TDPBUUD), on a per-thread copy of the
// architectural state: the tile configuration and eight 1 KiB tile
// registers (16 rows of 64 bytes). Same names and arguments as native.hpp;
// tiles.hpp selects one of the two for generated code.
//
// What each instruction does, from the pseudo-code:
//   - LDTILECFG checks its operand (check_tile_config: #GP), then zeroes
//     all tile data; palette 0 is the INIT state (tiles unconfigured).
//   - TILELOADD tmm, [base + stride]: rows start_row .. rows-1 read colsb
//     bytes from base + row * stride; bytes past colsb and rows past `rows`
//     become zero (write_row_and_zero, zero_upper_rows); start_row := 0.
//   - TILESTORED writes rows start_row .. rows-1, colsb bytes each.
//   - TILEZERO zeroes the whole tile.
//   - TDPBF16PS C, A, B: for each row m of C, an fp32 accumulator pair per
//     column n starts at zero; for k = 0 .. A.colsb/4 - 1 the even one takes
//     FMA(A[m].bf16[2k], B[k].bf16[2n], even) and the odd one
//     FMA(A[m].bf16[2k+1], B[k].bf16[2n+1], odd); then
//     C[m].fp32[n] := C[m].fp32[n] + (even + odd). fp32_rules.hpp gives
//     the rounding, denormal and NaN behaviour of each step.
//   - TDPB[SU][SU]D: C[m].dword[n] := C[m].dword[n] + the four products of
//     A[m].byte[4k+i] and B[k].byte[4n+i] (each sign- or zero-extended as the
//     instruction's letters say), summed over k, modulo 2^32 (no saturation).
//   - Every instruction but LDTILECFG/STTILECFG/TILERELEASE raises #UD when
//     no palette is configured; the dot products also when a tile they name
//     is not configured or the shapes disagree: C.rows == A.rows,
//     C.colsb == B.colsb, A.colsb / 4 == B.rows. A fault stops the program
//     (fault.hpp); the check_* functions return it for tests.
//
// Not modelled: memory faults (#GP/#SS/#PF of a bad address: the host's
// own fault happens instead), TSX aborts, and the XFD first-use trap.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/amx/fp32_rules.hpp"
#include "tf/runtime/amx/tile_config.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>

namespace tf::runtime::amx::emulated {

/// One core's AMX state.
struct TileState {
  TileConfig config;
  /// TILES_CONFIGURED: a palette other than 0 is loaded.
  bool configured = false;
  std::array<std::array<std::uint8_t, max_rows * max_colsb>, tile_registers>
      tiles{};

  std::uint8_t *row(int t, int r) { return tiles[t].data() + r * max_colsb; }
};

/// The calling thread's tile state: tile registers belong to a core, and a
/// thread has its own copy, saved and restored by the OS with XSAVE.
inline TileState &tile_state() {
  thread_local TileState state;
  return state;
}

namespace detail {

inline std::string tile_name(int t) { return "tmm" + std::to_string(t); }

/// #UD unless a palette is configured.
inline std::optional<Fault> check_configured(const TileState &s,
                                             const char *instruction) {
  if (!s.configured)
    return Fault{Exception::ud, instruction,
                 "no tile configuration is loaded (TILES_CONFIGURED = 0)"};
  return std::nullopt;
}

template <class T> T read(const std::uint8_t *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
template <class T> void write(std::uint8_t *p, T v) {
  std::memcpy(p, &v, sizeof v);
}

/// zero_upper_rows(t, rows) and the bytes past colsb of every written row.
inline void zero_outside(TileState &s, int t) {
  const TileShape shape = s.config.shape(t);
  for (int r = 0; r < max_rows; ++r) {
    const int from = r < shape.rows ? shape.colsb : 0;
    std::memset(s.row(t, r) + from, 0, max_colsb - from);
  }
}

/// Signed or unsigned bytes of TDPB*D's operands.
enum class ByteSign { is_signed, is_unsigned };

template <ByteSign S> std::int32_t extend(std::uint8_t byte) {
  if constexpr (S == ByteSign::is_signed)
    return static_cast<std::int8_t>(byte);
  else
    return byte;
}

} // namespace detail

/// The #UD a dot product C += A . B raises in state `s`, if any.
inline std::optional<Fault> check_dot_product(const TileState &s, int c, int a,
                                              int b, const char *instruction) {
  if (auto f = detail::check_configured(s, instruction))
    return f;
  auto ud = [&](std::string why) {
    return Fault{Exception::ud, instruction, std::move(why)};
  };
  for (int t : {c, a, b})
    if (s.config.rows[t] == 0 || s.config.colsb[t] == 0)
      return ud(detail::tile_name(t) + " is not configured");
  const TileShape C = s.config.shape(c), A = s.config.shape(a),
                  B = s.config.shape(b);
  using detail::tile_name;
  if (C.rows != A.rows)
    return ud(tile_name(c) + " has " + std::to_string(C.rows) + " rows but " +
              tile_name(a) + " has " + std::to_string(A.rows));
  if (C.colsb != B.colsb)
    return ud(tile_name(c) + " has " + std::to_string(C.colsb) +
              " bytes per row but " + tile_name(b) + " has " +
              std::to_string(B.colsb));
  if (A.colsb / 4 != B.rows)
    return ud(tile_name(a) + " has " + std::to_string(A.colsb) +
              " bytes per row, so " + tile_name(b) + " needs " +
              std::to_string(A.colsb / 4) + " rows, not " +
              std::to_string(B.rows));
  return std::nullopt;
}

/// LDTILECFG: loads `config` (a #GP stops the program) and zeroes the tiles.
inline void tile_loadconfig(const TileConfig &config) {
  if (auto f = check_tile_config(config))
    raise(*f);
  TileState &s = tile_state();
  s.tiles = {};
  s.configured = config.palette_id != 0;
  s.config = s.configured ? config : TileConfig{};
}

/// STTILECFG: the configuration in force, all zero when none is.
inline void tile_storeconfig(TileConfig &config) {
  const TileState &s = tile_state();
  config = s.configured ? s.config : TileConfig{};
}

/// TILERELEASE: back to the INIT state.
inline void tile_release() {
  TileState &s = tile_state();
  s.tiles = {};
  s.configured = false;
  s.config = TileConfig{};
}

/// TILELOADD tmmT, [base + stride_bytes * row].
template <int T>
  requires TileRegister<T>
void tile_loadd(const void *base, std::ptrdiff_t stride_bytes) {
  TileState &s = tile_state();
  if (auto f = detail::check_configured(s, "TILELOADD"))
    raise(*f);
  const TileShape shape = s.config.shape(T);
  const auto *src = static_cast<const std::uint8_t *>(base);
  for (int r = s.config.start_row; r < shape.rows; ++r)
    std::memcpy(s.row(T, r), src + r * stride_bytes, shape.colsb);
  detail::zero_outside(s, T);
  s.config.start_row = 0;
}

/// TILESTORED [base + stride_bytes * row], tmmT.
template <int T>
  requires TileRegister<T>
void tile_stored(void *base, std::ptrdiff_t stride_bytes) {
  TileState &s = tile_state();
  if (auto f = detail::check_configured(s, "TILESTORED"))
    raise(*f);
  const TileShape shape = s.config.shape(T);
  auto *dst = static_cast<std::uint8_t *>(base);
  for (int r = s.config.start_row; r < shape.rows; ++r)
    std::memcpy(dst + r * stride_bytes, s.row(T, r), shape.colsb);
  s.config.start_row = 0;
}

/// TILEZERO tmmT.
template <int T>
  requires TileRegister<T>
void tile_zero() {
  TileState &s = tile_state();
  if (auto f = detail::check_configured(s, "TILEZERO"))
    raise(*f);
  s.tiles[T] = {};
}

/// TDPBF16PS tmmC, tmmA, tmmB: C (fp32) += A (bf16) . B (bf16 pairs).
template <int C, int A, int B>
  requires DistinctTiles<C, A, B>
void tile_dpbf16ps() {
  TileState &s = tile_state();
  if (auto f = check_dot_product(s, C, A, B, "TDPBF16PS"))
    raise(*f);
  const fp32::FloatEnvironmentGuard environment;
  const int rows = s.config.rows[C];
  const int pairs = s.config.colsb[A] / 4;   // k: bf16 pairs of A's row
  const int columns = s.config.colsb[C] / 4; // n: fp32 of C's row
  using detail::read;
  for (int m = 0; m < rows; ++m) {
    float even[max_colsb / 4] = {}, odd[max_colsb / 4] = {};
    const std::uint8_t *a = s.row(A, m);
    for (int k = 0; k < pairs; ++k) {
      const std::uint8_t *b = s.row(B, k);
      for (int n = 0; n < columns; ++n) {
        even[n] = fp32::fma(fp32::make_fp32(read<std::uint16_t>(a + 4 * k)),
                            fp32::make_fp32(read<std::uint16_t>(b + 4 * n)),
                            even[n]);
        odd[n] = fp32::fma(fp32::make_fp32(read<std::uint16_t>(a + 4 * k + 2)),
                           fp32::make_fp32(read<std::uint16_t>(b + 4 * n + 2)),
                           odd[n]);
      }
    }
    std::uint8_t *c = s.row(C, m);
    for (int n = 0; n < columns; ++n) {
      const float pair_sum = fp32::add(even[n], odd[n]);
      detail::write(c + 4 * n, fp32::add(read<float>(c + 4 * n), pair_sum));
    }
  }
  detail::zero_outside(s, C);
  s.config.start_row = 0;
}

namespace detail {

/// TDPB[SU][SU]D: C (int32) += A (bytes) . B (byte quads), modulo 2^32.
template <ByteSign SA, ByteSign SB>
void dot_product_bytes(int C, int A, int B, const char *instruction) {
  TileState &s = tile_state();
  if (auto f = check_dot_product(s, C, A, B, instruction))
    raise(*f);
  const int rows = s.config.rows[C];
  const int quads = s.config.colsb[A] / 4;
  const int columns = s.config.colsb[C] / 4;
  for (int m = 0; m < rows; ++m) {
    const std::uint8_t *a = s.row(A, m);
    std::uint8_t *c = s.row(C, m);
    for (int k = 0; k < quads; ++k) {
      const std::uint8_t *b = s.row(B, k);
      for (int n = 0; n < columns; ++n) {
        std::uint32_t sum = read<std::uint32_t>(c + 4 * n);
        for (int i = 0; i < 4; ++i)
          sum += static_cast<std::uint32_t>(extend<SA>(a[4 * k + i]) *
                                            extend<SB>(b[4 * n + i]));
        write(c + 4 * n, sum);
      }
    }
  }
  zero_outside(s, C);
  s.config.start_row = 0;
}

} // namespace detail

/// TDPBSSD: signed A, signed B.
template <int C, int A, int B>
  requires DistinctTiles<C, A, B>
void tile_dpbssd() {
  using enum detail::ByteSign;
  detail::dot_product_bytes<is_signed, is_signed>(C, A, B, "TDPBSSD");
}

/// TDPBSUD: signed A, unsigned B.
template <int C, int A, int B>
  requires DistinctTiles<C, A, B>
void tile_dpbsud() {
  using enum detail::ByteSign;
  detail::dot_product_bytes<is_signed, is_unsigned>(C, A, B, "TDPBSUD");
}

/// TDPBUSD: unsigned A, signed B.
template <int C, int A, int B>
  requires DistinctTiles<C, A, B>
void tile_dpbusd() {
  using enum detail::ByteSign;
  detail::dot_product_bytes<is_unsigned, is_signed>(C, A, B, "TDPBUSD");
}

/// TDPBUUD: unsigned A, unsigned B.
template <int C, int A, int B>
  requires DistinctTiles<C, A, B>
void tile_dpbuud() {
  using enum detail::ByteSign;
  detail::dot_product_bytes<is_unsigned, is_unsigned>(C, A, B, "TDPBUUD");
}

} // namespace tf::runtime::amx::emulated
