// The same GEMM with run-time M, N, K (Tensor<bf16, "(?,?)">, as
// examples/gemm/optimal.cpp takes them): the L2 reuse window is unknown at
// compile time, so nothing is reported (tf analyze reports it at run-time
// shapes).
// RUN: %tf-cc1 -verify %s
// expected-no-diagnostics
#include "../Inputs/gemm_persistent.hpp"

// The kernel of Inputs/gemm_persistent.hpp at run-time extents.
using A = tf::Tensor<tf::bf16, "(?,?)">;
using B = tf::Tensor<tf::bf16, "(?,?)">;
using C = tf::Tensor<tf::bf16, "(?,?)">;
template void gemm_test::gemm<A, B, C>(A, B, C);
