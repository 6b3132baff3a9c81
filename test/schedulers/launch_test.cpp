//===- test/schedulers/launch_test.cpp - Header-only execution ------------===//
//
// tf::launch runs every grid coordinate exactly once, in parallel, with the
// unit queries answering for it; outside a launch they stop the program.
//
//===----------------------------------------------------------------------===//
#include "tf/launch.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace {

// Kernels are ordinary functions with external linkage.
void count_kernel(std::atomic<int> *hits, std::atomic<int> *extent_errors,
                  std::int64_t expected_extent) {
  const std::int64_t i = tf::unit_index();
  hits[i].fetch_add(1);
  if (tf::unit_extent("cta") != expected_extent || !tf::in_launch())
    extent_errors->fetch_add(1);
}

TEST(Launch, RunsEveryCoordinateExactlyOnce) {
  for (std::int64_t g : {1, 2, 3, 7, 64, 132, 1000}) {
    std::vector<std::atomic<int>> hits(static_cast<std::size_t>(g));
    std::atomic<int> errors{0};
    tf::launch(count_kernel, tf::grid(g), hits.data(), &errors, g);
    for (std::int64_t i = 0; i < g; ++i)
      EXPECT_EQ(hits[static_cast<std::size_t>(i)].load(), 1) << i << " of " << g;
    EXPECT_EQ(errors.load(), 0);
  }
}

TEST(Launch, KernelMayBeAFunctionPointerOrCallable) {
  std::vector<std::atomic<int>> hits(3);
  std::atomic<int> errors{0};
  tf::launch(&count_kernel, tf::grid(3), hits.data(), &errors, std::int64_t{3});
  EXPECT_EQ(hits[0] + hits[1] + hits[2], 3);
  EXPECT_EQ(errors.load(), 0);
  std::atomic<std::int64_t> sum{0};
  tf::launch([&sum] { sum += tf::unit_index(); }, tf::grid(100));
  EXPECT_EQ(sum.load(), 99 * 100 / 2);
}

TEST(Launch, ArgumentsByValueAreCopiesByReferenceShared) {
  struct Counter {
    int value = 0;
  };
  Counter shared;
  std::mutex lock;
  auto kernel = [&lock](Counter copy, Counter &ref) {
    ++copy.value; // a CTA's own copy
    std::lock_guard<std::mutex> hold(lock);
    ref.value += copy.value;
  };
  Counter start;
  tf::launch(kernel, tf::grid(10), start, shared);
  EXPECT_EQ(start.value, 0); // each CTA incremented its own copy
  EXPECT_EQ(shared.value, 10);
}

TEST(Launch, RunsInParallelWhenThereAreWorkers) {
  if (std::thread::hardware_concurrency() < 2 || std::getenv("TF_LAUNCH_WORKERS"))
    GTEST_SKIP() << "one worker only";
  // Two CTAs that each wait (bounded) for the other to have started: this
  // finishes only when they run at the same time. (Real kernels must not
  // depend on each other; this only observes the workers.)
  std::atomic<int> started{0};
  std::atomic<bool> overlapped{false};
  tf::launch(
      [&] {
        started.fetch_add(1);
        for (int spin = 0; spin < 2000000 && started.load() < 2; ++spin)
          std::this_thread::yield();
        if (started.load() >= 2)
          overlapped = true;
      },
      tf::grid(2));
  EXPECT_TRUE(overlapped.load());
}

