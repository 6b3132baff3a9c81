//===- tf/launch.hpp - Header-only execution of kernels -------------------===//
//
// `tf::launch(kernel, tf::grid(G), args...)` runs a kernel without a
// generated implementation: on the CPU, `kernel(args...)` once per coordinate
// 0 .. G-1 of the kernel's outermost topology (the grid, level "cta"). While
// one coordinate runs, the unit queries answer for it:
//
//   tf::unit_index()        // this CTA's coordinate, 0 .. G-1
//   tf::unit_extent()       // G
//
// and so do the tile schedulers built on them (tf/scheduler/*.hpp). Inside
// one coordinate every mesh scope runs its tile ops collectively, in program
// order, so there is no unit below the grid: querying level "thread" is an
// error, as is any query outside a launch.
//
// CTAs run in parallel on std::thread workers: min(G, hardware threads)
// workers take coordinates in increasing order from a shared counter; the
// calling thread is one of them. The environment variable TF_LAUNCH_WORKERS
// (a positive number) caps the workers; TF_LAUNCH_WORKERS=1 runs every
// coordinate on the calling thread, in order -- handy with a debugger or
// printf. As on a GPU, CTAs must not depend on each other: no CTA may wait
// for another, and two CTAs may write the same memory only if they write the
// same value (or use atomics). The arguments are shared by all CTAs: a
// kernel taking a parameter by value gets its own copy, one taking it by
// reference sees the caller's object. `launch` returns when every coordinate
// has run and every worker has been joined. A kernel that throws or aborts
// ends the program (an exception leaving a worker calls std::terminate).
//
// A generated implementation takes over when one is linked: `launch` looks
// the kernel's address up in the launcher registry (tf/runtime/registry.hpp)
// and, when the plugin's backend registered a launcher for it, hands it the
// grid and the arguments, each converted to its parameter's type and then
// type-erased (tf/runtime/erase.hpp). Kernels given as lambdas or other
// callables have no address to look up and always run on the CPU, as does
// every kernel of a program that links no generated code.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/topology.hpp"
#include "tf/runtime/erase.hpp"
#include "tf/runtime/registry.hpp"
#include "tf/support/error.hpp"
#include "tf/support/name.hpp"

#include <array>
#include <atomic>
#include <concepts>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string_view>
#include <thread>
#include <tuple>
#include <type_traits>
#include <vector>

namespace tf {

/// The launch configuration of header-only execution: how many units the
/// outermost topology (level `level`, "cta" by default) has at this launch.
struct Grid {
  Name level{"cta"};
  std::int64_t extent = 0;

