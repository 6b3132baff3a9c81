//===- test/interp/GemmReference.h - Header-only runs of the GEMM examples ===//
//
// The header-only execution (tf::launch without generated code) of a GEMM
// example's kernel, for the end-to-end interpreter tests. Each example is
// compiled into its own test binary by GemmHeaderOnly.cpp, which includes it
// (TF_GEMM_EXAMPLE_SOURCE) with its `main` renamed: the examples share their
// namespace and kernel names, so two cannot live in one program.
//
// Each pair of element types (operands, output) is declared; a binary
// defines the one of its example (optimal.cpp and relu.cpp bf16, f16.cpp
// f16, f32_out.cpp bf16 operands and a float output, fp8.cpp e4m3 operands
// and a bf16 output, its variants e5m2 operands or an f16 output), so a test
// built for another does not link.
//
//===----------------------------------------------------------------------===//
#ifndef TF_TEST_INTERP_GEMMREFERENCE_H
#define TF_TEST_INTERP_GEMMREFERENCE_H

#include "tf/element.hpp"

#include <cstdint>
#include <vector>

namespace tf_interp_test {

/// What an epilogue with operands reads beside the product (bias_gelu.cpp,
/// alpha_beta.cpp, residual.cpp): the tensor its kernel takes after B (a
/// bias of N elements, C or a residual M x N, row-major) and the float
/// parameters after the output (alpha, beta; fp8.cpp's scale is Alpha), if
/// the kernel has them.
template <class T> struct EpilogueInputs {
  std::vector<T> Tensor;
  float Alpha = 1.0f, Beta = 1.0f;
};

/// Out (M x N) = A (M x K) * B (K x N), A and Out row-major, B as the
/// example's kernel declares it (row-major, or stored N x K), by the example's
/// kernel (with its epilogue, if any, reading \p In) run header-only with its
/// own grid; for a kernel of rank-3 tensors (batched.cpp) \p Batches such
/// GEMMs, the tensors Batches x M x K and so on. Defined in
/// GemmHeaderOnly.cpp for the example's input and output element types only
/// (each test binary builds one example).
template <class Input, class Output>
void gemmHeaderOnly(std::vector<Input> &A, std::vector<Input> &B,
                    std::vector<Output> &Out, std::int64_t Batches,
                    std::int64_t M, std::int64_t N, std::int64_t K,
                    EpilogueInputs<Output> &In);

} // namespace tf_interp_test

#endif // TF_TEST_INTERP_GEMMREFERENCE_H
