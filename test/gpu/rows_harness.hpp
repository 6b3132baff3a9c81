//===- test/gpu/rows_harness.hpp - Row kernels on the H200 ------*- CUDA -*-===//
//
// The host side of the rows_* tests: each is one examples/rows/*.cpp (its
// kernels, types and references; its CPU main renamed) linked with the CUDA
// backend's <example>.tf.cu, so that tf::launch of a kernel on device
// tensors runs the generated launcher. Per kernel and shape: random bf16
// inputs copied to the device, the output poisoned (NaN), one launch, the
// output copied back and checked against the example's double-precision
// reference with the example's bound (rows_example::report).
//
//   TEST            awkward shapes: 1 x 1, 5 x 7, 37 x 1000, 4 x 1024,
//                   6 x 2500, 1000 x 4096 (the whole-row kernels only where
//                   a row fits one tile)
//   TEST --bench    the shapes (8192 x 8192, 32768 x 4096,
//                   4096 x 32768, 65536 x 1024), each kernel checked once,
//                   then timed over launches back to back (5 rounds of 20
//                   after a warm-up, median of the round medians) beside a
//                   device-to-device copy of the bytes it moves once (read
//                   once and written once), in the same process: GB/s and
//                   the fraction of the copy's.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "check.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace rows_test {

inline void cuda(cudaError_t e, const char *what) {
  if (e != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(e));
    std::exit(1);
  }
}

/// A device copy of a host vector of bf16.
class Device {
public:
  explicit Device(const std::vector<tf::bf16> &host) : n(host.size()) {
    cuda(cudaMalloc(&ptr, n * sizeof(tf::bf16)), "cudaMalloc");
    cuda(cudaMemcpy(ptr, host.data(), n * sizeof(tf::bf16),
                    cudaMemcpyHostToDevice),
         "cudaMemcpy to the device");
  }
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;
  ~Device() { cudaFree(ptr); }

  tf::bf16 *data() const { return ptr; }
  std::vector<tf::bf16> host() const {
    std::vector<tf::bf16> out(n);
    cuda(cudaMemcpy(out.data(), ptr, n * sizeof(tf::bf16),
                    cudaMemcpyDeviceToHost),
         "cudaMemcpy to the host");
    return out;
  }

private:
  tf::bf16 *ptr = nullptr;
  std::size_t n = 0;
};

/// Median seconds per call of `f`, called back to back: 5 rounds of 20
/// after 10 warm-up calls, the median of the rounds' medians.
inline double sustained(const std::function<void()> &f) {
  cudaEvent_t start, stop;
  cuda(cudaEventCreate(&start), "cudaEventCreate");
  cuda(cudaEventCreate(&stop), "cudaEventCreate");
  for (int i = 0; i < 10; ++i)
    f();
  std::vector<double> rounds;
  for (int r = 0; r < 5; ++r) {
    std::vector<double> each;
    for (int i = 0; i < 20; ++i) {
      cuda(cudaEventRecord(start), "cudaEventRecord");
      f();
      cuda(cudaEventRecord(stop), "cudaEventRecord");
      cuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
      float ms = 0;
      cuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
      each.push_back(ms * 1e-3);
    }
    std::sort(each.begin(), each.end());
    rounds.push_back(each[each.size() / 2]);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(rounds.begin(), rounds.end());
  return rounds[rounds.size() / 2];
}

/// One test binary's run: the shapes, the checks and (with --bench) the
/// timings; the exit status is 0 only if every check passed.
class Run {
public:
  Run(int argc, char **argv, const char *name) : name(name) {
    bench = argc == 2 && std::string(argv[1]) == "--bench";
    if (argc > 2 || (argc == 2 && !bench)) {
      std::fprintf(stderr, "usage: %s [--bench]\n", argv[0]);
      std::exit(2);
    }
  }

  std::vector<rows_example::Shape> shapes() const {
    if (bench)
      return {{8192, 8192}, {32768, 4096}, {4096, 32768}, {65536, 1024}};
    return {{1, 1}, {5, 7}, {37, 1000}, {4, 1024}, {6, 2500}, {1000, 4096}, {7, 30000}};
  }

  /// Launches `launch` once, checks `out` (Rows x Cols) against `ref` with
  /// `floor` (rows_example::report), and with --bench times it against a
  /// copy of `bytes` (what it reads once and writes once).
  void check(const char *kernel, rows_example::Shape s,
             const std::function<void()> &launch, const Device &out,
             const rows_example::RowReference &ref, double bytes,
             double floor = 1e-6) {
    launch();
    cuda(cudaGetLastError(), kernel);
    cuda(cudaDeviceSynchronize(), kernel);
    check_output(kernel, s, out, ref, floor);
    if (bench)
      time(kernel, s, launch, bytes);
  }

  /// Checks `out` (Rows x Cols) against `ref` (a kernel already run).
  void check_output(const char *what, rows_example::Shape s, const Device &out,
                    const rows_example::RowReference &ref, double floor = 1e-6) {
    status |= rows_example::report(what, s, out.host(), ref, floor);
  }

  /// With --bench: `launch` timed back to back beside a device-to-device
  /// copy moving `bytes` (half read, half written), one line each.
  void time(const char *kernel, rows_example::Shape s,
            const std::function<void()> &launch, double bytes) {
    const std::size_t n = static_cast<std::size_t>(bytes / 2);
    void *from = nullptr, *to = nullptr;
    cuda(cudaMalloc(&from, n), "cudaMalloc");
    cuda(cudaMalloc(&to, n), "cudaMalloc");
    const double ours = sustained(launch);
    const double copy = sustained([&] {
      cuda(cudaMemcpyAsync(to, from, n, cudaMemcpyDeviceToDevice), "copy");
    });
    cudaFree(from);
    cudaFree(to);
    std::printf("BENCH %s %s %lld x %lld: %.1f us, %.0f GB/s; copy %.0f GB/s; "
                "%.3f of copy\n",
                name, kernel, static_cast<long long>(s.Rows),
                static_cast<long long>(s.Cols), ours * 1e6, bytes / ours * 1e-9,
                bytes / copy * 1e-9, copy / ours);
  }

  bool timing() const { return bench; }
  int exit_status() const {
    std::printf("%s %s\n", status ? "FAIL" : "PASS", name);
    return status;
  }

private:
  const char *name;
  bool bench = false;
  int status = 0;
};

} // namespace rows_test
