//===- test/gpu/single_tile.cu - One TMA load, one warpgroup of WGMMA -----===//
//
// The smallest use of every runtime piece the GEMM needs: one CTA loads a
// 64 x 64 bf16 A tile (K-major) and a 64 x N bf16 B tile (N-major, as
// 64-column panels) into 128B-swizzled shared memory with TMA, completing
// an mbarrier by expect_tx; one warpgroup runs four m64nNk16 WGMMAs from
// smem descriptors and writes the f32 accumulator to global memory, which
// is compared with a CPU reference. N = 64, 128, 256: with more than one
// panel the descriptor's leading byte offset matters.
//
// Run by test/gpu/run.sh (also under compute-sanitizer); exits non-zero on
// any mismatch.
//
//===----------------------------------------------------------------------===//
// SASS: HGMMA.64x64x16.F32.BF16 HGMMA.64x128x16.F32.BF16
// SASS: HGMMA.64x256x16.F32.BF16 UTMALDG.2D
#include "harness.hpp"

#include "tf/runtime/host/check.hpp"
#include "tf/runtime/host/tensor_map.hpp"
#include "tf/runtime/sm90/mbarrier.cuh"
#include "tf/runtime/sm90/tma.cuh"
#include "tf/runtime/sm90/wgmma.cuh"

#include <cstdint>
#include <cstdio>

namespace {

namespace sm90 = tf::sm90;
namespace tma = tf::sm90::tma;
namespace wgmma = tf::sm90::wgmma;

constexpr int M = 64, K = 64; // one swizzle row of K: 64 bf16 = 128 bytes
constexpr int panel = 64;     // N columns per 128-byte swizzled B panel
constexpr sm90::WaitPolicy waits = sm90::trap_after(1 << 22);

template <int N>
__global__ void __launch_bounds__(128, 1)
    single_tile(const __grid_constant__ CUtensorMap a_map,
                const __grid_constant__ CUtensorMap b_map, float *d) {
  // 1024-byte alignment: the 128B swizzle pattern repeats every 8 rows of
  // 128 bytes, and descriptors assume atoms start there (base offset 0).
  __shared__ alignas(1024) std::uint16_t a[M * K];
  __shared__ alignas(1024) std::uint16_t b[K * N];
  __shared__ sm90::Mbarrier full;
  const int t = threadIdx.x;

  if (t == 0) {
    full.init(1);
    sm90::fence_barrier_init();
  }
  __syncthreads();

  if (t == 0) {
    tma::prefetch_tensor_map(a_map);
    tma::prefetch_tensor_map(b_map);
    full.arrive_expect_tx(sizeof(a) + sizeof(b));
    tma::load(a, a_map, full, 0, 0);
    for (int p = 0; p < N / panel; ++p)
      tma::load(b + p * K * panel, b_map, full, 0, p * panel);
  }
  full.wait<waits>(0, "single_tile.full");

  const auto da = sm90::SmemDescriptor::make(sm90::smem_address(a), 16, 1024,
                                             sm90::SmemSwizzle::bytes128);
  const auto db = sm90::SmemDescriptor::make(
      sm90::smem_address(b), K * panel * 2, 1024, sm90::SmemSwizzle::bytes128);
  float acc[N / 2];
  wgmma::fence();
#pragma unroll
  for (int k = 0; k < K / 16; ++k)
    wgmma::mma<N, wgmma::Type::bf16, wgmma::Type::bf16, wgmma::Major::k,
               wgmma::Major::mn>(
        acc, da.advanced(32 * k), db.advanced(16 * 128 * k),
        k == 0 ? wgmma::ScaleD::overwrite : wgmma::ScaleD::accumulate);
  wgmma::commit_group();
  wgmma::wait_group<0>();

#pragma unroll
  for (int i = 0; i < N / 2; ++i) {
    const wgmma::FragmentCoord c = wgmma::accumulator_coord(t, i);
    d[c.row * N + c.col] = acc[i];
  }
}

template <int N> int run(unsigned seed) {
  char name[32];
  std::snprintf(name, sizeof name, "single_tile<N=%d>", N);
  const tf::runtime::CudaCheck check{name};

  const auto a = gpu_test::random_bf16(M * K, seed);
  const auto b = gpu_test::random_bf16(K * N, seed + 1);
  gpu_test::DeviceBuffer<__nv_bfloat16> da(a.size(), check),
      db(b.size(), check);
  gpu_test::DeviceBuffer<float> dd(M * N, check);
  da.upload(a);
  db.upload(b);
  dd.upload(std::vector<float>(M * N, gpu_test::poison()));

  const std::uint32_t a_box[] = {M, K}, b_box[] = {K, panel};
  const CUtensorMap a_map = tf::runtime::make_tensor_map(
      gpu_test::matrix_arg(da.get(), tf::DType::bf16, M, K), a_box,
      tf::runtime::TmaSwizzle::bytes128, check);
  const CUtensorMap b_map = tf::runtime::make_tensor_map(
      gpu_test::matrix_arg(db.get(), tf::DType::bf16, K, N), b_box,
      tf::runtime::TmaSwizzle::bytes128, check);

  single_tile<N><<<1, 128>>>(a_map, b_map, dd.get());
  check.launch("single_tile<<<1, 128>>>");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  return gpu_test::verdict(
      name, gpu_test::compare(dd.download(),
                              gpu_test::reference_gemm(a, b, M, N, K)));
}

} // namespace

int main() {
  int failures = 0;
  failures += run<64>(11);
  failures += run<128>(21);
  failures += run<256>(31);
  return failures == 0 ? 0 : 1;
}
