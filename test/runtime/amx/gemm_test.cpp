// Tiled GEMMs written on the tile API (tiled_gemm.hpp), run by the
// emulation, against naive references.
#include "tiled_gemm.hpp"

#include "tf/atoms/intel/amx/tdpbf16ps.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace {

namespace amx = tf::runtime::amx;
using tiled_gemm::Bf16;
using tiled_gemm::Int8;

static_assert(amx::implementation == amx::Implementation::emulated,
              "this suite is built without -mamx-*");

float from_bf16(std::uint16_t x) {
  return std::bit_cast<float>(static_cast<std::uint32_t>(x) << 16);
}

/// The contract's VNNI layout, as pack_b's offset function.
std::size_t contract_vnni_offset(int k, int n, int N) {
  // K only bounds the layout's domain: any even K > k gives the same offset.
  const tf::Layout layout =
      tf::atoms::intel::amx::vnni_layout(2 * (k / 2 + 1), N);
  return static_cast<std::size_t>(
      *tf::evaluate(layout, tf::IntTuple{tf::IntTuple{k / 2, k % 2}, n}));
}

TEST(AmxGemm, VnniOffsetIsTheContractsLayout) {
  for (int N : {1, 5, 16, 37})
    for (int k = 0; k < 40; ++k)
      for (int n = 0; n < N; ++n)
        ASSERT_EQ(tiled_gemm::vnni_offset<Bf16>(k, n, N),
                  contract_vnni_offset(k, n, N))
            << k << "," << n << " of N = " << N;
}

struct Shape {
  int M, N, K;
};
// Not multiples of 16 or 32, M = 1, K odd, K below one tile, several tiles.
constexpr Shape shapes[] = {{1, 1, 1},   {1, 37, 50},  {17, 33, 70},
                            {33, 16, 32}, {5, 100, 64}, {16, 16, 33},
                            {40, 3, 97},  {1, 130, 7}};

TEST(AmxGemm, Bf16MatchesANaiveReference) {
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> value(-1, 1);
  for (auto [M, N, K] : shapes) {
    std::vector<std::uint16_t> a(std::size_t(M) * K), b(std::size_t(K) * N);
    for (auto *v : {&a, &b})
      for (std::uint16_t &x : *v)
        x = static_cast<std::uint16_t>(std::bit_cast<std::uint32_t>(value(gen)) >> 16);
    const auto ap = tiled_gemm::pack_a<Bf16>(a.data(), M, K);
    const auto bp = tiled_gemm::pack_b<Bf16>(b.data(), K, N, contract_vnni_offset);
    const int ldc = N + 3;
    std::vector<float> c(std::size_t(M) * ldc, -7.0f);
    tiled_gemm::gemm<Bf16>(ap.data(), bp.data(), c.data(), M, N,
                           tiled_gemm::padded_k<Bf16>(K), ldc);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < ldc; ++n) {
        if (n >= N) {
          ASSERT_EQ(c[std::size_t(m) * ldc + n], -7.0f) << "wrote past N";
          continue;
        }
        double ref = 0, magnitude = 0;
        for (int k = 0; k < K; ++k) {
          const double p = double(from_bf16(a[std::size_t(m) * K + k])) *
                           from_bf16(b[std::size_t(k) * N + n]);
          ref += p;
          magnitude += std::abs(p);
        }
        // fp32 accumulation of K exact products: within K ulps of the sum
        // of magnitudes.
        EXPECT_NEAR(c[std::size_t(m) * ldc + n], ref, (K + 1) * 0x1p-23 * magnitude)
            << "C[" << m << "][" << n << "] of " << M << "x" << N << "x" << K;
      }
  }
}

TEST(AmxGemm, Int8MatchesANaiveReferenceExactly) {
  std::mt19937 gen(11);
  std::uniform_int_distribution<int> value(-128, 127);
  for (auto [M, N, K] : shapes) {
    std::vector<std::int8_t> a(std::size_t(M) * K), b(std::size_t(K) * N);
    for (auto *v : {&a, &b})
      for (std::int8_t &x : *v)
        x = static_cast<std::int8_t>(value(gen));
    const auto ap = tiled_gemm::pack_a<Int8>(a.data(), M, K);
    const auto bp = tiled_gemm::pack_b<Int8>(b.data(), K, N,
                                             tiled_gemm::vnni_offset<Int8>);
    std::vector<std::int32_t> c(std::size_t(M) * N);
    tiled_gemm::gemm<Int8>(ap.data(), bp.data(), c.data(), M, N,
                           tiled_gemm::padded_k<Int8>(K), N);
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        std::int32_t ref = 0;
        for (int k = 0; k < K; ++k)
          ref += a[std::size_t(m) * K + k] * b[std::size_t(k) * N + n];
        ASSERT_EQ(c[std::size_t(m) * N + n], ref)
            << "C[" << m << "][" << n << "] of " << M << "x" << N << "x" << K;
      }
  }
}

} // namespace
