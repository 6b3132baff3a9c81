//===- tf/layout/mesh.hpp - Meshes of execution units ---------------------===//
//
// A Mesh arranges units of one topology level in a logical shape: its layout
// maps a mesh coordinate to a unit id, unit = offset + layout(coord), and each
// top-level mode may be named. The H200 GEMM's thread mesh
//   [3@warpgroup 128@participant; 128 1]
// is mesh("thread", (3,128):(128,1), "warpgroup", "participant"); its consumer
// part threads[1:3, :] reshaped to (2,4,8,4) is
//   [2@group 4@warp 8@lane8 4@lane4; 128 32 4 1] + 128.
//
// Slicing (`sub`) and reshaping (`reshape`) build such derived meshes. Both
// have a checked form returning Result<Mesh> (`try_sub`, `try_reshape`) and a
// form for constant expressions that stops compilation on an error; reshape
// also takes its shape as text, `reshape<"(2,4,8,4)">(names...)`
// (mesh_literal.hpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/algebra/composition.hpp"
#include "tf/layout/layout.hpp"
#include "tf/layout/topology.hpp"
#include "tf/support/fixed_string.hpp"
#include "tf/support/fixed_vector.hpp"
#include "tf/support/name.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tf {

/// Top-level modes a mesh may name.
inline constexpr std::size_t max_mesh_axes = 8;

/// The leaves of a layout as plain numbers, in written order.
struct FlatLeaves {
  std::int64_t extent[max_int_tuple_nodes] = {};
  std::int64_t stride[max_int_tuple_nodes] = {};
  int count = 0;
};

/// The leaves of `l` with their values (detail::flat_modes as plain numbers).
/// @pre every extent and stride of `l` has a value
constexpr Result<FlatLeaves> flat_leaves(const Layout &l) {
  Result<detail::FlatModes> modes = detail::flat_modes(l);
  if (!modes)
    return modes.error();
  FlatLeaves out;
  for (const detail::FlatMode &m : *modes) {
    out.extent[out.count] = m.shape.value;
    out.stride[out.count] = m.stride.value;
    ++out.count;
  }
  return out;
}

/// A half-open range [begin, end) of one mesh mode, as in threads[1:3, :].
struct Range {
  std::int64_t begin = 0;
  std::int64_t end = 0;
};

/// The range [begin, end) of a mode. @pre begin < end
constexpr Range range(std::int64_t begin, std::int64_t end) {
  return {begin, end};
}

/// The whole of a mode, the `:` of threads[1:3, :].
struct WholeMode {};
inline constexpr WholeMode _{};

/// What `Mesh::sub` takes for one top-level mode: an index (drops the mode),
/// a range (keeps it with a new extent) or the whole mode.
struct Slice {
  enum class Kind : std::uint8_t { index, range, whole };
  Kind kind = Kind::whole;
  std::int64_t begin = 0;
  std::int64_t end = 0;

  constexpr Slice() = default;
  constexpr Slice(int i) : kind(Kind::index), begin(i), end(i + 1) {}
  constexpr Slice(std::int64_t i) : kind(Kind::index), begin(i), end(i + 1) {}
  constexpr Slice(Range r) : kind(Kind::range), begin(r.begin), end(r.end) {}
  constexpr Slice(WholeMode) {}
};

