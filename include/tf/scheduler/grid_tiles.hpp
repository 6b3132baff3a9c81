//===- tf/scheduler/grid_tiles.hpp - One CTA per output tile --------------===//
//
// The grid GEMM's loop: one CTA per output tile, launched with
// tf::grid(GM * GN).
//
//   constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "tile");
//   for (auto [m, n] : tf::grid_tiles(cta, GM, GN)) ...   // exactly one tile
//
// CTA p (its index in the CTA mesh) gets tile id p, mapped to (m, n) by
// tf::grouped_tile (tile.hpp): row-major by default (m = p / GN,
// n = p % GN), column-major with {.column_major = true} (m = p % GM,
// n = p / GM), L2-grouped with {.group_m = g}. Its `iteration` is 0 and its
// `index` is p. A launch whose grid is not GM * GN CTAs stops the program
// with a message naming both.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/launch.hpp"
#include "tf/layout/mesh.hpp"
#include "tf/scheduler/tile.hpp"

#include <cstdint>
#include <iterator>

namespace tf {

struct GridTilesOptions {
  /// Rows of tiles per L2 group (1: plain row-major order).
  std::int64_t group_m = 1;
  /// Swap the roles of M and N: column-major order.
  bool column_major = false;
};

/// The one tile of CTA `p` in a grid of GM * GN CTAs: a range of one Tile.
class GridTiles {
public:
  class iterator {
  public:
    using value_type = Tile;
    using difference_type = std::ptrdiff_t;

    constexpr iterator() = default;
    constexpr explicit iterator(Tile t) : Current(t), Done(false) {}

    constexpr Tile operator*() const { return Current; }
    constexpr iterator &operator++() {
      Done = true;
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator old = *this;
      Done = true;
      return old;
    }
    friend constexpr bool operator==(const iterator &i, std::default_sentinel_t) {
      return i.Done;
    }

  private:
    Tile Current{};
    bool Done = true;
  };

  constexpr GridTiles() = default;
  /// @pre 0 <= p < GM * GN, GM, GN, group_m >= 1 (make_grid_tiles checks)
  constexpr GridTiles(std::int64_t p, std::int64_t GM, std::int64_t GN,
                      GridTilesOptions options = {})
      : Current{0, 0, 0, p} {
    const TileCoord c = grouped_tile(p, GM, GN, options.group_m,
                                     options.column_major);
    Current.m = c.m;
    Current.n = c.n;
  }

  constexpr iterator begin() const { return iterator(Current); }
  constexpr std::default_sentinel_t end() const { return {}; }
  constexpr std::int64_t size() const { return 1; }
  /// The tile itself.
  constexpr Tile tile() const { return Current; }

private:
  Tile Current{};
};

/// GridTiles of CTA `p`, or why there is none.
constexpr Result<GridTiles> make_grid_tiles(std::int64_t p, std::int64_t GM,
                                            std::int64_t GN,
                                            GridTilesOptions options = {}) {
  Result<TileCoord> c =
      make_grouped_tile(p, GM, GN, options.group_m, options.column_major);
  if (!c)
    return c.error();
  return GridTiles(p, GM, GN, options);
}

/// The running CTA's tile (inside tf::launch): CTA p of `cta_mesh` gets tile
/// id p in the order of `options`. The launched grid must be GM * GN CTAs
/// and the mesh must cover it; otherwise the program stops with a message.
[[clang::annotate("tf.op.grid_tiles")]] inline GridTiles
grid_tiles(const Mesh &cta_mesh, std::int64_t GM, std::int64_t GN,
           GridTilesOptions options = {}) {
  const char *who = "tf::grid_tiles";
  const detail::UnitContext &c = detail::current_unit(cta_mesh.level.view(), who);
  if (GM < 1 || GN < 1 || GM * GN != c.extent)
    detail::scheduler_fatal(
        "%s: tf::launch runs %lld CTAs but the grid of tiles has GM x GN = "
        "%lld x %lld = %lld tiles; one CTA per tile needs tf::grid(%lld)",
        who, static_cast<long long>(c.extent), static_cast<long long>(GM),
        static_cast<long long>(GN), static_cast<long long>(GM * GN),
        static_cast<long long>(GM * GN));
  if (options.group_m < 1)
    detail::scheduler_fatal("%s: group_m must be >= 1; %lld given", who,
                            static_cast<long long>(options.group_m));
  const detail::MeshPosition at = detail::mesh_position(cta_mesh, who);
  return GridTiles(at.index, GM, GN, options);
}

} // namespace tf
