//===- tf/runtime/amx/worker_pool.hpp - Workers pinned to cores -----------===//
//
// The workers a mesh over cores runs on: worker w is a thread pinned (with
// pthread_setaffinity_np) to one CPU for its whole life, so the tile state
// and the L2-resident panels a task leaves behind stay on that core.
//
//   tf::runtime::amx::WorkerPool pool(16);     // CPUs 0..15 of the allowed set
//   pool.parallel_for(tasks, [&](std::int64_t task, int worker) { ... });
//
// parallel_for semantics:
//   - every task index in [0, tasks) runs exactly once, on some worker;
//     workers claim indices in increasing order as they become free (a
//     shared counter), so tasks of unequal cost balance;
//   - the caller blocks until all tasks have finished; the caller's thread
//     runs none of them (it is not pinned and may not be on a free core);
//   - abort semantics: when a task throws, no task index is claimed after
//     that; tasks already running finish; parallel_for then rethrows the
//     first exception in the caller (the others are dropped). Tasks that
//     never started are simply not run;
//   - one parallel_for runs at a time per pool (concurrent callers take
//     turns); calling parallel_for from inside one of the pool's own tasks
//     would wait for itself, and stops the program instead.
// A CPU that cannot be pinned (outside the process's affinity mask, say)
// stops the program when the pool is built, naming worker and CPU.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/amx/fault.hpp"

#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace tf::runtime::amx {

/// The CPUs this process may run on, in increasing order.
inline std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  std::vector<int> cpus;
  if (sched_getaffinity(0, sizeof set, &set) != 0)
    return cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &set))
      cpus.push_back(c);
  return cpus;
}

class WorkerPool {
public:
  /// `workers` workers on the first `workers` CPUs of allowed_cpus().
  explicit WorkerPool(int workers) : WorkerPool(first_cpus(workers)) {}

  /// Worker w pinned to `cpus[w]`.
  explicit WorkerPool(std::vector<int> cpus) : cpus_(std::move(cpus)) {
    threads_.reserve(cpus_.size());
    for (int w = 0; w < size(); ++w) {
      threads_.emplace_back([this, w] { work(w); });
      pin(w);
    }
  }

  ~WorkerPool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    start_.notify_all();
    for (std::thread &t : threads_)
      t.join();
  }

  WorkerPool(const WorkerPool &) = delete;
  WorkerPool &operator=(const WorkerPool &) = delete;

  int size() const { return static_cast<int>(cpus_.size()); }
  /// The CPU worker w runs on.
  int cpu(int worker) const { return cpus_[worker]; }

  /// Runs task(i, worker) for every i in [0, tasks); see the file comment.
  template <class Task> void parallel_for(std::int64_t tasks, Task &&task) {
    if (current_pool() == this)
      fatal("WorkerPool::parallel_for called from one of its own tasks");
    std::lock_guard turn(caller_mutex_);
    std::unique_lock lock(mutex_);
    using Callable = std::remove_reference_t<Task>;
    job_ = Job{const_cast<void *>(static_cast<const void *>(&task)),
               [](void *t, std::int64_t i, int w) {
                 (*static_cast<Callable *>(t))(i, w);
               },
               tasks};
    next_.store(0);
    failed_.store(false);
    error_ = nullptr;
    busy_ = size();
    ++generation_;
    start_.notify_all();
    done_.wait(lock, [&] { return busy_ == 0; });
    if (error_)
      std::rethrow_exception(error_);
  }

private:
  struct Job {
    void *task = nullptr;
    void (*call)(void *, std::int64_t, int) = nullptr;
    std::int64_t tasks = 0;
  };

  static std::vector<int> first_cpus(int workers) {
    std::vector<int> cpus = allowed_cpus();
    if (workers < 1 || workers > static_cast<int>(cpus.size()))
      fatal("WorkerPool: " + std::to_string(workers) + " workers asked for; " +
            std::to_string(cpus.size()) + " CPUs are available");
    cpus.resize(workers);
    return cpus;
  }

  static const WorkerPool *&current_pool() {
    thread_local const WorkerPool *pool = nullptr;
    return pool;
  }

  void pin(int w) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpus_[w], &set);
    if (int err = pthread_setaffinity_np(threads_[w].native_handle(),
                                         sizeof set, &set))
      fatal("WorkerPool: cannot pin worker " + std::to_string(w) +
            " to CPU " + std::to_string(cpus_[w]) + ": " +
            std::strerror(err));
  }

  void work(int w) {
    current_pool() = this;
    std::uint64_t seen = 0;
    for (;;) {
      Job job;
      {
        std::unique_lock lock(mutex_);
        start_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_)
          return;
        seen = generation_;
        job = job_;
      }
      run(job, w);
      std::lock_guard lock(mutex_);
      if (--busy_ == 0)
        done_.notify_all();
    }
  }

  void run(const Job &job, int w) {
    while (!failed_.load(std::memory_order_relaxed)) {
      const std::int64_t i = next_.fetch_add(1);
      if (i >= job.tasks)
        return;
      try {
        job.call(job.task, i, w);
      } catch (...) {
        std::lock_guard lock(mutex_);
        if (!error_)
          error_ = std::current_exception();
        failed_.store(true);
      }
    }
  }

  std::vector<int> cpus_;
  std::vector<std::thread> threads_;
  std::mutex caller_mutex_; // one parallel_for at a time
  std::mutex mutex_;        // guards what follows but the atomics
  std::condition_variable start_, done_;
  std::uint64_t generation_ = 0;
  bool stopping_ = false;
  int busy_ = 0;
  Job job_;
  std::exception_ptr error_;
  std::atomic<std::int64_t> next_{0};
  std::atomic<bool> failed_{false};
};

} // namespace tf::runtime::amx
