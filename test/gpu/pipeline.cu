//===- test/gpu/pipeline.cu - A warp-specialized TMA -> WGMMA ring --------===//
//
// The pattern the CUDA backend emits, by hand, on a small GEMM whose
// extents are not multiples of the tile (M=200, N=504, K=456: partial tiles
// in every dimension, covered by TMA's zero fill and store clipping):
//
//   CTA (BM=64, BN=256) = warpgroup 0: producer, one thread issues TMA
//                         warpgroup 1: consumer, WGMMA m64n256k16
//   3-stage ring of (A 64x64 K-major, B 64x256 N-major as 4 panels) slots,
//   full[s] (1 arrival + expect_tx) and empty[s] (128 consumer arrivals)
//   barriers with phase parity (k / STAGES) & 1; the consumer keeps one
//   WGMMA group in flight and releases a slot when its group is done;
//   setmaxnreg moves registers from producer to consumer;
//   epilogue: f32 tile -> smem, proxy fence, named barrier, TMA store.
//
// The output has a poisoned guard after it: the store must clip at N and M.
//
//===----------------------------------------------------------------------===//
// SASS: HGMMA.64x256x16.F32.BF16 UTMALDG.2D UTMASTG.2D USETMAXREG
#include "harness.hpp"

#include "tf/runtime/host/check.hpp"
#include "tf/runtime/host/tensor_map.hpp"
#include "tf/runtime/sm90/mbarrier.cuh"
#include "tf/runtime/sm90/registers.cuh"
#include "tf/runtime/sm90/sync.cuh"
#include "tf/runtime/sm90/tma.cuh"
#include "tf/runtime/sm90/wgmma.cuh"

#include <cstdint>
#include <cstdio>

namespace {

namespace sm90 = tf::sm90;
namespace tma = tf::sm90::tma;
namespace wgmma = tf::sm90::wgmma;

constexpr int BM = 64, BN = 256, BK = 64, STAGES = 3;
constexpr int panel = 64; // N columns per 128-byte swizzled B panel
constexpr std::uint32_t a_slot_bytes = BM * BK * 2, b_slot_bytes = BK * BN * 2;
constexpr sm90::WaitPolicy waits = sm90::trap_after(1 << 22);
constexpr std::uint32_t epilogue_barrier = 1; // named barrier id (0 is __syncthreads)

/// The dynamic shared memory of one CTA; slots first, 1024-aligned.
struct Smem {
  alignas(1024) std::uint16_t a[STAGES][BM * BK];
  alignas(1024) std::uint16_t b[STAGES][BK * BN];
  alignas(1024) float staged[BM * BN];
  sm90::Mbarrier full[STAGES], empty[STAGES];
};

__global__ void __launch_bounds__(256, 1)
    pipeline(const __grid_constant__ CUtensorMap a_map,
             const __grid_constant__ CUtensorMap b_map,
             const __grid_constant__ CUtensorMap out_map, int K) {
  extern __shared__ std::uint8_t raw[];
  // Dynamic shared memory is only guaranteed 16-byte aligned.
  Smem &s = *reinterpret_cast<Smem *>(
      (reinterpret_cast<std::uintptr_t>(raw) + 1023) & ~std::uintptr_t{1023});
  const int warpgroup = threadIdx.x / 128, t = threadIdx.x % 128;
  const int m0 = blockIdx.y * BM, n0 = blockIdx.x * BN;
  const int k_tiles = (K + BK - 1) / BK;

  if (threadIdx.x == 0) {
    for (int i = 0; i < STAGES; ++i) {
      s.full[i].init(1);
      s.empty[i].init(128);
    }
    sm90::fence_barrier_init();
  }
  __syncthreads();

  if (warpgroup == 0) {
    sm90::release_registers<40>();
    if (t == 0) {
      tma::prefetch_tensor_map(a_map);
      tma::prefetch_tensor_map(b_map);
      for (int k = 0; k < k_tiles; ++k) {
        const int slot = k % STAGES;
        const std::uint32_t round = (k / STAGES) & 1;
        s.empty[slot].wait<waits>(round ^ 1, "pipeline.empty");
        s.full[slot].arrive_expect_tx(a_slot_bytes + b_slot_bytes);
        tma::load(s.a[slot], a_map, s.full[slot], m0, k * BK);
        for (int p = 0; p < BN / panel; ++p)
          tma::load(s.b[slot] + p * BK * panel, b_map, s.full[slot], k * BK,
                    n0 + p * panel);
      }
    }
  } else {
    sm90::claim_registers<232>();
    float acc[BN / 2];
    for (int k = 0; k < k_tiles; ++k) {
      const int slot = k % STAGES;
      s.full[slot].wait<waits>((k / STAGES) & 1, "pipeline.full");
      const auto da = sm90::SmemDescriptor::make(
          sm90::smem_address(s.a[slot]), 16, 1024, sm90::SmemSwizzle::bytes128);
      const auto db =
          sm90::SmemDescriptor::make(sm90::smem_address(s.b[slot]), BK * panel * 2,
                                     1024, sm90::SmemSwizzle::bytes128);
      wgmma::fence();
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk)
        wgmma::mma_bf16<BN, wgmma::Major::k, wgmma::Major::mn>(
            acc, da.advanced(32 * kk), db.advanced(16 * 128 * kk),
            k == 0 && kk == 0 ? wgmma::ScaleD::overwrite
                              : wgmma::ScaleD::accumulate);
      wgmma::commit_group();
      // Keep this step's group in flight; the previous one is done, so its
      // slot goes back to the producer.
      wgmma::wait_group<1>();
      if (k > 0)
        s.empty[(k - 1) % STAGES].arrive();
    }
    wgmma::wait_group<0>();

#pragma unroll
    for (int i = 0; i < BN / 2; ++i) {
      const wgmma::FragmentCoord c = wgmma::accumulator_coord(t, i);
      s.staged[c.row * BN + c.col] = acc[i];
    }
    tma::fence_proxy_async_shared();
    sm90::named_barrier_sync(epilogue_barrier, 128);
    if (t == 0) {
      tma::store(out_map, s.staged, m0, n0);
      tma::commit_group();
      tma::wait_group<0>();
    }
  }
}

} // namespace

