//===- test/gpu/gemm_bias_gelu/user.cpp - The generated GEMM, bias + gelu -===//
//
// The user's program is examples/gemm/bias_gelu.cpp
// (out = bf16(gelu_tanh(a b + bias)), the bias one bf16 value per column,
// read by the epilogue from global memory), its main renamed: checked
// against cuBLAS's f32 A B with the bias and the GELU applied on the host
// in double (gemm_harness.hpp's compare: the GELU's bound, plus the f32
// addition of the bias); timed against cuBLASLt's GELU_BIAS epilogue (the
// tanh form, the bias in bf16). Built by build.sh, run by test/gpu/run.sh:
// `gemm_bias_gelu [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32.BF16 5*UTMALDG.2D 4*UTMASTG.2D
#define main bias_gelu_example_main
#include "../../../examples/gemm/bias_gelu.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<tf::bf16>(
      argc, argv, "gemm_bias_gelu", gemm_example::Epilogue::gelu_tanh,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
                   gemm::Matrix(o.a, {o.M, o.K}), gemm::Matrix(o.b, {o.K, o.N}),
                   gemm::Vector(o.bias, {o.N}), gemm::Matrix(o.out, {o.M, o.N}));
      },
      {}, {.bias = true});
}
