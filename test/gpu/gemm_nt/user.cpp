//===- test/gpu/gemm_nt/user.cpp - The generated GEMM, B stored N x K -----===//
//
// The user's program is examples/gemm/nt.cpp (bf16, B K-major: stored
// N x K, its TMA box in box order {1, 0}), its main renamed: checked against
// cuBLAS with B transposed (CUBLAS_OP_T, leading dimension K; bf16 in, f32
// compute and out) within 2^-7 |ref| + 2 K 2^-23 sum|a b|; timed against
// cuBLAS with bf16 out on the same operands. The host side is
// gemm_harness.hpp, shared with the other gemm_* tests. Built by build.sh,
// run by test/gpu/run.sh: `gemm_nt [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32.BF16 2*UTMALDG.2D 4*UTMASTG.2D
#define main nt_example_main
#include "../../../examples/gemm/nt.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<tf::bf16>(
      argc, argv, "gemm_nt", gemm_example::Epilogue::none,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(o.a, {o.M, o.K}),
                   gemm::ColMajor(o.b, {o.K, o.N}, {o.K}), gemm::Matrix(o.out, {o.M, o.N}));
      },
      {.a = gemm_example::Major::K, .b = gemm_example::Major::K});
}
