//===- tf/atoms/nv/mma_patterns.hpp - Building MMA contract patterns ------===//
//
// Small constexpr helpers the NVIDIA MMA contracts (sm80/sm89 mma.sync,
// sm90 wgmma) use to write their meshes, fragments and shared-memory
// layouts in the layout notation (docs/layout/notation.md), so that each
// contract reads like its `tf facts` listing. A malformed text stops
// compilation (Result::value in constant evaluation).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/contract/contract.hpp"
#include "tf/layout/mesh_match.hpp"
#include "tf/layout/text/parse.hpp"

#include <string_view>

namespace tf::atoms::nv::mma {

/// The execution mesh pattern written `text` (with `+ p0`) on `level`.
constexpr Mesh mesh_pattern(Name level, std::string_view text) {
  LayoutText t = parse_layout_text(text).value();
  Mesh m;
  m.level = level;
  m.layout = t.layout;
  m.offset = t.offset;
  return m;
}

/// A register-fragment arrangement: the ShardLayout written `text`, whose
/// `@i` bind leaves to leaf i of `mesh`; `registers`, when given, numbers
/// each thread's registers (LayoutPattern::register_strides).
constexpr LayoutPattern
fragment(std::string_view text, const Mesh &mesh, Conditions when, Name source,
         FixedVector<std::int64_t, 8> registers = {}) {
  LayoutText t = parse_layout_text(text).value();
  LayoutPattern p;
  p.kind = LayoutPatternKind::shard;
  p.when = when;
  p.shard.layout = t.layout;
  p.shard.mesh = mesh;
  if (t.has_axes)
    p.shard.axes = t.axes;
  else
    for (int j = 0; j < t.layout.shape.leaf_count(); ++j)
      p.shard.axes.push_back(local);
  p.source = source;
  p.register_strides = registers;
  return p;
}

/// A shared-memory arrangement: `text` under `swizzle` (on bytes) at the
/// symbolic start `start`, which binds any offset (its alignment is an
/// OperandLimit).
constexpr LayoutPattern smem(std::string_view text, Swizzle swizzle,
                             Name start, Conditions when, Name source) {
  LayoutPattern p;
  p.kind = LayoutPatternKind::layout;
  p.when = when;
  p.layout = ComposedLayout{swizzle, Int::symbolic(start),
                            parse_layout(text).value()};
  p.source = source;
  return p;
}

constexpr IntTuple shape(std::string_view text) {
  return parse_int_tuple(text).value();
}

constexpr Condition is(Name param, DType t) { return {param, ParamValue::of(t)}; }
constexpr Condition is(Name param, std::int64_t v) {
  return {param, ParamValue::of(v)};
}
constexpr Condition is(Name param, const char *choice) {
  return {param, ParamValue::choose(choice)};
}

constexpr ParamValue value(DType t) { return ParamValue::of(t); }
constexpr ParamValue value(std::int64_t v) { return ParamValue::of(v); }
constexpr ParamValue value(const char *choice) {
  return ParamValue::choose(choice);
}

/// A case of a parameter's domain.
constexpr ParamCase only(Conditions when, ParamValues allowed) {
  return {when, allowed, false, {}};
}
constexpr ParamCase either(Conditions when, ParamValues allowed,
                           ParamValue default_value) {
  return {when, allowed, true, default_value};
}

constexpr DTypeRule dtype_of(Name param) {
  DTypeRule r;
  r.kind = DTypeRule::Kind::of_param;
  r.param = param;
  return r;
}
constexpr DTypeRule dtype_fixed(DType t) {
  DTypeRule r;
  r.kind = DTypeRule::Kind::fixed;
  r.dtype = t;
  return r;
}

} // namespace tf::atoms::nv::mma