  friend constexpr bool operator==(const Grid &, const Grid &) = default;
};

/// A grid of `extent` CTAs. @pre extent > 0
constexpr Result<Grid> make_grid(std::int64_t extent) {
  if (extent <= 0)
    return make_error(Errc::out_of_range,
                      "tf::grid needs a positive number of CTAs; {} given",
                      extent);
  return Grid{Name("cta"), extent};
}

/// A grid of the units of `t`, which must have a value: a topology written
/// with tf::dyn has none until the launch gives it (use grid(G) then).
constexpr Result<Grid> make_grid(const Topology &t) {
  if (!t.extent.has_value())
    return make_error(Errc::unknown,
                      "topology '{name}' has no extent (tf::dyn); launch it "
                      "with tf::grid(G)",
                      t.level);
  Result<Grid> g = make_grid(t.extent.value);
  if (!g)
    return g;
  return Grid{t.level, t.extent.value};
}

/// make_grid that stops the program (or compilation) on a bad extent.
constexpr Grid grid(std::int64_t extent) { return make_grid(extent).value(); }
constexpr Grid grid(const Topology &t) { return make_grid(t).value(); }

namespace detail {

/// The unit the calling thread is running, set by launch_on_cpu.
struct UnitContext {
  bool active = false;
  Name level{};
  std::int64_t index = 0;
  std::int64_t extent = 0;
};

inline UnitContext &unit_context() {
  thread_local UnitContext context;
  return context;
}

/// The running unit of level `level`; stops the program with a message
/// naming `query` when there is none.
inline const UnitContext &current_unit(std::string_view level,
                                       const char *query) {
  const UnitContext &c = unit_context();
  if (!c.active) {
    std::fprintf(stderr,
                 "tf: error: %s(\"%.*s\") was called outside tf::launch; unit "
                 "queries answer only while tf::launch runs a kernel\n",
                 query, static_cast<int>(level.size()), level.data());
    std::abort();
  }
  if (!(c.level == level)) {
    std::fprintf(stderr,
                 "tf: error: %s(\"%.*s\"): header-only execution runs one "
                 "unit per coordinate of level '%.*s' and runs every mesh "
                 "scope collectively, so level '%.*s' has no current unit\n",
                 query, static_cast<int>(level.size()), level.data(),
                 static_cast<int>(c.level.size()), c.level.text,
                 static_cast<int>(level.size()), level.data());
    std::abort();
  }
  return c;
}

/// How many workers run a grid of `extent` units: hardware threads, capped
/// by TF_LAUNCH_WORKERS and by the extent.
inline std::int64_t launch_workers(std::int64_t extent) {
  std::int64_t n = std::thread::hardware_concurrency();
  if (n < 1)
    n = 1;
  if (const char *cap = std::getenv("TF_LAUNCH_WORKERS")) {
    char *end = nullptr;
    const long long v = std::strtoll(cap, &end, 10);
    if (end == cap || *end != '\0' || v < 1) {
      std::fprintf(stderr,
                   "tf: error: TF_LAUNCH_WORKERS='%s' is not a positive "
                   "number\n",
                   cap);
      std::abort();
    }
    if (v < n)
      n = v;
  }
  return n < extent ? n : extent;
}

/// Runs `body()` once per unit 0 .. grid.extent-1 of `grid.level`, each with
/// the unit context set, on launch_workers() threads (the caller included),
/// and joins them all before returning.
template <class Body> void run_grid(const Grid &grid, Body &body) {
  if (grid.extent <= 0)
    (void)make_grid(grid.extent).value();
  std::atomic<std::int64_t> next{0};
  auto work = [&grid, &body, &next] {
    UnitContext &c = unit_context();
    const UnitContext saved = c;
    for (std::int64_t i = next.fetch_add(1, std::memory_order_relaxed);
         i < grid.extent; i = next.fetch_add(1, std::memory_order_relaxed)) {
      c = UnitContext{true, grid.level, i, grid.extent};
      body();
    }
    c = saved;
  };
  const std::int64_t workers = launch_workers(grid.extent);
  std::vector<std::thread> threads;
  threads.reserve(static_cast<std::size_t>(workers - 1));
  for (std::int64_t w = 1; w < workers; ++w)
    threads.emplace_back(work);
  work();
  for (std::thread &t : threads)
    t.join();
}

/// Header-only execution: `kernel(args...)` once per grid coordinate.
template <class Kernel, class... Args>
void launch_on_cpu(Kernel &kernel, const Grid &grid, Args &...args) {
  auto body = [&kernel, &args...] { std::invoke(kernel, args...); };
  run_grid(grid, body);
}

/// Runs the launcher registered for `kernel`, if any, and says whether there
/// was one.
template <class... P, class... Args>
bool launch_generated(void (*kernel)(P...), const Grid &grid, Args &...args) {
  const runtime::LauncherEntry *entry =
      runtime::find_launcher(runtime::kernel_address(kernel));
  if (!entry)
    return false;
  if (grid.extent <= 0)
    (void)make_grid(grid.extent).value();
  // The launcher reads each argument as the parameter type it was generated
  // for, so convert first (a reference parameter binds the caller's object).
  std::tuple<P...> params(args...);
  std::apply(
      [&](const auto &...p) {
        const std::array<runtime::KernelArg, sizeof...(P)> erased{
            runtime::erase(p)...};
        entry->launch(runtime::LaunchRequest{grid.extent, erased});
      },
      params);
  return true;
}

} // namespace detail

/// Runs `kernel(args...)` once per coordinate of `grid` (see the file
/// comment); returns when all have run.
/// @pre kernel returns void and takes args; CTAs do not depend on each other
template <class Kernel, class... Args>
void launch(Kernel &&kernel, Grid grid, Args &&...args) {
  static_assert(std::is_invocable_v<Kernel &, Args &...>,
                "tf::launch(kernel, tf::grid(G), args...): the kernel cannot "
                "be called with these arguments; pass exactly the kernel's "
                "parameters after tf::grid(G)");
  if constexpr (std::is_invocable_v<Kernel &, Args &...>) {
    static_assert(
        std::is_void_v<std::invoke_result_t<Kernel &, Args &...>>,
        "tf::launch: a kernel returns void; write its results through its "
        "tensor arguments");
    if constexpr (std::is_pointer_v<std::decay_t<Kernel>> &&
                  std::is_function_v<
                      std::remove_pointer_t<std::decay_t<Kernel>>>) {
      if (detail::launch_generated(static_cast<std::decay_t<Kernel>>(kernel),
                                   grid, args...))
        return;
    }
    detail::launch_on_cpu(kernel, grid, args...);
  }
}

/// The index of the running unit of level `level` (only "cta" in
/// header-only execution): its grid coordinate. Stops the program with a
/// message outside tf::launch.
inline std::int64_t unit_index(std::string_view level = "cta") {
  return detail::current_unit(level, "tf::unit_index").index;
}

/// The number of units of level `level` at this launch: the grid's extent.
/// Stops the program with a message outside tf::launch.
inline std::int64_t unit_extent(std::string_view level = "cta") {
  return detail::current_unit(level, "tf::unit_extent").extent;
}

/// Whether the calling thread is running a kernel under tf::launch.
inline bool in_launch() { return detail::unit_context().active; }

} // namespace tf
