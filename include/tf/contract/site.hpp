//===- tf/contract/site.hpp - The use of an atom, as the engine sees it ---===//
//
// A Site is one use of an atom: the mesh enclosing it, the parameter values
// written (missing ones take the contract's defaults), the operands with
// their concrete shapes, dtypes, storages and layouts, optionally the target
// architecture's capabilities and a written repeat. The plugin builds one
// from the HIR, tests and the CLI build them by hand:
//
//   tf::Site site{
//       .mesh = compute,
//       .params = {tf::arg("n", 256), tf::arg("dtype", tf::DType::bf16),
//                  tf::arg("a_major", tf::choice("K"))},
//       .operands = {tf::site_operand("A", {128, 64}, tf::DType::bf16,
//                                     tf::Storage::smem, lhs_layout), ...},
//       .repeat = {2, 1, 4}};
//
// All of it is constexpr data (no allocation), so a header can
// static_assert a match; contract/match.hpp matches a Site with a Contract.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/contract/contract.hpp"

#include <cstddef>
#include <cstdint>

namespace tf {

/// Parameters a site may write.
inline constexpr std::size_t max_site_params = 8;
/// Operands a site may have (MMA: A, B, C; copies: src, dst).
inline constexpr std::size_t max_site_operands = 4;

/// `name = value` as written at the site.
struct ParamArg {
  Name name{};
  ParamValue value{};
};

constexpr ParamArg arg(Name name, const ParamValue &v) { return {name, v}; }
constexpr ParamArg arg(Name name, std::int64_t v) {
  return {name, ParamValue::of(v)};
}
constexpr ParamArg arg(Name name, int v) {
  return {name, ParamValue::of(std::int64_t(v))};
}
constexpr ParamArg arg(Name name, DType t) { return {name, ParamValue::of(t)}; }

/// A choice value: `choice("K")` for Major.K, `choice("SS")` for Form.SS.
constexpr ParamValue choice(Name c) { return ParamValue::choose(c); }

/// How an operand at a site is laid out.
enum class OperandLayoutKind : std::uint8_t {
  none,     ///< not given: only shape, dtype, storage and the limits on the
            ///< shape are checked; not its layout, nor a same_as naming it
  layout,   ///< a plain Layout (gmem/smem tiles without swizzle)
  composed, ///< a ComposedLayout: swizzle o (offset + layout), smem tiles
  shard,    ///< a ShardLayout over a mesh: register fragments
};

/// One operand at a site. `shape` is the logical shape of the whole tile the
/// operation touches (for a tiled MMA: 128x64, not the atom's 64x16).
struct SiteOperand {
  Name name{};
  IntTuple shape{};
  DType dtype = DType::f32;
  Storage storage = Storage::smem;
  OperandLayoutKind kind = OperandLayoutKind::none;
  /// For `layout` (identity swizzle, offset 0) and `composed`.
  ComposedLayout layout{};
  /// For `shard`.
  ShardLayout shard{};
};

/// An operand without a layout.
constexpr SiteOperand site_operand(Name name, const IntTuple &shape, DType t,
                                   Storage s) {
  SiteOperand o;
  o.name = name;
  o.shape = shape;
  o.dtype = t;
  o.storage = s;
  return o;
}

/// An operand with a plain layout.
constexpr SiteOperand site_operand(Name name, const IntTuple &shape, DType t,
                                   Storage s, const Layout &l) {
  SiteOperand o = site_operand(name, shape, t, s);
  o.kind = OperandLayoutKind::layout;
  o.layout.layout = l;
  return o;
}

/// An operand with a swizzled (composed) layout.
constexpr SiteOperand site_operand(Name name, const IntTuple &shape, DType t,
                                   Storage s, const ComposedLayout &l) {
  SiteOperand o = site_operand(name, shape, t, s);
  o.kind = OperandLayoutKind::composed;
  o.layout = l;
  return o;
}

/// An operand distributed over a mesh.
constexpr SiteOperand site_operand(Name name, const IntTuple &shape, DType t,
                                   Storage s, const ShardLayout &l) {
  SiteOperand o = site_operand(name, shape, t, s);
  o.kind = OperandLayoutKind::shard;
  o.shard = l;
  return o;
}

/// The use of an atom.
struct Site {
  /// The enclosing execution mesh.
  Mesh mesh{};
  /// Parameters written; the others take their defaults.
  FixedVector<ParamArg, max_site_params> params{};
  FixedVector<SiteOperand, max_site_operands> operands{};
  /// The target architecture's capabilities (closure over `includes`),
  /// checked only when `check_capabilities`.
  bool check_capabilities = false;
  List<Name> capabilities{};
  /// A written repeat, (M, N, K) for MMA atoms; empty when not written.
  FixedVector<std::int64_t, 3> repeat{};
};

} // namespace tf
