//===- plugin/lower/Lower.h - HIR to LIR, as passes -------------*- C++ -*-===//
//
// Lowers a checked kernel to its lowered form (LIR.h) for the backend of its
// target (backend/Backend.h). The passes run in this order, each in its own
// file with its preconditions in its header:
//
//   1. the kernel's preconditions here: every op site decided (the sites
//      `tf candidates` lists, analysis::isUndecided), a target with a
//      backend and a shared-memory limit, CTA and thread topologies;
//   2. role projection, roles (RoleProjection.h): mesh scopes of threads
//      become roles over thread ranges;
//   3. memory plan, views (MemoryPlan.h): rings and buffers at fixed
//      shared-memory offsets, and what backs each op result;
//   4. fusion (Fusion.h): elementwise ops between a register tensor and its
//      staging copy become ops the store applies to the fragment;
//   5. role projection, programs (RoleProjection.h): each role's loops,
//      with every op through instruction selection (InstructionSelection.h,
//      the backend's per-contract rules) and pipeline synthesis
//      (PipelineSynthesis.h: barriers, clocks, waits and releases, as
//      statements of the backend's hand-off protocol, HandoffProtocol.h);
//   6. pipeline set-up and memory plan, barriers: the protocol's barrier
//      initialisation, the barriers placed after the views.
//
// Every refusal is a finding (an err_tf_lower_* diagnostic at the op or
// statement it concerns); the result is verified (Verify.h) before anyone
// emits it (lowerAndVerify).
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_LOWER_H
#define TF_PLUGIN_LOWER_LOWER_H

#include "analysis/Finding.h"
#include "hir/HIR.h"
#include "lower/LIR.h"

#include <optional>
#include <vector>

namespace tf::targets {
struct MergedTarget;
} // namespace tf::targets

namespace tf::backend {
class Backend;
} // namespace tf::backend

namespace tf::lower {

/// A kernel's lowered form, or why there is none.
struct LoweringResult {
  std::optional<Kernel> Lowered;
  /// Errors (err_tf_lower_*), in the order found; empty when Lowered is set.
  std::vector<analysis::Finding> Refusals;
  /// Internal errors -- a bug in tf, not in the kernel: the lowered form
  /// fails verification, or a pass finds what an earlier stage guarantees
  /// missing. Not diagnostics of the table (user input cannot cause them);
  /// the pipeline reports them as internal errors at their place.
  std::vector<std::pair<hir::SourceRange, std::string>> InternalErrors;
  /// The backend that lowered it (emits it); null when the target has none.
  const backend::Backend *Backend = nullptr;
};

/// Lowers \p K on \p Target (its merged target; null: the kernel names
/// none, refused) and verifies the result; a verifier failure is an
/// internal error at the kernel.
/// @pre infer(K, Target) and check(K, Target) have run without errors.
LoweringResult lowerKernel(const hir::Kernel &K,
                           const targets::MergedTarget *Target);

/// Lowers \p K on \p Target with backend \p B in place of the one the
/// target's architecture chooses (a backend outside backend::backendFor's
/// table, as in tests), and verifies the result.
/// @pre as above.
LoweringResult lowerKernel(const hir::Kernel &K,
                           const targets::MergedTarget *Target,
                           const backend::Backend &B);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_LOWER_H
