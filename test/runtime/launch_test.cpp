//===- test/runtime/launch_test.cpp - The launcher registry ---------------===//
//
// tf::launch runs a registered launcher when one is linked for the kernel's
// address, with the arguments converted to the parameters' types and
// type-erased; otherwise it runs the kernel on the CPU.
//
//===----------------------------------------------------------------------===//
#include "kernels.hpp"

#include "tf/launch.hpp"
#include "tf/runtime/registry.hpp"
#include "tf/tensor.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <vector>

namespace tf_runtime_test {

void counted(std::atomic<long> *hits, long step) {
  hits->fetch_add(step * tf::unit_index());
}

SeenByLauncher &seen_by_launcher() {
  static SeenByLauncher seen;
  return seen;
}

} // namespace tf_runtime_test

namespace {

using tf_runtime_test::seen_by_launcher;

using Matrix = tf::Tensor<float, "(?,?)">;
using Blocked = tf::Tensor<tf::bf16, "((2,?),8):((?,8),1)">;

void on_cpu_only(std::atomic<int> *runs) { runs->fetch_add(1); }

void takes_tensors(Matrix a, Blocked b, std::int64_t k, float &out) {
  out = static_cast<float>(a.extent(0) + b.extent(0) + k);
}

/// What the test launcher of takes_tensors records.
struct Recorded {
  int calls = 0;
  std::int64_t grid = 0;
  tf::runtime::KernelArg args[4];
  /// The value behind args[2]: an erased by-value argument points at the
  /// converted copy launch makes, which lives only for the call.
  std::int64_t k = 0;
};
Recorded recorded;

void record(const tf::runtime::LaunchRequest &request) {
  ++recorded.calls;
  recorded.grid = request.grid;
  for (std::size_t i = 0; i < request.args.size(); ++i)
    recorded.args[i] = request.args[i];
  if (request.args.size() > 2 &&
      request.args[2].kind == tf::runtime::KernelArg::Kind::value)
    recorded.k = *static_cast<const std::int64_t *>(request.args[2].value);
}

TEST(LaunchRegistry, WithoutALauncherTheKernelRunsOnTheCpu) {
  EXPECT_EQ(
      tf::runtime::find_launcher(tf::runtime::kernel_address(&on_cpu_only)),
      nullptr);
  std::atomic<int> runs{0};
  tf::launch(on_cpu_only, tf::grid(5), &runs);
  EXPECT_EQ(runs.load(), 5);
}

TEST(LaunchRegistry, AnotherTranslationUnitRegistersThroughAnAsmLabel) {
  // generated_launcher.cpp names tf_runtime_test::counted by its mangled
  // name only; the registry must hold the same address as &counted.
  const tf::runtime::LauncherEntry *entry = tf::runtime::find_launcher(
      tf::runtime::kernel_address(&tf_runtime_test::counted));
  ASSERT_NE(entry, nullptr);
  EXPECT_STREQ(entry->name, "tf_runtime_test::counted");

  seen_by_launcher() = {};
  std::atomic<long> hits{0};
  const short step = 7; // converted to the parameter's `long` before erasure
  tf::launch(tf_runtime_test::counted, tf::grid(132), &hits, step);
  EXPECT_EQ(hits.load(), 0) << "the CPU body ran although a launcher exists";
  EXPECT_EQ(seen_by_launcher().calls, 1);
  EXPECT_EQ(seen_by_launcher().grid, 132);
  EXPECT_EQ(seen_by_launcher().step, 7);
}

TEST(LaunchRegistry, TensorsCrossAsLeavesOutermostFirst) {
  std::vector<float> a(6 * 10);
  std::vector<tf::bf16> b(2 * 3 * 8);
  float out = 0;
  const Matrix ma(a.data(), {6, 10});
  const Blocked mb(b.data(), {3}, {24});
  {
    tf::launch(takes_tensors, tf::grid(1), ma, mb, 4, out);
    EXPECT_EQ(out, 6 + 6 + 4) << "no launcher yet: the CPU ran it";
  }
  recorded = {};
  {
    const tf::runtime::Registrar shadow{
        tf::runtime::kernel_address(&takes_tensors), "takes_tensors", &record};
    out = 0;
    tf::launch(&takes_tensors, tf::grid(3), ma, mb, 4, out);
  }
  EXPECT_EQ(out, 0) << "the CPU body ran although a launcher exists";
  ASSERT_EQ(recorded.calls, 1);
  EXPECT_EQ(recorded.grid, 3);

  const tf::runtime::TensorArg &ta = recorded.args[0].tensor;
  ASSERT_EQ(recorded.args[0].kind, tf::runtime::KernelArg::Kind::tensor);
  EXPECT_EQ(ta.data, a.data());
  EXPECT_EQ(ta.rank, 2);
  EXPECT_EQ(ta.dtype, tf::DType::f32);
  EXPECT_EQ(ta.storage, tf::Storage::gmem);
  EXPECT_EQ(ta.extents[0], 6);
  EXPECT_EQ(ta.extents[1], 10);
  EXPECT_EQ(ta.strides[0], 10);
  EXPECT_EQ(ta.strides[1], 1);

  const tf::runtime::TensorArg &tb = recorded.args[1].tensor;
  ASSERT_EQ(recorded.args[1].kind, tf::runtime::KernelArg::Kind::tensor);
  EXPECT_EQ(tb.rank, 3);
  EXPECT_EQ(tb.dtype, tf::DType::bf16);
  EXPECT_EQ(tb.extents[0], 2);
  EXPECT_EQ(tb.extents[1], 3);
  EXPECT_EQ(tb.extents[2], 8);
  EXPECT_EQ(tb.strides[0], 24);
  EXPECT_EQ(tb.strides[1], 8);
  EXPECT_EQ(tb.strides[2], 1);
  EXPECT_EQ(tb.size(), 48);

  ASSERT_EQ(recorded.args[2].kind, tf::runtime::KernelArg::Kind::value);
  EXPECT_EQ(recorded.k, 4);
  // A reference parameter passes the caller's object itself.
  EXPECT_EQ(recorded.args[3].value, &out);
}

TEST(LaunchRegistry, ARegistrarUnregistersWhenDestroyedAndTheLatestWins) {
  const void *key = tf::runtime::kernel_address(&on_cpu_only);
  {
    const tf::runtime::Registrar first{key, "first", &record};
    {
      const tf::runtime::Registrar second{key, "second", &record};
      EXPECT_STREQ(tf::runtime::find_launcher(key)->name, "second");
    }
    EXPECT_STREQ(tf::runtime::find_launcher(key)->name, "first");
  }
  EXPECT_EQ(tf::runtime::find_launcher(key), nullptr);
  // Entries registered before and after stay reachable.
  EXPECT_NE(tf::runtime::find_launcher(
                tf::runtime::kernel_address(&tf_runtime_test::counted)),
            nullptr);
}

TEST(LaunchRegistry, CallablesWithoutAnAddressRunOnTheCpu) {
  std::atomic<int> runs{0};
  tf::launch([&runs] { runs.fetch_add(1); }, tf::grid(4));
  EXPECT_EQ(runs.load(), 4);
}

} // namespace
