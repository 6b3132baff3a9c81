//===- test/gpu/gemm_kernel.cuh - The hand-written warp-specialized GEMM --===//
//
// The pattern the CUDA backend emits, written by hand with the runtime
// library only; pipeline.cu tests it directly and launch_gemm/ through the
// launcher registry, as generated code will be called.
//
//   out (M x N, f32) = a (M x K, bf16) * b (K x N, bf16), all row-major
//   CTA (BM=64, BN=256) = warpgroup 0: producer, one thread issues TMA
//                         warpgroup 1: consumer, WGMMA m64n256k16
//   3-stage ring of (A 64x64 K-major, B 64x256 N-major as 4 panels) slots,
//   full[s] (1 arrival + expect_tx) and empty[s] (128 consumer arrivals)
//   barriers with phase parity (k / STAGES) & 1; the consumer keeps one
//   WGMMA group in flight and releases a slot when its group is done;
//   setmaxnreg moves registers from producer to consumer;
//   epilogue: f32 tile -> smem, proxy fence, named barrier, TMA store.
//
// Extents need not be multiples of the tile: TMA zero-fills loads and clips
// stores. Row lengths must be multiples of 16 bytes (TMA's stride rule).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/host/check.hpp"
#include "tf/runtime/host/tensor_map.hpp"
#include "tf/runtime/kernel_args.hpp"
#include "tf/runtime/sm90/mbarrier.cuh"
#include "tf/runtime/sm90/registers.cuh"
#include "tf/runtime/sm90/sync.cuh"
#include "tf/runtime/sm90/tma.cuh"
#include "tf/runtime/sm90/wgmma.cuh"

#include <cstdint>

namespace gpu_test::gemm {

namespace sm90 = tf::sm90;
namespace tma = tf::sm90::tma;
namespace wgmma = tf::sm90::wgmma;

inline constexpr int BM = 64, BN = 256, BK = 64, STAGES = 3;
inline constexpr int panel = 64; // N columns per 128-byte swizzled B panel
inline constexpr std::uint32_t a_slot_bytes = BM * BK * 2;
inline constexpr std::uint32_t b_slot_bytes = BK * BN * 2;
inline constexpr std::uint32_t epilogue_barrier = 1; // 0 is __syncthreads

/// The dynamic shared memory of one CTA; slots first, 1024-aligned.
struct Smem {
  alignas(1024) std::uint16_t a[STAGES][BM * BK];
  alignas(1024) std::uint16_t b[STAGES][BK * BN];
  alignas(1024) float staged[BM * BN];
  sm90::Mbarrier full[STAGES], empty[STAGES];
};
/// What a launch asks for: the struct plus slack to align it.
inline constexpr int smem_bytes = sizeof(Smem) + 1024;

// The wait policy's poll bound rather than the WaitPolicy itself: nvcc 13.0
// writes an invalid host stub for a __global__ template with a class-type
// template parameter.
template <std::uint64_t MaxPolls>
__global__ void __launch_bounds__(256, 1)
    kernel(const __grid_constant__ CUtensorMap a_map,
           const __grid_constant__ CUtensorMap b_map,
           const __grid_constant__ CUtensorMap out_map, int K) {
  constexpr sm90::WaitPolicy Waits{MaxPolls};
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
        s.empty[slot].template wait<Waits>(round ^ 1, "gemm.empty");
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
      s.full[slot].template wait<Waits>((k / STAGES) & 1, "gemm.full");
      const auto da = sm90::SmemDescriptor::make(
          sm90::smem_address(s.a[slot]), 16, 1024, sm90::SmemSwizzle::bytes128);
      const auto db = sm90::SmemDescriptor::make(sm90::smem_address(s.b[slot]),
                                                 BK * panel * 2, 1024,
                                                 sm90::SmemSwizzle::bytes128);
      wgmma::fence();
#pragma unroll
      for (int kk = 0; kk < BK / 16; ++kk)
        wgmma::mma<BN, wgmma::Type::bf16, wgmma::Type::bf16, wgmma::Major::k,
                   wgmma::Major::mn>(
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

/// Runs the kernel on device tensors and waits for it; every CUDA call is
/// checked under `check`. @pre a is M x K and b K x N bf16, out M x N f32
template <sm90::WaitPolicy Waits>
void run(const tf::runtime::TensorArg &a, const tf::runtime::TensorArg &b,
         const tf::runtime::TensorArg &out,
         const tf::runtime::CudaCheck &check) {
  using tf::runtime::TmaSwizzle;
  const std::uint32_t a_box[] = {BM, BK}, b_box[] = {BK, panel},
                      out_box[] = {BM, BN};
  const CUtensorMap a_map =
      tf::runtime::make_tensor_map(a, a_box, TmaSwizzle::bytes128, check);
  const CUtensorMap b_map =
      tf::runtime::make_tensor_map(b, b_box, TmaSwizzle::bytes128, check);
  const CUtensorMap out_map =
      tf::runtime::make_tensor_map(out, out_box, TmaSwizzle::none, check);
  check(cudaFuncSetAttribute(kernel<Waits.max_polls>,
                             cudaFuncAttributeMaxDynamicSharedMemorySize,
                             smem_bytes),
        "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
  const dim3 grid(static_cast<unsigned>((out.extents[1] + BN - 1) / BN),
                  static_cast<unsigned>((out.extents[0] + BM - 1) / BM));
  kernel<Waits.max_polls><<<grid, 256, smem_bytes>>>(
      a_map, b_map, out_map, static_cast<int>(a.extents[1]));
  check.launch("gemm kernel<<<(N/256, M/64), 256>>>");
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

} // namespace gpu_test::gemm
