// A persistent GEMM in the H200 example's shape (128 x 256 tiles, 132 CTAs,
// group_m = 8, the 128 x 256 f32 accumulator over 256 compute threads) with
// the static shape M = 8192, N = 17408, K = 5120: 112 KiB of shared
// memory, 192 registers per compute thread at the peak (the accumulator and
// its bf16 copy), and an L2 window of 8 A panels (10 MiB) + 17 B panels
// (42.5 MiB) = 52.5 MiB within the 60 MiB L2: no capacity warning.
// RUN: %tf-cc1 -verify %s
// expected-no-diagnostics
#include "../Inputs/gemm_persistent.hpp"

// The kernel of Inputs/gemm_persistent.hpp at those extents.
using A = tf::Tensor<tf::bf16, "(8192,5120)">;
using B = tf::Tensor<tf::bf16, "(5120,17408)">;
using C = tf::Tensor<tf::bf16, "(8192,17408)">;
template void gemm_test::gemm<A, B, C>(A, B, C);