namespace detail {

/// Steps `digit` (one coordinate per leaf of `leaves`) to its lexicographic
/// successor -- the last leaf varies fastest -- and keeps `value`, the
/// offset of `digit`, in step; after the last coordinate it wraps to zero.
/// Plain arithmetic keeps constant evaluation cheap: Clang's evaluator
/// counts every IntTuple built by evaluate().
constexpr void next_coord(const FlatLeaves &leaves, std::int64_t *digit,
                          std::int64_t &value) {
  for (int j = leaves.count - 1; j >= 0; --j) {
    value += leaves.stride[j];
    if (++digit[j] < leaves.extent[j])
      return;
    value -= digit[j] * leaves.stride[j];
    digit[j] = 0;
  }
}

/// A mode restricted to a range, and the unit offset of its first element.
struct SlicedMode {
  Layout layout{};
  std::int64_t first = 0;
};

/// Restricts `mode` to the linear indices [b, e). A nested mode can only be
/// cut into a box: either whole blocks of its first sub-mode (the cut moves
/// into that sub-mode) or a range inside one block (the first sub-mode is
/// fixed and the cut moves into the rest). Anything else is not a layout.
constexpr Result<SlicedMode> slice_mode(const Layout &mode, std::int64_t b,
                                        std::int64_t e) {
  if (mode.shape.is_leaf()) {
    Result<std::int64_t> d = mode.stride.leaf().get();
    if (!d)
      return d.error();
    return SlicedMode{Layout{IntTuple(e - b), IntTuple(*d)}, b * *d};
  }
  if (mode.rank() == 0)
    return SlicedMode{mode, 0};
  Layout rest;
  for (int i = 1; i < mode.rank(); ++i) {
    rest.shape.push_back(mode.shape.mode(i));
    rest.stride.push_back(mode.stride.mode(i));
  }
  Result<std::int64_t> inner = size(rest);
  if (!inner)
    return inner.error();
  if (b % *inner == 0 && e % *inner == 0) {
    Result<SlicedMode> first = slice_mode(mode.mode(0), b / *inner, e / *inner);
    if (!first)
      return first;
    Layout out;
    out.shape.push_back(first->layout.shape);
    out.stride.push_back(first->layout.stride);
    for (int i = 0; i < rest.rank(); ++i) {
      out.shape.push_back(rest.shape.mode(i));
      out.stride.push_back(rest.stride.mode(i));
    }
    return SlicedMode{out, first->first};
  }
  if (b / *inner == (e - 1) / *inner) {
    Result<std::int64_t> fixed = evaluate(mode.mode(0), b / *inner);
    if (!fixed)
      return fixed.error();
    Result<SlicedMode> tail =
        slice_mode(rest, b % *inner, (e - 1) % *inner + 1);
    if (!tail)
      return tail;
    return SlicedMode{tail->layout, *fixed + tail->first};
  }
  return make_error(Errc::precondition,
                    "range [{}, {}) of a nested mode is not a box of its "
                    "shape; cut whole blocks of {} or inside one block",
                    b, e, *inner);
}

/// Whether `names` holds a name twice; returns its index or -1.
constexpr int repeated_name(const FixedVector<Name, max_mesh_axes> &names) {
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (names[i] == names[j])
        return static_cast<int>(i);
  return -1;
}

} // namespace detail

struct Mesh {
  /// The topology level whose units the mesh arranges.
  Name level{};
  /// Mesh coordinate -> unit id (before the offset).
  Layout layout{};
  /// First unit id (`p0` in contract patterns, where it is symbolic).
  Int offset{};
  /// One name per top-level mode of `layout`, or none at all.
  FixedVector<Name, max_mesh_axes> axes{};

  /// Number of top-level modes.
  constexpr int rank() const { return layout.rank(); }

  /// Number of units in the mesh (coordinates of its layout).
  constexpr Result<std::int64_t> size() const { return tf::size(layout); }

  /// The index of the top-level mode named `name`, or -1.
  constexpr int axis_index(std::string_view name) const {
    for (std::size_t i = 0; i < axes.size(); ++i)
      if (axes[i] == name)
        return static_cast<int>(i);
    return -1;
  }

  /// The unit at mesh coordinate `coord`: offset + layout(coord).
  /// @pre the offset is not symbolic
  constexpr Result<std::int64_t> unit(const IntTuple &coord) const {
    Result<std::int64_t> base = offset.get();
    if (!base)
      return base.error();
    Result<std::int64_t> at = evaluate(layout, coord);
    if (!at)
      return at;
    return *base + *at;
  }

  /// The unit at linear (lexicographic) mesh index `i`.
  /// @pre 0 <= i < size()
  constexpr Result<std::int64_t> unit(std::int64_t i) const {
    Result<std::int64_t> n = size();
    if (!n)
      return n;
    if (i < 0 || i >= *n)
      return make_error(Errc::out_of_range,
                        "mesh index {} is outside a mesh of {} units", i, *n);
    return unit(IntTuple(i));
  }

  /// The unit at linear index `i`. @pre 0 <= i < size()
  constexpr Result<std::int64_t> unit(int i) const {
    return unit(static_cast<std::int64_t>(i));
  }

