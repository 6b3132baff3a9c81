// AMX detection: what is missing is named; this machine's answer is
// consistent with its CPUID.
#include "tf/runtime/amx/cpu.hpp"

#include <gtest/gtest.h>

namespace {

namespace amx = tf::runtime::amx;

amx::CpuFeatures everything() {
  return {.x86_64 = true,
          .amx_tile = true,
          .amx_bf16 = true,
          .amx_int8 = true,
          .avx512f = true,
          .avx512_bf16 = true,
          .os_tile_state = true,
          .os_avx512_state = true};
}

TEST(AmxCpu, NamesWhatIsMissing) {
  EXPECT_EQ(amx::missing_features(everything()), "");
  amx::CpuFeatures f = everything();
  f.amx_bf16 = f.amx_int8 = false;
  EXPECT_EQ(amx::missing_features(f), "this CPU lacks amx_bf16, amx_int8");
  f = everything();
  f.os_tile_state = false;
  EXPECT_EQ(amx::missing_features(f),
            "the OS does not enable XTILECFG/XTILEDATA in XCR0");
  f.avx512_bf16 = false;
  EXPECT_EQ(amx::missing_features(f),
            "this CPU lacks avx512_bf16; the OS does not enable "
            "XTILECFG/XTILEDATA in XCR0");
  EXPECT_EQ(amx::missing_features(amx::CpuFeatures{}), "an x86-64 CPU");
}

TEST(AmxCpu, EnableAmxAnswersFromThisCpuOncePerProcess) {
  const std::string missing = amx::missing_features(amx::detect_cpu());
  const std::string &first = amx::enable_amx();
  if (!missing.empty()) {
    EXPECT_EQ(first, missing);
  }
  EXPECT_EQ(&amx::enable_amx(), &first);
}

TEST(AmxCpuDeathTest, RequireAmxStopsWithTheReason) {
  if (amx::enable_amx().empty())
    GTEST_SKIP() << "this machine runs AMX code";
  EXPECT_DEATH(amx::require_amx("gemm::gemm"),
               "tf: error: kernel 'gemm::gemm' needs AMX: .*build it without "
               "-mamx-\\* to run the emulation");
}

} // namespace
