//===- test/gpu/gemm_gelu/user.cpp - The generated GEMM, fused gelu -------===//
//
// The user's program is examples/gemm/gelu.cpp (out = bf16(gelu_tanh(a b)),
// the GELU fused into the epilogue), its main renamed: checked against
// cuBLAS's f32 result (bf16 in, f32 compute) with the GELU applied on the
// host in double, within 2^-6 |ref| + 1.13 (2 K 2^-23 sum|a b|) (one output
// ulp more than relu's for the f32 evaluation, the GELU's slope bound on the
// accumulation; gemm_harness.hpp's compare); timed against cuBLASLt's GELU
// epilogue (the tanh form). tf::launch of gemm::gemm on device tensors finds
// the launcher that the CUDA backend's gelu.tf.cu registered under the
// kernel's address; the host side is gemm_harness.hpp, shared with the other
// gemm_* tests. Built by build.sh, run by test/gpu/run.sh:
// `gemm_gelu [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32.BF16 5*UTMALDG.2D 4*UTMASTG.2D
#define main gelu_example_main
#include "../../../examples/gemm/gelu.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<tf::bf16>(
      argc, argv, "gemm_gelu", gemm_example::Epilogue::gelu_tanh,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(o.a, {o.M, o.K}),
                   gemm::Matrix(o.b, {o.K, o.N}), gemm::Matrix(o.out, {o.M, o.N}));
      });
}
