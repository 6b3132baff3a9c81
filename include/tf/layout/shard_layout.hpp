//===- tf/layout/shard_layout.hpp - Distributed layouts -------------------===//
//
// A ShardLayout is a Layout whose leaves may be bound to mesh axes (`2@group`)
// together with the Mesh it is distributed over: the bound leaves say which
// unit holds an element, the unbound leaves how a unit arranges its part
// locally. The H200 GEMM's accumulator (examples/gemm/optimal.cpp)
//   (2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,128,64)
// binds four leaves to the compute mesh (2,4,8,4) and keeps (2,32,2) local.
//
// Rules (checked by make_shard):
//  - a leaf is bound to a top-level mode of the mesh by name (`@warp`) or to
//    one leaf of the mesh's layout by index (`@i`, tf::axis(i), where the
//    contract mesh ((4,8,4)):((32,4,1)) is one top-level mode of 3 leaves);
//  - each mesh leaf is bound at most once, and a bound leaf's extent equals
//    the size of what it is bound to (equal, not dividing: a partial binding
//    would leave units idle, which is a different mesh);
//  - mesh leaves no layout leaf binds mean replication: every unit along them
//    holds the same elements at the same local index.
// The element e held at layout coordinate x sits on unit
// offset + mesh(bound part of x, any coordinate of the unbound mesh leaves)
// at local index = lexicographic index of x's unbound leaves, in written
// order.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/mesh.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tf {

/// Leaves a ShardLayout can bind.
inline constexpr std::size_t max_shard_leaves = 32;

/// Holders one `holders` query reports at most (replicas included).
inline constexpr std::size_t max_holders = 64;

/// An axis binding of one leaf: unbound, or a mesh axis by name or index.
struct AxisRef {
  Name name{};    ///< `@group`: a top-level mode of the mesh; empty otherwise
  int index = -1; ///< S(i): leaf `index` of the mesh's layout; -1 otherwise
  constexpr bool bound() const { return !name.empty() || index >= 0; }

  friend constexpr bool operator==(const AxisRef &, const AxisRef &) = default;
};

/// A binding to the mesh's top-level mode named `name` (`@name`).
constexpr AxisRef axis(Name name) { return {name, -1}; }
/// A binding to leaf `leaf` of the mesh's layout (`@leaf`).
constexpr AxisRef axis(int leaf) { return {{}, leaf}; }
/// No binding: the leaf is part of each unit's local storage.
inline constexpr AxisRef local{};

struct ShardLayout {
  Layout layout{};
  /// One entry per leaf of layout.shape, in written order.
  FixedVector<AxisRef, max_shard_leaves> axes{};
  Mesh mesh{};

  friend constexpr bool operator==(const ShardLayout &,
                                   const ShardLayout &) = default;
};

/// The mesh leaves [first, first + count) that an AxisRef resolves to.
struct MeshLeafRange {
  int first = 0;
  int count = 0;
};

/// The mesh leaves `ref` names: a named top-level mode's leaves, or one leaf.
/// @pre ref.bound()
constexpr Result<MeshLeafRange> resolve(const AxisRef &ref, const Mesh &m) {
  if (!ref.name.empty()) {
    int mode = m.axis_index(ref.name.view());
    if (mode < 0)
      return make_error(Errc::mismatch, "the mesh has no axis named '{name}'",
                        ref.name);
    int first = 0;
    for (int i = 0; i < mode; ++i)
      first += m.layout.shape.mode(i).leaf_count();
    return MeshLeafRange{first, m.layout.shape.mode(mode).leaf_count()};
  }
  if (ref.index < 0 || ref.index >= m.layout.shape.leaf_count())
    return make_error(Errc::mismatch,
                      "the mesh has no leaf {}; it has {} leaves", ref.index,
                      m.layout.shape.leaf_count());
  return MeshLeafRange{ref.index, 1};
}

