//===- test/gpu/gemm_residual/user.cpp - The generated GEMM, residual add -===//
//
// The user's program is examples/gemm/residual.cpp
// (out = bf16(a b + residual), the residual an M x N bf16 input read by the
// epilogue from global memory), its main renamed: checked against cuBLAS's
// f32 A B with the residual added on the host in double
// (gemm_harness.hpp's compare, the f32 addition as its operand term); timed
// against cuBLASLt computing a b + 1 C with the residual as C. Built by
// build.sh, run by test/gpu/run.sh:
// `gemm_residual [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32.BF16 5*UTMALDG.2D 4*UTMASTG.2D
#define main residual_example_main
#include "../../../examples/gemm/residual.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<tf::bf16>(
      argc, argv, "gemm_residual", gemm_example::Epilogue::none,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
                   gemm::Matrix(o.a, {o.M, o.K}), gemm::Matrix(o.b, {o.K, o.N}),
                   gemm::Matrix(o.c, {o.M, o.N}), gemm::Matrix(o.out, {o.M, o.N}));
      },
      {}, {.beta = 1.0f, .c = true});
}
