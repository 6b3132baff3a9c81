// A GEMM tile loop whose instruction is undecided but whose meshes are: the
// MMA runs on two consumer warpgroups, the shared-memory tiles and the
// accumulator are declared without a placement (plain row-major layouts).
// `tf candidates` offers the layouts WGMMA accepts them in; placement.test
// pastes them in and matches again. `placement [M N K]` runs it on the CPU.
#include <tf/tf.hpp>

#include <iostream>
#include <limits>
#include <string>
#include <vector>

namespace placed {

constexpr int BM = 128, BN = 128, BK = 64, CTAS = 4;

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(4)">, "persistent");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(2,128)">, "warpgroup", "participant");
inline constexpr tf::Mesh compute =
    threads.reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");

using LhsTile = tf::Tensor<tf::bf16, "(128,64)", tf::smem>;
using RhsTile = tf::Tensor<tf::bf16, "(64,128)", tf::smem>;
using Acc = tf::Tensor<float, "(128,128)", tf::rmem>;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;
using Output = tf::Tensor<float, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", CTAS),
             tf::topology("thread", 256))]]
void gemm(Matrix a, Matrix b, Output out) {
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  auto lhs = tf::empty<LhsTile>();
  auto rhs = tf::empty<RhsTile>();
  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN)) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      tf::copy(a.tile<BM, BK>(m * BM, k), lhs);
      tf::copy(b.tile<BK, BN>(k, n * BN), rhs);
      [[tf::mesh(compute)]] tf::matmul(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] tf::insert_slice(out, acc, m * BM, n * BN);
  }
}

} // namespace placed

int main(int argc, char **argv) {
  const std::int64_t M = argc > 3 ? std::stoll(argv[1]) : 200;
  const std::int64_t N = argc > 3 ? std::stoll(argv[2]) : 300;
  const std::int64_t K = argc > 3 ? std::stoll(argv[3]) : 100;
  std::vector<tf::bf16> a(M * K), b(K * N);
  std::uint32_t state = 12345;
  auto next = [&] {
    state = state * 1664525u + 1013904223u;
    return static_cast<float>(state >> 8) / static_cast<float>(1u << 24) - 0.5f;
  };
  for (tf::bf16 &x : a)
    x = tf::bf16(next());
  for (tf::bf16 &x : b)
    x = tf::bf16(next());
  std::vector<float> out(M * N, std::numeric_limits<float>::quiet_NaN());
  tf::launch(placed::gemm, tf::grid(placed::CTAS), placed::Matrix(a.data(), {M, K}),
             placed::Matrix(b.data(), {K, N}), placed::Output(out.data(), {M, N}));
  std::int64_t wrong = 0;
  for (std::int64_t i = 0; i < M; ++i)
    for (std::int64_t j = 0; j < N; ++j) {
      double ref = 0;
      for (std::int64_t k = 0; k < K; ++k)
        ref += static_cast<double>(float(a[i * K + k])) * float(b[k * N + j]);
      const double got = out[i * N + j];
      const double error = got > ref ? got - ref : ref - got;
      wrong += !(error <= 1e-3 * (1 + (ref < 0 ? -ref : ref))); // NaN: wrong
    }
  std::cout << "placement " << M << "x" << N << "x" << K << ": " << wrong
            << " wrong\n";
  return wrong != 0;
}
