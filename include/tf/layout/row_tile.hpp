//===- tf/layout/row_tile.hpp - A row tile spread over a warp mesh --------===//
//
// tf::row_tile_text<Rows, Cols, Vector>() is the layout text of a register
// tile of Rows x Cols elements held one row per warp: mode 0 is bound to
// mesh axis `warp`, and each row is read in steps of 32 x Vector columns,
// lane l holding columns [l Vector, (l + 1) Vector) of every step -- so each
// lane's Vector elements are contiguous in memory (Vector = 8 bf16 is one
// 128-bit load per lane per step) and a warp's 32 loads of a step are one
// contiguous span:
//
//   (Rows@warp,(Cols/(32 Vector),32@lane,Vector)):(Cols,(32 Vector,Vector,1))
//
// The thread mesh that holds such a tile names its axes `warp` and `lane`
// (tf::mesh("thread", tf::layout<"(4,32)">, "warp", "lane")).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/support/fixed_string.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tf {
namespace row_tile_detail {

/// Appends `v` (>= 0) in decimal.
template <std::size_t N>
constexpr void append(std::array<char, N> &buf, std::size_t &at, std::int64_t v) {
  char digits[20] = {};
  std::size_t n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v > 0);
  while (n > 0)
    buf[at++] = digits[--n];
}
template <std::size_t N>
constexpr void append(std::array<char, N> &buf, std::size_t &at,
                      std::string_view s) {
  for (char c : s)
    buf[at++] = c;
}

/// The text, '\0'-padded to 96 characters (enough for 19-digit extents).
constexpr std::array<char, 96> text(std::int64_t rows, std::int64_t cols,
                                    std::int64_t vector) {
  std::array<char, 96> buf{};
  std::size_t at = 0;
  append(buf, at, "(");
  append(buf, at, rows);
  append(buf, at, "@warp,(");
  append(buf, at, cols / (32 * vector));
  append(buf, at, ",32@lane,");
  append(buf, at, vector);
  append(buf, at, ")):(");
  append(buf, at, cols);
  append(buf, at, ",(");
  append(buf, at, 32 * vector);
  append(buf, at, ",");
  append(buf, at, vector);
  append(buf, at, ",1))");
  return buf;
}

/// The text of a 1 x cols tile over `warps` warps (see cta_row_tile_text).
constexpr std::array<char, 96> cta_text(std::int64_t cols, std::int64_t warps,
                                        std::int64_t vector) {
  std::array<char, 96> buf{};
  std::size_t at = 0;
  const std::int64_t step = warps * 32 * vector;
  append(buf, at, "(1,(");
  append(buf, at, cols / step);
  append(buf, at, ",");
  append(buf, at, warps);
  append(buf, at, "@warp,32@lane,");
  append(buf, at, vector);
  append(buf, at, ")):(");
  append(buf, at, cols);
  append(buf, at, ",(");
  append(buf, at, step);
  append(buf, at, ",");
  append(buf, at, 32 * vector);
  append(buf, at, ",");
  append(buf, at, vector);
  append(buf, at, ",1))");
  return buf;
}

constexpr std::size_t length(const std::array<char, 96> &buf) {
  std::size_t n = 0;
  while (buf[n] != '\0')
    ++n;
  return n;
}

/// Buf's text as a FixedString.
template <std::array<char, 96> Buf> constexpr auto fixed() {
  constexpr std::size_t n = length(Buf);
  char out[n + 1] = {};
  for (std::size_t i = 0; i < n; ++i)
    out[i] = Buf[i];
  return FixedString<n + 1>(out);
}

} // namespace row_tile_detail

/// The layout text of a Rows x Cols register tile, one row per warp, lanes
/// interleaved in runs of Vector columns (see the file comment).
template <std::int64_t Rows, std::int64_t Cols, std::int64_t Vector>
constexpr auto row_tile_text() {
  static_assert(Rows >= 1 && Vector >= 1, "tf::row_tile_text: Rows and Vector "
                                          "must be positive");
  static_assert(Cols >= 32 * Vector && Cols % (32 * Vector) == 0,
                "tf::row_tile_text: Cols must be a multiple of 32 x Vector "
                "(one step of the warp's 32 lanes)");
  return row_tile_detail::fixed<row_tile_detail::text(Rows, Cols, Vector)>();
}

/// The layout text of a 1 x Cols register tile over a CTA of Threads
/// threads (Threads / 32 warps): each thread holds runs of Vector columns,
/// the warps side by side in each step of Threads x Vector columns, the
/// lanes side by side in each warp's part of a step:
///
///   (1,(Cols/(Threads Vector),Threads/32@warp,32@lane,Vector))
///     :(Cols,(Threads Vector,32 Vector,Vector,1))
///
/// A reduction along the row spans the warps (through shared memory). The
/// thread mesh names its axes `warp` and `lane`.
template <std::int64_t Cols, std::int64_t Threads, std::int64_t Vector>
constexpr auto cta_row_tile_text() {
  static_assert(Threads >= 32 && Threads % 32 == 0 && Vector >= 1,
                "tf::cta_row_tile_text: Threads must be whole warps and "
                "Vector positive");
  static_assert(Cols >= Threads * Vector && Cols % (Threads * Vector) == 0,
                "tf::cta_row_tile_text: Cols must be a multiple of Threads x "
                "Vector (one step of the CTA's threads)");
  return row_tile_detail::fixed<
      row_tile_detail::cta_text(Cols, Threads / 32, Vector)>();
}

} // namespace tf
