//===- tf/layout/shard_match.hpp - Unifying ShardLayouts with patterns ----===//
//
// A contract states an operand's distribution as a ShardLayout pattern, e.g.
// WGMMA's accumulator
//   ShardLayout(Layout((4, 2, 8, c, 4, 2), (16, 8, 1, 512, 128, 64)),
//               (S(0), S(2), S(4)), Mesh(('thread',), ... ((4, 8, 4)):((32, 4, 1)) + p0))
// `match` unifies it with a concrete ShardLayout: the layouts' leaves as in
// mesh matching (symbols such as `c` bind), the meshes by mesh matching, and
// every leaf must be bound to the same mesh leaves on both sides (by name or
// by index makes no difference; what is compared is the mesh leaves bound).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/mesh_match.hpp"
#include "tf/layout/shard_layout.hpp"

namespace tf {

/// The outcome of matching a ShardLayout pattern.
struct ShardMatch {
  bool ok = false;
  /// Symbols of the layout and of the mesh together.
  Bindings bindings{};
  MatchFailure failure{};
  /// Whether the failure is in the meshes (else in the layouts or bindings).
  bool in_mesh = false;
  constexpr explicit operator bool() const { return ok; }
};

namespace detail {

/// The concrete leaves [first, first + count) that pattern leaf `j` of
/// `pattern` stands for when it matched `concrete_count` leaves.
constexpr MeshLeafRange concrete_leaves(const IntTuple &pattern, int j,
                                        int concrete_count) {
  int variadic = -1;
  for (int k = 0; k < pattern.leaf_count(); ++k)
    if (pattern.leaf_at(k).variadic)
      variadic = k;
  if (variadic < 0 || j < variadic)
    return {j, 1};
  int taken = concrete_count - (pattern.leaf_count() - 1);
  if (j == variadic)
    return {j, taken};
  return {j + taken - 1, 1};
}

} // namespace detail

/// Unifies the ShardLayout `pattern` with `shard`.
/// @pre check_shard(shard) succeeds
constexpr ShardMatch match(const ShardLayout &pattern,
                           const ShardLayout &shard) {
  ShardMatch out;
  if (!detail::unify_layout(out.bindings, pattern.layout, shard.layout,
                            out.failure))
    return out;
  MeshMatch mesh = match(pattern.mesh, shard.mesh);
  if (!mesh) {
    out.failure = mesh.failure;
    out.in_mesh = true;
    return out;
  }
  for (const Binding &b : mesh.bindings.values)
    if (!detail::bind(out.bindings, b.name, b.value, -1, out.failure))
      return out;
  for (const TupleBinding &b : mesh.bindings.tuples)
    if (!detail::bind_tuple(out.bindings, b.name, b.leaves, -1, out.failure))
      return out;
  const int leaves = shard.layout.shape.leaf_count();
  const int mesh_leaves = shard.mesh.layout.shape.leaf_count();
  for (int j = 0; j < pattern.layout.shape.leaf_count(); ++j) {
    MeshLeafRange at =
        detail::concrete_leaves(pattern.layout.shape, j, leaves);
    // Where the pattern leaf is bound, in the concrete mesh's leaves.
    MeshLeafRange want{0, 0};
    if (pattern.axes[j].bound()) {
      Result<MeshLeafRange> p = resolve(pattern.axes[j], pattern.mesh);
      if (!p) {
        out.failure = {MatchItem::pattern, j, 0, 0, {}, {}, false, false,
                       p.error()};
        return out;
      }
      MeshLeafRange first = detail::concrete_leaves(pattern.mesh.layout.shape,
                                                    p->first, mesh_leaves);
      MeshLeafRange last = detail::concrete_leaves(
          pattern.mesh.layout.shape, p->first + p->count - 1, mesh_leaves);
      want = {first.first, last.first + last.count - first.first};
    }
    for (int k = at.first; k < at.first + at.count; ++k) {
      MeshLeafRange have{0, 0};
      if (shard.axes[k].bound())
        have = *resolve(shard.axes[k], shard.mesh);
      if (have.first != want.first || have.count != want.count) {
        // -1 stands for "unbound" on either side.
        out.failure = {MatchItem::axis,
                       j,
                       want.count > 0 ? want.first : -1,
                       have.count > 0 ? have.first : -1,
                       {},
                       {},
                       false,
                       false,
                       {}};
        return out;
      }
    }
  }
  out.ok = true;
  return out;
}

} // namespace tf
