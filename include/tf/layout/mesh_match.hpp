//===- tf/layout/mesh_match.hpp - Unifying meshes with contract patterns --===//
//
// An instruction contract states its execution mesh as a pattern with
// symbols, e.g. WGMMA's
//   Mesh(('thread',), ComposedLayout(None, p0, Layout(((*g, 4, 8, 4),), ((*gs, 32, 4, 1),))))
// `match` unifies such a pattern with a concrete mesh: the levels must be
// equal, the leaf sequences line up (a variadic `*g` takes zero or more
// leaves where it stands, so that the leaves after it align with the
// concrete mesh's last ones), a symbol binds to one number consistently,
// and constants must be equal. Grouping is not compared: the compute mesh
// (2,4,8,4):(128,32,4,1)+128 matches with g = (2), gs = (128), p0 = 128, and
// the instance -- the pattern with its bindings substituted,
// ((2,4,8,4)):((128,32,4,1))+128 -- is what the contract's predicates see.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/mesh.hpp"
#include "tf/layout/mesh_predicate.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tf {

/// Symbols and variadic symbols one match may bind.
inline constexpr std::size_t max_bindings = 8;

/// A symbol bound to a number: `p0 = 128`, `c = 32`.
struct Binding {
  Name name{};
  std::int64_t value = 0;
  friend constexpr bool operator==(const Binding &, const Binding &) = default;
};

/// A variadic symbol bound to the leaves it took: `*g = (2)`.
struct TupleBinding {
  Name name{};
  IntTuple leaves{};
  friend constexpr bool operator==(const TupleBinding &,
                                   const TupleBinding &) = default;
};

struct Bindings {
  FixedVector<Binding, max_bindings> values{};
  FixedVector<TupleBinding, max_bindings> tuples{};

  /// The number bound to `name`, or Errc::symbolic if it is unbound.
  constexpr Result<std::int64_t> value(std::string_view name) const {
    for (const Binding &b : values)
      if (b.name == name)
        return b.value;
    return make_error(Errc::symbolic, "symbol '{name}' is not bound",
                      Name(name));
  }
  /// The leaves bound to the variadic `name` (without its `*`).
  constexpr Result<IntTuple> leaves(std::string_view name) const {
    for (const TupleBinding &b : tuples)
      if (b.name == name)
        return b.leaves;
    return make_error(Errc::symbolic, "variadic '*{name}' is not bound",
                      Name(name));
  }

  friend constexpr bool operator==(const Bindings &, const Bindings &) = default;
};

/// Which item of a pattern failed to match.
enum class MatchItem : std::uint8_t {
  none,
  level,      ///< expected_name is the pattern's level, found_name the mesh's
  leaf_count, ///< expected leaves (at least, with a variadic), found leaves
  extent,     ///< concrete leaf `leaf` has extent `found`, not `expected`
  stride,     ///< concrete leaf `leaf` has stride `found`, not `expected`
  symbol,     ///< expected_name is bound to `expected`, concrete leaf `leaf`
              ///< (-1: the offset) has `found`
  offset,     ///< the offset is `found`, the pattern `expected`
  pattern,    ///< the pattern itself is malformed; `detail` says how
  axis,       ///< a ShardLayout binds leaf `leaf` to another mesh leaf
  predicate,  ///< predicate `leaf` fails; `detail` says why
};

/// Where a match failed, with the values needed to say so.
struct MatchFailure {
  MatchItem item = MatchItem::none;
  /// A leaf in written order (of the concrete layout for extent, stride and
  /// symbol; of the pattern for axis), or a predicate's index.
  int leaf = -1;
  std::int64_t expected = 0;
  std::int64_t found = 0;
  /// The pattern's level, or the symbol whose binding conflicts.
  Name expected_name{};
  /// The mesh's level.
  Name found_name{};
  /// The pattern at the failing leaf is a symbol (expected_name) or variadic.
  bool symbolic = false;
  bool variadic = false;
  Error detail{};
};

/// The outcome of `match`: the bindings and the instantiated pattern, or the
/// first item that failed.
struct MeshMatch {
  bool ok = false;
  Bindings bindings{};
  /// The pattern with its symbols replaced by their bound values.
  Mesh instance{};
  MatchFailure failure{};
  constexpr explicit operator bool() const { return ok; }
};

/// A contract's execution mesh: the pattern and the predicates its instance
/// must satisfy.
struct MeshPattern {
  Mesh mesh{};
  FixedVector<MeshPredicate, 4> predicates{};
};

