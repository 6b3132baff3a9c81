// GPU properties for the fact documents (test/device/measure_facts.sh).
// Prints "gpu.KEY = VALUE" lines from cudaGetDeviceProperties and
// cudaDeviceGetAttribute (clockRate/memoryClockRate left the device
// properties struct in CUDA 13; the attributes remain).
#include <cuda_runtime.h>

#include <cstdio>

#define CK(x)                                                              \
  do {                                                                     \
    cudaError_t e = (x);                                                   \
    if (e != cudaSuccess) {                                                \
      std::printf("gpu.error = %s: %s\n", #x, cudaGetErrorString(e));      \
      return 1;                                                            \
    }                                                                      \
  } while (0)

static void attr(const char* name, cudaDeviceAttr a, int dev) {
  int v = 0;
  cudaError_t e = cudaDeviceGetAttribute(&v, a, dev);
  if (e == cudaSuccess)
    std::printf("gpu.%s = %d\n", name, v);
  else
    std::printf("gpu.%s = unavailable (%s)\n", name, cudaGetErrorString(e));
}

int main() {
  int n = 0;
  CK(cudaGetDeviceCount(&n));
  std::printf("gpu.count = %d\n", n);
  int drv = 0, rt = 0;
  CK(cudaDriverGetVersion(&drv));
  CK(cudaRuntimeGetVersion(&rt));
  std::printf("gpu.driver_version = %d\ngpu.runtime_version = %d\n", drv, rt);
  if (n == 0) return 1;
  cudaDeviceProp p;
  CK(cudaGetDeviceProperties(&p, 0));
  std::printf("gpu.name = %s\n", p.name);
  std::printf("gpu.cc = %d.%d\n", p.major, p.minor);
  std::printf("gpu.multiProcessorCount = %d\n", p.multiProcessorCount);
  std::printf("gpu.totalGlobalMem = %zu\n", p.totalGlobalMem);
  std::printf("gpu.l2CacheSize = %d\n", p.l2CacheSize);
  std::printf("gpu.persistingL2CacheMaxSize = %d\n", p.persistingL2CacheMaxSize);
  std::printf("gpu.accessPolicyMaxWindowSize = %d\n", p.accessPolicyMaxWindowSize);
  std::printf("gpu.sharedMemPerBlock = %zu\n", p.sharedMemPerBlock);
  std::printf("gpu.sharedMemPerBlockOptin = %zu\n", p.sharedMemPerBlockOptin);
  std::printf("gpu.sharedMemPerMultiprocessor = %zu\n", p.sharedMemPerMultiprocessor);
  std::printf("gpu.reservedSharedMemPerBlock = %zu\n", p.reservedSharedMemPerBlock);
  std::printf("gpu.regsPerBlock = %d\n", p.regsPerBlock);
  std::printf("gpu.regsPerMultiprocessor = %d\n", p.regsPerMultiprocessor);
  std::printf("gpu.maxThreadsPerBlock = %d\n", p.maxThreadsPerBlock);
  std::printf("gpu.maxThreadsPerMultiProcessor = %d\n", p.maxThreadsPerMultiProcessor);
  std::printf("gpu.maxBlocksPerMultiProcessor = %d\n", p.maxBlocksPerMultiProcessor);
  std::printf("gpu.warpSize = %d\n", p.warpSize);
  std::printf("gpu.memoryBusWidth = %d\n", p.memoryBusWidth);
  attr("attr.ClockRate_kHz", cudaDevAttrClockRate, 0);
  attr("attr.MemoryClockRate_kHz", cudaDevAttrMemoryClockRate, 0);
  attr("attr.GlobalMemoryBusWidth", cudaDevAttrGlobalMemoryBusWidth, 0);
  attr("attr.L2CacheSize", cudaDevAttrL2CacheSize, 0);
  attr("attr.MultiProcessorCount", cudaDevAttrMultiProcessorCount, 0);
  attr("attr.MaxSharedMemoryPerBlockOptin", cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
  attr("attr.MaxSharedMemoryPerMultiprocessor", cudaDevAttrMaxSharedMemoryPerMultiprocessor, 0);
  attr("attr.MaxRegistersPerMultiprocessor", cudaDevAttrMaxRegistersPerMultiprocessor, 0);
  attr("attr.MaxPersistingL2CacheSize", cudaDevAttrMaxPersistingL2CacheSize, 0);
  attr("attr.ClusterLaunch", cudaDevAttrClusterLaunch, 0);
  size_t freeB = 0, totalB = 0;
  CK(cudaMemGetInfo(&freeB, &totalB));
  std::printf("gpu.memGetInfo_total = %zu\ngpu.memGetInfo_free = %zu\n", totalB, freeB);
  return 0;
}