  /// Whether some coordinate of the mesh maps to `unit_id`; false for meshes
  /// that are symbolic patterns.
  constexpr bool contains(std::int64_t unit_id) const {
    Result<std::int64_t> n = size();
    Result<FlatLeaves> leaves = flat_leaves(layout);
    if (!n || !leaves || !offset.has_value())
      return false;
    std::int64_t digit[max_int_tuple_nodes] = {};
    std::int64_t value = offset.value;
    for (std::int64_t i = 0; i < *n; ++i) {
      if (value == unit_id)
        return true;
      detail::next_coord(*leaves, digit, value);
    }
    return false;
  }

  /// The sub-mesh selected per top-level mode by an index, a range or `_`;
  /// modes past the given selectors are kept whole. An index drops the mode
  /// and its name, a range keeps both with the new extent, and the offset
  /// moves to the first selected unit.
  /// @pre at most rank() selectors, each inside its mode
  template <class... Selectors>
  constexpr Result<Mesh> try_sub(Selectors... selectors) const {
    FixedVector<Slice, max_mesh_axes + 1> list{Slice(selectors)...};
    if (sizeof...(Selectors) > max_mesh_axes)
      list.count = max_mesh_axes + 1;
    return sub_slices(list);
  }

  /// try_sub with the selectors in a list.
  /// @pre selectors.size() <= rank(), each selector inside its mode
  template <std::size_t N>
  constexpr Result<Mesh> sub_slices(const FixedVector<Slice, N> &selectors) const {
    const int given = static_cast<int>(selectors.size());
    if (given > rank())
      return make_error(Errc::mismatch,
                        "sub takes at most one selector per mode; {} given for "
                        "a mesh of rank {}",
                        given, rank());
    Result<std::int64_t> base = offset.get();
    if (!base)
      return base.error();
    Mesh out{level, Layout{}, offset, {}};
    std::int64_t first = *base;
    for (int i = 0; i < rank(); ++i) {
      Slice s = i < given ? selectors[i] : Slice();
      Layout mode = layout.mode(i);
      Result<std::int64_t> extent = tf::size(mode);
      if (!extent)
        return extent.error();
      if (s.kind == Slice::Kind::whole) {
        s.begin = 0;
        s.end = *extent;
      }
      if (s.begin < 0 || s.end > *extent || s.begin >= s.end)
        return make_error(Errc::out_of_range,
                          "selector [{}, {}) is outside mode {} of the mesh",
                          s.begin, s.end, i);
      Result<detail::SlicedMode> cut = detail::slice_mode(mode, s.begin, s.end);
      if (!cut)
        return cut.error();
      first += cut->first;
      if (s.kind == Slice::Kind::index)
        continue;
      out.layout.shape.push_back(cut->layout.shape);
      out.layout.stride.push_back(cut->layout.stride);
      if (!axes.empty())
        out.axes.push_back(axes[i]);
    }
    // A leaf layout kept whole stays a leaf, as it was written.
    if (layout.shape.is_leaf() && out.layout.rank() == 1)
      out.layout = out.layout.mode(0);
    out.offset = combine_kind(offset, offset, first);
    return out;
  }

  /// try_sub for constant expressions: a bad selector stops compilation.
  template <class... Selectors>
  constexpr Mesh sub(Selectors... selectors) const {
    return try_sub(selectors...).value();
  }

  /// The same units read in a new logical shape of the same size: the new
  /// layout is layout ∘ make_layout(shape) and the offset is kept. `names`
  /// name the new top-level modes (all of them or none).
  /// @pre size(shape) == size()
  template <class... Names>
  constexpr Result<Mesh> try_reshape(const IntTuple &shape,
                                     Names... names) const;

  /// try_reshape for constant expressions: a bad shape stops compilation.
  template <class... Names>
  constexpr Mesh reshape(const IntTuple &shape, Names... names) const {
    return try_reshape(shape, names...).value();
  }

  /// reshape with the shape written as text, parsed while compiling:
  /// `reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4")`. A malformed
  /// shape does not compile, as with `tf::layout<"...">`. Defined in
  /// tf/layout/mesh_literal.hpp, which the parser's includes keep out of here.
  template <FixedString Shape, class... Names>
  constexpr Mesh reshape(Names... names) const;

  friend constexpr bool operator==(const Mesh &, const Mesh &) = default;
};

