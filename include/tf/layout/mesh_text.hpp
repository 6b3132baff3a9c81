//===- tf/layout/mesh_text.hpp - Printing meshes and match failures -------===//
//
// Run-time text for meshes, ShardLayouts and the reasons a match failed, as
// `schedule candidates` and diagnostics show them:
//   Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, lane8, lane4)
//   (2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,128,64)
//   Mesh(cta, (132):(1), persistent) does not match
//       Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + p0): level cta is not thread
// A mesh reads like the call that builds it: level, layout, offset when not
// zero, axis names. Not constexpr: these build std::string.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/shard_match.hpp"
#include "tf/layout/text/print.hpp"

#include <string>

namespace tf {

namespace detail {

/// `shape:stride` with the shape's text given, a leaf layout in parentheses
/// as a mesh writes it: `(132):(1)`, `(2@group,32):(16,1)`.
inline std::string mesh_layout_string(const std::string &shape,
                                      const Layout &l) {
  if (l.shape.is_leaf())
    return "(" + shape + "):(" + to_string(l.stride) + ")";
  return shape + ":" + to_string(l.stride);
}

} // namespace detail

/// The mesh as `Mesh(level, layout + offset, names...)`, offset 0 omitted.
inline std::string to_string(const Mesh &m) {
  std::string out = "Mesh(" + std::string(m.level.view()) + ", " +
                    detail::mesh_layout_string(to_string(m.layout.shape),
                                               m.layout) +
                    detail::offset_suffix(m.offset);
  for (const Name &n : m.axes)
    out += ", " + std::string(n.view());
  return out + ")";
}

/// The layout with each bound leaf's extent followed by `@axis` (`@i` for a
/// binding by mesh leaf index), then ` over ` and the mesh.
inline std::string to_string(const ShardLayout &s) {
  return detail::mesh_layout_string(
             detail::tuple_string(s.layout.shape, &s.axes, false), s.layout) +
         " over " + to_string(s.mesh);
}

/// Why the layout `concrete` failed to match the layout `pattern` (or,
/// for level and offset items, the meshes they belong to), naming the item:
/// "level cta is not thread", "shape (32) has 1 leaves where
/// ((*g,4,8,4)) needs at least 3", "leaf 1 of (2,4,8,4) has stride 64 where
/// ((*g,4,8,4)):((*gs,32,4,1)) has 32".
inline std::string reason(const MatchFailure &f, const Layout &pattern,
                          const Layout &concrete, const Int &pattern_offset) {
  switch (f.item) {
  case MatchItem::none:
    return "";
  case MatchItem::level:
    return "level " + std::string(f.found_name.view()) + " is not " +
           std::string(f.expected_name.view());
  case MatchItem::leaf_count:
    return "shape " + to_string(concrete.shape) + " has " +
           std::to_string(f.found) + " leaves where " +
           to_string(pattern.shape) + " needs " +
           (f.variadic ? "at least " : "") + std::to_string(f.expected);
  case MatchItem::extent:
  case MatchItem::stride: {
    bool extent = f.item == MatchItem::extent;
    return "leaf " + std::to_string(f.leaf) + " of " +
           to_string(extent ? concrete.shape : concrete.stride) +
           " has " + (extent ? "extent " : "stride ") +
           std::to_string(f.found) + " where " +
           to_string(extent ? pattern.shape : pattern.stride) +
           " has " + std::to_string(f.expected);
  }
  case MatchItem::symbol:
    if (f.variadic)
      return "*" + std::string(f.expected_name.view()) +
             " is bound to two different tuples";
    return std::string(f.expected_name.view()) + " is bound to " +
           std::to_string(f.expected) + " but " +
           (f.leaf >= 0 ? "leaf " + std::to_string(f.leaf) : "the offset") +
           " is " + std::to_string(f.found);
  case MatchItem::offset:
    return "offset " + std::to_string(f.found) + " is not " +
           to_string(pattern_offset);
  case MatchItem::pattern:
    return "malformed pattern: " + f.detail.message();
  case MatchItem::axis: {
    auto bound = [](std::int64_t first) {
      return first < 0 ? std::string("unbound")
                       : "bound to mesh leaf " + std::to_string(first);
    };
    return "leaf " + std::to_string(f.leaf) + " is " + bound(f.found) +
           " where the pattern has it " + bound(f.expected);
  }
  case MatchItem::predicate:
    return "predicate " + std::to_string(f.leaf) + " fails: " +
           f.detail.message();
  }
  return "";
}

/// "<mesh> does not match <pattern>: <reason>", as candidates reports it,
/// with the predicate's own text when a predicate failed.
inline std::string describe(const MeshMatch &m, const MeshPattern &pattern,
                            const Mesh &mesh) {
  std::string why =
      m.failure.item == MatchItem::predicate
          ? to_string(pattern.predicates[m.failure.leaf]) + " fails: " +
                m.failure.detail.message()
          : reason(m.failure, pattern.mesh.layout, mesh.layout,
                   pattern.mesh.offset);
  return to_string(mesh) + " does not match " + to_string(pattern.mesh) +
         ": " + why;
}

/// "<shard> does not match <pattern>: <reason>".
inline std::string describe(const ShardMatch &m, const ShardLayout &pattern,
                            const ShardLayout &shard) {
  std::string why =
      m.in_mesh ? reason(m.failure, pattern.mesh.layout, shard.mesh.layout,
                         pattern.mesh.offset)
                : reason(m.failure, pattern.layout, shard.layout,
                         pattern.mesh.offset);
  return to_string(shard) + " does not match " + to_string(pattern) + ": " +
         why;
}

/// describe for a mesh pattern without predicates.
inline std::string describe(const MeshMatch &m, const Mesh &pattern,
                            const Mesh &mesh) {
  return describe(m, MeshPattern{pattern, {}}, mesh);
}

} // namespace tf