/// Checks the rules above and returns `s` unchanged.
constexpr Result<ShardLayout> check_shard(const ShardLayout &s) {
  const int leaves = s.layout.shape.leaf_count();
  if (!congruent(s.layout.shape, s.layout.stride))
    return make_error(Errc::mismatch,
                      "shape and stride must have the same structure");
  if (leaves > static_cast<int>(max_shard_leaves))
    return make_error(Errc::capacity, "a ShardLayout binds at most {} leaves",
                      static_cast<std::int64_t>(max_shard_leaves));
  if (static_cast<int>(s.axes.size()) != leaves)
    return make_error(Errc::mismatch,
                      "the layout has {} leaves but {} axis bindings", leaves,
                      static_cast<std::int64_t>(s.axes.size()));
  int bound_by[max_int_tuple_nodes];
  for (int &b : bound_by)
    b = -1;
  for (int j = 0; j < leaves; ++j) {
    if (!s.axes[j].bound())
      continue;
    Result<MeshLeafRange> r = resolve(s.axes[j], s.mesh);
    if (!r)
      return r.error();
    std::int64_t mesh_extent = 1;
    bool known = true;
    for (int k = r->first; k < r->first + r->count; ++k) {
      if (bound_by[k] >= 0)
        return make_error(Errc::precondition,
                          "leaves {} and {} bind the same mesh leaf {}",
                          bound_by[k], j, k);
      bound_by[k] = j;
      const Int &x = s.mesh.layout.shape.leaf_at(k);
      known = known && x.has_value();
      mesh_extent *= x.value;
    }
    const Int &extent = s.layout.shape.leaf_at(j);
    if (known && extent.has_value() && extent.value != mesh_extent) {
      Error e = make_error(Errc::mismatch,
                           "leaf {} has extent {} but its mesh axis has {}", j,
                           extent.value, mesh_extent);
      e.name = s.axes[j].name;
      return e;
    }
  }
  return s;
}

/// A ShardLayout with one AxisRef per leaf of `layout`, checked.
constexpr Result<ShardLayout>
make_shard(const Layout &layout,
           const FixedVector<AxisRef, max_shard_leaves> &axes,
           const Mesh &mesh) {
  return check_shard(ShardLayout{layout, axes, mesh});
}

/// The form ShardLayout(layout, (S(0), S(2), S(4)), mesh), S(i) naming leaf
/// i of `layout`: the listed leaves are bound, in order, to the mesh's leaves
/// 0, 1, 2, ...
constexpr Result<ShardLayout>
make_shard_modes(const Layout &layout,
                 const FixedVector<int, max_shard_leaves> &sharded,
                 const Mesh &mesh) {
  FixedVector<AxisRef, max_shard_leaves> axes;
  for (int j = 0; j < layout.shape.leaf_count(); ++j)
    axes.push_back(local);
  for (std::size_t k = 0; k < sharded.size(); ++k) {
    if (sharded[k] < 0 || sharded[k] >= layout.shape.leaf_count())
      return make_error(Errc::out_of_range,
                        "S({}) names no leaf of a layout with {} leaves",
                        sharded[k], layout.shape.leaf_count());
    axes[sharded[k]] = axis(static_cast<int>(k));
  }
  return make_shard(layout, axes, mesh);
}

/// The unbound leaves, in written order: the shape of each unit's part.
constexpr IntTuple local_shape(const ShardLayout &s) {
  IntTuple out;
  for (int j = 0; j < s.layout.shape.leaf_count(); ++j)
    if (!s.axes[j].bound())
      out.push_back(IntTuple(s.layout.shape.leaf_at(j)));
  return out;
}

/// How many elements each unit holds.
constexpr Result<std::int64_t> local_size(const ShardLayout &s) {
  return product(local_shape(s));
}

/// One unit holding an element, and where in its local part.
struct Holder {
  std::int64_t unit = 0;
  std::int64_t local = 0;
  friend constexpr bool operator==(const Holder &, const Holder &) = default;
};

