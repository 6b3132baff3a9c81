//===- tf/ops/activation_math.hpp - gelu and silu on one number -----------===//
//
// The scalar formulas of the activation ops (tf::gelu_tanh, tf::gelu_erf,
// tf::silu in tf/ops/elementwise.hpp). They are spelled once, here, because
// every CPU evaluation of a kernel must round the same way: the header-only
// ops and the LIR interpreter's fused epilogue both call these functions, in
// the same expression order, so their results agree bit for bit. The CUDA
// backend writes the same expressions with CUDA's erff and its fast __expf
// and __fdividef, whose last bits differ from the host libm's.
//
// Free of exceptions and RTTI: the compiler plugin includes this header.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cmath>
#include <concepts>

namespace tf::activation {

/// GELU, tanh approximation (Hendrycks and Gimpel; PyTorch's
/// approximate="tanh", cuBLASLt's GELU epilogue):
/// 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), evaluated as the
/// equal x / (1 + e^(-2u)) (since 1 + tanh(u) = 2 / (1 + e^(-2u))): one exp
/// instead of a tanh (fewer registers in the GEMM's epilogue on the GPU)
/// and no cancellation in 1 + tanh(u) for x < 0.
template <std::floating_point F> F gelu_tanh(F x) {
  const F two_sqrt_2_over_pi = F(1.5957691216057308); // 2 sqrt(2/pi)
  const F cubic = F(0.044715);
  return x / (F(1) + std::exp(-two_sqrt_2_over_pi * (x + cubic * x * x * x)));
}

/// GELU, exact form through the error function (PyTorch's default):
/// 0.5 x (1 + erf(x / sqrt(2))).
template <std::floating_point F> F gelu_erf(F x) {
  const F one_over_sqrt_2 = F(0.7071067811865476);
  return F(0.5) * x * (F(1) + std::erf(x * one_over_sqrt_2));
}

/// SiLU (swish): x sigmoid(x) = x / (1 + e^-x).
template <std::floating_point F> F silu(F x) { return x / (F(1) + std::exp(-x)); }

} // namespace tf::activation
