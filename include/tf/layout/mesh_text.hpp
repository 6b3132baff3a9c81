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

#include <string>

namespace tf {

namespace detail {
// Leaf and tuple text live here, not as tf::to_string overloads, so that this
// header and the layout printer (text.hpp) can be included together.

/// An extent, stride or offset: `128`, `?` (unknown dynamic), `p0`, `*g`.
inline std::string int_text(const Int &i) {
  if (i.is_symbolic())
    return (i.variadic ? "*" : "") + std::string(i.symbol.view());
  if (!i.known)
    return "?";
  return std::to_string(i.value);
}

/// A tuple in the seed's notation: `(2,(4,8))`; a leaf prints bare.
inline std::string tuple_text(const IntTuple &t) {
  if (t.is_leaf())
    return int_text(t.leaf());
  std::string out = "(";
  for (int i = 0; i < t.rank(); ++i)
    out += (i ? "," : "") + tuple_text(t.mode(i));
  return out + ")";
}

/// A layout as `shape:stride`, a leaf layout in parentheses: `(132):(1)`.
inline std::string layout_text(const Layout &l) {
  if (l.shape.is_leaf())
    return "(" + tuple_text(l.shape) + "):(" + tuple_text(l.stride) + ")";
  return tuple_text(l.shape) + ":" + tuple_text(l.stride);
}
} // namespace detail

/// The mesh as `Mesh(level, layout + offset, names...)`, offset 0 omitted.
inline std::string to_string(const Mesh &m) {
  std::string out = "Mesh(" + std::string(m.level.view()) + ", " +
                    detail::layout_text(m.layout);
  if (m.offset.is_symbolic() || !m.offset.known || m.offset.value != 0)
    out += " + " + detail::int_text(m.offset);
  for (const Name &n : m.axes)
    out += ", " + std::string(n.view());
  return out + ")";
}

/// The layout with each bound leaf's extent followed by `@axis` (`@i` for a
/// binding by mesh leaf index), then ` over ` and the mesh.
inline std::string to_string(const ShardLayout &s) {
  int leaf = 0;
  // Rebuild the shape's text leaf by leaf, so nesting is kept.
  auto shape = [&](auto &self, const IntTuple &t) -> std::string {
    if (t.is_leaf()) {
      std::string text = detail::int_text(t.leaf());
      const AxisRef &ref = s.axes[leaf++];
      if (!ref.name.empty())
        text += "@" + std::string(ref.name.view());
      else if (ref.index >= 0)
        text += "@" + std::to_string(ref.index);
      return text;
    }
    std::string out = "(";
    for (int i = 0; i < t.rank(); ++i)
      out += (i ? "," : "") + self(self, t.mode(i));
    return out + ")";
  };
  std::string text = shape(shape, s.layout.shape);
  if (s.layout.shape.is_leaf())
    text = "(" + text + "):(" + detail::tuple_text(s.layout.stride) + ")";
  else
    text += ":" + detail::tuple_text(s.layout.stride);
  return text + " over " + to_string(s.mesh);
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
    return "shape " + detail::tuple_text(concrete.shape) + " has " +
           std::to_string(f.found) + " leaves where " +
           detail::tuple_text(pattern.shape) + " needs " +
           (f.variadic ? "at least " : "") + std::to_string(f.expected);
  case MatchItem::extent:
  case MatchItem::stride: {
    bool extent = f.item == MatchItem::extent;
    return "leaf " + std::to_string(f.leaf) + " of " +
           detail::tuple_text(extent ? concrete.shape : concrete.stride) +
           " has " + (extent ? "extent " : "stride ") +
           std::to_string(f.found) + " where " +
           detail::tuple_text(extent ? pattern.shape : pattern.stride) +
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
           detail::int_text(pattern_offset);
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
