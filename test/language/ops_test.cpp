// Every op against a naive loop on random data.
#include "tf/ops/buffer.hpp"
#include "tf/ops/elementwise.hpp"
#include "tf/ops/matmul.hpp"
#include "tf/ops/reduce.hpp"
#include "tf/ops/slice.hpp"
#include "tf/schedule.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

namespace {

using LhsSlot = tf::Tensor<tf::bf16, "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)", tf::smem>;
using Acc = tf::Tensor<float, "((2@group,4@warp,2,8@lane8),(32,4@lane4,2)):((16384,16,8,1),(512,128,64))", tf::rmem>;

template <class T> std::vector<T> random_vector(std::size_t n, unsigned seed, float lo = -2.0f, float hi = 2.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<T> v(n);
  for (T &x : v)
    x = tf::convert<T>(dist(rng));
  return v;
}

TEST(Ops, CopyThroughASwizzledSlotAndBack) {
  auto a = random_vector<tf::bf16>(100 * 70, 1);
  tf::Tensor<tf::bf16, "(?,?)"> A(a.data(), {100, 70});
  auto slot = tf::zeros<LhsSlot>();
  tf::copy(A.tile<128, 64>(0, 64), slot);
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < 64; ++k)
      ASSERT_EQ(slot(m, k).get(), m < 100 && k < 6 ? a[m * 70 + 64 + k] : tf::bf16(0.0f));
  std::vector<tf::bf16> back(100 * 70);
  tf::Tensor<tf::bf16, "(?,?)"> B(back.data(), {100, 70});
  tf::copy(slot, B.tile<128, 64>(0, 64));
  for (int i = 0; i < 100 * 70; ++i)
    ASSERT_EQ(back[i], i % 70 >= 64 ? a[i] : tf::bf16(0.0f));
}

// A batch of matrices' tile with a unit batch mode, (1, 128, 64), fills a
// 128 x 64 slot (TMA's rank-3 box) and is stored back the same way; the
// rows past a matrix's extent read 0 and are not written, so the next
// matrix of the batch is untouched.
TEST(Ops, ScheduledCopiesDropAUnitBatchMode) {
  constexpr std::int64_t L = 3, M = 100, K = 70;
  auto a = random_vector<tf::bf16>(L * M * K, 2);
  tf::Tensor<tf::bf16, "(?,?,?)"> A(a.data(), {L, M, K});
  auto slot = tf::zeros<LhsSlot>();
  tf::schedule<tf::nv::CopyAsyncTensor>(A.tile<1, 128, 64>(1, 0, 64), slot);
  for (int m = 0; m < 128; ++m)
    for (int k = 0; k < 64; ++k)
      ASSERT_EQ(slot(m, k).get(),
                m < M && k < 6 ? a[(M + m) * K + 64 + k] : tf::bf16(0.0f));
  std::vector<tf::bf16> back(L * M * K, tf::bf16(0.0f));
  tf::Tensor<tf::bf16, "(?,?,?)"> B(back.data(), {L, M, K});
  tf::schedule<tf::nv::CopyAsyncTensor>(slot, B.tile<1, 128, 64>(1, 0, 64));
  for (std::int64_t i = 0; i < L * M * K; ++i)
    ASSERT_EQ(back[i], i / (M * K) == 1 && i % K >= 64 ? a[i] : tf::bf16(0.0f))
        << i;
}

TEST(Ops, CastRoundsEveryElement) {
  auto x = random_vector<float>(3 * 5 * 7, 2, -100.0f, 100.0f);
  tf::Tensor<float, "(?,5,?)"> t(x.data(), {3, 7});
  auto b = tf::cast<tf::bf16>(t);
  auto f8 = tf::cast<tf::fp8e4m3>(t);
  static_assert(std::is_same_v<decltype(b), tf::Buffer<tf::Tensor<tf::bf16, "(?,5,?)", tf::rmem>>>);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 5; ++j)
      for (int k = 0; k < 7; ++k) {
        ASSERT_EQ(b(i, j, k).get(), tf::bf16(x[(i * 5 + j) * 7 + k]));
        ASSERT_EQ(f8(i, j, k).get(), tf::fp8e4m3(x[(i * 5 + j) * 7 + k]));
      }
  // An rmem tensor's result keeps its distribution.
  auto acc = tf::zeros<Acc>();
  acc(5, 9) = 1.25f;
  auto out = tf::cast<tf::bf16>(acc);
  static_assert(std::is_same_v<decltype(out)::tensor_type, Acc::rebind_rmem<tf::bf16>>);
  EXPECT_EQ(float(out(5, 9)), 1.25f);
  EXPECT_EQ(out.view().offset({5, 9}), acc.view().offset({5, 9}));
}

