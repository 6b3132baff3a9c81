//===- bench/gemm_bench.hpp - The generated GEMM against cuBLASLt --------===//
//
// The benchmark's driver (gemm_bench.cu), shared by one small program per
// example: nn.cpp runs examples/gemm/optimal.cpp (B stored K x N), nt.cpp
// runs examples/gemm/nt.cpp (B stored N x K). Each hands `bench::main` a
// function that launches its generated kernel through tf::launch, the way
// a user does; the driver measures it against cuBLASLt in the same
// process (README.md says how).
//
// Kept free of tf's headers so that the driver compiles apart from the
// examples (each example defines its own namespace `gemm`).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace bench {

/// How B (K x N) is stored: row-major K x N (NN, optimal.cpp) or row-major
/// N x K, i.e. K-major (NT, nt.cpp). A is M x K and the output M x N, both
/// row-major, bf16.
enum class BLayout { kn, nk };

/// Launches tf's kernel: out = a b on device pointers to bf16, asynchronously
/// on the default stream.
using TfGemm = void (*)(const void *a, const void *b, void *out,
                        std::int64_t M, std::int64_t N, std::int64_t K);

/// The program: `NAME [--csv FILE] [--shape M N K] [--launch-overhead]`.
/// `layout` is "NN" or "NT"; `schedule` names the example or variant whose
/// kernel `tf` launches ("optimal", "nt", "n128", ...: examples/gemm/, or
/// examples/gemm/variants.py), written into every CSV row.
int main(int argc, char **argv, const char *layout, const char *schedule,
         BLayout b, TfGemm tf);

} // namespace bench
