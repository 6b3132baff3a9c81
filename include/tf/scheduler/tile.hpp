//===- tf/scheduler/tile.hpp - Output tiles and their order ---------------===//
//
// What the tile schedulers (grid_tiles.hpp, persistent_tiles.hpp) share:
//
// - `tf::Tile`, one output tile: its coordinates (m, n) in the GM x GN grid
//   of tiles, `iteration` (the CTA's clock: 0 for its first tile, 1 for the
//   next, ...; every role of the CTA that walks the same schedule sees the
//   same value, so ring slots and phase bits can be derived from it) and
//   `index` (the tile's id in scheduling order). `auto [m, n] = tile` binds
//   the coordinates.
// - `tf::grouped_tile(id, GM, GN, group_m, column_major)`, the L2-grouped
//   order: tile id -> (m, n). See docs/language/schedulers.md.
// - the position of the running CTA in a CTA mesh, for both schedulers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/launch.hpp"
#include "tf/layout/mesh.hpp"
#include "tf/support/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace tf {

/// One output tile of a schedule.
struct Tile {
  /// Row and column of the tile in the GM x GN grid of tiles.
  std::int64_t m = 0;
  std::int64_t n = 0;
  /// The CTA's clock: how many tiles this CTA got before this one.
  std::int64_t iteration = 0;
  /// The id the tile was mapped from, in scheduling order.
  std::int64_t index = 0;

  /// Structured bindings see (m, n): `auto [m, n] = tile`.
  template <std::size_t I> constexpr std::int64_t get() const {
    static_assert(I < 2, "a tf::Tile binds two names: auto [m, n] = tile");
    if constexpr (I == 0)
      return m;
    else
      return n;
  }

  friend constexpr bool operator==(const Tile &, const Tile &) = default;
};

/// A tile's coordinates (m, n) in the grid of tiles.
struct TileCoord {
  std::int64_t m = 0;
  std::int64_t n = 0;
  friend constexpr bool operator==(const TileCoord &,
                                   const TileCoord &) = default;
};

/// The L2-grouped order of a GM x GN grid of tiles: tile id `id` -> (m, n).
/// Row-major (`column_major` false): the rows of tiles form groups of
/// `group_m` rows (the last group has the GM % group_m rows left over, if
/// any); ids run through the groups in order, and inside a group down a
/// column first (m fastest), then to the next column:
///   g = id / (group_m*GN), first = g*group_m, rows = min(group_m, GM-first),
///   r = id - g*group_m*GN, m = first + r % rows, n = r / rows.
/// `column_major` swaps the roles of M and N (groups of group_m columns,
/// n fastest). group_m = 1 is plain row-major (column-major) order.
/// @pre GM, GN >= 1, group_m >= 1, 0 <= id < GM*GN
constexpr Result<TileCoord> make_grouped_tile(std::int64_t id, std::int64_t GM,
                                              std::int64_t GN,
                                              std::int64_t group_m,
                                              bool column_major = false) {
  if (GM < 1 || GN < 1)
    return make_error(Errc::out_of_range,
                      "a grid of tiles needs GM, GN >= 1; {} x {} given", GM,
                      GN);
  if (group_m < 1)
    return make_error(Errc::out_of_range, "group_m must be >= 1; {} given",
                      group_m);
  if (id < 0 || id >= GM * GN)
    return make_error(Errc::out_of_range,
                      "tile id {} is outside a grid of {} x {} tiles", id, GM,
                      GN);
  const std::int64_t slow = column_major ? GN : GM; // the grouped extent
  const std::int64_t fast = column_major ? GM : GN;
  const std::int64_t band = group_m * fast;
  const std::int64_t g = id / band;
  const std::int64_t first = g * group_m;
  const std::int64_t rows = slow - first < group_m ? slow - first : group_m;
  const std::int64_t r = id - g * band;
  const std::int64_t a = first + r % rows; // along the grouped extent
  const std::int64_t b = r / rows;
  return column_major ? TileCoord{b, a} : TileCoord{a, b};
}

/// make_grouped_tile that stops the program (or compilation) on bad input.
constexpr TileCoord grouped_tile(std::int64_t id, std::int64_t GM,
                                 std::int64_t GN, std::int64_t group_m,
                                 bool column_major = false) {
  return make_grouped_tile(id, GM, GN, group_m, column_major).value();
}

namespace detail {

/// Prints "tf: error: <message>" and stops the program.
template <class... Args>
[[noreturn]] void scheduler_fatal(const char *format, Args... args) {
  std::fputs("tf: error: ", stderr);
  std::fprintf(stderr, format, args...);
  std::fputc('\n', stderr);
  std::abort();
}

/// The running CTA's place in a CTA mesh: index p of P.
struct MeshPosition {
  std::int64_t index = 0;
  std::int64_t size = 0;
};

/// Where the running unit stands in `mesh`, which must cover the whole
/// launched grid (its size, when it has one, is the launched extent). A mesh
/// with a dynamic extent (`tf::layout<"(?)">`) takes the launched extent.
inline MeshPosition mesh_position(const Mesh &mesh, const char *who) {
  const UnitContext &c = current_unit(mesh.level.view(), who);
  const std::int64_t first = mesh.offset.has_value() ? mesh.offset.value : 0;
  Result<std::int64_t> size = mesh.size();
  if (!size) {
    // A dynamic mesh stands for the grid launched: units first, first+1, ...
    if (first != 0)
      scheduler_fatal("%s: a CTA mesh of dynamic size must start at CTA 0; "
                      "this one starts at CTA %lld",
                      who, static_cast<long long>(first));
    return {c.index, c.extent};
  }
  if (*size != c.extent)
    scheduler_fatal("%s: the CTA mesh has %lld units but tf::launch runs %lld "
                    "CTAs; launch tf::grid(%lld) or give the mesh %lld units",
                    who, static_cast<long long>(*size),
                    static_cast<long long>(c.extent),
                    static_cast<long long>(*size),
                    static_cast<long long>(c.extent));
  Result<FlatLeaves> leaves = flat_leaves(mesh.layout);
  if (!leaves)
    scheduler_fatal("%s: %s", who, leaves.error().message().c_str());
  std::int64_t digit[max_int_tuple_nodes] = {};
  std::int64_t unit = first;
  for (std::int64_t i = 0; i < *size; ++i) {
    if (unit == c.index)
      return {i, *size};
    next_coord(*leaves, digit, unit);
  }
  scheduler_fatal("%s: CTA %lld is not a unit of the CTA mesh", who,
                  static_cast<long long>(c.index));
}

} // namespace detail
} // namespace tf

namespace std {
template <> struct tuple_size<tf::Tile> : integral_constant<size_t, 2> {};
template <size_t I> struct tuple_element<I, tf::Tile> {
  using type = std::int64_t;
};
} // namespace std
