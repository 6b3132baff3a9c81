//===- test/gpu/pipeline.cu - The warp-specialized TMA -> WGMMA ring ------===//
//
// gemm_kernel.cuh (the backend's pattern, by hand) on a GEMM whose extents
// are not multiples of the tile, M=200, N=504, K=456: partial tiles in every
// dimension, covered by TMA's zero fill and store clipping. The output has
// a poisoned guard after it: the store must clip at N and M. Run with
// bounded waits (as the backend's debug mode emits; ptxas then serialises
// WGMMA around the report call) and with wait_forever (production: WGMMA
// groups really overlap the waits).
//
//===----------------------------------------------------------------------===//
// SASS: HGMMA.64x256x16.F32.BF16 UTMALDG.2D UTMASTG.2D USETMAXREG
#include "gemm_kernel.cuh"
#include "harness.hpp"

#include <cstdio>

namespace {

using namespace gpu_test;

template <tf::sm90::WaitPolicy Waits> int run(const char *mode) {
  constexpr int M = 200, N = 504, K = 456, guard = 4096;
  char name[96];
  std::snprintf(name, sizeof name, "pipeline M=%d N=%d K=%d stages=%d, %s", M,
                N, K, gemm::STAGES, mode);
  const tf::runtime::CudaCheck check{name};

  const auto a = random_bf16(std::size_t{M} * K, 7);
  const auto b = random_bf16(std::size_t{K} * N, 8);
  DeviceBuffer<__nv_bfloat16> da(a.size(), check), db(b.size(), check);
  DeviceBuffer<float> dout(std::size_t{M} * N + guard, check);
  da.upload(a);
  db.upload(b);
  dout.upload(std::vector<float>(std::size_t{M} * N + guard, poison()));

  gemm::run<Waits>(matrix_arg(da.get(), tf::DType::bf16, M, K),
                   matrix_arg(db.get(), tf::DType::bf16, K, N),
                   matrix_arg(dout.get(), tf::DType::f32, M, N), check);

  std::vector<float> out = dout.download();
  long guard_damage = 0;
  for (int i = 0; i < guard; ++i)
    guard_damage += !is_poison(out[std::size_t{M} * N + i]);
  out.resize(std::size_t{M} * N);
  return verdict(name, compare(out, reference_gemm(a, b, M, N, K)),
                 guard_damage);
}

} // namespace

int main() {
  int failures = run<tf::sm90::trap_after(1 << 22)>("bounded waits");
  failures += run<tf::sm90::wait_forever>("wait_forever");
  return failures == 0 ? 0 : 1;
}
