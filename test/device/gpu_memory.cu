// Memory rates of the GPU for the fact documents and tf analyze's estimate
// (test/device/measure_facts.sh): how fast every SM together reads from HBM
// and from the L2, how fast a device-to-device copy runs, and how long one
// load waits for the L2 and for HBM. Prints "gpu_mem.KEY = VALUE" lines
// (bytes per second or seconds, medians).
//
//   gpu_memory [REPEATS]
//
//   hbm_read   every SM streams a 4 GiB buffer once (16-byte loads that
//              bypass L1, ld.global.cg), far larger than the L2: the rate
//              HBM delivers to the SMs;
//   l2_read    every SM streams a buffer of a third of the L2 (16-byte cg
//              loads), 64 passes after one warm pass: the rate the L2
//              delivers to the SMs, which a GEMM's tile loads draw on
//              (gmem issued bytes / time);
//   copy       cudaMemcpy of 1 GiB device to device, bytes read + written;
//   l2_latency, hbm_latency
//              one thread follows a chain of dependent 8-byte cg loads, each
//              at the address the previous one read: through a buffer of a
//              quarter of the L2 (after a warm pass), and through 4 GiB with
//              a 4 KiB + 128 byte stride (a new line, mostly a new page, per
//              load; 10^6 loads, twice the L2's lines, so none is an L2 hit):
//              the latency a pipeline's depth must cover.
//
// Each kernel runs REPEATS times (default 10) between CUDA events after a
// warm-up; the median is printed with the spread. The loads' sum is written
// where the host checks it, so nothing is optimised away.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CK(x)                                                              \
  do {                                                                     \
    cudaError_t e = (x);                                                   \
    if (e != cudaSuccess) {                                                \
      std::printf("gpu_mem.error = %s: %s\n", #x, cudaGetErrorString(e));   \
      std::exit(1);                                                        \
    }                                                                      \
  } while (0)

namespace {

// A 16-byte load that bypasses L1 (ld.global.cg). Volatile: the passes over
// the same addresses must each load, not reuse the first pass's values.
__device__ __forceinline__ uint4 load_cg(const uint4 *p) {
  uint4 v;
  asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];"
               : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
               : "l"(p));
  return v;
}

// Reads `words` 16-byte words `passes` times, grid-strided; one sum per
// thread goes to `sink` so the loads stay.
__global__ void stream_read(const uint4 *data, std::size_t words, int passes,
                            unsigned *sink) {
  unsigned acc = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (int p = 0; p < passes; ++p) {
    std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
    // Four loads in flight per thread before their sums: one at a time
    // would leave too few bytes in flight per SM to cover the latency.
    for (; i + 3 * stride < words; i += 4 * stride) {
      const uint4 a = load_cg(data + i), b = load_cg(data + i + stride),
                  c = load_cg(data + i + 2 * stride),
                  d = load_cg(data + i + 3 * stride);
      acc += (a.x ^ a.y ^ a.z ^ a.w) + (b.x ^ b.y ^ b.z ^ b.w) +
             (c.x ^ c.y ^ c.z ^ c.w) + (d.x ^ d.y ^ d.z ^ d.w);
    }
    for (; i < words; i += stride) {
      const uint4 v = load_cg(data + i);
      acc += v.x ^ v.y ^ v.z ^ v.w;
    }
  }
  sink[std::size_t(blockIdx.x) * blockDim.x + threadIdx.x] = acc;
}

// Follows `steps` links of the chain that starts at word 0; the last
// link's value goes to `sink`.
__global__ void chase(const unsigned long long *chain, int steps,
                      unsigned long long *sink) {
  unsigned long long at = 0;
  for (int s = 0; s < steps; ++s)
    asm volatile("ld.global.cg.u64 %0, [%1];"
                 : "=l"(at)
                 : "l"(chain + at));
  *sink = at;
}

// chain[i] = the next word of a walk of `links` words `stride` apart that
// wraps inside `words`.
__global__ void link(unsigned long long *chain, std::size_t words,
                     std::size_t stride, std::size_t links) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
       i < links; i += std::size_t(gridDim.x) * blockDim.x)
    chain[(i * stride) % words] = ((i + 1) % links * stride) % words;
}

__global__ void fill(uint4 *data, std::size_t words) {
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
       i < words; i += std::size_t(gridDim.x) * blockDim.x)
    data[i] = make_uint4(unsigned(i), unsigned(i >> 32), unsigned(i * 3), 7u);
}

struct Stats {
  double median, min, max;
};

