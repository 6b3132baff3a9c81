//===- tf/atoms/nv/sm89/mma.hpp - The FP8 mma.sync contract (Ada) ---------===//
//
// nv.sm89.Mma: mma.sync.aligned.m16n8k32.row.col.f32.{e4m3,e5m2}.{e4m3,e5m2}
// .f32, issued by one warp, every operand in registers. The 16-bit and tf32
// shapes Ada inherits from sm_80 are nv.sm80.Mma. PTX ISA "Warp Level Matrix
// Multiply-Accumulate Instructions: mma" (.e4m3/.e5m2 m16n8k32 require
// sm_89), "Matrix Fragments for mma.m16n8k32"; fragments in
// tf/atoms/nv/mma_sync.hpp. Capability: mma.sync.fp8 (targets/architectures/
// nvidia.sm89.toml).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/nv/mma_sync.hpp"

namespace tf::atoms::nv::sm89 {

namespace mma_detail {

using namespace tf::atoms::nv::mma;

inline constexpr ParamCase k_cases[] = {
    only({is("dtype", DType::fp8e4m3)}, {value(std::int64_t(32))}),
    only({is("dtype", DType::fp8e5m2)}, {value(std::int64_t(32))}),
};

constexpr ParamDef k_param() {
  ParamDef d;
  d.name = "k";
  d.kind = ParamKind::integer;
  d.cases = k_cases;
  d.derived = true;
  return d;
}

inline constexpr ParamDef params[] = {
    ParamDef::dtype("dtype", {value(DType::fp8e4m3), value(DType::fp8e5m2)}),
    k_param()};

inline constexpr LayoutPattern a_regs[] = {
    fragment(a_k32_8bit, warp, {}, "PTX mma.m16n8k32 A"),
};
inline constexpr LayoutPattern b_regs[] = {
    fragment(b_k32_8bit, warp, {}, "PTX mma.m16n8k32 B"),
};
inline constexpr LayoutPattern c_regs[] = {
    fragment(c_f32, warp, {}, "PTX mma.m16n8k32 C"),
};

inline constexpr auto operands = mma_sync_operands(a_regs, b_regs, c_regs);

} // namespace mma_detail

/// The contract of nv.sm89.Mma.
inline constexpr Contract mma =
    mma::mma_sync_contract("nv.sm89.Mma", "mma.sync.fp8", mma_detail::params,
                           mma_detail::operands);

} // namespace tf::atoms::nv::sm89
