// STREAM-style DRAM bandwidth (test/device/measure_facts.sh runs it on the GPU
// host). OpenMP, static schedule, first-touch initialisation by the same
// threads; three arrays of N doubles (N*8 bytes each, far above any L3).
// Bytes counted the STREAM way (no write-allocate traffic):
//   copy  a = b          16 B/element
//   triad a = b + s*c    24 B/element
//   read  sum += b       8 B/element (read-only, no store ambiguity)
// Best (highest) of REPS repetitions. Prints "key = value" lines.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

static double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

int main(int argc, char** argv) {
  long n = argc > 1 ? std::atol(argv[1]) : (1L << 27);  // 1 GiB per array
  int reps = argc > 2 ? std::atoi(argv[2]) : 10;
  const char* tag = argc > 3 ? argv[3] : "stream";
  double* a = static_cast<double*>(std::aligned_alloc(4096, n * sizeof(double)));
  double* b = static_cast<double*>(std::aligned_alloc(4096, n * sizeof(double)));
  double* c = static_cast<double*>(std::aligned_alloc(4096, n * sizeof(double)));
  if (!a || !b || !c) { std::printf("%s.error = alloc\n", tag); return 1; }
#pragma omp parallel for schedule(static)
  for (long i = 0; i < n; ++i) { a[i] = 0.5; b[i] = 1.0 + (i & 7); c[i] = 2.0; }
  double bestCopy = 0, bestTriad = 0, bestRead = 0, sum = 0;
  const double s = 3.0;
  for (int r = 0; r < reps; ++r) {
    double t0 = now();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) a[i] = b[i];
    double t1 = now();
    bestCopy = std::max(bestCopy, 16.0 * n / (t1 - t0));
    t0 = now();
#pragma omp parallel for schedule(static)
    for (long i = 0; i < n; ++i) a[i] = b[i] + s * c[i];
    t1 = now();
    bestTriad = std::max(bestTriad, 24.0 * n / (t1 - t0));
    double part = 0;
    t0 = now();
#pragma omp parallel for simd schedule(static) reduction(+ : part)
    for (long i = 0; i < n; ++i) part += b[i];
    t1 = now();
    sum += part;
    bestRead = std::max(bestRead, 8.0 * n / (t1 - t0));
  }
  std::printf("%s.threads = %d\n", tag, omp_get_max_threads());
  std::printf("%s.array_bytes = %ld\n", tag, long(n * sizeof(double)));
  std::printf("%s.reps = %d\n", tag, reps);
  std::printf("%s.copy_bytes_per_s = %.6e\n", tag, bestCopy);
  std::printf("%s.triad_bytes_per_s = %.6e\n", tag, bestTriad);
  std::printf("%s.read_bytes_per_s = %.6e\n", tag, bestRead);
  std::printf("%s.check = %.1f\n", tag, a[n / 2] + sum * 0);
  return 0;
}
