//===- plugin/lower/Context.h - What the lowering passes share --*- C++ -*-===//
//
// One kernel's lowering runs as passes (Lower.h lists them in order); each
// reads what earlier ones recorded here and adds its own part:
//
//   role projection  -> Roles, ScopeRole
//   memory plan      -> Backing, Views (and, last, the barriers' regions)
//   fusion           -> Fused
//   instruction selection and pipeline synthesis, per op while the roles'
//                    programs are projected -> the LIR's instructions
//                    (the hand-off statements from the backend's
//                    Protocol), Barriers
//
// Refusals are findings (diagnostics of Diagnostics.def, err_tf_lower_*) at
// the HIR op or statement they concern; a pass that refuses leaves the
// context consistent, so later passes may still run and report their own.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_CONTEXT_H
#define TF_PLUGIN_LOWER_CONTEXT_H

#include "analysis/Finding.h"
#include "hir/HIR.h"
#include "lower/HandoffProtocol.h"
#include "lower/LIR.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace tf::targets {
struct MergedTarget;
} // namespace tf::targets

namespace tf::backend {
class Backend;
} // namespace tf::backend

namespace tf::lower {

/// A role: the threads [Begin, End) of the mesh scopes that cover them.
struct Role {
  std::string Name;
  std::string Mesh;
  std::int64_t Begin = 0, End = 0;
  std::int64_t threads() const { return End - Begin; }
};

/// The loops enclosing the op being lowered, for the iteration clocks.
struct LoopClock {
  /// Inside a tile loop: the tiles this CTA ran before the current one
  /// (`tiles_done`, or 0 for one tile per CTA).
  ExprId Tiles = None;
  /// Inside a K loop as well: the iterations before this one (`it`).
  ExprId Iterations = None;
};

/// What an add in a fused chain adds: a tile of a global tensor parameter
/// (Tile), the ops applied to it in order (Ops, no add among them), and the
/// broadcast on the way with the mode it repeats along (None and -1: none; the
/// tile is a matrix).
struct FusedOperand {
  hir::ValueId Tile = hir::None;
  std::vector<hir::StmtId> Ops;
  hir::StmtId Broadcast = hir::None;
  int BroadcastMode = -1;
};

/// What a staging copy stores: the register value it reads (the
/// accumulator), the elementwise ops applied to it in order, and the
/// element type stored; per add among the ops, what it adds.
struct FusedChain {
  hir::ValueId Source = hir::None;
  std::vector<hir::StmtId> Ops;
  std::map<hir::StmtId, FusedOperand> Added;
  DType StoredAs = DType::f32;

  /// Whether op \p Op is applied by the store (on the accumulator or on
  /// what an add adds).
  bool fuses(hir::StmtId Op) const {
    if (llvm::is_contained(Ops, Op))
      return true;
    for (const auto &[Add, X] : Added)
      if (X.Broadcast == Op || llvm::is_contained(X.Ops, Op))
        return true;
    return false;
  }
};

/// A register value as a register program reads it: register r of the
/// value is register Map[r] of tile Tile (Map empty: register r) -- a
/// broadcast of a row statistic reads the statistic's registers.
struct TileRef {
  unsigned Tile = None;
  std::vector<std::int64_t> Map;
};

class LoweringContext {
public:
  /// Lowers \p H for \p Target with \p Backend (and a fresh hand-off
  /// protocol of it).
  LoweringContext(const hir::Kernel &H, const targets::MergedTarget &Target,
                  const backend::Backend &Backend);

  const hir::Kernel &H;
  const targets::MergedTarget &Target;
  const backend::Backend &Backend;
  /// The backend's hand-off protocol for this kernel.
  std::unique_ptr<HandoffProtocol> Protocol;
  /// The lowered kernel being built.
  Kernel L;

  // Role projection.
  std::vector<Role> Roles;
  std::map<hir::StmtId, int> ScopeRole;
  /// The role of mesh scope \p Scope, -1 for none.
  int roleOf(hir::StmtId Scope) const;
  /// Whether statement \p S holds a mesh scope of role \p R.
  bool hasRole(hir::StmtId S, int R) const;

  // Memory plan.
  /// A ring load's result -> its ring; a staging copy's result -> its buffer.
  std::map<hir::ValueId, hir::ValueId> Backing;
  /// The shared-memory view of each ring and buffer: its first region.
  std::map<hir::ValueId, RegionId> Views;

  // Fusion: staging copy op -> what it stores.
  std::map<hir::StmtId, FusedChain> Fused;

