// AMX BF16 peak microbenchmark (test/device/measure_facts.sh runs it on the
// GPU host). Prints "key = value" lines.
//
// Kernel: tiles 0..3 are 16x16 FP32 accumulators, tiles 4,5 (A, 16 rows x 32
// BF16) and 6,7 (B, VNNI 16 rows x 64 bytes) are sources loaded once; the loop
// issues only independent TDPBF16PS (each accumulator's chain is 4
// instructions apart), no loads or stores. One TDPBF16PS = 16*16*32*2 = 16384
// FLOP.
//
// Clock: there are no perf counters or MSRs in the VM, so the core clock is
// measured with a dependent chain of register-register ADDs (latency 1 cycle),
// cross-checked with a chain of IMULs (latency 3 cycles):
//   clock.idle  = chain alone,
//   clock.amx   = the same chain in one loop with TDPBF16PS (the chain is
//                 longer than the AMX work per iteration, so the loop time is
//                 the chain's and the core runs with AMX busy, i.e. at its AMX
//                 frequency).
// FLOP/cycle/core = (AMX-only FLOP/s per core) / clock.amx.
#include <immintrin.h>
#include <x86intrin.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#define ARCH_REQ_XCOMP_PERM 0x1023
#define XFEATURE_XTILEDATA 18