using HolderList = FixedVector<Holder, max_holders>;

namespace detail {

/// A ShardLayout reduced to numbers for the queries below.
struct ShardTable {
  FlatLeaves leaves{};
  FlatLeaves mesh{};
  std::int64_t offset = 0;
  /// Per layout leaf: the mesh leaves it is bound to (count 0: unbound).
  MeshLeafRange binding[max_int_tuple_nodes] = {};
  /// Per layout leaf: its weight in the local index (0 when bound).
  std::int64_t local_weight[max_int_tuple_nodes] = {};
  /// Per mesh leaf: whether a layout leaf binds it.
  bool mesh_bound[max_int_tuple_nodes] = {};
  /// Leaf indices sorted by decreasing |stride|, for the element search.
  int order[max_int_tuple_nodes] = {};
  /// Smallest and largest sum of the leaves order[k..] can contribute.
  std::int64_t low_after[max_int_tuple_nodes + 1] = {};
  std::int64_t high_after[max_int_tuple_nodes + 1] = {};
};

constexpr Result<ShardTable> shard_table(const ShardLayout &s) {
  Result<ShardLayout> ok = check_shard(s);
  if (!ok)
    return ok.error();
  ShardTable t;
  Result<FlatLeaves> leaves = flat_leaves(s.layout);
  if (!leaves)
    return leaves.error();
  Result<FlatLeaves> mesh = flat_leaves(s.mesh.layout);
  if (!mesh)
    return mesh.error();
  Result<std::int64_t> offset = s.mesh.offset.get();
  if (!offset)
    return offset.error();
  t.leaves = *leaves;
  t.mesh = *mesh;
  t.offset = *offset;
  std::int64_t weight = 1;
  for (int j = t.leaves.count - 1; j >= 0; --j) {
    if (s.axes[j].bound()) {
      t.binding[j] = *resolve(s.axes[j], s.mesh);
      for (int k = 0; k < t.binding[j].count; ++k)
        t.mesh_bound[t.binding[j].first + k] = true;
    } else {
      t.local_weight[j] = weight;
      weight *= t.leaves.extent[j];
    }
  }
  for (int j = 0; j < t.leaves.count; ++j)
    t.order[j] = j;
  for (int a = 1; a < t.leaves.count; ++a)
    for (int b = a; b > 0; --b) {
      std::int64_t x = t.leaves.stride[t.order[b]];
      std::int64_t y = t.leaves.stride[t.order[b - 1]];
      if ((x < 0 ? -x : x) <= (y < 0 ? -y : y))
        break;
      int tmp = t.order[b];
      t.order[b] = t.order[b - 1];
      t.order[b - 1] = tmp;
    }
  for (int k = t.leaves.count - 1; k >= 0; --k) {
    int j = t.order[k];
    std::int64_t reach = (t.leaves.extent[j] - 1) * t.leaves.stride[j];
    t.low_after[k] = t.low_after[k + 1] + (reach < 0 ? reach : 0);
    t.high_after[k] = t.high_after[k + 1] + (reach > 0 ? reach : 0);
  }
  return t;
}

/// The unit of mesh leaf coordinates `coord` (one per mesh leaf).
constexpr std::int64_t mesh_unit(const ShardTable &t,
                                 const std::int64_t *coord) {
  std::int64_t u = t.offset;
  for (int k = 0; k < t.mesh.count; ++k)
    u += coord[k] * t.mesh.stride[k];
  return u;
}

/// Calls `visit(coord)` for every layout coordinate (one value per leaf)
/// whose offset is `element`, by a bounded search over leaves in order of
/// decreasing stride; stops early when `visit` returns false.
template <class Visit>
constexpr bool for_each_coord(const ShardTable &t, std::int64_t element,
                              Visit &&visit) {
  std::int64_t coord[max_int_tuple_nodes] = {};
  std::int64_t rest[max_int_tuple_nodes + 1] = {};
  int k = 0;
  rest[0] = element;
  coord[t.order[0]] = -1;
  if (t.leaves.count == 0)
    return element == 0 ? visit(coord) : true;
  // Iterative depth-first search: coord[order[k]] advances, and the search
  // descends while what remains is reachable by the leaves after k.
  while (k >= 0) {
    int j = t.order[k];
    ++coord[j];
    if (coord[j] >= t.leaves.extent[j]) {
      --k;
      continue;
    }
    std::int64_t left = rest[k] - coord[j] * t.leaves.stride[j];
    if (left < t.low_after[k + 1] || left > t.high_after[k + 1])
      continue;
    if (k + 1 == t.leaves.count) {
      if (left == 0 && !visit(coord))
        return false;
      continue;
    }
    rest[k + 1] = left;
    ++k;
    coord[t.order[k]] = -1;
  }
  return true;
}

/// Calls `visit(unit, local)` for every unit holding the element at layout
/// coordinate `coord`, replicas over unbound mesh leaves included.
template <class Visit>
constexpr bool for_each_replica(const ShardTable &t, const std::int64_t *coord,
                                Visit &&visit) {
  std::int64_t mesh_coord[max_int_tuple_nodes] = {};
  std::int64_t local = 0;
  for (int j = 0; j < t.leaves.count; ++j) {
    local += coord[j] * t.local_weight[j];
    // Split a leaf bound to several mesh leaves lexicographically.
    std::int64_t c = coord[j];
    for (int k = t.binding[j].count - 1; k >= 0; --k) {
      int m = t.binding[j].first + k;
      mesh_coord[m] = c % t.mesh.extent[m];
      c /= t.mesh.extent[m];
    }
  }
  // Odometer over the unbound mesh leaves.
  while (true) {
    if (!visit(mesh_unit(t, mesh_coord), local))
      return false;
    int k = t.mesh.count - 1;
    for (; k >= 0; --k) {
      if (t.mesh_bound[k])
        continue;
      if (++mesh_coord[k] < t.mesh.extent[k])
        break;
      mesh_coord[k] = 0;
    }
    if (k < 0)
      return true;
  }
}

} // namespace detail

