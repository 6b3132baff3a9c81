//===- tf/atoms/generic/elementwise.hpp - Cast and Binary contracts -------===//
//
// Element-wise atoms run by any thread mesh on register fragments: each
// thread converts or combines the elements it holds, so every operand must be
// distributed exactly as the first one (LayoutPatternKind::same_as) -- the
// GEMM epilogue's `tf::cast<tf::bf16>(acc)` keeps the accumulator's
// ShardLayout.
//   generic.Cast    dst = convert<to>(src)           (cvt.rn.*, rounding to
//                                                     nearest even)
//   generic.Binary  out = op(lhs, rhs), op in {add, sub, mul, max, min}
// No capability: every target has these conversions and operations. fp8
// conversions are left out of Cast's domain: they need cvt.*.e4m3x2 /
// e5m2x2 (capability `cvt.fp8`, nvidia.sm89) and belong in an nv.sm89
// contract.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/generic/copy.hpp"

namespace tf::atoms::generic {

namespace elementwise_detail {
using namespace tf::atoms::detail;

/// Types every target converts between without a special capability.
constexpr ParamValues cast_types() {
  return {ParamValue::of(DType::f64),  ParamValue::of(DType::f32),
          ParamValue::of(DType::tf32), ParamValue::of(DType::bf16),
          ParamValue::of(DType::f16),  ParamValue::of(DType::i32),
          ParamValue::of(DType::i8),   ParamValue::of(DType::u8)};
}

inline constexpr ParamDef cast_params[] = {
    ParamDef::dtype("from", cast_types()), ParamDef::dtype("to", cast_types())};

constexpr OperandPattern operand(Name name, Access access, DTypeRule dtype,
                                 List<LayoutPattern> layouts = {}) {
  OperandPattern o;
  o.name = name;
  o.access = access;
  o.shape = pattern_shape("(*s)");
  o.dtype = dtype;
  o.storage = Storage::rmem;
  o.layouts = layouts;
  return o;
}

inline constexpr LayoutPattern like_src[] = {
    same_as_pattern("src", cite("element-wise"))};
inline constexpr LayoutPattern like_lhs[] = {
    same_as_pattern("lhs", cite("element-wise"))};

inline constexpr OperandPattern cast_operands[] = {
    operand("src", Access::read, dtype_of("from")),
    operand("dst", Access::write, dtype_of("to"), like_src)};

constexpr ParamDef op_param() {
  ParamDef p;
  p.name = "op";
  p.kind = ParamKind::choice;
  p.choice_type = "BinaryOp";
  p.allowed = {ParamValue::choose("add"), ParamValue::choose("sub"),
               ParamValue::choose("mul"), ParamValue::choose("max"),
               ParamValue::choose("min")};
  return p;
}

inline constexpr ParamDef binary_params[] = {
    op_param(),
    ParamDef::dtype("dtype",
                    {ParamValue::of(DType::f64), ParamValue::of(DType::f32),
                     ParamValue::of(DType::bf16), ParamValue::of(DType::f16),
                     ParamValue::of(DType::i32)})};

inline constexpr OperandPattern binary_operands[] = {
    operand("lhs", Access::read, dtype_of("dtype")),
    operand("rhs", Access::read, dtype_of("dtype"), like_lhs),
    operand("out", Access::write, dtype_of("dtype"), like_lhs)};

} // namespace elementwise_detail

/// generic.Cast: converts each element of a fragment from `from` to `to`.
inline constexpr Contract cast{
    .id = "generic.Cast",
    .kind = AtomKind::elementwise,
    .capability = {},
    .execution_mesh = any_threads,
    .params = elementwise_detail::cast_params,
    .operands = elementwise_detail::cast_operands,
    .limits = {},
    .atom_shape = {},
};

/// generic.Binary: out = op(lhs, rhs), element by element.
inline constexpr Contract binary{
    .id = "generic.Binary",
    .kind = AtomKind::elementwise,
    .capability = {},
    .execution_mesh = any_threads,
    .params = elementwise_detail::binary_params,
    .operands = elementwise_detail::binary_operands,
    .limits = {},
    .atom_shape = {},
};

} // namespace tf::atoms::generic
