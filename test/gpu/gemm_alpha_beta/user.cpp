//===- test/gpu/gemm_alpha_beta/user.cpp - The generated GEMM, alpha/beta -===//
//
// The user's program is examples/gemm/alpha_beta.cpp
// (out = bf16(alpha a b + beta c), alpha and beta float kernel parameters,
// c an M x N bf16 input read by the epilogue from global memory), its main
// renamed, here with alpha = 0.75 and beta = -1.5: checked against cuBLAS's
// f32 A B scaled, with beta c added on the host in double
// (gemm_harness.hpp's compare: |alpha| scales the accumulation bound, the
// epilogue's f32 products and sum are its operand term); timed against
// cuBLASLt with the same alpha, beta and C. Built by build.sh, run by
// test/gpu/run.sh: `gemm_alpha_beta [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32.BF16 5*UTMALDG.2D 4*UTMASTG.2D
#define main alpha_beta_example_main
#include "../../../examples/gemm/alpha_beta.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<tf::bf16>(
      argc, argv, "gemm_alpha_beta", gemm_example::Epilogue::none,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
                   gemm::Matrix(o.a, {o.M, o.K}), gemm::Matrix(o.b, {o.K, o.N}),
                   gemm::Matrix(o.c, {o.M, o.N}), gemm::Matrix(o.out, {o.M, o.N}),
                   o.alpha, o.beta);
      },
      {}, {.alpha = 0.75f, .beta = -1.5f, .c = true});
}