namespace detail {

/// Binds `name` to `value`, or reports the conflicting earlier binding.
constexpr bool bind(Bindings &b, const Name &name, std::int64_t value,
                    int leaf, MatchFailure &failure) {
  for (const Binding &have : b.values)
    if (have.name == name) {
      if (have.value == value)
        return true;
      failure = {MatchItem::symbol, leaf, have.value, value, name, {}, true,
                 false, {}};
      return false;
    }
  if (!b.values.push_back({name, value})) {
    failure.item = MatchItem::pattern;
    failure.detail = make_error(Errc::capacity, "a pattern binds at most {} "
                                                "symbols",
                                static_cast<std::int64_t>(max_bindings));
    return false;
  }
  return true;
}

constexpr bool bind_tuple(Bindings &b, const Name &name,
                          const IntTuple &leaves, int leaf,
                          MatchFailure &failure) {
  for (const TupleBinding &have : b.tuples)
    if (have.name == name) {
      if (have.leaves == leaves)
        return true;
      failure = {MatchItem::symbol, leaf, 0, 0, name, {}, true, true, {}};
      return false;
    }
  if (!b.tuples.push_back({name, leaves})) {
    failure.item = MatchItem::pattern;
    failure.detail = make_error(Errc::capacity, "a pattern binds at most {} "
                                                "variadics",
                                static_cast<std::int64_t>(max_bindings));
    return false;
  }
  return true;
}

/// Unifies one pattern leaf with a concrete number.
constexpr bool unify_int(Bindings &b, const Int &pattern, std::int64_t value,
                         MatchItem item, int leaf, MatchFailure &failure) {
  if (pattern.is_symbolic())
    return bind(b, pattern.symbol, value, leaf, failure);
  if (!pattern.known || pattern.value != value) {
    failure = {item, leaf, pattern.value, value, {}, {}, false, false, {}};
    return false;
  }
  return true;
}

/// Unifies the pattern's leaves with `leaves`, leaving out the pattern
/// leaves marked in `skip` (may be null).
constexpr bool unify_leaves(Bindings &b, const Layout &pattern,
                            const FlatLeaves &leaves, const bool *skip,
                            MatchFailure &failure) {
  const int count = pattern.shape.leaf_count();
  int variadic = -1, skipped = 0;
  for (int j = 0; j < count; ++j) {
    bool in_shape = pattern.shape.leaf_at(j).variadic;
    bool in_stride = pattern.stride.leaf_at(j).variadic;
    if (in_shape != in_stride || (in_shape && variadic >= 0)) {
      failure.item = MatchItem::pattern;
      failure.leaf = j;
      failure.detail = make_error(
          Errc::precondition,
          "pattern leaf {} must be variadic in shape and stride together, "
          "and at most one leaf may be variadic",
          j);
      return false;
    }
    if (in_shape)
      variadic = j;
    else if (skip != nullptr && skip[j])
      ++skipped;
  }
  const int fixed = (variadic >= 0 ? count - 1 : count) - skipped;
  if (leaves.count < fixed || (variadic < 0 && leaves.count != fixed)) {
    failure = {MatchItem::leaf_count, -1, fixed, leaves.count, {}, {},
               false, variadic >= 0, {}};
    return false;
  }
  const int taken = leaves.count - fixed;
  int at = 0;
  for (int j = 0; j < count; ++j) {
    if (j == variadic) {
      IntTuple extents, strides;
      for (int k = 0; k < taken; ++k) {
        extents.push_back(IntTuple(leaves.extent[at + k]));
        strides.push_back(IntTuple(leaves.stride[at + k]));
      }
      at += taken;
      if (!bind_tuple(b, pattern.shape.leaf_at(j).symbol, extents, j,
                      failure) ||
          !bind_tuple(b, pattern.stride.leaf_at(j).symbol, strides, j,
                      failure))
        return false;
      continue;
    }
    if (skip != nullptr && skip[j])
      continue;
    if (!unify_int(b, pattern.shape.leaf_at(j), leaves.extent[at],
                   MatchItem::extent, at, failure) ||
        !unify_int(b, pattern.stride.leaf_at(j), leaves.stride[at],
                   MatchItem::stride, at, failure))
      return false;
    ++at;
  }
  return true;
}

/// Unifies the leaves of a pattern layout with those of a concrete layout.
/// With `squeeze` (execution meshes only; ShardLayouts need their leaves in
/// place): a leaf of extent 1 is a single unit whatever its stride, so when
/// the leaves do not unify as written they are tried again without the
/// concrete extent-1 leaves and the pattern's constant extent-1 leaves: one
/// thread written (), (1,1) or (1):(0) matches `(1):(1) + p0`. The failure
/// reported is that of the leaves as written.
constexpr bool unify_layout(Bindings &b, const Layout &pattern,
                            const Layout &concrete, MatchFailure &failure,
                            bool squeeze = false) {
  Result<FlatLeaves> leaves = flat_leaves(concrete);
  if (!leaves) {
    failure.item = MatchItem::pattern;
    failure.detail = leaves.error();
    return false;
  }
  const Bindings before = b;
  if (unify_leaves(b, pattern, *leaves, nullptr, failure))
    return true;
  if (!squeeze || failure.item == MatchItem::pattern)
    return false;
  FlatLeaves squeezed;
  for (int k = 0; k < leaves->count; ++k)
    if (leaves->extent[k] != 1) {
      squeezed.extent[squeezed.count] = leaves->extent[k];
      squeezed.stride[squeezed.count++] = leaves->stride[k];
    }
  const int count = pattern.shape.leaf_count();
  bool skip[max_int_tuple_nodes] = {};
  bool any_skip = false;
  for (int j = 0; j < count && j < static_cast<int>(max_int_tuple_nodes); ++j) {
    const Int &e = pattern.shape.leaf_at(j);
    skip[j] = !e.is_symbolic() && e.known && e.value == 1;
    any_skip = any_skip || skip[j];
  }
  if (squeezed.count == leaves->count && !any_skip)
    return false;
  Bindings retry = before;
  MatchFailure ignored;
  if (!unify_leaves(retry, pattern, squeezed, skip, ignored))
    return false;
  // A skipped leaf's symbolic stride means nothing: bind it if still free.
  for (int j = 0; j < count && j < static_cast<int>(max_int_tuple_nodes); ++j) {
    const Int &d = pattern.stride.leaf_at(j);
    if (skip[j] && d.is_symbolic() && !d.variadic &&
        !retry.value(d.symbol.view()) &&
        !bind(retry, d.symbol, 0, j, ignored))
      return false;
  }
  b = retry;
  return true;
}

} // namespace detail

