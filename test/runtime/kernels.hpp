//===- test/runtime/kernels.hpp - Kernels of the launcher registry tests --===//
//
// Host kernels that launch_test.cpp launches; generated_launcher.cpp plays
// the generated `.cu` for one of them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <atomic>
#include <cstdint>

namespace tf_runtime_test {

/// Adds the grid coordinate to hits[0]. Its mangled name,
/// _ZN15tf_runtime_test7countedEPSt6atomicIlEl, is what
/// generated_launcher.cpp redeclares.
void counted(std::atomic<long> *hits, long step);

/// What the fake generated launcher of `counted` saw, and how often it ran.
struct SeenByLauncher {
  int calls = 0;
  std::int64_t grid = 0;
  long step = 0;
};
SeenByLauncher &seen_by_launcher();

} // namespace tf_runtime_test