int main() {
  constexpr int M = 200, N = 504, K = 456, guard = 4096;
  const tf::runtime::CudaCheck check{"pipeline"};

  const auto a = gpu_test::random_bf16(std::size_t{M} * K, 7);
  const auto b = gpu_test::random_bf16(std::size_t{K} * N, 8);
  gpu_test::DeviceBuffer<__nv_bfloat16> da(a.size(), check), db(b.size(), check);
  gpu_test::DeviceBuffer<float> dout(std::size_t{M} * N + guard, check);
  da.upload(a);
  db.upload(b);
  dout.upload(std::vector<float>(std::size_t{M} * N + guard, gpu_test::poison()));

  const std::uint32_t a_box[] = {BM, BK}, b_box[] = {BK, panel}, out_box[] = {BM, BN};
  const CUtensorMap a_map = tf::runtime::make_tensor_map(
      gpu_test::matrix_arg(da.get(), tf::DType::bf16, M, K), a_box,
      tf::runtime::TmaSwizzle::bytes128, check);
  const CUtensorMap b_map = tf::runtime::make_tensor_map(
      gpu_test::matrix_arg(db.get(), tf::DType::bf16, K, N), b_box,
      tf::runtime::TmaSwizzle::bytes128, check);
  const CUtensorMap out_map = tf::runtime::make_tensor_map(
      gpu_test::matrix_arg(dout.get(), tf::DType::f32, M, N), out_box,
      tf::runtime::TmaSwizzle::none, check);

  const int smem_bytes = sizeof(Smem) + 1024; // + alignment slack
  check(cudaFuncSetAttribute(pipeline, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             smem_bytes),
        "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  const dim3 grid((N + BN - 1) / BN, (M + BM - 1) / BM);
  pipeline<<<grid, 256, smem_bytes>>>(a_map, b_map, out_map, K);
  check.launch("pipeline<<<(2, 4), 256>>>");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  std::vector<float> out = dout.download();
  long guard_damage = 0;
  for (int i = 0; i < guard; ++i)
    guard_damage += !gpu_test::is_poison(out[std::size_t{M} * N + i]);
  out.resize(std::size_t{M} * N);
  char name[64];
  std::snprintf(name, sizeof name, "pipeline M=%d N=%d K=%d stages=%d", M, N, K,
                STAGES);
  return gpu_test::verdict(name, gpu_test::compare(out, gpu_test::reference_gemm(a, b, M, N, K)),
                           guard_damage);
}
