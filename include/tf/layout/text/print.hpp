//===- tf/layout/text/print.hpp - Printing layouts as text ----------------===//
//
// The printers behind diagnostics, CLI output and tests, one per written form
// of docs/layout/notation.md. Everything printed parses back with
// parse_layout_text to the same value, except that a dynamic extent whose
// value is known prints as that number (and so parses back as static), and
// the matrix form shows the flattened layout.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/text/parse.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace tf {

/// Axis bindings of the leaves of a layout, in written order.
using LeafAxes = FixedVector<AxisRef, max_shard_leaves>;

/// An extent: `8`, `?` (dynamic without a value), `n`, `*g`.
inline std::string to_string(const Int &i) {
  if (i.is_symbolic())
    return (i.variadic ? "*" : "") + std::string(i.symbol.view());
  if (!i.known)
    return "?";
  return std::to_string(i.value);
}

/// An axis binding as written after an extent: `@group`, `@2`, or nothing.
inline std::string to_string(const AxisRef &axis) {
  if (!axis.name.empty())
    return "@" + std::string(axis.name.view());
  return axis.index >= 0 ? "@" + std::to_string(axis.index) : std::string();
}

namespace detail {

/// Prints the subtree of `t` at `node`, appending `axes[leaf]` to leaves
/// when given; `python_tuples` writes one-mode tuples as `(8,)`.
inline std::size_t print_tuple(std::string &out, const IntTuple &t,
                               std::size_t node, const LeafAxes *axes,
                               int &leaf, bool python_tuples) {
  const IntTupleNode &n = t.nodes[node];
  if (n.is_leaf) {
    out += to_string(n.leaf);
    if (axes != nullptr && leaf < static_cast<int>(axes->size()))
      out += to_string((*axes)[leaf]);
    ++leaf;
    return node + 1;
  }
  out += '(';
  std::size_t child = node + 1;
  for (int i = 0; i < n.arity; ++i) {
    if (i > 0)
      out += ',';
    child = print_tuple(out, t, child, axes, leaf, python_tuples);
  }
  if (python_tuples && n.arity == 1)
    out += ',';
  out += ')';
  return child;
}

inline std::string tuple_string(const IntTuple &t, const LeafAxes *axes,
                                bool python_tuples) {
  std::string out;
  int leaf = 0;
  print_tuple(out, t, 0, axes, leaf, python_tuples);
  return out;
}

/// The ` + offset` suffix, empty for a static zero.
inline std::string offset_suffix(const Int &offset) {
  return offset == Int{} ? std::string() : " + " + to_string(offset);
}

} // namespace detail

/// A tuple in CuTe style without spaces: `((2,8,8),(4,16))`.
inline std::string to_string(const IntTuple &t) {
  return detail::tuple_string(t, nullptr, false);
}

/// CuTe style `shape:stride`: `((2,8,8),(4,16)):((4096,512,64),(16,1))`.
inline std::string to_string(const Layout &l) {
  return to_string(l.shape) + ":" + to_string(l.stride);
}

/// CuTe style with axis bindings on the extents:
/// `(2@group,4@warp,32):(16384,16,1)`.
inline std::string to_string(const Layout &l, const LeafAxes &axes) {
  return detail::tuple_string(l.shape, &axes, false) + ":" +
         to_string(l.stride);
}

/// The call style: `Layout(((2,8,8),(4,16)),((4096,512,64),(16,1)))`, with
/// one-mode tuples written as in Python, `(8,)`.
inline std::string to_seed_string(const Layout &l) {
  return "Layout(" + detail::tuple_string(l.shape, nullptr, true) + "," +
         detail::tuple_string(l.stride, nullptr, true) + ")";
}

/// `Swizzle(3,4,3)`.
inline std::string to_string(const Swizzle &sw) {
  return "Swizzle(" + std::to_string(sw.bits) + "," + std::to_string(sw.base) +
         "," + std::to_string(sw.shift) + ")";
}

/// `layout + offset | Swizzle(b,m,s)`, leaving out a static zero offset and
/// the default Swizzle{}.
inline std::string to_string(const ComposedLayout &c) {
  std::string out = to_string(c.layout) + detail::offset_suffix(c.offset);
  if (!(c.swizzle == Swizzle{}))
    out += " | " + to_string(c.swizzle);
  return out;
}