/// `t` with each symbol replaced by its value and each variadic leaf by the
/// leaves bound to it, spliced into the enclosing tuple.
/// @pre every symbol of `t` is bound
constexpr Result<IntTuple> substitute(const IntTuple &t, const Bindings &b) {
  if (t.is_leaf()) {
    const Int &leaf = t.leaf();
    if (!leaf.is_symbolic())
      return t;
    if (leaf.variadic)
      return b.leaves(leaf.symbol.view());
    Result<std::int64_t> v = b.value(leaf.symbol.view());
    if (!v)
      return v.error();
    return IntTuple(*v);
  }
  IntTuple out;
  for (int i = 0; i < t.rank(); ++i) {
    IntTuple m = t.mode(i);
    Result<IntTuple> s = substitute(m, b);
    if (!s)
      return s;
    if (m.is_leaf() && m.leaf().variadic) {
      for (int k = 0; k < s->rank(); ++k)
        out.push_back(s->mode(k));
    } else {
      out.push_back(*s);
    }
  }
  if (out.overflow())
    return make_error(Errc::capacity, "the instantiated tuple is too large");
  return out;
}

/// The pattern mesh with its symbols substituted; axis names are kept when
/// the rank is unchanged.
/// @pre every symbol of `pattern` is bound
constexpr Result<Mesh> instantiate(const Mesh &pattern, const Bindings &b) {
  Result<IntTuple> shape = substitute(pattern.layout.shape, b);
  if (!shape)
    return shape.error();
  Result<IntTuple> stride = substitute(pattern.layout.stride, b);
  if (!stride)
    return stride.error();
  Result<IntTuple> offset = substitute(IntTuple(pattern.offset), b);
  if (!offset)
    return offset.error();
  Mesh out{pattern.level, Layout{*shape, *stride}, offset->leaf(), {}};
  if (out.rank() == pattern.rank())
    out.axes = pattern.axes;
  return out;
}

namespace detail {

constexpr MeshMatch match_mesh(const Mesh &pattern, const Mesh &mesh,
                               bool squeeze) {
  MeshMatch out;
  if (!(pattern.level == mesh.level)) {
    out.failure = {MatchItem::level, -1, 0, 0, pattern.level, mesh.level,
                   false, false, {}};
    return out;
  }
  if (!unify_layout(out.bindings, pattern.layout, mesh.layout, out.failure,
                    squeeze))
    return out;
  Result<std::int64_t> offset = mesh.offset.get();
  if (!offset) {
    out.failure.item = MatchItem::pattern;
    out.failure.detail = offset.error();
    return out;
  }
  if (!unify_int(out.bindings, pattern.offset, *offset, MatchItem::offset, -1,
                 out.failure))
    return out;
  Result<Mesh> instance = instantiate(pattern, out.bindings);
  if (!instance) {
    out.failure.item = MatchItem::pattern;
    out.failure.detail = instance.error();
    return out;
  }
  out.instance = *instance;
  out.ok = true;
  return out;
}

} // namespace detail

/// Unifies `pattern` with `mesh` (levels, leaves, offset), leaf by leaf as
/// written.
constexpr MeshMatch match(const Mesh &pattern, const Mesh &mesh) {
  return detail::match_mesh(pattern, mesh, false);
}

/// Unifies the pattern with `mesh`, then checks the predicates on the
/// instance; the first predicate that fails is the failure.
/// An execution mesh: leaves of extent 1 aside when they do not unify as
/// written (one thread written () or (1,1) is `(1):(1) + p0`).
constexpr MeshMatch match(const MeshPattern &pattern, const Mesh &mesh) {
  MeshMatch out = detail::match_mesh(pattern.mesh, mesh, true);
  if (!out)
    return out;
  for (std::size_t i = 0; i < pattern.predicates.size(); ++i) {
    Verdict v = check(pattern.predicates[i], out.instance);
    if (!v) {
      out.ok = false;
      out.failure = {MatchItem::predicate, static_cast<int>(i), 0, 0, {}, {},
                     false, false, v.reason};
      return out;
    }
  }
  return out;
}

} // namespace tf
