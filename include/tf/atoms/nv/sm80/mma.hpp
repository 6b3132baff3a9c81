//===- tf/atoms/nv/sm80/mma.hpp - The mma.sync contract (Ampere) ----------===//
//
// nv.sm80.Mma: mma.sync.aligned.m16n8k16 / m16n8k8 .row.col with .f16 or
// .bf16 inputs and .tf32 m16n8k8, f32 accumulators, issued by one warp with
// every operand in registers. Parameters: dtype, and k (16 or 8 for 16-bit
// types, default 16; 8 for tf32). PTX ISA "Warp Level Matrix Multiply-
// Accumulate Instructions: mma" (shapes and types per target: .f16 m16n8k16
// sm_80, m16n8k8 sm_75; .bf16 and .tf32 sm_80); fragments in
// tf/atoms/nv/mma_sync.hpp. Capability: mma.sync (targets/architectures/
// nvidia.sm80.toml; .bf16/.tf32 are listed there as mma.sync.bf16/.tf32).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/nv/mma_sync.hpp"

namespace tf::atoms::nv::sm80 {

namespace mma_detail {

using namespace tf::atoms::nv::mma;

inline constexpr ParamCase k_cases[] = {
    either({is("dtype", DType::bf16)}, {value(std::int64_t(16)), value(std::int64_t(8))}, value(std::int64_t(16))),
    either({is("dtype", DType::f16)}, {value(std::int64_t(16)), value(std::int64_t(8))}, value(std::int64_t(16))),
    only({is("dtype", DType::tf32)}, {value(std::int64_t(8))}),
};

constexpr ParamDef k_param() {
  ParamDef d;
  d.name = "k";
  d.kind = ParamKind::integer;
  d.allowed = {value(std::int64_t(8)), value(std::int64_t(16))};
  d.cases = k_cases;
  return d;
}

inline constexpr ParamDef params[] = {
    ParamDef::dtype("dtype",
                    {value(DType::bf16), value(DType::f16), value(DType::tf32)}),
    k_param()};

inline constexpr LayoutPattern a_regs[] = {
    fragment(a_k16_16bit, warp, {is("k", std::int64_t(16))}, "PTX mma.m16n8k16 A"),
    fragment(a_k8_16bit, warp, {is("k", std::int64_t(8)), is("dtype", DType::bf16)}, "PTX mma.m16n8k8 A"),
    fragment(a_k8_16bit, warp, {is("k", std::int64_t(8)), is("dtype", DType::f16)}, "PTX mma.m16n8k8 A"),
    fragment(a_k8_tf32, warp, {is("k", std::int64_t(8)), is("dtype", DType::tf32)}, "PTX mma.m16n8k8 A tf32"),
};
inline constexpr LayoutPattern b_regs[] = {
    fragment(b_k16_16bit, warp, {is("k", std::int64_t(16))}, "PTX mma.m16n8k16 B"),
    fragment(b_k8_16bit, warp, {is("k", std::int64_t(8)), is("dtype", DType::bf16)}, "PTX mma.m16n8k8 B"),
    fragment(b_k8_16bit, warp, {is("k", std::int64_t(8)), is("dtype", DType::f16)}, "PTX mma.m16n8k8 B"),
    fragment(b_k8_tf32, warp, {is("k", std::int64_t(8)), is("dtype", DType::tf32)}, "PTX mma.m16n8k8 B tf32"),
};
inline constexpr LayoutPattern c_regs[] = {
    fragment(c_f32, warp, {}, "PTX mma.m16n8k* C"),
};

inline constexpr auto operands = mma_sync_operands(a_regs, b_regs, c_regs);

} // namespace mma_detail

/// The contract of nv.sm80.Mma.
inline constexpr Contract mma =
    mma::mma_sync_contract("nv.sm80.Mma", "mma.sync", mma_detail::params,
                           mma_detail::operands);

} // namespace tf::atoms::nv::sm80
