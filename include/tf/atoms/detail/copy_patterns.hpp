//===- tf/atoms/detail/copy_patterns.hpp - Building contract patterns -----===//
//
// Small constexpr helpers the copy, element-wise and AMX contracts use to
// write their meshes, layouts and conditions from the layout notation
// (docs/layout/notation.md), so each contract reads like its `tf facts`
// listing. A malformed text stops compilation, as `tf::layout<"...">` does.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/contract/contract.hpp"
#include "tf/layout/mesh_match.hpp"
#include "tf/layout/text/parse.hpp"

#include <cstddef>
#include <string_view>

namespace tf::atoms::detail {

/// A short citation printed by `tf facts` (the full one stands in a comment
/// beside the item); longer than a Name holds does not compile.
template <std::size_t N> constexpr Name cite(const char (&text)[N]) {
  static_assert(N - 1 <= Name::max_length,
                "a contract citation holds at most Name::max_length "
                "characters; put the full reference in a comment");
  return Name(std::string_view(text, N - 1));
}

/// The access-size parameter `bytes` of a vector copy: one of `sizes`, 16
/// unless written.
template <std::size_t N> constexpr ParamDef bytes_param(const int (&sizes)[N]) {
  ParamDef p;
  p.name = "bytes";
  p.kind = ParamKind::integer;
  for (int b : sizes)
    p.allowed.push_back(ParamValue::of(b));
  p.has_default = true;
  p.default_value = ParamValue::of(16);
  return p;
}

/// The layout written `text`; symbols (`w`) and variadics (`*e`) allowed.
constexpr Layout pattern_layout(std::string_view text) {
  return parse_layout(text).value();
}

/// The layout `text` under swizzle `sw` at offset `offset` (a symbol binds
/// any start).
constexpr ComposedLayout pattern_composed(std::string_view text,
                                          Swizzle sw = {},
                                          Int offset = Int::symbolic("o")) {
  return ComposedLayout{sw, offset, pattern_layout(text)};
}

/// The mesh of topology level `level` arranging units by `text`, starting at
/// the symbolic unit `p0`.
constexpr Mesh pattern_mesh(Name level, std::string_view text) {
  Mesh m;
  m.level = level;
  m.layout = pattern_layout(text);
  m.offset = Int::symbolic("p0");
  return m;
}

/// The ShardLayout written `text` (leaves bound with `@i` to leaf i of the
/// mesh) over `mesh`.
constexpr ShardLayout pattern_shard(std::string_view text, const Mesh &mesh) {
  LayoutText t = parse_layout_text(text).value();
  ShardLayout s;
  s.layout = t.layout;
  s.mesh = mesh;
  if (t.has_axes)
    s.axes = t.axes;
  else
    for (int j = 0; j < t.layout.shape.leaf_count(); ++j)
      s.axes.push_back(local);
  return s;
}

/// The IntTuple written `text`: `(m, k)`, `(*box)`.
constexpr IntTuple pattern_shape(std::string_view text) {
  return parse_int_tuple(text).value();
}

/// `param == v` for an integer parameter.
constexpr Condition when_int(Name param, std::int64_t v) {
  return {param, ParamValue::of(v)};
}

/// `param == choice` for a choice parameter.
constexpr Condition when_choice(Name param, Name choice) {
  return {param, ParamValue::choose(choice)};
}

/// A layout pattern of kind `layout`.
constexpr LayoutPattern layout_pattern(ComposedLayout l, Name source,
                                       Conditions when = {}) {
  LayoutPattern p;
  p.kind = LayoutPatternKind::layout;
  p.when = when;
  p.layout = l;
  p.source = source;
  return p;
}

/// A layout pattern of kind `shard`.
constexpr LayoutPattern shard_pattern(ShardLayout s, Name source,
                                      Conditions when = {}) {
  LayoutPattern p;
  p.kind = LayoutPatternKind::shard;
  p.when = when;
  p.shard = s;
  p.source = source;
  return p;
}

/// "The same layout as operand `operand`".
constexpr LayoutPattern same_as_pattern(Name operand, Name source) {
  LayoutPattern p;
  p.kind = LayoutPatternKind::same_as;
  p.operand = operand;
  p.source = source;
  return p;
}

/// A dtype rule naming a dtype parameter.
constexpr DTypeRule dtype_of(Name param) {
  DTypeRule r;
  r.kind = DTypeRule::Kind::of_param;
  r.param = param;
  return r;
}

/// A dtype rule fixing the dtype.
constexpr DTypeRule dtype_fixed(DType t) {
  DTypeRule r;
  r.kind = DTypeRule::Kind::fixed;
  r.dtype = t;
  return r;
}

/// A limit on `operand`.
constexpr OperandLimit limit(Name operand, OperandLimit::Kind kind,
                             std::int64_t value, Name source,
                             Conditions when = {}, int mode = 0) {
  OperandLimit l;
  l.operand = operand;
  l.kind = kind;
  l.mode = mode;
  l.value = value;
  l.when = when;
  l.source = source;
  return l;
}

} // namespace tf::atoms::detail
