//===- tf/scheduler/persistent_tiles.hpp - Persistent CTAs over tiles -----===//
//
// The persistent GEMM's loop: P CTAs (one per SM) walk the GM x GN
// output tiles, CTA p taking tile ids p, p+P, p+2P, ... in an L2-grouped
// order:
//
//   constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
//   for (auto tile : tf::persistent_tiles(cta, GM, GN, {.group_m = 8})) {
//     auto [m, n] = tile;          // the output tile
//     tile.iteration;              // 0, 1, 2, ...: the CTA's clock
//   }
//
// Options (tf::PersistentTilesOptions, in this order):
//   group_m       rows of tiles per L2 group (in clusters of rows when
//                 cluster > 1); 1 = plain row-major order
//   column_major  swap the roles of M and N in the order
//   cluster       c consecutive CTAs (a cluster) take the c neighbouring
//                 tiles along M of one "super-tile"
//
// With Q = P / c clusters, cluster q = p / c and rank r = p % c, the grid has
// GMc = ceil(GM / c) rows of super-tiles; cluster q walks super-tile ids
// s = q, q+Q, q+2Q, ... < GMc * GN, maps each through
// tf::grouped_tile(s, GMc, GN, group_m, column_major) to (sm, n), and CTA p
// gets tile (sm*c + r, n) with index s*c + r. When GM is not a multiple of c,
// the last row of super-tiles is short: a CTA whose row sm*c + r would be
// >= GM skips that super-tile (no tile, and its clock does not advance), so
// no CTA ever sees an out-of-range tile. Kernels whose cluster CTAs must
// work together on every super-tile (2-CTA MMA) need GM % c == 0.
//
// Every tile is produced exactly once over all CTAs, for all shapes. See
// docs/language/schedulers.md for the formulas and a worked example.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/launch.hpp"
#include "tf/layout/mesh.hpp"
#include "tf/scheduler/tile.hpp"

#include <cstdint>
#include <iterator>

namespace tf {

struct PersistentTilesOptions {
  /// Rows of tiles (of super-tiles, when cluster > 1) per L2 group.
  std::int64_t group_m = 8;
  /// Swap the roles of M and N in the order.
  bool column_major = false;
  /// CTAs per cluster; they take neighbouring tiles along M.
  std::int64_t cluster = 1;
};

/// The tiles of CTA `p` of `P` persistent CTAs over a GM x GN grid of tiles,
/// as a range of Tile.
class PersistentTiles {
public:
  struct Params {
    std::int64_t rank = 0;        // r = p % cluster
    std::int64_t cluster = 1;     // c
    std::int64_t clusters = 1;    // Q = P / c
    std::int64_t GM = 0, GN = 0;  // tiles
    std::int64_t GMc = 0;         // rows of super-tiles, ceil(GM / c)
    std::int64_t supers = 0;      // GMc * GN
    std::int64_t group_m = 1;
    bool column_major = false;
  };

  class iterator {
  public:
    using value_type = Tile;
    using difference_type = std::ptrdiff_t;

    constexpr iterator() = default;
    /// The first tile at or after super-tile id `s`, with clock `iteration`.
    constexpr iterator(const Params &params, std::int64_t s,
                       std::int64_t iteration)
        : Sched(params), Super(s) {
      Current.iteration = iteration;
      settle();
    }

    constexpr Tile operator*() const { return Current; }
    constexpr iterator &operator++() {
      Super += Sched.clusters;
      ++Current.iteration;
      settle();
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    friend constexpr bool operator==(const iterator &i, std::default_sentinel_t) {
      return i.Super >= i.Sched.supers;
    }

  private:
    /// Moves to the first super-tile from Super on that has a tile for this
    /// CTA (one whose row is inside the grid), and computes it.
    constexpr void settle() {
      for (; Super < Sched.supers; Super += Sched.clusters) {
        const TileCoord sc =
            grouped_tile(Super, Sched.GMc, Sched.GN, Sched.group_m,
                         Sched.column_major);
        const std::int64_t m = sc.m * Sched.cluster + Sched.rank;
        if (m < Sched.GM) {
          Current.m = m;
          Current.n = sc.n;
          Current.index = Super * Sched.cluster + Sched.rank;
          return;
        }
      }
    }

    Params Sched{};
    std::int64_t Super = 0;
    Tile Current{};
  };

  constexpr PersistentTiles() = default;
  /// @pre 0 <= p < P, P % cluster == 0, GM, GN >= 0, group_m, cluster >= 1
  ///      (make_persistent_tiles checks)
  constexpr PersistentTiles(std::int64_t p, std::int64_t P, std::int64_t GM,
                            std::int64_t GN, PersistentTilesOptions options = {})
      : First(p / options.cluster) {
    Par.rank = p % options.cluster;
    Par.cluster = options.cluster;
    Par.clusters = P / options.cluster;
    Par.GM = GM;
    Par.GN = GN;
    Par.GMc = (GM + options.cluster - 1) / options.cluster;
    Par.supers = Par.GMc * GN;
    Par.group_m = options.group_m;
    Par.column_major = options.column_major;
  }

  constexpr iterator begin() const { return iterator(Par, First, 0); }
  constexpr std::default_sentinel_t end() const { return {}; }

  constexpr const Params &params() const { return Par; }

private:
  Params Par{};
  std::int64_t First = 0; // q, the cluster's first super-tile id
};

/// PersistentTiles of CTA `p` of `P`, or why there is none.
constexpr Result<PersistentTiles>
make_persistent_tiles(std::int64_t p, std::int64_t P, std::int64_t GM,
                      std::int64_t GN, PersistentTilesOptions options = {}) {
  if (P < 1 || p < 0 || p >= P)
    return make_error(Errc::out_of_range,
                      "persistent CTA {} is outside a mesh of {} CTAs", p, P);
  if (GM < 0 || GN < 0)
    return make_error(Errc::out_of_range,
                      "a grid of tiles needs GM, GN >= 0; {} x {} given", GM,
                      GN);
  if (options.group_m < 1)
    return make_error(Errc::out_of_range, "group_m must be >= 1; {} given",
                      options.group_m);
  if (options.cluster < 1 || P % options.cluster != 0)
    return make_error(Errc::precondition,
                      "{} persistent CTAs do not form clusters of {}; the "
                      "number of CTAs must be a multiple of the cluster size",
                      P, options.cluster);
  return PersistentTiles(p, P, GM, GN, options);
}

/// The tiles the running CTA processes (inside tf::launch): CTA p of the
/// P-CTA `cta_mesh` (P = the launched grid) walks tile ids p, p+P, ... in
/// the L2-grouped order of `options` (see the file comment). A mesh that
/// does not match the launch, or bad options, stop the program with a
/// message.
[[clang::annotate("tf.op.persistent_tiles")]] inline PersistentTiles
persistent_tiles(const Mesh &cta_mesh, std::int64_t GM, std::int64_t GN,
                 PersistentTilesOptions options = {}) {
  const char *who = "tf::persistent_tiles";
  const detail::MeshPosition at = detail::mesh_position(cta_mesh, who);
  Result<PersistentTiles> r =
      make_persistent_tiles(at.index, at.size, GM, GN, options);
  if (!r)
    detail::scheduler_fatal("%s: %s", who, r.error().message().c_str());
  return *r;
}

} // namespace tf
