//===- tf/atoms/nv/sm90/stmatrix.hpp - stmatrix contract ------------------===//
//
// nv.sm90.Stmatrix: stmatrix.sync.aligned.m8n8{.x1,.x2,.x4}{.trans}.shared.b16
// (PTX ISA, "Warp-level matrix store instruction: stmatrix", sm_90). The
// reverse of ldmatrix: the warp's fragments -- the same ShardLayouts as
// nv.sm80.Ldmatrix (ldmatrix.hpp) -- go to num 8x8 matrices in shared
// memory, thread i supplying the address of row i % 8 of matrix i / 8.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/nv/sm80/ldmatrix.hpp"

namespace tf::atoms::nv::sm90 {

namespace stmatrix_detail {
using namespace nv::matrix_detail;
inline constexpr OperandPattern operands[] = {
    operand("src", Access::read, Storage::rmem, fragment_layouts),
    operand("dst", Access::write, Storage::smem, smem_layouts)};
inline constexpr auto limit_storage = row_limits("dst");
} // namespace stmatrix_detail

/// nv.sm90.Stmatrix: a warp stores num 8x8 b16 matrices from fragments.
inline constexpr Contract stmatrix{
    .id = "nv.sm90.Stmatrix",
    .kind = AtomKind::copy,
    .capability = "stmatrix",
    .execution_mesh = matrix_detail::warps(),
    .params = matrix_detail::params,
    .operands = stmatrix_detail::operands,
    .limits = List<OperandLimit>(stmatrix_detail::limit_storage.items,
                                 stmatrix_detail::limit_storage.size()),
    .atom_shape = {},
};

} // namespace tf::atoms::nv::sm90
