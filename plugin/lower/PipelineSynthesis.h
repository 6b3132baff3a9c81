//===- plugin/lower/PipelineSynthesis.h - Rings, barriers, phases -*- C++ -*-===//
//
// Decides when each op may run: an op that fills or reads a shared-memory
// ring or buffer another role reads or fills is wrapped in the hand-off
// protocol of mbarriers, with slots and phases from one iteration clock
// that producer and consumer compute alike:
//
//   - a ring filled by TMA: `full[s]` (the producer's arrive.expect_tx with
//     the bytes of the boxes it issues) and `empty[s]` (every consumer
//     thread arrives once it no longer reads slot s);
//   - a buffer written by one role's threads and stored by another's TMA:
//     `full` (one elected thread, after a fence of the async proxy and a
//     named barrier of the writers) and `empty` (the storing thread, once
//     the bulk store has read it).
//
// The clock of a ring is the tiles this CTA ran before times the K
// iterations per tile plus the K index (`it`); of a buffer, the tile count
// alone. Slot = clock % stages, phase = (clock / stages) & 1; a producer
// waits for the phase before (flipped parity), so its first pass over fresh
// barriers does not block.
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
  /// Fills it by TMA: waits for `empty`, then arrive.expect_tx on `full`
  /// with the bytes of the selected TMA loads, which complete it.
  AsyncFill,
  /// Writes it from registers: waits for `empty`; afterwards fences the
  /// async proxy, meets the role's other threads at a named barrier, and
  /// one elected thread arrives on `full`.
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
/// releases after, and records the barriers' arrival counts and expected
/// transaction bytes.
void synthesize(LoweringContext &Ctx, const Selection &Sel,
                std::vector<InstId> &Out);

/// The kernel-level set-up: thread 0 initialises every barrier with its
/// arrival count, then a fence and a CTA-wide barrier publish them.
/// @pre every role is lowered (the arrival counts are known).
void initializeBarriers(LoweringContext &Ctx, std::vector<InstId> &Out);

/// Refuses a barrier no role arrives on: a buffer filled but never read (at
/// its first fill) or read but never filled (at its first read).
void checkHandoffs(LoweringContext &Ctx);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_PIPELINESYNTHESIS_H
