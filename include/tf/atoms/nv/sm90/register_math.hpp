//===- tf/atoms/nv/sm90/register_math.hpp - Element-wise math on registers -===//
//
// nv.sm90.FastMath: one special-function-unit instruction per element,
//   op = ex2   -> ex2.approx.ftz.f32   (2^a; tf::exp2),
//   op = rsqrt -> rsqrt.approx.ftz.f32 (1/sqrt(a); tf::rsqrt)
//   (PTX ISA, "Floating Point Instructions: ex2, rsqrt": .approx, maximum
//   relative error 2^-22.5 for ex2 and 2^-23 for rsqrt on sm_90; .ftz
//   flushes subnormal inputs and results to zero).
// nv.sm90.PackedBf16: two bf16 elements per 32-bit register, one
//   instruction for both: add/sub/mul.rn.bf16x2 (sm_90), max/min.bf16x2
//   (sm_80) (PTX ISA, "Half Precision Floating-Point Instructions").
// Both run on register fragments held by any thread mesh, every operand
// distributed as the first (LayoutPatternKind::same_as), as generic.Binary.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/detail/copy_patterns.hpp"

namespace tf::atoms::nv::sm90 {

namespace register_math_detail {
using namespace tf::atoms::detail;

constexpr ParamDef choice_param(Name type,
                                std::initializer_list<const char *> values) {
  ParamDef p;
  p.name = "op";
  p.kind = ParamKind::choice;
  p.choice_type = type;
  for (const char *v : values)
    p.allowed.push_back(ParamValue::choose(Name(std::string_view(v))));
  return p;
}

inline constexpr ParamDef fast_math_params[] = {
    choice_param("UnaryOp", {"ex2", "rsqrt"}),
    ParamDef::dtype("dtype", {ParamValue::of(DType::f32)})};
inline constexpr ParamDef packed_params[] = {
    choice_param("BinaryOp", {"add", "sub", "mul", "max", "min"}),
    ParamDef::dtype("dtype", {ParamValue::of(DType::bf16)})};

constexpr OperandPattern operand(Name name, Access access,
                                 List<LayoutPattern> layouts = {}) {
  OperandPattern o;
  o.name = name;
  o.access = access;
  o.shape = pattern_shape("(*s)");
  o.dtype = dtype_of("dtype");
  o.storage = Storage::rmem;
  o.layouts = layouts;
  return o;
}

inline constexpr LayoutPattern like_src[] = {
    same_as_pattern("src", cite("element-wise"))};
inline constexpr LayoutPattern like_lhs[] = {
    same_as_pattern("lhs", cite("element-wise"))};

inline constexpr OperandPattern unary_operands[] = {
    operand("src", Access::read), operand("dst", Access::write, like_src)};
inline constexpr OperandPattern binary_operands[] = {
    operand("lhs", Access::read), operand("rhs", Access::read, like_lhs),
    operand("out", Access::write, like_lhs)};

inline constexpr MeshPattern any_threads{pattern_mesh("thread", "(*g):(*gs)"),
                                         {}};

} // namespace register_math_detail

/// nv.sm90.FastMath: ex2.approx / rsqrt.approx on f32 registers.
inline constexpr Contract fast_math{
    .id = "nv.sm90.FastMath",
    .kind = AtomKind::elementwise,
    .capability = "sfu.approx",
    .execution_mesh = register_math_detail::any_threads,
    .params = register_math_detail::fast_math_params,
    .operands = register_math_detail::unary_operands,
    .limits = {},
    .atom_shape = {},
};

/// nv.sm90.PackedBf16: bf16x2 arithmetic, two elements per instruction.
inline constexpr Contract packed_bf16{
    .id = "nv.sm90.PackedBf16",
    .kind = AtomKind::elementwise,
    .capability = "bf16x2.arith",
    .execution_mesh = register_math_detail::any_threads,
    .params = register_math_detail::packed_params,
    .operands = register_math_detail::binary_operands,
    .limits = {},
    .atom_shape = {},
};

} // namespace tf::atoms::nv::sm90
