//===- test/gpu/gemm_f32_out/user.cpp - The generated GEMM, f32 output ----===//
//
// The user's program is examples/gemm/f32_out.cpp (bf16 in, the f32
// accumulator out through a 128 KiB staged tile of eight 128 x 32 panels;
// two stages of rings), its main renamed: checked against cuBLAS (bf16 in,
// f32 compute and out) within 2^-24 |ref| + 2 K 2^-23 sum|a b|; timed
// against cuBLASLt with bf16 in and f32 out on the same operands. The host
// side is gemm_harness.hpp, shared with the other gemm_* tests. Built by
// build.sh, run by test/gpu/run.sh: `gemm_f32_out [--small | --sustained
// [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32.BF16 5*UTMALDG.2D 8*UTMASTG.2D
#define main f32_out_example_main
#include "../../../examples/gemm/f32_out.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  return gemm_test::main<float, tf::bf16>(
      argc, argv, "gemm_f32_out", gemm_example::Epilogue::none,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(o.a, {o.M, o.K}),
                   gemm::Matrix(o.b, {o.K, o.N}), gemm::Out(o.out, {o.M, o.N}));
      });
}