TEST(Launch, ParallelResultsEqualSequentialOnes) {
  // Each CTA writes its own rows of a shared output: a grid GEMV.
  const int rows = 257, cols = 33, per_cta = 8;
  std::vector<float> a(rows * cols), x(cols), y(rows, -1.0f), want(rows, 0.0f);
  for (int i = 0; i < rows * cols; ++i)
    a[i] = static_cast<float>((i * 37) % 11) - 5.0f;
  for (int j = 0; j < cols; ++j)
    x[j] = static_cast<float>(j % 7) * 0.5f;
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < cols; ++j)
      want[r] += a[r * cols + j] * x[j];
  auto gemv = [&](float *out) {
    const std::int64_t first = tf::unit_index() * per_cta;
    for (std::int64_t r = first; r < first + per_cta && r < rows; ++r) {
      float acc = 0.0f;
      for (int j = 0; j < cols; ++j)
        acc += a[r * cols + j] * x[j];
      out[r] = acc;
    }
  };
  tf::launch(gemv, tf::grid((rows + per_cta - 1) / per_cta), y.data());
  EXPECT_EQ(y, want);
}

TEST(Launch, ThreadsAreJoinedAndContextRestored) {
  EXPECT_FALSE(tf::in_launch());
  std::atomic<int> done{0};
  tf::launch([&] { done.fetch_add(1); }, tf::grid(50));
  EXPECT_EQ(done.load(), 50); // all ran before launch returned
  EXPECT_FALSE(tf::in_launch());
}

TEST(Launch, NestedLaunchRestoresTheOuterUnit) {
  std::atomic<int> mismatches{0};
  tf::launch(
      [&] {
        const std::int64_t outer = tf::unit_index();
        tf::launch([] {}, tf::grid(3));
        if (tf::unit_index() != outer || tf::unit_extent() != 4)
          mismatches.fetch_add(1);
      },
      tf::grid(4));
  EXPECT_EQ(mismatches.load(), 0);
}

TEST(Launch, WorkersEnvironmentCapsThreads) {
  // TF_LAUNCH_WORKERS=1: every coordinate on the calling thread, in order.
  const char *old = std::getenv("TF_LAUNCH_WORKERS");
  std::string saved = old ? old : "";
  setenv("TF_LAUNCH_WORKERS", "1", 1);
  std::vector<std::int64_t> order;
  const std::thread::id caller = std::this_thread::get_id();
  bool same_thread = true;
  tf::launch(
      [&] {
        order.push_back(tf::unit_index());
        same_thread = same_thread && std::this_thread::get_id() == caller;
      },
      tf::grid(6));
  if (old)
    setenv("TF_LAUNCH_WORKERS", saved.c_str(), 1);
  else
    unsetenv("TF_LAUNCH_WORKERS");
  EXPECT_EQ(order, (std::vector<std::int64_t>{0, 1, 2, 3, 4, 5}));
  EXPECT_TRUE(same_thread);
  EXPECT_EQ(tf::detail::launch_workers(1000) >= 1, true);
  EXPECT_EQ(tf::detail::launch_workers(1), 1);
}

using LaunchDeathTest = ::testing::Test;

TEST_F(LaunchDeathTest, UnitQueriesOutsideALaunchStop) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(tf::unit_index(),
               "tf: error: tf::unit_index\\(\"cta\"\\) was called outside "
               "tf::launch; unit queries answer only while tf::launch runs a "
               "kernel");
  EXPECT_DEATH(tf::unit_extent("cta"),
               "tf: error: tf::unit_extent\\(\"cta\"\\) was called outside "
               "tf::launch");
}

TEST_F(LaunchDeathTest, QueriesBelowTheGridStop) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(tf::launch([] { (void)tf::unit_index("thread"); }, tf::grid(2)),
               "tf::unit_index\\(\"thread\"\\): header-only execution runs one "
               "unit per coordinate of level 'cta' and runs every mesh scope "
               "collectively, so level 'thread' has no current unit");
}

TEST_F(LaunchDeathTest, BadWorkerCountStops) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(
      {
        setenv("TF_LAUNCH_WORKERS", "zero", 1);
        tf::launch([] {}, tf::grid(2));
      },
      "TF_LAUNCH_WORKERS='zero' is not a positive number");
}

TEST_F(LaunchDeathTest, AbortingKernelEndsTheProgram) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(tf::launch(
                   [] {
                     if (tf::unit_index() == 5)
                       std::abort();
                   },
                   tf::grid(8)),
               "");
}

} // namespace
