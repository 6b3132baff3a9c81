//===- plugin/lower/PipelineSynthesis.cpp - Rings, barriers, phases -------===//
//
// See PipelineSynthesis.h.
//
//===----------------------------------------------------------------------===//
#include "lower/PipelineSynthesis.h"
#include "lower/sm90/Sm90.h"

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

  // Waits: a filler for the slot to be free (the phase before: flipped
  // parity), a reader for it to be full.
  for (const BufferUse &U : Sel.Uses) {
    auto Wait = std::make_unique<sm90::Wait>();
    const bool Producer = fills(U.How);
    Wait->Bar = Producer ? U.Empty : U.Full;
    Wait->Slot = U.Slot;
    Wait->Phase = Producer ? L.binary(ExprKind::Xor, U.Phase, L.constant(1))
                           : U.Phase;
    Wait->Clock = U.Clock;
    Wait->Threads = R.threads();
    Wait->ProducerParity = Producer;
    Ctx.add(std::move(Wait), S, Out);
  }
  // The bytes a TMA fill expects are registered before its copies can
  // complete them.
  for (const BufferUse &U : Sel.Uses) {
    if (U.How != Handoff::AsyncFill)
      continue;
    auto Arrive = std::make_unique<sm90::ArriveExpectTx>();
    Arrive->Bar = U.Full;
    Arrive->Slot = U.Slot;
    Arrive->Clock = U.Clock;
    Arrive->Threads = R.threads();
    for (InstId I : Sel.Body)
      if (const auto *Copy = as<sm90::Tma>(L.Insts[I]);
          Copy && !Copy->Store && Copy->Bar == U.Full)
        Arrive->Bytes += Copy->Bytes;
    L.Barriers[U.Full].Arrivals = R.threads();
    L.Barriers[U.Full].TxBytes = Arrive->Bytes;
    Ctx.add(std::move(Arrive), S, Out);
  }
  Out.insert(Out.end(), Sel.Body.begin(), Sel.Body.end());

  // Releases.
  for (const BufferUse &U : Sel.Uses) {
    switch (U.How) {
    case Handoff::AsyncFill:
      break; // the TMA's transactions complete `full`
    case Handoff::SyncFill: {
      // Generic-proxy writes become visible to the TMA (async proxy), then
      // all writers meet so that one of them can hand the buffer over.
      Ctx.add(std::make_unique<sm90::FenceProxyAsync>(), S, Out);
      auto Sync = std::make_unique<sm90::NamedBarrier>();
      Sync->Id = Ctx.NextNamedBarrier++;
      Sync->Count = R.threads();
      Ctx.add(std::move(Sync), S, Out);
      auto Arrive = std::make_unique<sm90::Arrive>();
      Arrive->Bar = U.Full;
      Arrive->Slot = U.Slot;
      Arrive->Clock = U.Clock;
      Arrive->Threads = 1;
      Arrive->Elected = R.Begin;
      L.Barriers[U.Full].Arrivals = 1;
      Ctx.add(std::move(Arrive), S, Out);
      break;
    }
    case Handoff::Read: {
      auto Release = std::make_unique<sm90::Arrive>();
      Release->Bar = U.Empty;
      Release->Slot = U.Slot;
      Release->Clock = U.Clock;
      Release->Threads = R.threads();
      L.Barriers[U.Empty].Arrivals = R.threads();
      Ctx.add(std::move(Release), S, Out);
      break;
    }
    }
  }
}

void initializeBarriers(LoweringContext &Ctx, std::vector<InstId> &Out) {
  Kernel &L = Ctx.L;
  Stmt Init(RoleStmt{"init", "", 0, 1}, Ctx.H.Range);
  for (BarrierId B = 0; B < L.Barriers.size(); ++B) {
    auto I = std::make_unique<sm90::BarrierInit>();
    I->Bar = B;
    I->Count = L.Barriers[B].Arrivals;
    Init.Body.push_back(L.addInst(Stmt(std::move(I), Ctx.H.Range)));
  }
  Out.push_back(L.addInst(std::move(Init)));
  Out.push_back(L.addInst(
      Stmt(std::make_unique<sm90::FenceBarrierInit>(), Ctx.H.Range)));
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
