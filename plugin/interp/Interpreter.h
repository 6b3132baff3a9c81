//===- plugin/interp/Interpreter.h - Running the LIR on the CPU -*- C++ -*-===//
//
// An interpreter of the lowered form (lower/LIR.h, docs/finalize.md) that
// executes a kernel's instructions on the CPU with the meaning the sm_90
// hardware gives them, so that a miscompile -- a dropped box offset, a wrong
// descriptor field, a missing barrier arrival, an off-by-one loop bound --
// shows as a wrong result, a deadlock or an error without a GPU.
// docs/interpreter.md describes the model; test/interp/ runs the lowered
// GEMM against its header-only execution under every schedule policy.
//
// The model, in short:
//
//   - every cluster of the grid runs, one after another (without clusters
//     a cluster is one CTA); the CTAs of a cluster run together, each on
//     its own poisoned shared memory with its own barriers, and reach each
//     other only through multicast TMA loads and cluster-wide mbarrier
//     arrivals; clusters share only the arguments (global memory);
//   - each role runs as walkers over its instruction tree -- one per
//     warpgroup when the role is made of whole warpgroups, else one for the
//     role -- and a deterministic scheduler interleaves the walkers of a
//     cluster's CTAs and its TMA unit one step at a time under a
//     SchedulePolicy;
//   - a walker blocks at an mbarrier wait whose phase has not completed, at
//     a named barrier until its thread count arrived, and at a bulk
//     wait_group.read until its committed TMA stores have read shared
//     memory; when nothing can move and something is unfinished, the run
//     fails with "deadlock" and what each walker waits for;
//   - TMA copies are queued and performed by the TMA unit as a step of its
//     own (a load completes its transaction bytes then); WGMMAs are
//     performed when a wgmma.wait_group retires their group, reading shared
//     memory then; an instruction is performed by every thread of its role
//     (each walker its own threads) or by the one Elected thread, as the
//     backend emits it, and its Threads must agree: performed by N
//     threads it counts N arrivals and issues N copies.
//
// Machine.h holds the hardware pieces (mbarrier, swizzle, TMA box, WGMMA
// descriptor addresses); this file the control: loops, lets, expressions,
// roles, scheduling and one function per instruction kind.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_INTERP_INTERPRETER_H
#define TF_PLUGIN_INTERP_INTERPRETER_H

#include "interp/Machine.h"
#include "lower/LIR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>

namespace tf::interp {

/// Which runnable agent (walker or TMA unit) the scheduler steps next. Each
/// is deterministic; a missing wait or arrival shows as a wrong result or a
/// deadlock under at least one of them, so tests run every policy.
enum class SchedulePolicy : std::uint8_t {
  /// The producer roles (those issuing TMA loads) first, then the TMA unit,
  /// then the others: the loads run as far ahead as the barriers allow, and
  /// a consumer's arrival is answered at once.
  ProducerFirst,
  /// The other roles first, then the producers, the TMA unit last, its
  /// loads before its stores: copies land as late as possible, so a read
  /// before its wait sees poison and a buffer released before its store
  /// read it is overwritten first.
  ConsumerFirst,
  /// Every runnable agent in turn, one step each; the TMA unit performs
  /// its copies in the order they were issued (so does producer-first).
  RoundRobin,
  /// A runnable agent picked by a PRNG seeded with InterpOptions::Seed (and
  /// the cluster's first CTA); the TMA unit performs a random queued copy.
  Random,
};

inline constexpr SchedulePolicy AllPolicies[] = {
    SchedulePolicy::ProducerFirst, SchedulePolicy::ConsumerFirst,
    SchedulePolicy::RoundRobin, SchedulePolicy::Random};

/// "producer-first", "consumer-first", "round-robin", "random".
llvm::StringRef policyName(SchedulePolicy P);

struct InterpOptions {
  SchedulePolicy Policy = SchedulePolicy::RoundRobin;
  /// SchedulePolicy::Random's seed.
  std::uint64_t Seed = 1;
  /// Also check what cuTensorMapEncodeTiled requires of the arguments
  /// (16-byte aligned data, strides multiples of 16 bytes), which the
  /// generated launcher enforces on the host.
  bool StrictTensorMaps = false;
  /// The byte every CTA's shared memory is filled with first (0xFF: a NaN
  /// in bf16, f16 and f32), so that reading what nothing wrote shows.
  std::uint8_t SharedPoison = 0xFF;
  /// Steps one CTA may take before the run fails (a loop that never ends);
  /// a cluster of C CTAs, C times as many.
  std::uint64_t MaxStepsPerCta = 100'000'000;
};

/// What a run did, for tests and messages.
struct InterpStats {
  std::int64_t Ctas = 0;
  /// Scheduler steps: instructions performed by walkers plus TMA copies.
  std::int64_t Steps = 0;
  std::int64_t TmaLoads = 0, TmaStores = 0, Wgmmas = 0;
  /// The most iterations one walker ran of any tile loop (a persistent CTA
  /// that loops shows > 1).
  std::int64_t MaxTilesPerWalker = 0;
};

/// Runs kernel \p K on \p Args, one per kernel parameter (by position; a
/// non-empty TensorArg::Name must be the parameter's), writing its outputs
/// into the arguments' memory. Fails with the first problem found: an
/// instruction the model refuses or does not implement (named), a deadlock
/// (every blocked walker with the barrier, slot and phase it waits for), an
/// mbarrier misuse, an access outside a view, a loop that does not end.
/// @pre \p K passed lower::verify (the interpreter re-checks what it
/// relies on, but reports it less precisely)
llvm::Error interpret(const lower::Kernel &K, llvm::ArrayRef<TensorArg> Args,
                      const InterpOptions &Opts, InterpStats *Stats = nullptr);

} // namespace tf::interp

#endif // TF_PLUGIN_INTERP_INTERPRETER_H