template <class F> Stats timed(int repeats, F &&run) {
  cudaEvent_t start, stop;
  CK(cudaEventCreate(&start));
  CK(cudaEventCreate(&stop));
  run(); // warm-up
  CK(cudaDeviceSynchronize());
  std::vector<double> seconds;
  for (int r = 0; r < repeats; ++r) {
    CK(cudaEventRecord(start));
    run();
    CK(cudaEventRecord(stop));
    CK(cudaEventSynchronize(stop));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, start, stop));
    seconds.push_back(ms * 1e-3);
  }
  CK(cudaEventDestroy(start));
  CK(cudaEventDestroy(stop));
  std::sort(seconds.begin(), seconds.end());
  return {seconds[seconds.size() / 2], seconds.front(), seconds.back()};
}

void report(const char *key, double bytes, Stats s) {
  std::printf("gpu_mem.%s = %.4g\n", key, bytes / s.median);
  std::printf("gpu_mem.%s.spread = %.4g..%.4g\n", key, bytes / s.max,
              bytes / s.min);
}

} // namespace

int main(int argc, char **argv) {
  const int repeats = argc > 1 ? std::max(1, std::atoi(argv[1])) : 10;
  int sms = 0, l2 = 0;
  CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));
  const int blocks = sms * 4, threads = 512;
  unsigned *sink = nullptr;
  CK(cudaMalloc(&sink, std::size_t(blocks) * threads * sizeof(unsigned)));

  const std::size_t big = std::size_t(4) << 30;
  uint4 *data = nullptr;
  CK(cudaMalloc(&data, big));
  fill<<<blocks, threads>>>(data, big / sizeof(uint4));
  CK(cudaGetLastError());

  const Stats hbm = timed(repeats, [&] {
    stream_read<<<blocks, threads>>>(data, big / sizeof(uint4), 1, sink);
  });
  report("hbm_read", double(big), hbm);

  // A third of the L2: it stays resident across passes whatever the L2's
  // partitioning does with the rest.
  const std::size_t small = std::size_t(l2) / 3 / sizeof(uint4) * sizeof(uint4);
  const int passes = 64;
  const Stats l2read = timed(repeats, [&] {
    stream_read<<<blocks, threads>>>(data, small / sizeof(uint4), passes, sink);
  });
  report("l2_read", double(small) * passes, l2read);

  const std::size_t half = big / 4; // 1 GiB copied from the first GiB
  const Stats copy = timed(repeats, [&] {
    CK(cudaMemcpyAsync(reinterpret_cast<char *>(data) + 2 * half, data, half,
                       cudaMemcpyDeviceToDevice));
  });
  report("copy", 2.0 * double(half), copy);

  // Latencies: 8-byte words; the L2 chain wraps in a quarter of the L2 and
  // follows 2^16 links. The HBM chain takes 10^6 links 4 KiB + 128 bytes
  // apart through 4 GiB and follows all of them each time: 10^6 lines,
  // twice the L2 in 128-byte lines, so no repeat finds the last one's lines
  // in the L2 (2^16 links, 8 MiB of lines, were all L2 hits after the first
  // repeat: both chains measured 147 ns on 2026-12-05).
  auto *chain = reinterpret_cast<unsigned long long *>(data);
  unsigned long long *last = nullptr;
  CK(cudaMalloc(&last, sizeof(unsigned long long)));
  auto latency = [&](const char *key, std::size_t words, std::size_t stride,
                     std::size_t links, int steps) {
    link<<<blocks, threads>>>(chain, words, stride, links);
    CK(cudaGetLastError());
    const Stats s = timed(repeats, [&] { chase<<<1, 1>>>(chain, steps, last); });
    std::printf("gpu_mem.%s = %.4g\n", key, s.median / steps);
    std::printf("gpu_mem.%s.spread = %.4g..%.4g\n", key, s.min / steps,
                s.max / steps);
  };
  const std::size_t l2_words = std::size_t(l2) / 4 / 8;
  latency("l2_latency", l2_words, 16 + 1, l2_words, 1 << 16); // 136-byte steps
  latency("hbm_latency", big / 8, (4096 + 128) / 8, 1000000, 1000000);
  CK(cudaFree(last));

  std::vector<unsigned> host(std::size_t(blocks) * threads);
  CK(cudaMemcpy(host.data(), sink, host.size() * sizeof(unsigned),
                cudaMemcpyDeviceToHost));
  unsigned all = 0;
  for (unsigned v : host)
    all ^= v;
  std::printf("gpu_mem.checksum = %u\n", all);
  std::printf("gpu_mem.config = %d SMs, %d blocks x %d threads, L2 %d bytes, "
              "l2_read buffer %zu bytes x %d passes, %d repeats\n",
              sms, blocks, threads, l2, small, passes, repeats);
  CK(cudaFree(data));
  CK(cudaFree(sink));
  return 0;
}
