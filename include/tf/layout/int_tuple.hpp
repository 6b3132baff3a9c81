//===- tf/layout/int_tuple.hpp - Hierarchical tuples of extents -----------===//
//
// An IntTuple is an Int or a tuple of IntTuples: `8`, `(2,8)`, `((2,8,8),(4,16))`.
// Shapes, strides and coordinates are IntTuples. The tree is stored inline in
// preorder so that an IntTuple is a structural value (usable as a template
// argument) and every operation is constexpr.
//
// Coordinates follow tf's lexicographic convention: within a tuple the last
// mode varies fastest (docs/layout/notation.md).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/int.hpp"
#include "tf/support/fixed_vector.hpp"

#include <cstddef>
#include <cstdint>
#include <initializer_list>

namespace tf {

/// Nodes an IntTuple holds at most (leaves and tuples together).
inline constexpr std::size_t max_int_tuple_nodes = 48;

/// One node of the preorder encoding.
struct IntTupleNode {
  Int leaf{};
  bool is_leaf = true;
  /// Number of direct children of a tuple node.
  std::uint8_t arity = 0;
  /// Number of nodes in this subtree, this one included.
  std::uint8_t span = 1;

  friend constexpr bool operator==(const IntTupleNode &,
                                   const IntTupleNode &) = default;
};

class IntTuple {
public:
  /// The empty tuple `()`.
  constexpr IntTuple() { nodes.push_back(tuple_node()); }
  constexpr IntTuple(Int leaf) { nodes.push_back(IntTupleNode{leaf}); }
  constexpr IntTuple(std::int64_t v) : IntTuple(Int(v)) {}
  constexpr IntTuple(int v) : IntTuple(Int(std::int64_t(v))) {}
  /// The tuple of `modes`: `IntTuple{2, {4, 8}}` is `(2,(4,8))`.
  constexpr IntTuple(std::initializer_list<IntTuple> modes) : IntTuple() {
    for (const IntTuple &m : modes)
      push_back(m);
  }

  constexpr bool is_leaf() const { return nodes[0].is_leaf; }
  /// Number of top-level modes; 1 for a leaf (as in CuTe).
  constexpr int rank() const { return is_leaf() ? 1 : nodes[0].arity; }
  /// 0 for a leaf, 1 for a flat tuple, and so on.
  constexpr int depth() const {
    if (is_leaf())
      return 0;
    int d = 0;
    for (int i = 0; i < rank(); ++i) {
      int m = mode(i).depth();
      d = m > d ? m : d;
    }
    return d + 1;
  }
  /// The Int of a leaf. @pre is_leaf()
  constexpr const Int &leaf() const { return nodes[0].leaf; }

  /// A copy of top-level mode `i`; a leaf's only mode is itself.
  /// @pre 0 <= i < rank()
  constexpr IntTuple mode(int i) const {
    if (is_leaf())
      return *this;
    std::size_t at = child_index(i);
    IntTuple out(Uninitialized{});
    for (std::size_t n = 0; n < nodes[at].span; ++n)
      out.nodes.push_back(nodes[at + n]);
    out.overflowed = overflowed;
    return out;
  }

  /// Appends `m` as a new last top-level mode. @pre !is_leaf()
  constexpr void push_back(const IntTuple &m) {
    overflowed = overflowed || m.overflowed;
    if (nodes.size() + m.nodes.size() > nodes.capacity() || nodes[0].arity == 255) {
      overflowed = true;
      return;
    }
    for (const IntTupleNode &n : m.nodes)
      nodes.push_back(n);
    nodes[0].arity += 1;
    nodes[0].span = static_cast<std::uint8_t>(nodes.size());
  }

