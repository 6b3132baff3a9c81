//===- test/interp/OptimalHeaderOnly.cpp - optimal.cpp run header-only ----===//
//
// examples/gemm/optimal.cpp itself, compiled without the plugin, so that the
// interpreter's result is compared with the same kernel's header-only
// execution rather than with a copy of it. CMake compiles this file with
// `main` defined to another name (a per-source compile definition), which
// renames the example's main; its kernel, types and CTA count are used
// as the example declares them.
//
//===----------------------------------------------------------------------===//
#include "../../examples/gemm/optimal.cpp"

#include "GemmReference.h"

namespace tf_interp_test {

void gemmHeaderOnly(std::vector<tf::bf16> &A, std::vector<tf::bf16> &B,
                    std::vector<tf::bf16> &Out, std::int64_t M, std::int64_t N,
                    std::int64_t K) {
  tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(A.data(), {M, K}),
             gemm::Matrix(B.data(), {K, N}), gemm::Matrix(Out.data(), {M, N}));
}

} // namespace tf_interp_test