/// The units holding codomain element `element` and the local index at which
/// each holds it, sorted by unit then local index; empty if no coordinate of
/// the layout reaches the element.
/// @pre the layout, the mesh and its offset have values; at most max_holders
constexpr Result<HolderList> holders(const ShardLayout &s,
                                     std::int64_t element) {
  Result<detail::ShardTable> t = detail::shard_table(s);
  if (!t)
    return t.error();
  HolderList out;
  bool fits = detail::for_each_coord(*t, element, [&](const std::int64_t *c) {
    return detail::for_each_replica(
        *t, c, [&](std::int64_t unit, std::int64_t local) {
          return out.push_back({unit, local});
        });
  });
  if (!fits)
    return make_error(Errc::capacity,
                      "element {} has more than {} holders", element,
                      static_cast<std::int64_t>(max_holders));
  for (std::size_t a = 1; a < out.size(); ++a)
    for (std::size_t b = a; b > 0; --b) {
      Holder x = out[b], y = out[b - 1];
      if (y.unit < x.unit || (y.unit == x.unit && y.local <= x.local))
        break;
      out[b] = y;
      out[b - 1] = x;
    }
  return out;
}

/// Coverage of a ShardLayout's codomain [0, cosize).
struct Coverage {
  std::int64_t held = 0;   ///< elements some coordinate reaches
  std::int64_t cosize = 0; ///< one past the largest element
};

