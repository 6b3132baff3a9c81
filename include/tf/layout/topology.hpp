//===- tf/layout/topology.hpp - Levels of the parallel hierarchy ----------===//
//
// A Topology is one level of the parallel hierarchy (`cta`, `thread`) with its
// largest parallelism: the H200 GEMM's cta = (132), thread = (384). Meshes name
// the level whose units they arrange; unit ids of different levels are never
// comparable, which is why every mesh operation checks the level first.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/int.hpp"
#include "tf/support/name.hpp"

#include <cstdint>

namespace tf {

struct Topology {
  /// The level's name, as meshes and targets spell it.
  Name level{};
  /// How many units the level has (unit ids are 0 .. extent-1).
  Int extent{};

  friend constexpr bool operator==(const Topology &, const Topology &) = default;
};

/// The level `level` with `extent` units.
/// @pre extent > 0
constexpr Result<Topology> make_topology(Name level, std::int64_t extent) {
  if (level.empty())
    return make_error(Errc::precondition, "a topology level needs a name");
  if (extent <= 0)
    return make_error(Errc::out_of_range,
                      "topology '{name}' needs a positive extent", level);
  return Topology{level, Int(extent)};
}

/// The level `level` with `extent` units, where `extent` may be dynamic
/// without a value (`tf::dyn`, kernel.hpp): a grid whose size is given at
/// launch, `tf::topology("cta", tf::dyn)`.
/// @pre extent is not symbolic; a number it holds is positive
constexpr Result<Topology> make_topology(Name level, Int extent) {
  if (extent.is_symbolic())
    return make_error(Errc::symbolic,
                      "topology '{name}' needs a number or tf::dyn as its "
                      "extent, not a symbol",
                      level);
  if (extent.has_value()) {
    Result<Topology> t = make_topology(level, extent.value);
    if (!t)
      return t;
    return Topology{level, extent};
  }
  if (level.empty())
    return make_error(Errc::precondition, "a topology level needs a name");
  return Topology{level, extent};
}

/// make_topology for constant expressions: a bad level stops compilation.
constexpr Topology topology(Name level, std::int64_t extent) {
  return make_topology(level, extent).value();
}

/// make_topology with a static or dynamic extent, for constant expressions.
constexpr Topology topology(Name level, Int extent) {
  return make_topology(level, extent).value();
}

} // namespace tf
