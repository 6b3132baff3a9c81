//===- plugin/backend/Backend.h - A target's code generator -----*- C++ -*-===//
//
// A backend is what turns a checked kernel into code for one family of
// targets: it says which op sites it can lower (so the checks and
// `tf candidates` answer "legal" only for what it lowers), supplies the
// lowering rule of each contract it implements (instruction selection,
// lower/InstructionSelection.h), and writes the verified lowered form as a
// source file. The target's architecture chooses the backend (backendFor):
// `nvidia.sm90` -> cuda_sm90. Adding a target is facts (targets/*.toml),
// contracts (include/tf/atoms) and one Backend; the passes in plugin/lower
// stay as they are.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_BACKEND_BACKEND_H
#define TF_PLUGIN_BACKEND_BACKEND_H

#include "analysis/Candidates.h"
#include "analysis/Finding.h"
#include "hir/HIR.h"
#include "lower/LIR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tf {
struct Contract;
} // namespace tf

namespace tf::targets {
struct MergedTarget;
} // namespace tf::targets

namespace tf::lower {
class LoweringContext;
struct Selection;
} // namespace tf::lower

namespace tf::backend {

/// Whether a backend lowers one op site under one contract.
struct Support {
  bool Lowerable = false;
  /// Why not, in the user's terms (empty when lowerable).
  std::string Why;
  /// How well, when lowerable: higher is better (`tf candidates` ranks by
  /// it). The backend's native path for the op (TMA for a global tile into
  /// shared memory) ranks above a generic one.
  int Rank = 0;
};

/// The lowering of one contract's op sites into LIR instructions: what the
/// op computes, not when it may run (pipeline synthesis adds the waits and
/// arrivals around it from the Selection's uses).
using LoweringRule = void (*)(lower::LoweringContext &Ctx, hir::StmtId Op,
                              lower::Selection &Out);

/// Options of emission that come from the command line.
struct EmitOptions {
  /// The translation unit's main file as the compiler was given it.
  std::string Source;
  /// Waits give up after a bound and trap with the barrier's name.
  bool DebugWaits = false;
};

class Backend {
public:
  virtual ~Backend();

  /// The backend's name: `cuda_sm90`.
  virtual llvm::StringRef name() const = 0;
  /// What emit writes beside the source: `.tf.cu` (`gemm.cpp` ->
  /// `gemm.tf.cu`).
  virtual llvm::StringRef fileSuffix() const = 0;
  /// Whether op \p Op of \p K lowers under contract \p C -- its own
  /// schedule's, or a candidate's (`tf candidates`).
  /// @pre infer(K) has run.
  virtual Support supports(const hir::Kernel &K, hir::StmtId Op,
                           const Contract &C) const = 0;
  /// The rule that lowers sites of contract \p C; null when it has none.
  virtual LoweringRule rule(const Contract &C) const = 0;
  /// Writes the source file of \p Kernels to \p OS. Every kernel that
  /// supports() and the rules accept can be written: an error is an
  /// internal error of tf, not a refusal of the kernel.
  /// @pre every kernel passed lower::verify.
  virtual llvm::Error emit(llvm::ArrayRef<lower::Kernel> Kernels,
                           const EmitOptions &Opts,
                           llvm::raw_ostream &OS) const = 0;
};

/// The backend for target \p T: the first architecture of its closure
/// (nearest first) that has one; null when none has.
const Backend *backendFor(const targets::MergedTarget &T);

/// Marks every accepted candidate of \p Sites with whether the backend of
/// \p Target lowers it (Backend::supports) and orders each site's
/// candidates: lowerable ones first, by rank, then the other accepted ones,
/// then the refused ones, each group in registry order. Nothing changes
/// when \p Target is null or has no backend.
void rankCandidates(const hir::Kernel &K, const targets::MergedTarget *Target,
                    std::vector<analysis::CandidateSite> &Sites);

/// The names of the architectures that have a backend, and the backends'
/// names (`nvidia.sm90 (cuda_sm90)`), for messages.
std::string knownBackends();

} // namespace tf::backend

#endif // TF_PLUGIN_BACKEND_BACKEND_H