template <class T, class Op, class Ref> void check_binary(Op op, Ref ref, unsigned seed) {
  const int M = 9, N = 13;
  auto a = random_vector<T>(M * N, seed), b = random_vector<T>(M * N, seed + 100);
  tf::Tensor<T, "(?,?)"> A(a.data(), {M, N});
  tf::Tensor<T, "(9,13)"> B(b.data());
  auto r = op(A, B);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      auto x = tf::widen(a[i * N + j]), y = tf::widen(b[i * N + j]);
      ASSERT_EQ(r(i, j).get(), tf::convert<T>(ref(x, y))) << i << "," << j;
    }
}

TEST(Ops, BinaryElementWise) {
  auto add = [](auto &&x, auto &&y) { return tf::add(x, y); };
  auto sub = [](auto &&x, auto &&y) { return tf::sub(x, y); };
  auto mul = [](auto &&x, auto &&y) { return tf::mul(x, y); };
  auto mx = [](auto &&x, auto &&y) { return tf::maximum(x, y); };
  auto mn = [](auto &&x, auto &&y) { return tf::minimum(x, y); };
  check_binary<tf::bf16>(add, [](float x, float y) { return x + y; }, 10);
  check_binary<float>(add, [](float x, float y) { return x + y; }, 11);
  check_binary<tf::f16>(sub, [](float x, float y) { return x - y; }, 12);
  check_binary<tf::bf16>(mul, [](float x, float y) { return x * y; }, 13);
  check_binary<double>(mul, [](double x, double y) { return x * y; }, 14);
  check_binary<tf::bf16>(mx, [](float x, float y) { return x < y ? y : x; }, 15);
  check_binary<float>(mn, [](float x, float y) { return y < x ? y : x; }, 16);
  check_binary<std::int32_t>(add, [](std::int32_t x, std::int32_t y) { return x + y; }, 17);
  EXPECT_TRUE(std::isnan(tf::detail::max_of(NAN, NAN)));
  EXPECT_EQ(tf::detail::max_of(NAN, 1.0f), 1.0f);
  EXPECT_EQ(tf::detail::min_of(2.0f, NAN), 2.0f);
}

TEST(Ops, UnaryElementWise) {
  auto a = random_vector<tf::bf16>(4 * 6 * 5, 20, -3.0f, 3.0f);
  tf::Tensor<tf::bf16, "(4,6,5)"> t(a.data());
  auto n = tf::neg(t), e = tf::exp(t), r = tf::relu(t);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 5; ++k) {
        float x = a[(i * 6 + j) * 5 + k];
        ASSERT_EQ(n(i, j, k).get(), tf::bf16(-x));
        ASSERT_EQ(e(i, j, k).get(), tf::bf16(std::exp(x)));
        ASSERT_EQ(r(i, j, k).get(), tf::bf16(x > 0 ? x : 0.0f));
      }
}

// The activations: their formulas in the compute type (float for bf16),
// rounded once, against the textbook definitions in double.
TEST(Ops, Activations) {
  auto a = random_vector<tf::bf16>(4 * 6 * 5, 21, -6.0f, 6.0f);
  tf::Tensor<tf::bf16, "(4,6,5)"> t(a.data());
  auto gt = tf::gelu_tanh(t), ge = tf::gelu_erf(t), si = tf::silu(t);
  const double pi = 3.14159265358979323846;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 6; ++j)
      for (int k = 0; k < 5; ++k) {
        const float x = a[(i * 6 + j) * 5 + k];
        ASSERT_EQ(gt(i, j, k).get(), tf::bf16(tf::activation::gelu_tanh(x)));
        ASSERT_EQ(ge(i, j, k).get(), tf::bf16(tf::activation::gelu_erf(x)));
        ASSERT_EQ(si(i, j, k).get(), tf::bf16(tf::activation::silu(x)));
        const double d = x;
        const double tanh_form =
            0.5 * d * (1 + std::tanh(std::sqrt(2 / pi) * (d + 0.044715 * d * d * d)));
        const double erf_form = 0.5 * d * (1 + std::erf(d / std::sqrt(2.0)));
        const double silu = d / (1 + std::exp(-d));
        // One bf16 ulp (2^-7 of the value) covers the f32 evaluation and
        // the rounding; 2^-20 absolute the f32 error where the value is
        // near 0 (x far below 0).
        auto near = [](double got, double want) {
          return std::fabs(got - want) <= std::ldexp(std::fabs(want), -7) + 0x1p-20;
        };
        EXPECT_TRUE(near(float(gt(i, j, k).get()), tanh_form)) << x;
        EXPECT_TRUE(near(float(ge(i, j, k).get()), erf_form)) << x;
        EXPECT_TRUE(near(float(si(i, j, k).get()), silu)) << x;
      }
  // The two GELUs differ (by up to about 5e-4 near |x| = 2).
  EXPECT_NE(tf::activation::gelu_tanh(2.0f), tf::activation::gelu_erf(2.0f));
  // Far below 0 the exp overflows to inf and the tanh GELU is -0, not NaN.
  EXPECT_EQ(tf::activation::gelu_tanh(-100.0f), 0.0f);
  EXPECT_EQ(tf::activation::silu(-200.0f), 0.0f);
}

