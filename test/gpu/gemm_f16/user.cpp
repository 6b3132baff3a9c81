//===- test/gpu/gemm_f16/user.cpp - The generated GEMM on f16 -------------===//
//
// The user's program is examples/gemm/f16.cpp (f16 in and out, f32
// accumulation), its main renamed: checked against cuBLAS (f16 in, f32
// compute and out) within 2^-10 |ref| + 2 K 2^-23 sum|a b|; timed against
// cuBLAS with f16 out.
// tf::launch of gemm::gemm on device tensors finds the launcher that the
// CUDA backend's f16.tf.cu registered under the kernel's address; the host
// side -- random operands, poisoned outputs, the cuBLAS reference, the
// element-wise bound, paused and sustained timing -- is gemm_harness.hpp,
// shared with the other gemm_* tests. Built by build.sh, run by
// test/gpu/run.sh: `gemm_f16 [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32$ 5*UTMALDG.2D 4*UTMASTG.2D
#define main f16_example_main
#include "../../../examples/gemm/f16.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<tf::f16>(
      argc, argv, "gemm_f16", gemm_example::Epilogue::none,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(o.a, {o.M, o.K}),
                   gemm::Matrix(o.b, {o.K, o.N}), gemm::Matrix(o.out, {o.M, o.N}));
      });
}