namespace {

struct alignas(64) TileConfig {
  uint8_t palette_id;
  uint8_t start_row;
  uint8_t reserved[14];
  uint16_t colsb[16];
  uint8_t rows[16];
};

constexpr double kFlopPerTdp = 16.0 * 16.0 * 32.0 * 2.0;  // 16384

alignas(64) uint16_t gA[2][16 * 32];
alignas(64) uint16_t gB[2][16 * 32];

double now() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

void pin(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

void setupTiles() {
  TileConfig cfg;
  std::memset(&cfg, 0, sizeof(cfg));
  cfg.palette_id = 1;
  for (int t = 0; t < 8; ++t) {
    cfg.rows[t] = 16;
    cfg.colsb[t] = 64;
  }
  _tile_loadconfig(&cfg);
  _tile_zero(0);
  _tile_zero(1);
  _tile_zero(2);
  _tile_zero(3);
  _tile_loadd(4, gA[0], 64);
  _tile_loadd(5, gA[1], 64);
  _tile_loadd(6, gB[0], 64);
  _tile_loadd(7, gB[1], 64);
}

__attribute__((noinline)) void amxLoop(long iters) {
  for (long i = 0; i < iters; ++i) {
    // 16 TDPBF16PS per iteration, 4 independent accumulators.
    _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
    _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
    _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
    _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
  }
}
constexpr int kTdpPerIter = 16;

// Dependent chain of 256 register-register ADDs per iteration.
__attribute__((noinline)) uint64_t addChain(long iters, uint64_t x, uint64_t y) {
  for (long i = 0; i < iters; ++i)
    asm volatile(".rept 256\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(y));
  return x;
}
constexpr int kAddsPerIter = 256;

// Dependent chain of 64 IMULs (latency 3) per iteration: 192 cycles.
__attribute__((noinline)) uint64_t imulChain(long iters, uint64_t x, uint64_t y) {
  for (long i = 0; i < iters; ++i)
    asm volatile(".rept 64\n\timulq %1, %0\n\t.endr" : "+r"(x) : "r"(y));
  return x;
}
constexpr int kImulsPerIter = 64;

// 4 TDPBF16PS (64 cycles at 16 cycles each) beside 256 dependent ADDs
// (256 cycles): the chain bounds the loop while the AMX unit stays busy a
// quarter of the time. A second variant with 16 TDPBF16PS per 256 ADDs keeps
// it busy all the time (then the loop is bound by whichever is slower).
__attribute__((noinline)) uint64_t mixedLoop4(long iters, uint64_t x, uint64_t y) {
  for (long i = 0; i < iters; ++i) {
    _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
    asm volatile(".rept 256\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(y));
  }
  return x;
}
__attribute__((noinline)) uint64_t mixedLoop12(long iters, uint64_t x, uint64_t y) {
  for (long i = 0; i < iters; ++i) {
    _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
    asm volatile(".rept 128\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(y));
    _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
    _tile_dpbf16ps(0, 4, 6); _tile_dpbf16ps(1, 4, 7);
    _tile_dpbf16ps(2, 5, 6); _tile_dpbf16ps(3, 5, 7);
    asm volatile(".rept 128\n\taddq %1, %0\n\t.endr" : "+r"(x) : "r"(y));
  }
  return x;
}

struct Result {
  double amxSeconds = 0, amxTsc = 0;   // AMX-only loop
  double addHz = 0, imulHz = 0;        // chains alone
  double mixed4Hz = 0, mixed12Hz = 0;  // chain with AMX beside it
  double mixed12TdpPerS = 0;
  int ok = 0;
};

bool gQuick = false;
std::atomic<int> gReady{0};
std::atomic<int> gGo{0};

void barrier(int phase, int nthreads) {
  gReady.fetch_add(1);
  while (gReady.load() < nthreads * phase) {}
}

// Runs every phase; all threads start each phase together.
void worker(int cpu, int nthreads, long amxIters, long chainIters, Result* r) {
  pin(cpu);
  setupTiles();
  volatile uint64_t sink = 0;
  // warm-up (frequency ramp, AMX power-up): about 0.2 s of AMX
  amxLoop(amxIters / 4);
  int phase = 1;
  barrier(phase++, nthreads);
  double t0 = now();
  uint64_t c0 = __rdtsc();
  amxLoop(amxIters);
  uint64_t c1 = __rdtsc();
  double t1 = now();
  r->amxSeconds = t1 - t0;
  r->amxTsc = double(c1 - c0);
  if (gQuick) {  // AMX_QUICK=1: the AMX-only phase alone
    _tile_release();
    r->ok = 1;
    return;
  }

  barrier(phase++, nthreads);
  t0 = now();
  sink = sink + addChain(chainIters, 1, 3);
  r->addHz = double(chainIters) * kAddsPerIter / (now() - t0);

  barrier(phase++, nthreads);
  t0 = now();
  sink = sink + imulChain(chainIters / 3, 1, 3);
  r->imulHz = double(chainIters / 3) * kImulsPerIter * 3 / (now() - t0);

  barrier(phase++, nthreads);
  t0 = now();
  sink = sink + mixedLoop4(chainIters, 1, 3);
  r->mixed4Hz = double(chainIters) * kAddsPerIter / (now() - t0);

  barrier(phase++, nthreads);
  t0 = now();
  sink = sink + mixedLoop12(chainIters, 1, 3);
  double dt = now() - t0;
  r->mixed12Hz = double(chainIters) * kAddsPerIter / dt;
  r->mixed12TdpPerS = double(chainIters) * 12 / dt;

  // Keep the accumulators observable.
  alignas(64) float c[16 * 16];
  _tile_stored(0, c, 64);
  _tile_release();
  r->ok = (c[0] == c[0]) ? 1 : 0;
  (void)sink;
}

int run(const char* tag, const std::vector<int>& cpus, double seconds) {
  int nthreads = int(cpus.size());
  // Calibrate iteration counts on one thread (assume about 16 cycles per
  // TDPBF16PS and ~3 GHz; the count only sets the run length).
  long amxIters = long(seconds * 3.0e9 / (16.0 * kTdpPerIter));
  long chainIters = long(seconds * 3.0e9 / 256.0 / 2);
  gReady = 0;
  std::vector<Result> res(nthreads);
  std::vector<std::thread> th;
  for (int t = 0; t < nthreads; ++t)
    th.emplace_back(worker, cpus[t], nthreads, amxIters, chainIters, &res[t]);
  for (auto& t : th) t.join();

  double tdp = double(amxIters) * kTdpPerIter;
  double maxSec = 0, sumTdpPerS = 0, minTdpPerS = 1e300, maxTdpPerS = 0;
  double addHz = 0, imulHz = 0, m4 = 0, m12 = 0, m12tdp = 0, tscHz = 0;
  for (auto& r : res) {
    maxSec = std::max(maxSec, r.amxSeconds);
    double tps = tdp / r.amxSeconds;
    sumTdpPerS += tps;
    minTdpPerS = std::min(minTdpPerS, tps);
    maxTdpPerS = std::max(maxTdpPerS, tps);
    addHz += r.addHz / nthreads;
    imulHz += r.imulHz / nthreads;
    m4 += r.mixed4Hz / nthreads;
    m12 += r.mixed12Hz / nthreads;
    m12tdp += r.mixed12TdpPerS / nthreads;
    tscHz += r.amxTsc / r.amxSeconds / nthreads;
  }
  double perCoreFlops = sumTdpPerS / nthreads * kFlopPerTdp;
  std::printf("amx.%s.threads = %d\n", tag, nthreads);
  std::printf("amx.%s.cpus =", tag);
  for (int c : cpus) std::printf(" %d", c);
  std::printf("\n");
  std::printf("amx.%s.seconds_max = %.4f\n", tag, maxSec);
  std::printf("amx.%s.tdpbf16ps_per_s_per_thread =", tag);
  for (auto& r : res) std::printf(" %.3e", tdp / r.amxSeconds);
  std::printf("\n");
  std::printf("amx.%s.tsc_hz = %.0f\n", tag, tscHz);
  std::printf("amx.%s.tdpbf16ps_per_s_per_core_mean = %.6e\n", tag, sumTdpPerS / nthreads);
  std::printf("amx.%s.tdpbf16ps_per_s_per_core_min = %.6e\n", tag, minTdpPerS);
  std::printf("amx.%s.tdpbf16ps_per_s_per_core_max = %.6e\n", tag, maxTdpPerS);
  std::printf("amx.%s.flop_per_s_per_core = %.6e\n", tag, perCoreFlops);
  std::printf("amx.%s.flop_per_s_total_sum = %.6e\n", tag, sumTdpPerS * kFlopPerTdp);
  std::printf("amx.%s.flop_per_s_total_wall = %.6e\n", tag, tdp * nthreads * kFlopPerTdp / maxSec);
  if (gQuick) {
    std::fflush(stdout);
    return 0;
  }
  std::printf("amx.%s.clock_add_chain_hz = %.0f\n", tag, addHz);
  std::printf("amx.%s.clock_imul_chain_hz = %.0f\n", tag, imulHz);
  std::printf("amx.%s.clock_add_chain_with_4tdp_hz = %.0f\n", tag, m4);
  std::printf("amx.%s.clock_add_chain_with_12tdp_hz = %.0f\n", tag, m12);
  std::printf("amx.%s.mixed12_tdpbf16ps_per_s_per_core = %.6e\n", tag, m12tdp);
  std::printf("amx.%s.cycles_per_tdpbf16ps_at_add_clock = %.3f\n", tag, addHz / (sumTdpPerS / nthreads));
  std::printf("amx.%s.cycles_per_tdpbf16ps_at_amx_clock = %.3f\n", tag, m4 / (sumTdpPerS / nthreads));
  std::printf("amx.%s.flop_per_cycle_per_core_at_amx_clock = %.1f\n", tag, perCoreFlops / m4);
  std::printf("amx.%s.flop_per_cycle_per_core_at_add_clock = %.1f\n", tag, perCoreFlops / addHz);
  std::printf("amx.%s.flop_per_cycle_per_core_at_tsc = %.1f\n", tag, perCoreFlops / tscHz);
  std::fflush(stdout);
  return 0;
}

}  // namespace

// Usage: amx_peak SECONDS CPULIST...   (CPULIST: comma-separated cpu ids; one
// run per list, tagged tN with N the list's length, or tN_M for repeats).
int main(int argc, char** argv) {
  double seconds = argc > 1 ? std::atof(argv[1]) : 1.0;
  if (syscall(SYS_arch_prctl, ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) != 0) {
    std::perror("arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA)");
    std::printf("amx.permission = denied\n");
    return 1;
  }
  std::printf("amx.permission = granted\n");
  gQuick = std::getenv("AMX_QUICK") && std::getenv("AMX_QUICK")[0] == '1';
  // Random-ish BF16 sources (values in [1, 2); no zeros).
  uint32_t s = 12345;
  for (auto* p : {gA[0], gA[1], gB[0], gB[1]})
    for (int i = 0; i < 16 * 32; ++i) {
      s = s * 1664525u + 1013904223u;
      p[i] = uint16_t(0x3f80 | ((s >> 16) & 0x7f));
    }
  std::vector<std::vector<int>> lists;
  for (int a = 2; a < argc; ++a) {
    std::vector<int> cpus;
    for (char* tok = std::strtok(argv[a], ","); tok; tok = std::strtok(nullptr, ","))
      cpus.push_back(std::atoi(tok));
    if (!cpus.empty()) lists.push_back(cpus);
  }
  if (lists.empty()) lists.push_back({0});
  std::vector<std::string> seen;
  for (auto& l : lists) {
    std::string tag = "t" + std::to_string(l.size());
    int k = 1;
    std::string t = tag;
    while (std::find(seen.begin(), seen.end(), t) != seen.end())
      t = tag + "_" + std::to_string(++k);
    seen.push_back(t);
    run(t.c_str(), l, seconds);
  }
  return 0;
}
