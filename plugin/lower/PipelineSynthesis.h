//===- plugin/lower/PipelineSynthesis.h - Rings, barriers, phases -*- C++
//-*-===//
//
// Decides when each op may run: an op that fills or reads a shared-memory
// ring or buffer another role reads or fills is wrapped in a hand-off over
// two barrier arrays per ring or buffer, `full` and `empty` (one object per
// slot), with slots and phases from one iteration clock that producer and
// consumer compute alike:
//
//   - a filler waits for its slot to be free (`empty`); a ring filled
//     asynchronously (by TMA on sm_90) is completed by the fill's own
//     transactions, after its threads' arrival on `full`; a buffer written
//     from registers is handed over, once every writer's stores are
//     published, by one elected thread's arrival on `full`;
//   - a reader waits for its slot to be full and afterwards every reading
//     thread arrives on `empty`.
//
// The clock of a ring is the tiles this CTA ran before times the K
// iterations per tile plus the K index (`it`); of a buffer, the tile count
// alone. Slot = clock % stages, phase = (clock / stages) & 1; a filler
// waits for the phase before (flipped parity), so its first pass over fresh
// barriers does not block.
//
// That much -- which barrier, slot, clock, phase, which threads, how many
// arrivals complete a phase -- is decided here for every target; the
// statements that wait, arrive, publish and initialise come from the
// backend's hand-off protocol (HandoffProtocol.h; sm_90's mbarriers are in
// backend/cuda_sm90/Handoff.cpp).
//
// Used by instruction selection: a lowering rule acquires the buffers its op
// uses (acquire) and fills a Selection; synthesize then writes the
// selection with its waits before and its releases after.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_PIPELINESYNTHESIS_H
#define TF_PLUGIN_LOWER_PIPELINESYNTHESIS_H

#include "lower/Context.h"

#include <vector>

namespace tf::lower {

/// How an op uses a ring or buffer that another role hands over.
enum class Handoff : std::uint8_t {
  /// Fills it asynchronously (TMA loads): waits for `empty`, then arrives
  /// on `full` with what the selected instructions' transactions complete
  /// (HandoffProtocol::arriveForAsyncFill), and they complete it.
  AsyncFill,
  /// Writes it from registers: waits for `empty`; afterwards the role's
  /// writes are published (HandoffProtocol::publishWrites) and one elected
  /// thread arrives on `full`.
  SyncFill,
  /// Reads it: waits for `full`; afterwards every thread arrives on
  /// `empty` (the selected instructions must have finished reading).
  Read,
};

/// One use of a ring or buffer by the op being lowered.
struct BufferUse {
  hir::ValueId Buffer = hir::None;
  Handoff How = Handoff::Read;
  BarrierId Full = None, Empty = None;
  ExprId Clock = None, Slot = None, Phase = None;
};

/// What instruction selection chose for one op: the buffers it hands over
/// and its instructions, in order.
struct Selection {
  hir::StmtId Op = hir::None;
  int Role = -1;
  LoopClock Clock;
  std::vector<BufferUse> Uses;
  std::vector<InstId> Body;
};

/// Records that the op of \p Sel uses ring or buffer \p Buffer as \p How,
/// with its barriers, clock, slot and phase; a ring and its second use by
/// the same op (an MMA reading A and B from one ring) share one entry.
/// @pre the memory plan has given \p Buffer a view.
const BufferUse &acquire(LoweringContext &Ctx, Selection &Sel,
                         hir::ValueId Buffer, Handoff How);

/// Appends \p Sel to \p Out with the waits of its uses before and their
/// releases after (statements of Ctx.Protocol), and records the barriers'
/// arrival counts and the transactions an asynchronous fill expects.
void synthesize(LoweringContext &Ctx, const Selection &Sel,
                std::vector<InstId> &Out);

/// Refuses a barrier no role arrives on: a buffer filled but never read (at
/// its first fill) or read but never filled (at its first read).
void checkHandoffs(LoweringContext &Ctx);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_PIPELINESYNTHESIS_H
