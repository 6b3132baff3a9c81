// The pinned worker pool: every task once, on its worker's CPU, abort
// semantics on exceptions.
#include "tf/runtime/amx/worker_pool.hpp"

#include <gtest/gtest.h>

#include <sched.h>

#include <atomic>
#include <stdexcept>
#include <vector>

namespace {

using tf::runtime::amx::WorkerPool;

int workers_here() {
  return std::min<int>(4, tf::runtime::amx::allowed_cpus().size());
}

TEST(AmxWorkerPool, RunsEveryTaskOnceOnAPinnedWorker) {
  WorkerPool pool(workers_here());
  ASSERT_EQ(pool.size(), workers_here());
  for (std::int64_t tasks : {0, 1, 7, 1000}) {
    std::vector<std::atomic<int>> runs(tasks);
    std::atomic<int> misplaced{0};
    pool.parallel_for(tasks, [&](std::int64_t i, int worker) {
      ++runs[i];
      if (sched_getcpu() != pool.cpu(worker))
        ++misplaced;
    });
    for (std::int64_t i = 0; i < tasks; ++i)
      ASSERT_EQ(runs[i], 1) << "task " << i << " of " << tasks;
    EXPECT_EQ(misplaced, 0);
  }
}

TEST(AmxWorkerPool, AThrowingTaskStopsNewTasksAndIsRethrown) {
  // One worker takes the tasks in order: none starts after the one that
  // threw. (With several, how many others start before the failure is seen
  // depends on the scheduler: a loaded machine may run them all.)
  WorkerPool one(1);
  std::atomic<std::int64_t> started{0};
  EXPECT_THROW(one.parallel_for(100000,
                                [&](std::int64_t i, int) {
                                  ++started;
                                  if (i == 10)
                                    throw std::runtime_error("task 10");
                                }),
               std::runtime_error);
  EXPECT_EQ(started, 11);

  WorkerPool pool(workers_here());
  EXPECT_THROW(pool.parallel_for(1000,
                                 [&](std::int64_t i, int) {
                                   if (i == 10)
                                     throw std::runtime_error("task 10");
                                 }),
               std::runtime_error);
  // The pool is usable afterwards, with a task passed as an lvalue too.
  std::atomic<int> count{0};
  auto task = [&](std::int64_t, int) { ++count; };
  pool.parallel_for(50, task);
  EXPECT_EQ(count, 50);
}

TEST(AmxWorkerPoolDeathTest, RefusesMoreWorkersThanCpusAndNestedCalls) {
  const int cpus = static_cast<int>(tf::runtime::amx::allowed_cpus().size());
  EXPECT_DEATH(WorkerPool(cpus + 1), "WorkerPool: [0-9]+ workers asked for");
  auto nested = [] {
    WorkerPool pool(1);
    pool.parallel_for(1, [&](std::int64_t, int) {
      pool.parallel_for(1, [](std::int64_t, int) {});
    });
  };
  EXPECT_DEATH(nested(), "parallel_for called from one of its own tasks");
}

} // namespace
