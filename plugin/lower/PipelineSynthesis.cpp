//===- plugin/lower/PipelineSynthesis.cpp - Rings, barriers, phases -------===//
//
// See PipelineSynthesis.h.
//
//===----------------------------------------------------------------------===//
#include "lower/PipelineSynthesis.h"

namespace tf::lower {

namespace {

/// The slot and phase of \p Clock in a ring of \p Stages: clock % stages and
/// (clock / stages) & 1; for one stage 0 and clock & 1.
std::pair<ExprId, ExprId> slotAndPhase(Kernel &L, ExprId Clock, int Stages) {
  if (Stages == 1)
    return {L.constant(0), L.binary(ExprKind::And, Clock, L.constant(1))};
  ExprId N = L.constant(Stages);
  return {L.binary(ExprKind::Mod, Clock, N),
          L.binary(ExprKind::And, L.binary(ExprKind::Div, Clock, N),
                   L.constant(1))};
}

/// A ring's clock counts K iterations; a buffer's, tiles.
ExprId clockOf(Kernel &L, const LoopClock &C, bool PerIteration) {
  if (PerIteration && C.Iterations != None)
    return C.Iterations;
  return C.Tiles == None ? L.constant(0) : C.Tiles;
}

bool fills(Handoff H) { return H != Handoff::Read; }

} // namespace

const BufferUse &acquire(LoweringContext &Ctx, Selection &Sel,
                         hir::ValueId Buffer, Handoff How) {
  for (const BufferUse &U : Sel.Uses)
    if (U.Buffer == Buffer && U.How == How)
      return U;
  (fills(How) ? Ctx.FirstFill : Ctx.FirstRead).try_emplace(Buffer, Sel.Op);
  const hir::Value &V = Ctx.H.Values[Buffer];
  const bool Ring = V.Kind == hir::ValueKind::Ring;
  const int Stages = Ring ? V.Stages : 1;
  BufferUse U;
  U.Buffer = Buffer;
  U.How = How;
  U.Full = Ctx.barrier(Buffer, "full", Stages);
  U.Empty = Ctx.barrier(Buffer, "empty", Stages);
  U.Clock = clockOf(Ctx.L, Sel.Clock, Ring);
  std::tie(U.Slot, U.Phase) = slotAndPhase(Ctx.L, U.Clock, Stages);
  Sel.Uses.push_back(U);
  return Sel.Uses.back();
}

void synthesize(LoweringContext &Ctx, const Selection &Sel,
                std::vector<InstId> &Out) {
  const hir::Stmt &S = Ctx.H.Stmts[Sel.Op];
  Kernel &L = Ctx.L;
  const Role &R = Ctx.Roles[Sel.Role];
  HandoffProtocol &P = *Ctx.Protocol;
  auto Point = [&](const BufferUse &U, BarrierId Bar) {
    return HandoffPoint{Bar, U.Slot, U.Clock, R.threads(), -1};
  };

  // Waits: a filler for the slot to be free (the phase before: flipped
  // parity), a reader for it to be full.
  for (const BufferUse &U : Sel.Uses) {
    if (fills(U.How))
      P.wait(Ctx, Point(U, U.Empty),
             L.binary(ExprKind::Xor, U.Phase, L.constant(1)), WaitFor::Free, S,
             Out);
    else
      P.wait(Ctx, Point(U, U.Full), U.Phase, WaitFor::Full, S, Out);
  }
  // An asynchronous fill's threads arrive on `full` before they issue it;
  // its transactions complete the phase.
  for (const BufferUse &U : Sel.Uses) {
    if (U.How != Handoff::AsyncFill)
      continue;
    const HandoffPoint Full = Point(U, U.Full);
    L.Barriers[U.Full].Arrivals = Full.Threads;
    L.Barriers[U.Full].TxBytes =
        P.arriveForAsyncFill(Ctx, Full, Sel.Body, S, Out);
  }
  Out.insert(Out.end(), Sel.Body.begin(), Sel.Body.end());

  // Releases.
  for (const BufferUse &U : Sel.Uses) {
    switch (U.How) {
    case Handoff::AsyncFill:
      break; // the fill's transactions complete `full`
    case Handoff::SyncFill: {
      // All writers' stores are visible and done; one of them hands the
      // buffer over.
      P.publishWrites(Ctx, R, S, Out);
      HandoffPoint Full = Point(U, U.Full);
      Full.Threads = 1;
      Full.Elected = R.Begin;
      L.Barriers[U.Full].Arrivals = P.arrive(Ctx, Full, S, Out);
      break;
    }
    case Handoff::Read: {
      // A slot that every CTA of a cluster fills is free when the readers
      // of each CTA it lands in released it.
      HandoffPoint Empty = Point(U, U.Empty);
      Empty.Ctas = Ctx.receivers(U.Buffer);
      L.Barriers[U.Empty].Arrivals = P.arrive(Ctx, Empty, S, Out);
      break;
    }
    }
  }
}

void checkHandoffs(LoweringContext &Ctx) {
  for (BarrierId Id = 0; Id < Ctx.L.Barriers.size(); ++Id) {
    const Barrier &B = Ctx.L.Barriers[Id];
    if (B.Arrivals != 0)
      continue;
    // Fillers arrive on `full`, readers on `empty`: without arrivals on
    // `full` the buffer is read but never filled, else filled but never read.
    const bool NeverFilled = Ctx.Barriers.at({B.Guards, "full"}) == Id;
    const auto &Sites = NeverFilled ? Ctx.FirstRead : Ctx.FirstFill;
    auto Site = Sites.find(B.Guards);
    Ctx.refuse(plugin::DiagId::err_tf_lower_handoff,
               Site != Sites.end()
                   ? LoweringContext::at(Ctx.H.Stmts[Site->second])
                   : Ctx.H.Values[B.Guards].Range,
               {Ctx.valueName(B.Guards), NeverFilled ? "read" : "filled",
                NeverFilled ? "filled" : "read", B.Name});
  }
}

} // namespace tf::lower
