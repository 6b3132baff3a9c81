//===- tf/layout/mesh.hpp - Topologies and meshes -------------------------===//
//
// A Topology is one level of the parallel hierarchy with its largest extent
// (`cta` 132, `thread` 384). A Mesh arranges units of one level in a logical
// shape: its layout maps mesh coordinates to unit ids, plus an offset, and
// each top-level mode may be named (`warpgroup`, `participant`). The seed's
// matrix  [3@warpgroup 128@participant; 128 1]  is Mesh{"thread",
// (3,128):(128,1), offset 0}.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/layout.hpp"
#include "tf/support/fixed_vector.hpp"
#include "tf/support/name.hpp"

namespace tf {

/// Top-level modes a mesh may name.
inline constexpr std::size_t max_mesh_axes = 8;

struct Topology {
  Name level{};
  Int extent{};

  friend constexpr bool operator==(const Topology &, const Topology &) = default;
};

struct Mesh {
  /// The topology level whose units the mesh arranges.
  Name level{};
  /// Mesh coordinate -> unit id (before the offset).
  Layout layout{};
  /// First unit id (the seed's p0); symbolic in contract patterns.
  Int offset{};
  /// One name per top-level mode of `layout`, or none at all.
  FixedVector<Name, max_mesh_axes> axes{};

  friend constexpr bool operator==(const Mesh &, const Mesh &) = default;
};

} // namespace tf