  // Register programs (lower/RegisterProgram.h).
  /// Each register value's tile (Kernel::Tiles), and the global tile of
  /// each tf::in_bounds mask.
  std::map<hir::ValueId, TileRef> RegisterValues;
  std::map<hir::ValueId, EpilogueLoad> Masks;
  /// A register tile declared by tf::zeros / tf::full whose type binds no
  /// mesh axis (a row statistic): it takes the registers of the first op
  /// that combines it with a laid-out tile, and its fill goes where it was
  /// declared -- position At of body Body, which is still being built.
  struct PendingTile {
    hir::StmtId Op = hir::None;
    std::vector<InstId> *Body = nullptr;
    std::size_t At = 0;
  };
  std::map<hir::ValueId, PendingTile> PendingTiles;
  /// Each role's scratch regions (RegionKind::Scratch) for the partials
  /// of reductions across warps, by (role, turn): consecutive reductions of
  /// a body alternate between two (RegisterProgram.cpp says why).
  std::map<std::pair<int, unsigned>, RegionId> Scratch;
  /// A role's last reduction across warps whose closing meet is not
  /// written yet (closeReductions, RegisterProgram.h).
  struct PendingMeet {
    std::vector<InstId> *Body = nullptr;
    unsigned Turn = 0;
    hir::StmtId Op = hir::None;
  };
  std::map<int, PendingMeet> PendingMeets;
  /// The register values of refused register ops: an op reading one is not
  /// lowered either, without a second error (one mistake, one error).
  std::set<hir::ValueId> RefusedRegisters;

  // Pipeline synthesis.
  /// Barrier arrays by (guarded value, "full"/"empty").
  std::map<std::pair<hir::ValueId, std::string>, BarrierId> Barriers;
  /// The first op that fills, and the first that reads, each ring and
  /// buffer: where a handoff without its other side is reported.
  std::map<hir::ValueId, hir::StmtId> FirstFill, FirstRead;

  /// How many CTAs of a cluster one fill of ring or buffer \p Buffer
  /// writes: the largest `multicast` a site filling it recorded, 1 when
  /// none did.
  std::int64_t receivers(hir::ValueId Buffer) const;
  /// The CTAs the copy at site \p S delivers to: the `multicast` its match
  /// recorded, 1 without one.
  static std::int64_t multicastOf(const hir::Stmt &S);

  /// The barrier array \p Which ("full", "empty") guarding \p Guards, made
  /// with \p Count objects on first use.
  BarrierId barrier(hir::ValueId Guards, const char *Which, int Count);

  /// Refuses with diagnostic \p Id at \p At, with \p Notes; one finding
  /// per (place, id, arguments), however many roles lower the statement.
  void refuse(plugin::DiagId Id, const hir::SourceRange &At,
              std::vector<std::string> Args,
              std::vector<analysis::Finding> Notes = {});
  /// Records an internal error: a precondition an earlier stage guarantees
  /// does not hold (a bug in tf, not in the kernel).
  void internalError(const hir::SourceRange &At, std::string Message) {
    Internal.push_back({At, std::move(Message)});
  }
  bool failed() const { return !Refusals.empty() || !Internal.empty(); }
  std::vector<analysis::Finding> takeRefusals() { return std::move(Refusals); }
  std::vector<std::pair<hir::SourceRange, std::string>> takeInternalErrors() {
    return std::move(Internal);
  }

  /// Appends statement \p P (a core payload or an extension instruction)
  /// from HIR statement \p S to \p Out.
  InstId add(Stmt::Payload P, const hir::Stmt &S, std::vector<InstId> &Out);
  InstId add(std::unique_ptr<ExtensionInst> I, const hir::Stmt &S,
             std::vector<InstId> &Out);
  InstId add(Stmt St, std::vector<InstId> &Out);
  /// The range a refusal about op \p S points at: its call, else the
  /// statement.
  static const hir::SourceRange &at(const hir::Stmt &S) {
    return S.CallRange.valid() ? S.CallRange : S.Range;
  }
  /// "'name'" or "a temporary", for messages.
  std::string valueName(hir::ValueId V) const;
  /// "tf.NAME" of op \p S, for messages.
  std::string opText(const hir::Stmt &S) const;

  /// HIR index expression \p E as an LIR expression (refused at \p At when
  /// tf cannot read it).
  ExprId expr(hir::ExprId E, const hir::SourceRange &At);

private:
  std::vector<analysis::Finding> Refusals;
  std::vector<std::pair<hir::SourceRange, std::string>> Internal;
  std::set<std::tuple<unsigned, unsigned, std::vector<std::string>>> Reported;
};

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_CONTEXT_H