/// The call style: `ComposedLayout(Swizzle(3,4,3), 0, Layout(...))`, with
/// `None` for the identity swizzle.
inline std::string to_seed_string(const ComposedLayout &c) {
  return "ComposedLayout(" +
         (c.swizzle.is_identity() ? std::string("None")
                                  : to_string(c.swizzle)) +
         ", " + to_string(c.offset) + ", " + to_seed_string(c.layout) + ")";
}

/// Everything a LayoutText holds, in CuTe style: axes, offset and swizzle
/// exactly when present, so that parse_layout_text gives `t` back.
inline std::string to_string(const LayoutText &t) {
  std::string out = t.has_axes ? to_string(t.layout, t.axes)
                               : to_string(t.layout);
  if (t.has_offset)
    out += " + " + to_string(t.offset);
  if (t.has_swizzle)
    out += " | " + to_string(t.swizzle);
  return out;
}

namespace detail {

/// The matrix cells: one column per leaf, extent (with axis) over stride.
struct MatrixCells {
  std::string extents[max_int_tuple_nodes];
  std::string strides[max_int_tuple_nodes];
  int columns = 0;
};

inline MatrixCells matrix_cells(const Layout &l, const LeafAxes &axes) {
  MatrixCells cells;
  cells.columns = l.shape.leaf_count();
  for (int i = 0; i < cells.columns; ++i) {
    cells.extents[i] = to_string(l.shape.leaf_at(i));
    if (i < static_cast<int>(axes.size()))
      cells.extents[i] += to_string(axes[i]);
    cells.strides[i] = to_string(l.stride.leaf_at(i));
  }
  return cells;
}

inline std::string swizzle_prefix(const Swizzle &sw) {
  return sw == Swizzle{} ? std::string() : to_string(sw) + " o ";
}

} // namespace detail

/// The matrix form, one column per leaf, extents over strides, aligned:
///   [ 2@group  4@warp  8@lane8  4@lane4 ]
///   [ 128      32      4        1       ] + 128
/// A swizzle other than Swizzle{} is written `Swizzle(3,4,3) o` before it.
inline std::string to_matrix_string(const Layout &l, const LeafAxes &axes = {},
                                    const Int &offset = Int{},
                                    const Swizzle &sw = Swizzle{}) {
  detail::MatrixCells cells = detail::matrix_cells(l, axes);
  std::string prefix = detail::swizzle_prefix(sw);
  std::string top = prefix + "[ ";
  std::string bottom = std::string(prefix.size(), ' ') + "[ ";
  for (int i = 0; i < cells.columns; ++i) {
    std::size_t width = cells.extents[i].size() > cells.strides[i].size()
                            ? cells.extents[i].size()
                            : cells.strides[i].size();
    std::string_view gap = i + 1 < cells.columns ? "  " : "";
    top += cells.extents[i] + std::string(width - cells.extents[i].size(), ' ');
    bottom +=
        cells.strides[i] + std::string(width - cells.strides[i].size(), ' ');
    top += gap;
    bottom += gap;
  }
  return top + " ]\n" + bottom + " ]" + detail::offset_suffix(offset);
}

/// The matrix on one line: `[2@group 4@warp 8@lane8 4@lane4; 128 32 4 1] +
/// 128`, with the same optional swizzle prefix.
inline std::string to_matrix_line(const Layout &l, const LeafAxes &axes = {},
                                  const Int &offset = Int{},
                                  const Swizzle &sw = Swizzle{}) {
  detail::MatrixCells cells = detail::matrix_cells(l, axes);
  std::string extents;
  std::string strides;
  for (int i = 0; i < cells.columns; ++i) {
    std::string_view gap = i > 0 ? " " : "";
    extents += std::string(gap) + cells.extents[i];
    strides += std::string(gap) + cells.strides[i];
  }
  return detail::swizzle_prefix(sw) + "[" + extents + "; " + strides + "]" +
         detail::offset_suffix(offset);
}

} // namespace tf
