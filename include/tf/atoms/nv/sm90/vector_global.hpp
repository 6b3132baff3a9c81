//===- tf/atoms/nv/sm90/vector_global.hpp - ld/st.global vector contracts -===//
//
// nv.sm90.VectorLoad:  ld.global{.v2,.v4}.b32 -- each thread of any thread
//                      mesh reads one vector of 4, 8 or 16 bytes from global
//                      memory into its registers;
// nv.sm90.VectorStore: st.global{.v2,.v4}.b32 -- the reverse.
// (PTX ISA, "Data Movement and Conversion Instructions: ld, st": vector
// forms .v2 and .v4; the address "must be naturally aligned to a multiple
// of the access size".) A 16-byte vector per lane is how a row kernel
// reaches HBM bandwidth: a warp's 32 vectors are one contiguous 512-byte
// span (tf::row_tile_text lays row tiles out that way).
//
// As for cp.async, the operands describe what ONE thread moves: a
// contiguous vector of `bytes` bytes aligned to `bytes`; how a tile is split
// into the threads' vectors is the site's ShardLayout, and the mesh pattern
// `(*g):(*gs)` accepts every thread mesh.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/detail/copy_patterns.hpp"

namespace tf::atoms::nv::sm90 {

/// The access sizes of ld/st.global: .b32, .v2.b32, .v4.b32.
inline constexpr int global_vector_sizes[] = {4, 8, 16};

namespace vector_global_detail {
using namespace tf::atoms::detail;

inline constexpr ParamDef params[] = {ParamDef::dtype("dtype"),
                                      bytes_param(global_vector_sizes)};

/// One thread's vector: v contiguous elements.
inline constexpr LayoutPattern vector_layouts[] = {
    layout_pattern(pattern_composed("(v):(1)"), cite("PTX ld/st vector"))};

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

inline constexpr OperandPattern load_operands[] = {
    operand("src", Access::read, Storage::gmem),
    operand("dst", Access::write, Storage::rmem)};
inline constexpr OperandPattern store_operands[] = {
    operand("src", Access::read, Storage::rmem),
    operand("dst", Access::write, Storage::gmem)};

/// Per access size b: the vector is exactly b bytes; the global side is
/// aligned to b.
constexpr FixedVector<OperandLimit, 12> vector_limits(Name global) {
  using K = OperandLimit::Kind;
  FixedVector<OperandLimit, 12> out;
  for (int b : global_vector_sizes) {
    Conditions w{when_int("bytes", b)};
    for (Name op : {Name("src"), Name("dst")}) {
      out.push_back(limit(op, K::inner_bytes_min, b, cite("PTX ld/st vector"), w));
      out.push_back(limit(op, K::inner_bytes_max, b, cite("PTX ld/st vector"), w));
    }
    out.push_back(limit(global, K::base_align_bytes, b, cite("PTX ld/st alignment"), w));
  }
  return out;
}
inline constexpr auto load_limits = vector_limits("src");
inline constexpr auto store_limits = vector_limits("dst");

inline constexpr MeshPattern any_threads{pattern_mesh("thread", "(*g):(*gs)"),
                                         {}};

} // namespace vector_global_detail

/// nv.sm90.VectorLoad: one 4/8/16-byte vector per thread, gmem -> registers.
inline constexpr Contract vector_load{
    .id = "nv.sm90.VectorLoad",
    .kind = AtomKind::copy,
    .capability = "ld.global.vector",
    .execution_mesh = vector_global_detail::any_threads,
    .params = vector_global_detail::params,
    .operands = vector_global_detail::load_operands,
    .limits = List<OperandLimit>(vector_global_detail::load_limits.items,
                                 vector_global_detail::load_limits.size()),
    .atom_shape = {},
};

/// nv.sm90.VectorStore: one 4/8/16-byte vector per thread, registers -> gmem.
inline constexpr Contract vector_store{
    .id = "nv.sm90.VectorStore",
    .kind = AtomKind::copy,
    .capability = "ld.global.vector",
    .execution_mesh = vector_global_detail::any_threads,
    .params = vector_global_detail::params,
    .operands = vector_global_detail::store_operands,
    .limits = List<OperandLimit>(vector_global_detail::store_limits.items,
                                 vector_global_detail::store_limits.size()),
    .atom_shape = {},
};

} // namespace tf::atoms::nv::sm90
