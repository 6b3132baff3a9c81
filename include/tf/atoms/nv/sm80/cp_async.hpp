//===- tf/atoms/nv/sm80/cp_async.hpp - cp.async contract ------------------===//
//
// nv.sm80.CpAsync: cp.async.{ca,cg}.shared.global [dst], [src], cp-size --
// each thread of any thread mesh copies one vector of 4, 8 or 16 bytes from
// global to shared memory, asynchronously (PTX ISA, "Data Movement and
// Conversion Instructions: cp.async", sm_80).
//
// The instruction is per thread, so the operands describe what ONE thread of
// the execution mesh copies: a contiguous vector of `bytes` bytes whose
// global and shared addresses are both aligned to `bytes` (PTX ISA,
// cp.async: "cp-size ... 4, 8 and 16"; ".cg ... only cp-size 16"; the
// addresses "must be aligned to cp-size"). How a tile is split into the
// threads' vectors is the site's ShardLayout; the mesh pattern `(*g):(*gs)`
// accepts every thread mesh.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/detail/copy_patterns.hpp"

namespace tf::atoms::nv::sm80 {

/// The cp-size values of cp.async (PTX ISA, cp.async).
inline constexpr int cp_async_sizes[] = {4, 8, 16};

namespace cp_async_detail {
using namespace tf::atoms::detail;

/// .cg (cache at L2 only) exists for cp-size 16 alone; .ca for all sizes.
inline constexpr ParamCase cache_cases[] = {
    {{when_int("bytes", 16)},
     {ParamValue::choose("ca"), ParamValue::choose("cg")},
     true,
     ParamValue::choose("cg")},
    {{}, {ParamValue::choose("ca")}, true, ParamValue::choose("ca")},
};

constexpr ParamDef cache_param() {
  ParamDef p;
  p.name = "cache";
  p.kind = ParamKind::choice;
  p.choice_type = "CacheOp";
  p.allowed = {ParamValue::choose("ca"), ParamValue::choose("cg")};
  p.cases = cache_cases;
  return p;
}

// bytes is PTX's cp-size.
inline constexpr ParamDef params[] = {ParamDef::dtype("dtype"),
                                      bytes_param(cp_async_sizes),
                                      cache_param()};

/// One thread's vector: v contiguous elements.
inline constexpr LayoutPattern vector_layouts[] = {
    layout_pattern(pattern_composed("(v):(1)"), cite("PTX cp.async"))};

constexpr OperandPattern operand(Name name, Access access, Storage storage) {
  OperandPattern o;
  o.name = name;
  o.access = access;
  o.shape = pattern_shape("(v)");
  o.dtype = dtype_of("dtype");
  o.storage = storage;
  o.layouts = vector_layouts;
  return o;
}

inline constexpr OperandPattern operands[] = {
    operand("src", Access::read, Storage::gmem),
    operand("dst", Access::write, Storage::smem)};

/// Per cp-size b and operand: exactly b bytes, aligned to b.
constexpr FixedVector<OperandLimit, 18> vector_limits() {
  using K = OperandLimit::Kind;
  FixedVector<OperandLimit, 18> out;
  for (Name op : {Name("src"), Name("dst")})
    for (int b : cp_async_sizes) {
      Conditions w{when_int("bytes", b)};
      out.push_back(limit(op, K::inner_bytes_min, b, cite("PTX cp.async"), w));
      out.push_back(limit(op, K::inner_bytes_max, b, cite("PTX cp.async"), w));
      out.push_back(limit(op, K::base_align_bytes, b, cite("PTX cp.async"), w));
    }
  return out;
}
inline constexpr auto limit_storage = vector_limits();

inline constexpr MeshPattern any_threads{pattern_mesh("thread", "(*g):(*gs)"),
                                         {}};

} // namespace cp_async_detail

/// nv.sm80.CpAsync: one 4/8/16-byte vector per thread, gmem -> smem.
inline constexpr Contract cp_async{
    .id = "nv.sm80.CpAsync",
    .kind = AtomKind::copy,
    .capability = "cp.async",
    .execution_mesh = cp_async_detail::any_threads,
    .params = cp_async_detail::params,
    .operands = cp_async_detail::operands,
    .limits = List<OperandLimit>(cp_async_detail::limit_storage.items,
                                 cp_async_detail::limit_storage.size()),
    .atom_shape = {},
};

} // namespace tf::atoms::nv::sm80
