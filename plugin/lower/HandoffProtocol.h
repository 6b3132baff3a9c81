//===- plugin/lower/HandoffProtocol.h - A target's hand-off -----*- C++ -*-===//
//
// The statements with which one role hands a ring slot or buffer to another
// on one target. Pipeline synthesis (PipelineSynthesis.h) decides *what* is
// synchronised -- which barrier array and object, on which iteration clock,
// with which phase parity, by which threads, and how many arrivals complete
// a phase -- and asks the backend's protocol for the statements that do it
// (backend::Backend::handoffProtocol). A Hopper kernel waits and arrives on
// mbarriers and counts the bytes of its TMA boxes; another target may meet
// its threads at a CTA-wide barrier, or hand tiles over in registers, with
// the same decisions.
//
// A protocol object serves one kernel's lowering: it may number what it
// creates (named barriers) across the kernel's roles.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_HANDOFFPROTOCOL_H
#define TF_PLUGIN_LOWER_HANDOFFPROTOCOL_H

#include "lower/LIR.h"

#include "llvm/ADT/ArrayRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tf::lower {

class LoweringContext;
struct Role;

/// One object of a barrier array as pipeline synthesis uses it: object
/// Slot of array Bar, indexed by the guarded ring's or buffer's Clock, and
/// the threads of the role that take part.
struct HandoffPoint {
  BarrierId Bar = None;
  ExprId Slot = None, Clock = None;
  /// Threads that perform the statement (the arrivals it contributes).
  std::int64_t Threads = 0;
  /// The one thread of the role that performs it (-1: all Threads).
  std::int64_t Elected = -1;
  /// The CTAs of the cluster whose object Slot of Bar it acts on: 1, the
  /// CTA's own; more for the release of a slot that fills of every CTA of
  /// a cluster write (multicast), which each of them must have freed.
  std::int64_t Ctas = 1;
};

/// How a wait's phase parity was chosen.
enum class WaitFor : std::uint8_t {
  /// A reader waits for the slot to be full: the clock's phase.
  Full,
  /// A filler waits for the slot to be free: the phase before (the
  /// clock's parity flipped), so that its first pass over fresh barriers
  /// does not block.
  Free,
};

/// What one barrier object is and occupies in shared memory.
struct BarrierObject {
  /// Its name in the memory map (`mbarrier`).
  std::string Name;
  std::int64_t Bytes = 0, Align = 0;
  /// Why Align, as the memory map prints it ("mbarrier").
  std::string AlignReason;
};

class HandoffProtocol {
public:
  virtual ~HandoffProtocol();

  /// Appends to \p Out the statements with which At.Threads threads wait
  /// until phase parity \p Phase of barrier object \p At completes.
  virtual void wait(LoweringContext &Ctx, const HandoffPoint &At, ExprId Phase,
                    WaitFor Why, const hir::Stmt &S,
                    std::vector<InstId> &Out) = 0;

  /// Appends, before the statements \p Fill that fill a slot
  /// asynchronously, the fillers' arrival on \p At (its `full` barrier)
  /// together with the accounting of what \p Fill's asynchronous
  /// transactions complete. Returns that amount per phase (the barrier's
  /// Barrier::TxBytes; 0 when the protocol counts none).
  virtual std::int64_t arriveForAsyncFill(LoweringContext &Ctx,
                                          const HandoffPoint &At,
                                          llvm::ArrayRef<InstId> Fill,
                                          const hir::Stmt &S,
                                          std::vector<InstId> &Out) = 0;

  /// Appends, after role \p Writers wrote a buffer from registers, the
  /// statements that make the writes visible to the buffer's (possibly
  /// asynchronous) reader and meet all writers, so that one of them may
  /// then arrive for all.
  virtual void publishWrites(LoweringContext &Ctx, const Role &Writers,
                             const hir::Stmt &S, std::vector<InstId> &Out) = 0;

  /// Appends the statements with which every thread of role \p R meets
  /// the others: what each wrote to shared memory before is visible to all
  /// of them after (the partials of a reduction across warps,
  /// RegisterShareStmt). A role's meets may share one barrier: its threads
  /// reach them in the same order.
  virtual void meet(LoweringContext &Ctx, const Role &R, const hir::Stmt &S,
                    std::vector<InstId> &Out) = 0;

  /// Appends the arrival of At.Threads threads (or of thread At.Elected)
  /// on barrier object \p At (of each of At.Ctas CTAs of the cluster).
  /// Returns the arrivals one phase of the object receives from these
  /// statements, run by every CTA of the cluster (the barrier's
  /// Barrier::Arrivals).
  virtual std::int64_t arrive(LoweringContext &Ctx, const HandoffPoint &At,
                              const hir::Stmt &S, std::vector<InstId> &Out) = 0;

  /// Appends the kernel-level set-up, before any role runs: every barrier
  /// array of Ctx.L.Barriers initialised with its arrival count and the
  /// result visible to every thread of the CTA.
  /// @pre every role is lowered (the arrival counts are known).
  virtual void initialize(LoweringContext &Ctx, std::vector<InstId> &Out) = 0;

  /// Appends the kernel-level statements after every role: with clusters
  /// (Ctx.L.ClusterCtas > 1), what keeps a CTA from exiting while another
  /// CTA of its cluster may still write into its shared memory.
  virtual void finish(LoweringContext &Ctx, std::vector<InstId> &Out) = 0;

  /// The shared-memory object of one barrier (the memory plan places one
  /// per slot of every array).
  virtual BarrierObject barrierObject() const = 0;
};

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_HANDOFFPROTOCOL_H
