//===- test/gpu/debug_wait.cu - A bounded wait traps, named ---------------===//
//
// A barrier nobody arrives at, waited on with trap_after(n): the kernel must
// end (not hang) with the device printing
//
//   tf: barrier 'debug_wait.never' did not complete phase parity 0 ...
//
// and the launch failing. run.sh runs this under `timeout`, expects exit
// code 0 from this program (it checks the launch failed) and greps the
// message from its output.
//
//===----------------------------------------------------------------------===//
#include "tf/runtime/sm90/mbarrier.cuh"

#include <cuda_runtime.h>

#include <cstdio>

namespace {

__global__ void never_completes() {
  __shared__ tf::sm90::Mbarrier never;
  if (threadIdx.x == 0) {
    never.init(1);
    tf::sm90::fence_barrier_init();
  }
  __syncthreads();
  never.wait<tf::sm90::trap_after(1000)>(0, "debug_wait.never");
}

} // namespace

int main() {
  never_completes<<<2, 64>>>();
  const cudaError_t launched = cudaGetLastError();
  const cudaError_t finished = cudaDeviceSynchronize();
  std::fflush(stdout);
  if (launched != cudaSuccess) {
    std::printf("FAIL debug_wait: the launch itself failed: %s\n",
                cudaGetErrorName(launched));
    return 1;
  }
  if (finished == cudaSuccess) {
    std::printf(
        "FAIL debug_wait: the kernel finished; the wait did not trap\n");
    return 1;
  }
  std::printf("PASS debug_wait: the kernel trapped (%s)\n",
              cudaGetErrorName(finished));
  return 0;
}
