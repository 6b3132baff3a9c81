//===- test/gpu/gemm_tt/user.cpp - The generated GEMM, both transposed ----===//
//
// The user's program is examples/gemm/tt.cpp (bf16, A M-major: stored
// K x M, B K-major: stored N x K, both TMA maps in box order {1, 0}, WGMMA
// with A transposed), its main renamed: checked against cuBLAS with A and B
// transposed (CUBLAS_OP_T, leading dimensions M and K; bf16 in, f32 compute
// and out) within
// 2^-7 |ref| + 2 K 2^-23 sum|a b|; timed against cuBLAS with bf16 out on the
// same operands. The host side is gemm_harness.hpp, shared with the other
// gemm_* tests. Built by build.sh, run by test/gpu/run.sh:
// `gemm_tn [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32.BF16 3*UTMALDG.2D 4*UTMASTG.2D
#define main tt_example_main
#include "../../../examples/gemm/tt.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<tf::bf16>(
      argc, argv, "gemm_tt", gemm_example::Epilogue::none,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
                   gemm::ColMajor(o.a, {o.M, o.K}, {o.M}),
                   gemm::ColMajor(o.b, {o.K, o.N}, {o.K}), gemm::Matrix(o.out, {o.M, o.N}));
      },
      {.a = gemm_example::Major::MN, .b = gemm_example::Major::K});
}
