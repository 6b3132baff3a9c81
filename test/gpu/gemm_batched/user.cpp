//===- test/gpu/gemm_batched/user.cpp - A batch of GEMMs on the H200 ------===//
//
// The user's program is examples/gemm/batched.cpp itself (renamed main):
// three bf16 GEMMs of each shape on rank-3 tensors (L x M x K, L x K x N,
// L x M x N), every element of every matrix checked against cuBLAS's
// strided-batched GEMM (bf16 in, f32 compute and out) within
// 2^-7 |ref| + 2 K 2^-23 sum|a b|, and timed against it with bf16 out
// (gemm_harness.hpp, batches of 3). Built by build.sh, run by
// test/gpu/run.sh: `gemm_batched [--small | --sustained [M N K]]`.
//
//===----------------------------------------------------------------------===//
// SASS: 4*HGMMA.64x256x16.F32.BF16 5*UTMALDG.3D 4*UTMASTG.3D
#define main batched_example_main
#include "../../../examples/gemm/batched.cpp"
#undef main

#include "gemm_harness.hpp"

int main(int argc, char **argv) {
  constexpr std::int64_t L = 3;
  return gemm_test::main<tf::bf16>(
      argc, argv, "gemm_batched", gemm_example::Epilogue::none,
      [](const auto &o) {
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
                   gemm::Batch(o.a, {o.L, o.M, o.K}),
                   gemm::Batch(o.b, {o.L, o.K, o.N}),
                   gemm::Batch(o.out, {o.L, o.M, o.N}));
      },
      {}, {}, L);
}