TEST(Ops, ReductionsAlongAMode) {
  const int A = 3, B = 7, C = 5;
  auto x = random_vector<float>(A * B * C, 30);
  tf::Tensor<float, "(3,?,5)"> t(x.data(), {B});
  auto s1 = tf::reduce_sum<1>(t);
  auto m2 = tf::reduce_max<2>(t);
  auto s0 = tf::reduce_sum<0>(t.tile<4, 8, 5>(0, 0, 0));
  static_assert(std::is_same_v<decltype(s1)::tensor_type, tf::Tensor<float, "(3,5)", tf::rmem>>);
  static_assert(std::is_same_v<decltype(m2)::tensor_type, tf::Tensor<float, "(3,?)", tf::rmem>>);
  EXPECT_EQ(m2.extent(1), B);
  for (int i = 0; i < A; ++i)
    for (int k = 0; k < C; ++k) {
      float s = 0;
      for (int j = 0; j < B; ++j)
        s += x[(i * B + j) * C + k];
      ASSERT_EQ(s1(i, k).get(), s);
    }
  for (int i = 0; i < A; ++i)
    for (int j = 0; j < B; ++j) {
      float m = -INFINITY;
      for (int k = 0; k < C; ++k)
        m = std::max(m, x[(i * B + j) * C + k]);
      ASSERT_EQ(m2(i, j).get(), m);
    }
  for (int j = 0; j < 8; ++j)
    for (int k = 0; k < 5; ++k) {
      float s = 0;
      for (int i = 0; i < A && j < B; ++i)
        s += x[(i * B + j) * C + k];
      ASSERT_EQ(s0(j, k).get(), s);  // rows beyond the parent read as 0
    }
  // Rank 1: one element.
  tf::Tensor<float, "(5)"> v(x.data());
  auto total = tf::reduce_sum<0>(v);
  EXPECT_EQ(total.extent(0), 1);
  EXPECT_FLOAT_EQ(total(0).get(), x[0] + x[1] + x[2] + x[3] + x[4]);
}

TEST(Ops, MatmulAccumulatesInFloat) {
  const int M = 16, N = 24, K = 40;
  auto a = random_vector<tf::bf16>(M * K, 40), b = random_vector<tf::bf16>(K * N, 41);
  tf::Tensor<tf::bf16, "(16,40)"> A(a.data());
  tf::Tensor<tf::bf16, "(?,?)"> B(b.data(), {K, N});
  auto acc = tf::zeros<tf::Tensor<float, "(16,24)", tf::rmem>>();
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j)
      acc(i, j) = float(i - j);
  tf::matmul(acc, A, B);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = float(i - j);
      for (int k = 0; k < K; ++k)
        s += float(a[i * K + k]) * float(b[k * N + j]);
      ASSERT_EQ(acc(i, j).get(), s);
    }
}

/// fp8 operands (each of e4m3 and e5m2), B stored column by column (K-major,
/// as WGMMA reads 8-bit operands): every product of two fp8 values is exact
/// in f32 (at most 4 x 4 significant bits), so the header-only result is the
/// f32 sum of the exact products in k order -- what an f32-accumulating
/// tensor core computes up to the order and rounding of its sums.
template <class T> void expectFp8MatmulExactProducts(unsigned seed) {
  const int M = 8, N = 12, K = 64;
  auto a = random_vector<T>(M * K, seed), b = random_vector<T>(K * N, seed + 1);
  tf::Tensor<T, "(?,?)"> A(a.data(), {M, K});
  tf::Tensor<T, "(?,?):(1,?)"> B(b.data(), {K, N}, {K}); // b[n * K + k]
  auto acc = tf::zeros<tf::Tensor<float, "(8,12)", tf::rmem>>();
  tf::matmul(acc, A, B);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      float s = 0;
      for (int k = 0; k < K; ++k) {
        const float p = float(a[i * K + k]) * float(b[j * K + k]);
        ASSERT_EQ(double(p), double(float(a[i * K + k])) * double(float(b[j * K + k])));
        s += p;
      }
      ASSERT_EQ(acc(i, j).get(), s);
    }
}

