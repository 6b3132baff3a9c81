//===- tf/layout/shard_layout.hpp - Distributed layouts -------------------===//
//
// A ShardLayout is a Layout whose modes may be bound to mesh axes (`2@group`)
// together with the Mesh it is distributed over: the bound modes say which
// unit holds an element, the unbound modes how a unit arranges its part
// locally. The seed's accumulator
//   (2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,128,64)
// binds four modes to the compute mesh (2,4,8,4) and keeps (2,32,2) local.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/mesh.hpp"

namespace tf {

/// Leaves a ShardLayout can bind.
inline constexpr std::size_t max_shard_leaves = 32;

/// An axis binding of one leaf: unbound, or a mesh axis by name or index.
struct AxisRef {
  Name name{};     ///< `@group`; empty when bound by index or unbound
  int index = -1;  ///< `@2`; -1 when bound by name or unbound
  constexpr bool bound() const { return !name.empty() || index >= 0; }

  friend constexpr bool operator==(const AxisRef &, const AxisRef &) = default;
};

struct ShardLayout {
  Layout layout{};
  /// One entry per leaf of layout.shape, in written order.
  FixedVector<AxisRef, max_shard_leaves> axes{};
  Mesh mesh{};

  friend constexpr bool operator==(const ShardLayout &,
                                   const ShardLayout &) = default;
};

} // namespace tf
