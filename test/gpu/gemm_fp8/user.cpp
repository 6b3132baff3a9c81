//===- test/gpu/gemm_fp8/user.cpp - The generated GEMM, e4m3 operands -----===//
//
// The user's program is examples/gemm/fp8.cpp (out = bf16(scale * a b), a
// and b e4m3, both K-major: b stored N x K), its main renamed, here with
// scale = 0.375: checked against cuBLAS's f32 product of the operands
// converted to bf16 (exact), scaled on the host in double
// (gemm_harness.hpp's compare: |scale| scales the accumulation bound, its
// f32 product is the operand term); timed against cuBLASLt's fp8 GEMM
// (e4m3 in, bf16 out, f32 compute, the same scale as alpha). Built by
// build.sh, run by test/gpu/run.sh: `gemm_fp8 [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*QGMMA.64x256x32.F32.E4M3.E4M3 2*UTMALDG.2D 4*UTMASTG.2D
#define main fp8_example_main
#include "../../../examples/gemm/fp8.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<tf::bf16, tf::fp8e4m3>(
      argc, argv, "gemm_fp8", gemm_example::Epilogue::none,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Lhs(o.a, {o.M, o.K}),
                   gemm::ColMajor(o.b, {o.K, o.N}, {o.K}),
                   gemm::Matrix(o.out, {o.M, o.N}), o.alpha);
      },
      {.b = gemm_example::Major::K}, {.alpha = 0.375f});
}