/// Checks that every element in [0, cosize) is reached by exactly one layout
/// coordinate -- once per replica, since replicas differ only in unbound mesh
/// leaves -- and, unless `allow_holes`, that none is reached by none. The
/// error names the first element that fails.
/// @pre the layout, the mesh and its offset have values
constexpr Result<Coverage> check_coverage(const ShardLayout &s,
                                          bool allow_holes = false) {
  Result<detail::ShardTable> t = detail::shard_table(s);
  if (!t)
    return t.error();
  Result<std::int64_t> end = cosize(s.layout);
  if (!end)
    return end.error();
  Coverage out{0, *end};
  for (std::int64_t e = 0; e < *end; ++e) {
    int reached = 0;
    detail::for_each_coord(*t, e, [&](const std::int64_t *) {
      return ++reached < 2;
    });
    if (reached > 1)
      return make_error(Errc::precondition,
                        "element {} is reached by two coordinates of the "
                        "layout",
                        e);
    if (reached == 0 && !allow_holes)
      return make_error(Errc::precondition, "element {} is held by no unit",
                        e);
    out.held += reached;
  }
  return out;
}

/// A ShardLayout restricted to one index of a mesh axis, and the element
/// offset that index contributes (the layout has no offset of its own).
struct ShardSlice {
  ShardLayout shard{};
  std::int64_t element_base = 0;
};

/// The part of `s` on index `index` of the mesh's top-level mode `name`: the
/// layout leaf bound to it is dropped, the mesh is sliced at `index` (its
/// offset moves) and the element offset of that leaf goes to element_base.
/// The remaining leaves form a flat layout.
/// The H200 GEMM's accumulator at group 0 is the WGMMA contract's C layout.
/// @pre `name` is a top-level mode of s.mesh bound by exactly one leaf
constexpr Result<ShardSlice> slice_axis(const ShardLayout &s, Name name,
                                        std::int64_t index) {
  Result<ShardLayout> ok = check_shard(s);
  if (!ok)
    return ok.error();
  int mode = s.mesh.axis_index(name.view());
  if (mode < 0)
    return make_error(Errc::mismatch, "the mesh has no axis named '{name}'",
                      name);
  MeshLeafRange dropped = *resolve(axis(name), s.mesh);
  int leaf = -1;
  for (int j = 0; j < s.layout.shape.leaf_count(); ++j) {
    if (!s.axes[j].bound())
      continue;
    MeshLeafRange r = *resolve(s.axes[j], s.mesh);
    if (r.first == dropped.first && r.count == dropped.count)
      leaf = j;
    else if (r.first < dropped.first + dropped.count &&
             dropped.first < r.first + r.count)
      return make_error(Errc::precondition,
                        "leaf {} binds part of axis '{name}'; slice the whole "
                        "axis",
                        name);
  }
  if (leaf < 0)
    return make_error(Errc::precondition,
                      "no leaf is bound to mesh axis '{name}'", name);
  FixedVector<Slice, max_mesh_axes> selectors;
  for (int i = 0; i < s.mesh.rank(); ++i)
    selectors.push_back(i == mode ? Slice(index) : Slice());
  Result<Mesh> mesh = s.mesh.sub_slices(selectors);
  if (!mesh)
    return mesh.error();
  ShardSlice out;
  out.shard.mesh = *mesh;
  for (int j = 0; j < s.layout.shape.leaf_count(); ++j) {
    if (j == leaf)
      continue;
    out.shard.layout.shape.push_back(IntTuple(s.layout.shape.leaf_at(j)));
    out.shard.layout.stride.push_back(IntTuple(s.layout.stride.leaf_at(j)));
    AxisRef ref = s.axes[j];
    // Leaf indices after the dropped mode move down by its leaf count.
    if (ref.name.empty() && ref.index >= dropped.first + dropped.count)
      ref.index -= dropped.count;
    out.shard.axes.push_back(ref);
  }
  Result<std::int64_t> stride = s.layout.stride.leaf_at(leaf).get();
  if (!stride)
    return stride.error();
  out.element_base = index * *stride;
  return out;
}

} // namespace tf