TEST(Ops, MatmulOnFp8HasExactProductsAndReadsBThroughItsLayout) {
  expectFp8MatmulExactProducts<tf::fp8e4m3>(60);
  expectFp8MatmulExactProducts<tf::fp8e5m2>(62);
}

/// The GEMM with small tiles, header-only: M, N, K not multiples of
/// the tile sizes; bf16 output against a double reference.
TEST(Ops, TiledGemmAtTheEdgesMatchesADoubleReference) {
  constexpr int BM = 32, BN = 16, BK = 16;
  for (auto [M, N, K] : {std::array{100, 70, 45}, std::array{33, 17, 16}, std::array{64, 48, 80}}) {
    auto a = random_vector<tf::bf16>(M * K, 50), b = random_vector<tf::bf16>(K * N, 51);
    std::vector<tf::bf16> o(M * N, tf::bf16(123.0f));
    tf::Tensor<tf::bf16, "(?,?)"> A(a.data(), {M, K}), B(b.data(), {K, N}), Out(o.data(), {M, N});
    using Slot = tf::Tensor<tf::bf16, "(32,16)", tf::smem>;
    using RSlot = tf::Tensor<tf::bf16, "(16,16)", tf::smem>;
    tf::Ring<Slot, 3> lhs_ring;
    tf::Ring<RSlot, 3> rhs_ring;
    for (int m = 0; m < M; m += BM)
      for (int n = 0; n < N; n += BN) {
        auto acc = tf::zeros<tf::Tensor<float, "(32,16)", tf::rmem>>();
        for (int k = 0; k < K; k += BK) {
          Slot lhs = lhs_ring.next();
          RSlot rhs = rhs_ring.next();
          tf::copy(A.tile<BM, BK>(m, k), lhs);
          tf::copy(B.tile<BK, BN>(k, n), rhs);
          tf::matmul(acc, lhs, rhs);
        }
        tf::insert_slice(Out, tf::cast<tf::bf16>(acc), m, n);
      }
    double num = 0, den = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double ref = 0;
        for (int k = 0; k < K; ++k)
          ref += double(float(a[i * K + k])) * double(float(b[k * N + j]));
        double d = double(float(o[i * N + j])) - ref;
        num += d * d;
        den += ref * ref;
      }
    EXPECT_LT(std::sqrt(num / den), 1e-2) << M << "x" << N << "x" << K;
  }
}

TEST(Ops, InsertSliceDropsWhatFallsOutside) {
  auto t = random_vector<float>(8 * 8, 60);
  tf::Tensor<float, "(8,8)"> tile(t.data());
  std::vector<float> out(10 * 12, -1.0f);
  tf::Tensor<float, "(?,?)"> O(out.data(), {10, 12});
  auto ret = tf::insert_slice(O, tile, 6, 8);
  EXPECT_EQ(ret.data(), out.data());
  for (int i = 0; i < 10; ++i)
    for (int j = 0; j < 12; ++j) {
      bool in = i >= 6 && j >= 8;
      ASSERT_EQ(out[i * 12 + j], in ? t[(i - 6) * 8 + (j - 8)] : -1.0f);
    }
}

// Storage of its own gives every coordinate an offset of its own: the
// accumulator with its warpgroup stride halved (8192 for 16384) would write
// each group's rows over the other's; an interleaving the stride order
// alone cannot vouch for ((3,2):(2,3): offsets 0,3,2,5,4,7) is enumerated.
TEST(Buffers, StorageOfItsOwnHasOnePlacePerElement) {
  using Overlapping = tf::Tensor<float, "((2@group,4@warp,2,8@lane8),(32,4@lane4,2)):((8192,16,8,1),(512,128,64))", tf::rmem>;
  EXPECT_DEATH((void)tf::zeros<Overlapping>(),
               "tf::Buffer: the layout puts two coordinates at offset [0-9]+ "
               "\\(a stride of 8192 falls inside the span 16384");
  using OverlappingSlot = tf::Tensor<tf::bf16, "(128,64):(32,1)", tf::smem>;
  using OverlappingRing = tf::Ring<OverlappingSlot, 2>;
  EXPECT_DEATH((void)OverlappingRing(), "a stride of 32 falls inside the span 64");
  using Interleaved = tf::Tensor<float, "(3,2):(2,3)", tf::rmem>;
  auto b = tf::zeros<Interleaved>();
  EXPECT_EQ(b.cosize(), 8);
  EXPECT_EQ(tf::zeros<Acc>().cosize(), 128 * 256);
  using Repeated = tf::Tensor<float, "(3,2):(1,2)", tf::rmem>;
  EXPECT_DEATH((void)tf::empty<Repeated>(), "puts two coordinates at offset 2");
}

} // namespace
