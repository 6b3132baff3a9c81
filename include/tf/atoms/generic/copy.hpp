//===- tf/atoms/generic/copy.hpp - The generic Copy contract --------------===//
//
// generic.Copy: a plain copy that every thread does with ordinary loads and
// stores (ld/st, mov) -- the GEMM epilogue's `tf::schedule<tf::Copy>` from
// registers to shared memory. Any thread mesh issues it, each thread copying
// the elements the site's layouts give it; source and destination have the
// same dtype (a conversion is generic.Cast) and the same shape.
//
// Storage: gmem, smem and rmem in any pair. amx_tile is excluded: moving
// into or out of tile registers needs tileloadd/tilestored
// (intel.amx.TileLoad/TileStore). A copy that should use TMA, cp.async or
// ldmatrix/stmatrix is still *expressible* as a generic Copy; choosing the
// special instruction is the schedule's decision, not a refusal here.
//
// No capability: every target can load and store. The execution mesh is the
// thread level (generic.Cast and generic.Binary are refused at CTA level for
// the same reason: the units that run element-wise work are threads).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/detail/copy_patterns.hpp"

namespace tf::atoms::generic {

namespace copy_detail {
using namespace tf::atoms::detail;

inline constexpr ParamDef params[] = {ParamDef::dtype("dtype")};

inline constexpr Storage copy_storages[] = {Storage::gmem, Storage::smem,
                                            Storage::rmem};

constexpr OperandPattern operand(Name name, Access access, Storage storage) {
  OperandPattern o;
  o.name = name;
  o.access = access;
  o.shape = pattern_shape("(*s)");
  o.dtype = dtype_of("dtype");
  o.storage = storage;
  return o; // any layout
}

/// src and dst, each listed once per storage: the alternatives of one name.
inline constexpr OperandPattern operands[] = {
    operand("src", Access::read, Storage::gmem),
    operand("src", Access::read, Storage::smem),
    operand("src", Access::read, Storage::rmem),
    operand("dst", Access::write, Storage::gmem),
    operand("dst", Access::write, Storage::smem),
    operand("dst", Access::write, Storage::rmem)};

} // namespace copy_detail

/// Any number of threads, anywhere on the thread level.
inline constexpr MeshPattern any_threads{
    detail::pattern_mesh("thread", "(*g):(*gs)"), {}};

/// generic.Copy: same dtype, same shape, gmem/smem/rmem in any pair.
inline constexpr Contract copy{
    .id = "generic.Copy",
    .kind = AtomKind::copy,
    .capability = {},
    .execution_mesh = any_threads,
    .params = copy_detail::params,
    .operands = copy_detail::operands,
    .limits = {},
    .atom_shape = {},
};

} // namespace tf::atoms::generic
