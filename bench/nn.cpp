//===- bench/nn.cpp - an NN GEMM schedule in the benchmark ----------------===//
//
// A (M x K) and B (K x N) row-major: the kernel of examples/gemm/optimal.cpp,
// or of the variant of it TF_BENCH_EXAMPLE names (a source variants.py
// writes, TF_BENCH_SCHEDULE its name: n128, n192, ...; bench/build.sh sets
// both), its main renamed, launched through tf::launch by bench::main
// (gemm_bench.hpp). The variants keep optimal.cpp's names (gemm::gemm,
// gemm::CTAS, gemm::Matrix).
//
//===----------------------------------------------------------------------===//
#ifndef TF_BENCH_EXAMPLE
#define TF_BENCH_EXAMPLE "../examples/gemm/optimal.cpp"
#define TF_BENCH_SCHEDULE "optimal"
#endif
#define main example_main
#include TF_BENCH_EXAMPLE
#undef main

#include "gemm_bench.hpp"

int main(int argc, char **argv) {
  return bench::main(
      argc, argv, "NN", TF_BENCH_SCHEDULE, bench::BLayout::kn,
      [](const void *a, const void *b, void *out, std::int64_t M,
         std::int64_t N, std::int64_t K) {
        auto *pa = static_cast<tf::bf16 *>(const_cast<void *>(a));
        auto *pb = static_cast<tf::bf16 *>(const_cast<void *>(b));
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(pa, {M, K}),
                   gemm::Matrix(pb, {K, N}),
                   gemm::Matrix(static_cast<tf::bf16 *>(out), {M, N}));
      });
}
