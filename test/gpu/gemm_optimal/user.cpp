//===- test/gpu/gemm_optimal/user.cpp - The generated GEMM on the H200 ----===//
//
// The user's program is examples/gemm/optimal.cpp itself (its kernel, types
// and CPU main, renamed here so this test can have its own): bf16 in and
// out, checked against cuBLAS (bf16 in, f32 compute and out) within
// 2^-7 |ref| + 2 K 2^-23 sum|a b|.
// tf::launch of gemm::gemm on device tensors finds the launcher that the
// CUDA backend's optimal.tf.cu registered under the kernel's address; the host
// side -- random operands, poisoned outputs, the cuBLAS reference, the
// element-wise bound, paused and sustained timing -- is gemm_harness.hpp,
// shared with the other gemm_* tests. Built by build.sh, run by
// test/gpu/run.sh: `gemm_optimal [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32.BF16 5*UTMALDG.2D 4*UTMASTG.2D
#define main optimal_example_main
#include "../../../examples/gemm/optimal.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<tf::bf16>(
      argc, argv, "gemm_optimal", gemm_example::Epilogue::none,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(o.a, {o.M, o.K}),
                   gemm::Matrix(o.b, {o.K, o.N}), gemm::Matrix(o.out, {o.M, o.N}));
      });
}