  /// Number of leaves.
  constexpr int leaf_count() const {
    int n = 0;
    for (const IntTupleNode &node : nodes)
      n += node.is_leaf ? 1 : 0;
    return n;
  }
  /// Leaf `i` in preorder (which is the written order). @pre i < leaf_count()
  constexpr const Int &leaf_at(int i) const {
    for (const IntTupleNode &node : nodes)
      if (node.is_leaf && i-- == 0)
        return node.leaf;
    return nodes[0].leaf;
  }
  /// Replaces leaf `i` in preorder, keeping the structure.
  constexpr void set_leaf(int i, const Int &v) {
    for (IntTupleNode &node : nodes)
      if (node.is_leaf && i-- == 0) {
        node.leaf = v;
        return;
      }
  }

  /// True if some operation needed more than max_int_tuple_nodes nodes; the
  /// value is then incomplete and callers report Errc::capacity.
  constexpr bool overflow() const { return overflowed; }

  friend constexpr bool operator==(const IntTuple &a, const IntTuple &b) {
    return a.nodes == b.nodes;
  }

  // Public so that IntTuple is a structural type; use the functions above.
  FixedVector<IntTupleNode, max_int_tuple_nodes> nodes;
  bool overflowed = false;

private:
  struct Uninitialized {};
  constexpr explicit IntTuple(Uninitialized) {}
  static constexpr IntTupleNode tuple_node() {
    IntTupleNode n;
    n.is_leaf = false;
    return n;
  }
  constexpr std::size_t child_index(int i) const {
    std::size_t at = 1;
    for (int k = 0; k < i; ++k)
      at += nodes[at].span;
    return at;
  }
};

/// Whether `a` and `b` have the same tree structure (ignoring leaf values).
constexpr bool congruent(const IntTuple &a, const IntTuple &b) {
  if (a.nodes.size() != b.nodes.size())
    return false;
  for (std::size_t i = 0; i < a.nodes.size(); ++i)
    if (a.nodes[i].is_leaf != b.nodes[i].is_leaf ||
        a.nodes[i].arity != b.nodes[i].arity)
      return false;
  return true;
}

/// The tuple of all leaves of `t`, in order: flatten((2,(3,4))) = (2,3,4).
/// A leaf stays a leaf.
constexpr IntTuple flatten(const IntTuple &t) {
  if (t.is_leaf())
    return t;
  IntTuple out;
  for (int i = 0; i < t.leaf_count(); ++i)
    out.push_back(t.leaf_at(i));
  out.overflowed = out.overflowed || t.overflowed;
  return out;
}

/// Concatenates the top-level modes of `a` and `b` (a leaf counts as one mode).
constexpr IntTuple concat(const IntTuple &a, const IntTuple &b) {
  IntTuple out;
  for (int i = 0; i < a.rank(); ++i)
    out.push_back(a.mode(i));
  for (int i = 0; i < b.rank(); ++i)
    out.push_back(b.mode(i));
  return out;
}

/// The product of all leaves; fails on symbolic or unknown leaves.
constexpr Result<std::int64_t> product(const IntTuple &t) {
  std::int64_t p = 1;
  for (int i = 0; i < t.leaf_count(); ++i) {
    Result<std::int64_t> v = t.leaf_at(i).get();
    if (!v)
      return v.error();
    if (!checked_mul(p, *v, p))
      return make_error(Errc::capacity,
                        "the product of the extents does not fit in 64 bits");
  }
  return p;
}

/// Whether every leaf has a number (no symbolic or unknown dynamic leaves).
constexpr bool has_values(const IntTuple &t) {
  for (int i = 0; i < t.leaf_count(); ++i)
    if (!t.leaf_at(i).has_value())
      return false;
  return true;
}

/// Whether every leaf is static.
constexpr bool is_static(const IntTuple &t) {
  for (int i = 0; i < t.leaf_count(); ++i)
    if (!t.leaf_at(i).is_constant())
      return false;
  return true;
}

/// `t` with every tuple reversed, recursively: φ (docs/layout/algebra.md) maps
/// CuTe's colexicographic reading to tf's lexicographic one.
constexpr IntTuple reverse_modes(const IntTuple &t) {
  if (t.is_leaf())
    return t;
  IntTuple out;
  for (int i = t.rank() - 1; i >= 0; --i)
    out.push_back(reverse_modes(t.mode(i)));
  return out;
}

} // namespace tf
