//===- bench/nt.cpp - examples/gemm/nt.cpp in the benchmark ---------------===//
//
// A (M x K) row-major, B stored N x K (K-major): the example's kernel, its
// main renamed, launched through tf::launch by bench::main (gemm_bench.hpp).
//
//===----------------------------------------------------------------------===//
#define main nt_example_main
#include "../examples/gemm/nt.cpp"
#undef main

#include "gemm_bench.hpp"

int main(int argc, char **argv) {
  return bench::main(
      argc, argv, "NT", "nt", bench::BLayout::nk,
      [](const void *a, const void *b, void *out, std::int64_t M,
         std::int64_t N, std::int64_t K) {
        auto *pa = static_cast<tf::bf16 *>(const_cast<void *>(a));
        auto *pb = static_cast<tf::bf16 *>(const_cast<void *>(b));
        tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(pa, {M, K}),
                   gemm::ColMajor(pb, {K, N}, {K}),
                   gemm::Matrix(static_cast<tf::bf16 *>(out), {M, N}));
      });
}
