//===- test/schedulers/headers_check.cpp - The headers in any compiler ----===//
//
// Compiled (not run) by clang 22 with -fno-exceptions -fno-rtti -Werror and
// by nvcc as a CUDA translation unit that also includes CUDA's headers: the
// names of tf/kernel.hpp, tf/launch.hpp and tf/scheduler/ do not collide
// with CUDA's, and their constant-expression parts work in static_asserts.
//
//===----------------------------------------------------------------------===//
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wattributes"
#endif

#ifdef TF_CHECK_WITH_CUDA
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#endif

#include "tf/kernel.hpp"
#include "tf/launch.hpp"
#include "tf/layout/text.hpp"
#include "tf/scheduler/grid_tiles.hpp"
#include "tf/scheduler/persistent_tiles.hpp"
#include "tf/scheduler/tile_offsets.hpp"

namespace check {

constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");

static_assert(tf::target("nvidia.h200_sxm") == tf::Target{"nvidia.h200_sxm"});
static_assert(!tf::make_target("H200").ok());
static_assert(tf::topology("cta", tf::dyn).extent == tf::dyn);
static_assert(tf::topology("cta", 132).extent.value == 132);
static_assert(tf::grid(132).extent == 132);

static_assert(tf::tile_offsets(130, 64).size() == 3);
static_assert(tf::tile_offsets<64>(128).size() == 2);
static_assert(tf::grouped_tile(7, 6, 5, 2) == tf::TileCoord{1, 3});
static_assert(tf::make_grid_tiles(5, 3, 4)->tile() == tf::Tile{1, 1, 0, 5});

constexpr int tiles_of(std::int64_t p) {
  int count = 0;
  for (auto [m, n] : tf::PersistentTiles(p, 4, 6, 5, {.group_m = 2})) {
    (void)m;
    (void)n;
    ++count;
  }
  return count;
}
static_assert(tiles_of(0) == 8 && tiles_of(1) == 8 && tiles_of(2) == 7);

void kernel(int *out) {
  for (auto tile : tf::persistent_tiles(cta, 20, 30, {.group_m = 8})) {
    auto [m, n] = tile;
    out[m * 30 + n] = static_cast<int>(tile.iteration);
  }
}

void run(int *out) { tf::launch(kernel, tf::grid(132), out); }

} // namespace check
