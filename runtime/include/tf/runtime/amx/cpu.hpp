//===- tf/runtime/amx/cpu.hpp - AMX detection and permission --------------===//
//
// Before the first tile instruction a process needs (Intel SDM Vol. 1,
// 13.2 and 18.3; Linux Documentation/arch/x86/xstate.rst):
//   - the CPU's features, from CPUID leaf 7: amx_tile (EDX bit 24), amx_bf16
//     (EDX 22), amx_int8 (EDX 25), avx512f (EBX 16) in subleaf 0 and
//     avx512_bf16 (EAX 5) in subleaf 1 -- the packing and epilogue code of
//     the AMX backend uses AVX-512;
//   - the OS's enabling of the state components in XCR0 (OSXSAVE, CPUID.1
//     ECX bit 27, then XGETBV 0): XTILECFG (bit 17) and XTILEDATA (bit 18)
//     for AMX, opmask/ZMM (bits 5-7) with SSE/AVX (bits 1-2) for AVX-512;
//   - Linux's per-process permission for the 8 KiB XTILEDATA state:
//     arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA), without which
//     the first tile instruction dies with SIGILL.
// enable_amx does all of it once per process; require_amx stops the
// program with what is missing:
//
//   tf: error: kernel 'gemm::gemm' needs AMX: this CPU lacks amx_tile,
//   amx_bf16, amx_int8 (build it without -mamx-* to run the emulation)
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/amx/fault.hpp"

#include <cstdint>
#include <string>

#if defined(__x86_64__)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace tf::runtime::amx {

/// What CPUID and XCR0 say about the features the AMX backend uses.
struct CpuFeatures {
  bool x86_64 = false;
  bool amx_tile = false;
  bool amx_bf16 = false;
  bool amx_int8 = false;
  bool avx512f = false;
  bool avx512_bf16 = false;
  /// XCR0 enables XTILECFG and XTILEDATA.
  bool os_tile_state = false;
  /// XCR0 enables SSE, AVX, opmask and both ZMM halves.
  bool os_avx512_state = false;
};

/// The names of what `f` lacks for AMX code, comma-separated; empty when
/// nothing is missing.
inline std::string missing_features(const CpuFeatures &f) {
  if (!f.x86_64)
    return "an x86-64 CPU";
  std::string cpu, os;
  auto add = [](std::string &list, bool present, const char *name) {
    if (!present)
      list += (list.empty() ? "" : ", ") + std::string(name);
  };
  add(cpu, f.amx_tile, "amx_tile");
  add(cpu, f.amx_bf16, "amx_bf16");
  add(cpu, f.amx_int8, "amx_int8");
  add(cpu, f.avx512f, "avx512f");
  add(cpu, f.avx512_bf16, "avx512_bf16");
  add(os, f.os_tile_state, "XTILECFG/XTILEDATA");
  add(os, f.os_avx512_state, "AVX-512 state");
  std::string out;
  if (!cpu.empty())
    out = "this CPU lacks " + cpu;
  if (!os.empty())
    out += (out.empty() ? "" : "; ") + ("the OS does not enable " + os +
                                         " in XCR0");
  return out;
}

#if defined(__x86_64__)

/// CPUID and XGETBV on the calling CPU.
inline CpuFeatures detect_cpu() {
  CpuFeatures f;
  f.x86_64 = true;
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d))
    return f;
  f.amx_bf16 = d & (1u << 22);
  f.amx_tile = d & (1u << 24);
  f.amx_int8 = d & (1u << 25);
  f.avx512f = b & (1u << 16);
  if (a >= 1 && __get_cpuid_count(7, 1, &a, &b, &c, &d))
    f.avx512_bf16 = a & (1u << 5);
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << 27)))
    return f; // no OSXSAVE: XGETBV would fault
  std::uint32_t xcr0_low, xcr0_high;
  asm volatile("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
  const std::uint64_t xcr0 =
      (static_cast<std::uint64_t>(xcr0_high) << 32) | xcr0_low;
  constexpr std::uint64_t tile_state = (1u << 17) | (1u << 18);
  constexpr std::uint64_t avx512_state =
      (1u << 1) | (1u << 2) | (1u << 5) | (1u << 6) | (1u << 7);
  f.os_tile_state = (xcr0 & tile_state) == tile_state;
  f.os_avx512_state = (xcr0 & avx512_state) == avx512_state;
  return f;
}

/// Linux's arch_prctl codes (asm/prctl.h) and XTILEDATA's state component.
inline constexpr int arch_get_xcomp_perm = 0x1022;
inline constexpr int arch_req_xcomp_perm = 0x1023;
inline constexpr int xfeature_xtiledata = 18;

/// Asks Linux for the XTILEDATA permission; empty on success, else why not.
inline std::string request_tile_permission() {
  if (syscall(SYS_arch_prctl, arch_req_xcomp_perm, xfeature_xtiledata) != 0)
    return "arch_prctl(ARCH_REQ_XCOMP_PERM, XFEATURE_XTILEDATA) failed";
  unsigned long permitted = 0;
  if (syscall(SYS_arch_prctl, arch_get_xcomp_perm, &permitted) != 0 ||
      !(permitted & (1ul << xfeature_xtiledata)))
    return "the kernel did not grant the XTILEDATA permission";
  return {};
}

#else

inline CpuFeatures detect_cpu() { return {}; }
inline std::string request_tile_permission() { return "not an x86-64 CPU"; }

#endif

/// Detects AMX and obtains the permission, once per process (later calls
/// return the first answer). Empty when AMX code may run, else why not.
inline const std::string &enable_amx() {
  static const std::string why_not = [] {
    std::string missing = missing_features(detect_cpu());
    return missing.empty() ? request_tile_permission() : missing;
  }();
  return why_not;
}

/// Stops the program unless AMX code may run; `kernel` names who needs it.
inline void require_amx(const char *kernel) {
  if (const std::string &why_not = enable_amx(); !why_not.empty())
    fatal(std::string("kernel '") + kernel + "' needs AMX: " + why_not +
          " (build it without -mamx-* to run the emulation)");
}

} // namespace tf::runtime::amx
