//===- tf/atoms/nv/sm80/ldmatrix.hpp - ldmatrix contract and fragments ----===//
//
// nv.sm80.Ldmatrix: ldmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}.shared.b16
// (PTX ISA, "Warp-level matrix load instruction: ldmatrix", sm_75+; the
// project lists it under nvidia.sm80). A warp loads `num` 8x8 matrices of
// 16-bit elements from shared memory into registers.
//
// Addresses: thread i supplies the address of row i % 8 of matrix i / 8
// (.x1: threads 0-7, .x2: 0-15, .x4: 0-31); each row is 16 contiguous bytes,
// 16-byte aligned; rows may lie anywhere, so the smem operand is any layout
// whose rows have unit stride and whose row stride is a multiple of 16 bytes,
// under any of the 16-byte-chunk swizzles (they never split a row).
//
// Fragment (PTX ISA, ldmatrix, "fragment layout" figure): register j of
// thread t holds matrix j's row t / 4, columns 2 (t % 4) and 2 (t % 4) + 1,
// the lower column in the lower 16 bits. With .trans it holds the transpose:
// column t / 4, rows 2 (t % 4) and 2 (t % 4) + 1. Over the logical tensor
// (num, 8, 8) (matrix, row, column), read row-major, as a ShardLayout over
// the warp ((8,4)):((4,1)) + p0 -- leaf 0 is t / 4, leaf 1 is t % 4:
//   (num, 8@0, 4@1, 2):(64, 8, 2, 1)     (num, lane/4, lane%4, half) -> element
//   (num, 8@0, 4@1, 2):(64, 1, 16, 8)    the same with .trans
// local index = 2 j + half: register j, low half first.
// nv.sm90.Stmatrix (stmatrix.hpp) stores the same fragments.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/detail/copy_patterns.hpp"

namespace tf::atoms::nv {

namespace matrix_detail {
using namespace tf::atoms::detail;

/// One warp as the fragments see it: lane = 4 (lane / 4) + lane % 4.
inline constexpr Mesh warp = pattern_mesh("thread", "((8,4)):((4,1))");

/// Warps issuing the instruction: whole warps, 32-aligned, in one block.
constexpr MeshPattern warps() {
  MeshPattern m{pattern_mesh("thread", "((*g,8,4)):((*gs,4,1))"), {}};
  m.predicates.push_back(each_slot_once());
  m.predicates.push_back(offset_multiple_of(32));
  return m;
}

constexpr ParamDef num_param() {
  ParamDef p;
  p.name = "num"; // .x1, .x2, .x4
  p.kind = ParamKind::integer;
  p.allowed = {ParamValue::of(1), ParamValue::of(2), ParamValue::of(4)};
  p.has_default = true;
  p.default_value = ParamValue::of(4);
  return p;
}

constexpr ParamDef trans_param() {
  ParamDef p;
  p.name = "trans"; // 1: .trans
  p.kind = ParamKind::integer;
  p.allowed = {ParamValue::of(0), ParamValue::of(1)};
  p.has_default = true;
  p.default_value = ParamValue::of(0);
  return p;
}

// dtype: the 16-bit elements of .b16.
inline constexpr ParamDef params[] = {
    num_param(), trans_param(),
    ParamDef::dtype("dtype",
                    {ParamValue::of(DType::bf16), ParamValue::of(DType::f16)})};

/// Shared memory: rows of 8 contiguous elements anywhere, any chunk swizzle.
constexpr LayoutPattern smem_rows(SwizzleMode m) {
  return layout_pattern(pattern_composed("(num,8,8):(sm,sr,1)", swizzle_for(m)),
                        cite("PTX ldmatrix"));
}
inline constexpr LayoutPattern smem_layouts[] = {
    smem_rows(SwizzleMode::none), smem_rows(SwizzleMode::bytes32),
    smem_rows(SwizzleMode::bytes64), smem_rows(SwizzleMode::bytes128)};

/// The register fragment of one warp; see the file comment.
inline constexpr LayoutPattern fragment_layouts[] = {
    shard_pattern(pattern_shard("(num,8@0,4@1,2):(64,8,2,1)", warp),
                  cite("PTX ldmatrix fragment"), {when_int("trans", 0)}),
    shard_pattern(pattern_shard("(num,8@0,4@1,2):(64,1,16,8)", warp),
                  cite("PTX ldmatrix fragment"), {when_int("trans", 1)}),
};

constexpr OperandPattern operand(Name name, Access access, Storage storage,
                                 List<LayoutPattern> layouts) {
  OperandPattern o;
  o.name = name;
  o.access = access;
  o.shape = pattern_shape("(num,8,8)");
  o.dtype = dtype_of("dtype");
  o.storage = storage;
  o.layouts = layouts;
  return o;
}

/// Each row address 16-byte aligned, so rows 16 bytes apart in multiples.
constexpr FixedVector<OperandLimit, 2> row_limits(Name smem) {
  using K = OperandLimit::Kind;
  return {limit(smem, K::base_align_bytes, 16, cite("PTX ldmatrix")),
          limit(smem, K::outer_stride_bytes_mult, 16, cite("PTX ldmatrix"))};
}

} // namespace matrix_detail

namespace sm80 {
namespace ldmatrix_detail {
using namespace nv::matrix_detail;
inline constexpr OperandPattern operands[] = {
    operand("src", Access::read, Storage::smem, smem_layouts),
    operand("dst", Access::write, Storage::rmem, fragment_layouts)};
inline constexpr auto limit_storage = row_limits("src");
} // namespace ldmatrix_detail

/// nv.sm80.Ldmatrix: a warp loads num 8x8 b16 matrices into fragments.
inline constexpr Contract ldmatrix{
    .id = "nv.sm80.Ldmatrix",
    .kind = AtomKind::copy,
    .capability = "ldmatrix",
    .execution_mesh = matrix_detail::warps(),
    .params = matrix_detail::params,
    .operands = ldmatrix_detail::operands,
    .limits = List<OperandLimit>(ldmatrix_detail::limit_storage.items,
                                 ldmatrix_detail::limit_storage.size()),
    .atom_shape = {},
};
} // namespace sm80

} // namespace tf::atoms::nv
