//===- examples/gemm/gpu/user.cpp - The optimal GEMM on the GPU -----------===//
//
// A program that runs examples/gemm/optimal.cpp's kernel on an H200: the
// same random operands and check as optimal.cpp's CPU main (renamed here),
// but the operands live in device memory, so tf::launch runs the launcher
// that the CUDA backend's optimal.tf.cu registered for gemm::gemm. Linked
// without that file, tf::launch would run the kernel on the CPU -- on device
// pointers, which it must not; so this program is built only with it
// (docs/tutorial/03_generated_code.md, "Running it"):
//
//   clang++-22 -std=c++20 -I include -fsyntax-only -fplugin=build/lib/tf.so \
//       -fplugin-arg-tf-emit=DIR examples/gemm/optimal.cpp
//   nvcc -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a -I include \
//       -I runtime/include -c DIR/optimal.tf.cu -o optimal.tf.o
//   nvcc -std=c++20 -I include -Xcompiler -Wno-attributes \
//       -c examples/gemm/gpu/user.cpp -o user.o
//   nvcc user.o optimal.tf.o -o gemm_gpu && ./gemm_gpu [M N K]
//
// N and K must be multiples of 8: TMA addresses rows of a multiple of 16
// bytes. Without arguments the shape is 1000 x 1544 x 1000.
//
//===----------------------------------------------------------------------===//
#define main optimal_cpu_main
#include "../optimal.cpp"
#undef main

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

namespace {

void check(cudaError_t status, const char *what) {
  if (status == cudaSuccess)
    return;
  std::fprintf(stderr, "%s failed: %s\n", what, cudaGetErrorString(status));
  std::exit(1);
}

/// A device copy of `host`, freed by the caller.
tf::bf16 *to_device(const std::vector<tf::bf16> &host) {
  void *device = nullptr;
  const std::size_t bytes = host.size() * sizeof(tf::bf16);
  check(cudaMalloc(&device, bytes), "cudaMalloc");
  check(cudaMemcpy(device, host.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  return static_cast<tf::bf16 *>(device);
}

} // namespace

int main(int argc, char **argv) {
  // No argument: a shape that is no tile multiple and that TMA can address.
  const gemm_example::Shape s = argc == 1 ? gemm_example::Shape{1000, 1544, 1000}
                                          : gemm_example::parse_shape(argc, argv);
  if (s.N % 8 != 0 || s.K % 8 != 0) { // rows of a multiple of 16 bytes
    std::fprintf(stderr, "gemm_gpu: N and K must be multiples of 8 (TMA addresses "
                         "rows of a multiple of 16 bytes), got N=%lld K=%lld\n",
                 static_cast<long long>(s.N), static_cast<long long>(s.K));
    return 2;
  }
  std::vector<tf::bf16> a = gemm_example::random_bf16(s.M * s.K, 1);
  std::vector<tf::bf16> b = gemm_example::random_bf16(s.K * s.N, 2);
  std::vector<tf::bf16> out = gemm_example::poisoned_output(s.M * s.N);
  tf::bf16 *da = to_device(a), *db = to_device(b), *dout = to_device(out);
  tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(da, {s.M, s.K}),
             gemm::Matrix(db, {s.K, s.N}), gemm::Matrix(dout, {s.M, s.N}));
  check(cudaMemcpy(out.data(), dout, out.size() * sizeof(tf::bf16),
                   cudaMemcpyDeviceToHost),
        "cudaMemcpy (the kernel's result)");
  for (tf::bf16 *p : {da, db, dout})
    check(cudaFree(p), "cudaFree");
  return gemm_example::report("gemm_gpu", s, a, b, out);
}
