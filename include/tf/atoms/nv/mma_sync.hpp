//===- tf/atoms/nv/mma_sync.hpp - mma.sync fragments shared by sm80/sm89 --===//
//
// The warp-level mma.sync.aligned.m16n8kK fragments, as ShardLayouts over
// one warp. Source: PTX ISA, "Warp Level Matrix Multiply-Accumulate
// Instructions", "Matrix Fragments for mma.m16n8k8" / "mma.m16n8k16 with
// floating point type" / "mma.m16n8k32" (section 9.7.14.5.x in PTX ISA
// 8.5); cross-checked with CuTe's mma_traits_sm80.hpp / mma_traits_sm89.hpp
// (ALayout/BLayout/CLayout) through φ.
//
// With groupID = lane >> 2 and threadID_in_group = lane % 4:
//   A (16 x K): row groupID + 8 h, col as below;   C (16 x 8): row groupID +
//   8 h, col 2 threadID_in_group + e;   B (K x 8): col groupID, row as below.
//   16-bit k16: A col 8 kk + 2 t + e,  B row 8 kk + 2 t + e
//   16-bit k8:  A col 2 t + e,         B row 2 t + e
//   tf32 k8:    A col 4 kk + t,        B row 4 kk + t
//   8-bit k32:  A col 16 kk + 4 t + e, B row 16 kk + 4 t + e
// Codomains are column-major within the atom (m + 16 col for A and C,
// row + K col for B), as for WGMMA (docs/contracts/engine.md).
//
// The execution mesh is one warp, ((*g,8,4)):((*gs,4,1)) + p0: mesh
// coordinate (groupID, threadID_in_group) is lane 4 groupID + t. CuTe, which
// reads colexicographically, writes its lane part (4,8):(1,4);
// read lexicographically (tf's convention) (4,8):(1,4) would enumerate lanes
// 0,4,8,..., which has backward steps; φ turns it into (8,4):(4,1).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/nv/mma_patterns.hpp"
#include "tf/layout/mesh_predicate.hpp"

#include <array>

namespace tf::atoms::nv::mma {

/// One warp issuing one mma.sync; `*g` are further warps (further atoms).
inline constexpr Mesh warp_execution_mesh =
    mesh_pattern("thread", "((*g,8,4)):((*gs,4,1)) + p0");
/// The warp the fragments are distributed over: leaf 0 is groupID, leaf 1
/// threadID_in_group.
inline constexpr Mesh warp = mesh_pattern("thread", "((8,4)):((4,1)) + p0");

constexpr MeshPattern warp_mesh_pattern() {
  MeshPattern p;
  p.mesh = warp_execution_mesh;
  p.predicates = {no_backward_step(), each_slot_once(),
                  offset_multiple_of(32, "p0")};
  return p;
}

// A (16,k): codomain m + 16 col.
inline constexpr const char *a_k16_16bit = "(2,8@0,2,4@1,2):(8,1,128,32,16)";
inline constexpr const char *a_k8_16bit = "(2,8@0,4@1,2):(8,1,32,16)";
inline constexpr const char *a_k8_tf32 = "(2,8@0,2,4@1):(8,1,64,16)";
inline constexpr const char *a_k32_8bit = "(2,8@0,2,4@1,4):(8,1,256,64,16)";
// B (k,8): codomain row + k col.
inline constexpr const char *b_k16_16bit = "(2,4@1,2,8@0):(8,2,1,16)";
inline constexpr const char *b_k8_16bit = "(4@1,2,8@0):(2,1,8)";
inline constexpr const char *b_k8_tf32 = "(2,4@1,8@0):(4,1,8)";
inline constexpr const char *b_k32_8bit = "(2,4@1,4,8@0):(16,4,1,32)";
// C (16,8), f32: codomain m + 16 col.
inline constexpr const char *c_f32 = "(2,8@0,4@1,2):(8,1,32,16)";

constexpr OperandPattern mma_operand(Name name, Access access,
                                     std::string_view shape_text,
                                     DTypeRule dtype,
                                     List<LayoutPattern> layouts,
                                     FixedVector<int, 4> atom_modes) {
  OperandPattern o;
  o.name = name;
  o.access = access;
  o.shape = shape(shape_text);
  o.dtype = dtype;
  o.storage = Storage::rmem;
  o.layouts = layouts;
  o.atom_modes = atom_modes;
  return o;
}

/// The operands A (16,k), B (k,8) and C (16,8) of an mma.sync atom, held in
/// the given register fragments; A and B have the `dtype` parameter's type.
constexpr std::array<OperandPattern, 3>
mma_sync_operands(List<LayoutPattern> a, List<LayoutPattern> b,
                  List<LayoutPattern> c) {
  return {mma_operand("A", Access::read, "(16,k)", dtype_of("dtype"), a, {0, 2}),
          mma_operand("B", Access::read, "(k,8)", dtype_of("dtype"), b, {2, 1}),
          mma_operand("C", Access::read_write, "(16,8)",
                      dtype_fixed(DType::f32), c, {0, 1})};
}

/// An mma.sync contract: one warp issues a (16, 8, k) atom.
constexpr Contract mma_sync_contract(Name id, Name capability,
                                     List<ParamDef> params,
                                     List<OperandPattern> operands) {
  Contract c;
  c.id = id;
  c.kind = AtomKind::mma;
  c.capability = capability;
  c.execution_mesh = warp_mesh_pattern();
  c.params = params;
  c.operands = operands;
  c.atom_shape = IntTuple{16, 8, Int::symbolic("k")};
  return c;
}

} // namespace tf::atoms::nv::mma