/// A mesh of level `level` arranging units by `layout` (offset 0), with one
/// name per top-level mode or none.
/// @pre sizeof...(names) is 0 or layout.rank(); names are distinct
template <class... Names>
constexpr Result<Mesh> make_mesh(Name level, const Layout &layout,
                                 Names... names) {
  const std::string_view list[] = {std::string_view(), std::string_view(names)...};
  constexpr int given = sizeof...(Names);
  if (level.empty())
    return make_error(Errc::precondition, "a mesh needs a topology level");
  if (layout.overflow())
    return make_error(Errc::capacity, "the mesh layout has too many modes");
  if (given != 0 && given != layout.rank())
    return make_error(Errc::mismatch,
                      "a mesh of rank {} needs {} axis names or none; {} given",
                      layout.rank(), layout.rank(), given);
  if (layout.rank() > static_cast<int>(max_mesh_axes))
    return make_error(Errc::capacity, "a mesh has at most {} top-level modes",
                      static_cast<std::int64_t>(max_mesh_axes));
  Mesh m{level, layout, Int(0), {}};
  for (int i = 1; i <= given; ++i) {
    if (list[i].empty() || !Name::fits(list[i]))
      return make_error(Errc::precondition,
                        "mesh axis name {} is empty or longer than {} "
                        "characters",
                        i - 1, static_cast<std::int64_t>(Name::max_length));
    m.axes.push_back(Name(list[i]));
  }
  int repeated = detail::repeated_name(m.axes);
  if (repeated >= 0)
    return make_error(Errc::precondition, "mesh axis name '{name}' is repeated",
                      m.axes[repeated]);
  return m;
}

/// A mesh over the compact row-major layout of `shape`.
template <class... Names>
constexpr Result<Mesh> make_mesh(Name level, const IntTuple &shape,
                                 Names... names) {
  return make_mesh(level, make_layout(shape), names...);
}

/// make_mesh for constant expressions: a bad mesh stops compilation.
template <class... Names>
constexpr Mesh mesh(Name level, const Layout &layout, Names... names) {
  return make_mesh(level, layout, names...).value();
}

/// make_mesh over a compact row-major shape, for constant expressions.
template <class... Names>
constexpr Mesh mesh(Name level, const IntTuple &shape, Names... names) {
  return make_mesh(level, shape, names...).value();
}

template <class... Names>
constexpr Result<Mesh> Mesh::try_reshape(const IntTuple &shape,
                                         Names... names) const {
  Result<std::int64_t> have = size();
  if (!have)
    return have.error();
  Result<std::int64_t> want = tf::size(shape);
  if (!want)
    return want.error();
  if (*have != *want)
    return make_error(Errc::mismatch,
                      "cannot reshape {} units into a shape of size {}", *have,
                      *want);
  Result<Layout> l = composition(layout, make_layout(shape));
  if (!l)
    return l.error();
  Result<Mesh> out = make_mesh(level, *l, names...);
  if (!out)
    return out;
  Mesh m = *out;
  m.offset = offset;
  return m;
}

/// Whether every unit of `m` exists in `t`: same level, ids in [0, extent).
/// @pre m and t have values (no symbols)
constexpr Result<bool> fits(const Mesh &m, const Topology &t) {
  if (!(m.level == t.level))
    return make_error(Errc::mismatch,
                      "the mesh is on level '{name}', not on the topology's",
                      m.level);
  Result<std::int64_t> extent = t.extent.get();
  if (!extent)
    return extent.error();
  Result<std::int64_t> n = m.size();
  if (!n)
    return n.error();
  Result<FlatLeaves> leaves = flat_leaves(m.layout);
  if (!leaves)
    return leaves.error();
  Result<std::int64_t> first = m.offset.get();
  if (!first)
    return first.error();
  std::int64_t digit[max_int_tuple_nodes] = {};
  std::int64_t u = *first;
  for (std::int64_t i = 0; i < *n; ++i) {
    if (u < 0 || u >= *extent)
      return make_error(Errc::out_of_range,
                        "mesh index {} is unit {}, outside the topology's {} "
                        "units",
                        i, u, *extent);
    detail::next_coord(*leaves, digit, u);
  }
  return true;
}

} // namespace tf
