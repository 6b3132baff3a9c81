//===- examples/gemm/check.hpp - What the three GEMM examples share -------===//
//
// The host side of the examples: M, N, K from the command line, random bf16
// inputs, a naive reference with fp32 accumulation, and the relative error
// ||out - ref|| / ||ref|| of the kernel's bf16 output. Not part of tf.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <tf/tf.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace gemm_example {

struct Shape {
  std::int64_t M = 200, N = 300, K = 100; // not multiples of the tiles
};

/// `prog [M N K]`; stops with a usage line on anything else.
inline Shape parse_shape(int argc, char **argv) {
  Shape s;
  if (argc == 1)
    return s;
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s [M N K]\n", argv[0]);
    std::exit(2);
  }
  std::int64_t *dims[] = {&s.M, &s.N, &s.K};
  for (int i = 0; i < 3; ++i) {
    char *end = nullptr;
    const long long v = std::strtoll(argv[i + 1], &end, 10);
    if (end == argv[i + 1] || *end != '\0' || v < 1) {
      std::fprintf(stderr, "%s: '%s' is not a positive extent\n", argv[0],
                   argv[i + 1]);
      std::exit(2);
    }
    *dims[i] = v;
  }
  return s;
}

/// n bf16 values uniform in [-1, -1/8] u [1/8, 1]: random, never zero.
inline std::vector<tf::bf16> random_bf16(std::int64_t n, std::uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> mag(0.125f, 1.0f);
  std::bernoulli_distribution sign(0.5);
  std::vector<tf::bf16> out(static_cast<std::size_t>(n));
  for (tf::bf16 &x : out)
    x = tf::bf16(sign(gen) ? mag(gen) : -mag(gen));
  return out;
}

/// ||out - ref|| / ||ref|| against the naive product with fp32 accumulation;
/// prints it and returns the exit status (non-zero if >= 1e-2).
inline int report(const char *name, const Shape &s,
                  const std::vector<tf::bf16> &a, const std::vector<tf::bf16> &b,
                  const std::vector<tf::bf16> &out) {
  double diff = 0, norm = 0;
  for (std::int64_t m = 0; m < s.M; ++m)
    for (std::int64_t n = 0; n < s.N; ++n) {
      float ref = 0;
      for (std::int64_t k = 0; k < s.K; ++k)
        ref += float(a[static_cast<std::size_t>(m * s.K + k)]) *
               float(b[static_cast<std::size_t>(k * s.N + n)]);
      const double d = double(float(out[static_cast<std::size_t>(m * s.N + n)])) - ref;
      diff += d * d;
      norm += double(ref) * ref;
    }
  const double err = std::sqrt(diff) / std::sqrt(norm);
  const bool ok = err < 1e-2;
  std::printf("%s M=%lld N=%lld K=%lld: relative error %.3e (%s)\n", name,
              static_cast<long long>(s.M), static_cast<long long>(s.N),
              static_cast<long long>(s.K), err, ok ? "ok, < 1e-2" : "FAILED, >= 1e-2");
  return ok ? 0 : 1;
}

} // namespace gemm_example
