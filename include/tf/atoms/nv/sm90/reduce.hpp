//===- tf/atoms/nv/sm90/reduce.hpp - Reductions across threads ------------===//
//
// The two steps of a row reduction on sm_90, as contracts:
//
// nv.sm90.WarpReduce: a butterfly over the 32 lanes of each warp --
//   five rounds of shfl.sync.bfly.b32 (lane masks 16, 8, 4, 2, 1) each
//   followed by the combining op, after which every lane holds the warp's
//   result (PTX ISA, "Parallel Synchronization and Communication
//   Instructions: shfl.sync", mode .bfly: "lane j exchanges with lane
//   j XOR laneMask"). Each lane first folds the elements it holds itself.
//   The execution mesh is whole warps: `(*g,32):(*gs,1)`, any number of
//   them, each of 32 consecutive threads.
//
// nv.sm90.CtaReduce: across the warps of a CTA -- each warp's lane 0
//   writes its partial result to shared memory, a bar.sync, then every
//   thread reads the warps' partials and folds them (PTX ISA, st.shared,
//   bar.sync). The execution mesh is any set of threads of the CTA.
//
// Both fold with `op` (a ReduceOp: add for tf::reduce_sum, max for
// tf::reduce_max) in f32 -- the accumulation type of the row kernels; src
// is the register fragment reduced, dst the result every participating
// thread holds.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/detail/copy_patterns.hpp"

#include <string_view>

namespace tf::atoms::nv::sm90 {

namespace reduce_detail {
using namespace tf::atoms::detail;

constexpr ParamDef op_param() {
  ParamDef p;
  p.name = "op";
  p.kind = ParamKind::choice;
  p.choice_type = "ReduceOp";
  p.allowed = {ParamValue::choose("add"), ParamValue::choose("max")};
  return p;
}

inline constexpr ParamDef params[] = {
    op_param(), ParamDef::dtype("dtype", {ParamValue::of(DType::f32)})};

/// `shape`: the reduced fragment's modes (*s), the result's (*r) -- the
/// reduction removes a mode, so they are not the same.
constexpr OperandPattern operand(Name name, Access access,
                                 std::string_view shape) {
  OperandPattern o;
  o.name = name;
  o.access = access;
  o.shape = pattern_shape(shape);
  o.dtype = dtype_of("dtype");
  o.storage = Storage::rmem;
  return o;
}

inline constexpr OperandPattern operands[] = {
    operand("src", Access::read, "(*s)"), operand("dst", Access::write, "(*r)")};

/// Whole warps: 32 consecutive threads each, any number of warps.
inline constexpr MeshPattern warps{pattern_mesh("thread", "(*g,32):(*gs,1)"),
                                   {}};
inline constexpr MeshPattern any_threads{pattern_mesh("thread", "(*g):(*gs)"),
                                         {}};

} // namespace reduce_detail

/// nv.sm90.WarpReduce: shfl.sync.bfly butterfly within each warp.
inline constexpr Contract warp_reduce{
    .id = "nv.sm90.WarpReduce",
    .kind = AtomKind::reduce,
    .capability = "shfl.sync",
    .execution_mesh = reduce_detail::warps,
    .params = reduce_detail::params,
    .operands = reduce_detail::operands,
    .limits = {},
    .atom_shape = {},
};

/// nv.sm90.CtaReduce: per-warp partials through shared memory.
inline constexpr Contract cta_reduce{
    .id = "nv.sm90.CtaReduce",
    .kind = AtomKind::reduce,
    .capability = "shfl.sync",
    .execution_mesh = reduce_detail::any_threads,
    .params = reduce_detail::params,
    .operands = reduce_detail::operands,
    .limits = {},
    .atom_shape = {},
};

} // namespace tf::atoms::nv::sm90
