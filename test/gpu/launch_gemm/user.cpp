//===- test/gpu/launch_gemm/user.cpp - tf::launch reaches a GPU launcher --===//
//
// A user's program: a kernel written for tf (its body is the header-only
// CPU implementation: one CTA per 64 x 256 output tile) and a tf::launch
// of it on tensors in device memory. gemm.tf.cu.in stands in for the file
// the CUDA backend will emit for this kernel: it registers a launcher under
// the kernel's address, so tf::launch runs the GPU kernel instead of the
// body (which would crash on device pointers). Built by build.sh.
//
//===----------------------------------------------------------------------===//
#include "harness.hpp"

#include "tf/launch.hpp"
#include "tf/tensor.hpp"

#include <cstdint>
#include <cstdio>

namespace gemm_test {

using Operand = tf::Tensor<tf::bf16, "(?,?)">;
using Result = tf::Tensor<float, "(?,?)">;
constexpr std::int64_t BM = 64, BN = 256;

/// out = a * b; the grid has one unit per BM x BN tile of out, row-major.
void gemm(Operand a, Operand b, Result out) {
  const std::int64_t tiles_n = (out.extent(1) + BN - 1) / BN;
  const std::int64_t m0 = tf::unit_index() / tiles_n * BM;
  const std::int64_t n0 = tf::unit_index() % tiles_n * BN;
  for (std::int64_t m = m0; m < m0 + BM && m < out.extent(0); ++m)
    for (std::int64_t n = n0; n < n0 + BN && n < out.extent(1); ++n) {
      float sum = 0;
      for (std::int64_t k = 0; k < a.extent(1); ++k)
        sum += float(a(m, k)) * float(b(k, n));
      out(m, n) = sum;
    }
}

} // namespace gemm_test

int main() {
  constexpr std::int64_t M = 328, N = 760, K = 200;
  const tf::runtime::CudaCheck check{"launch_gemm test"};
  const auto a = gpu_test::random_bf16(M * K, 3);
  const auto b = gpu_test::random_bf16(K * N, 4);
  gpu_test::DeviceBuffer<__nv_bfloat16> da(a.size(), check),
      db(b.size(), check);
  gpu_test::DeviceBuffer<float> dout(M * N, check);
  da.upload(a);
  db.upload(b);
  dout.upload(std::vector<float>(M * N, gpu_test::poison()));

  // tf::bf16 and __nv_bfloat16 are both the bf16 bit pattern.
  const std::int64_t tiles = (M + gemm_test::BM - 1) / gemm_test::BM *
                             ((N + gemm_test::BN - 1) / gemm_test::BN);
  tf::launch(gemm_test::gemm, tf::grid(tiles),
             gemm_test::Operand(reinterpret_cast<tf::bf16 *>(da.get()), {M, K}),
             gemm_test::Operand(reinterpret_cast<tf::bf16 *>(db.get()), {K, N}),
             gemm_test::Result(dout.get(), {M, N}));

  char name[64];
  std::snprintf(name, sizeof name, "launch_gemm M=%lld N=%lld K=%lld",
                static_cast<long long>(M), static_cast<long long>(N),
                static_cast<long long>(K));
  return gpu_test::verdict(
      name, gpu_test::compare(dout.download(),
                              gpu_test::reference_gemm(a, b, M, N, K)));
}
