//===- test/gpu/gemm_relu/user.cpp - The generated GEMM, fused relu -------===//
//
// The user's program is examples/gemm/relu.cpp (out = bf16(relu(a b)), the
// relu fused into the epilogue), its main renamed: checked against cuBLAS's
// f32 result (bf16 in, f32 compute) with relu applied on the host, within
// 2^-7 |ref| + 2 K 2^-23 sum|a b|; timed against cuBLASLt's RELU epilogue.
// tf::launch of gemm::gemm on device tensors finds the launcher that the
// CUDA backend's relu.tf.cu registered under the kernel's address; the host
// side -- random operands, poisoned outputs, the cuBLAS reference, the
// element-wise bound, paused and sustained timing -- is gemm_harness.hpp,
// shared with the other gemm_* tests. Built by build.sh, run by
// test/gpu/run.sh: `gemm_relu [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32.BF16 5*UTMALDG.2D 4*UTMASTG.2D
#define main relu_example_main
#include "../../../examples/gemm/relu.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<tf::bf16>(
      argc, argv, "gemm_relu", gemm_example::Epilogue::relu,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(o.a, {o.M, o.K}),
                   gemm::Matrix(o.b, {o.K, o.N}), gemm::Matrix(o.out, {o.M, o.N}));
      });
}
