//===- test/interp/GemmHeaderOnly.cpp - A GEMM example run header-only ----===//
//
// One of examples/gemm/{optimal,relu,f16}.cpp itself (TF_GEMM_EXAMPLE_SOURCE,
// its path), compiled without the plugin, so that the interpreter's result is
// compared with the same kernel's header-only execution rather than with a
// copy of it. CMake compiles this file once per example, with `main` defined
// to another name, which renames the example's main; its kernel, types,
// epilogue and CTA count are used as the example declares them.
//
//===----------------------------------------------------------------------===//
#ifndef TF_GEMM_EXAMPLE_SOURCE
#error "TF_GEMM_EXAMPLE_SOURCE (the example's path) must be defined"
#endif
#include TF_GEMM_EXAMPLE_SOURCE

#include "GemmReference.h"

namespace tf_interp_test {

/// The example's element type (gemm::Matrix's): the one overload of
/// gemmHeaderOnly this binary defines.
using ExampleElement = typename gemm::Matrix::element_type;

void gemmHeaderOnly(std::vector<ExampleElement> &A,
                    std::vector<ExampleElement> &B,
                    std::vector<ExampleElement> &Out, std::int64_t M,
                    std::int64_t N, std::int64_t K) {
  tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(A.data(), {M, K}),
             gemm::Matrix(B.data(), {K, N}), gemm::Matrix(Out.data(), {M, N}));
}

} // namespace tf_interp_test
