//===- plugin/interp/Tma.cpp - TMA copies and bulk groups -------------------===//
//
// See Run.h: TMA atom calls queue their boxes for the TMA unit, which
// performs one per step (Schedule.cpp); a load completes its bytes on its
// barrier, a store is pending until performed, and wait_group.read blocks
// on the committed stores.
//
//===----------------------------------------------------------------------===//
#include "interp/Run.h"

namespace tf::interp::impl {

llvm::Expected<const Region *> Run::stage(hir::ValueId Ring,
                                          std::int64_t Slot) {
  auto It = RingStages.find(Ring);
  if (It == RingStages.end())
    return fail("names a ring without stages");
  if (Slot < 0 || Slot >= static_cast<std::int64_t>(It->second.size()) ||
      It->second[static_cast<std::size_t>(Slot)] == lower::None)
    return fail("stage " + llvm::Twine(Slot) + " of a ring of " +
                llvm::Twine(It->second.size()) + " stages");
  return &K.Regions[It->second[static_cast<std::size_t>(Slot)]];
}

llvm::Expected<const Region *> Run::view(const Walker &W, const OperandView &V,
                                         std::int64_t &Slot) {
  Slot = 0;
  if (V.Ring != hir::None) {
    llvm::Expected<std::int64_t> S = eval(&W, V.Slot);
    if (!S)
      return S.takeError();
    Slot = *S;
    return stage(V.Ring, Slot);
  }
  if (V.View >= K.Regions.size())
    return fail("names no shared-memory view");
  return &K.Regions[V.View];
}

/// The global box and the shared-memory view of TMA atom call \p Call.
static std::pair<const OperandView *, const OperandView *>
tmaOperands(const AtomCallStmt &Call) {
  const OperandView *Global = nullptr, *Shared = nullptr;
  for (const OperandView &O : Call.Operands)
    (O.Place == lower::OperandPlace::Global ? Global : Shared) = &O;
  return {Global, Shared};
}

llvm::Error Run::tmaLoad(Walker &W, const Stmt &S, const ext::Tma &T) {
  const AtomCallStmt &Call = S.get<AtomCallStmt>();
  llvm::Expected<std::int64_t> N = share(W, Call.Elected, Call.Threads);
  if (!N)
    return N.takeError();
  if (*N == 0)
    return llvm::Error::success();
  const auto [Global, Shared] = tmaOperands(Call);
  if (!Global || !Shared || Global->Map >= K.Maps.size())
    return fail("names no tensor map");
  std::int64_t Slot = 0;
  llvm::Expected<const Region *> R = view(W, *Shared, Slot);
  if (!R)
    return R.takeError();
  std::int64_t BarSlot = 0;
  llvm::Expected<Mbarrier *> M = mbarrier(W, T.Bar, T.Slot, BarSlot);
  if (!M)
    return M.takeError();
  const lower::TensorMap &Map = K.Maps[Global->Map];
  std::int64_t BoxBytes = bytes(Map.Element);
  for (std::int64_t B : Map.Box)
    BoxBytes *= B;
  const std::int64_t Dst = (*R)->Offset + Shared->Offset;
  if (Dst % 128 != 0)
    return fail("the box's shared-memory address " + llvm::Twine(Dst) +
                " is not 128-byte aligned");
  if (Shared->Offset < 0 || Shared->Offset + BoxBytes > (*R)->Bytes)
    return fail("the box's " + llvm::Twine(BoxBytes) + " bytes at offset " +
                llvm::Twine(Shared->Offset) + " of " + (*R)->Name +
                " reach outside its " + llvm::Twine((*R)->Bytes) + " bytes");
  TmaOp Op;
  Op.I = &S;
  Op.Map = Global->Map;
  Op.Bar = T.Bar;
  Op.Smem = Dst;
  Op.Slot = BarSlot;
  Op.Walker = W.Name;
  for (ExprId C : Global->Coords) {
    llvm::Expected<std::int64_t> V = eval(&W, C);
    if (!V)
      return V.takeError();
    Op.Coords.push_back(*V);
  }
  for (std::int64_t I = 0; I < *N; ++I) {
    Op.Id = NextOp++;
    Tma.push_back(Op);
    ++Stats.TmaLoads;
  }
  return llvm::Error::success();
}

llvm::Error Run::tmaStore(Walker &W, const Stmt &S, const ext::Tma &) {
  const AtomCallStmt &Call = S.get<AtomCallStmt>();
  llvm::Expected<std::int64_t> N = share(W, Call.Elected, Call.Threads);
  if (!N)
    return N.takeError();
  if (*N == 0)
    return llvm::Error::success();
  const auto [Global, Shared] = tmaOperands(Call);
  if (!Global || !Shared || Global->Map >= K.Maps.size())
    return fail("names no tensor map");
  std::int64_t Slot = 0;
  llvm::Expected<const Region *> R = view(W, *Shared, Slot);
  if (!R)
    return R.takeError();
  const lower::TensorMap &Map = K.Maps[Global->Map];
  std::int64_t BoxBytes = bytes(Map.Element);
  for (std::int64_t B : Map.Box)
    BoxBytes *= B;
  if (Shared->Offset < 0 || Shared->Offset + BoxBytes > (*R)->Bytes)
    return fail("the box's " + llvm::Twine(BoxBytes) + " bytes at offset " +
                llvm::Twine(Shared->Offset) + " of " + (*R)->Name +
                " reach outside its " + llvm::Twine((*R)->Bytes) + " bytes");
  TmaOp Op;
  Op.Store = true;
  Op.I = &S;
  Op.Map = Global->Map;
  Op.Smem = (*R)->Offset + Shared->Offset;
  if (Op.Smem % 128 != 0)
    return fail("the box's shared-memory address " + llvm::Twine(Op.Smem) +
                " is not 128-byte aligned");
  Op.Walker = W.Name;
  for (ExprId C : Global->Coords) {
    llvm::Expected<std::int64_t> V = eval(&W, C);
    if (!V)
      return V.takeError();
    Op.Coords.push_back(*V);
  }
  for (std::int64_t I = 0; I < *N; ++I) {
    Op.Id = NextOp++;
    PendingStores.insert(Op.Id);
    W.UncommittedStores.push_back(Op.Id);
    Tma.push_back(Op);
    ++Stats.TmaStores;
  }
  return llvm::Error::success();
}

llvm::Error Run::performTma(const TmaOp &Op) {
  const lower::TensorMap &Map = K.Maps[Op.Map];
  const TensorArg &Global = argumentOf(Op.Map);
  if (Op.Store) {
    PendingStores.erase(Op.Id);
    return interp::tmaStore(Map, Global, Op.Coords, Smem, Op.Smem);
  }
  llvm::Expected<std::int64_t> Written =
      interp::tmaLoad(Map, Global, Op.Coords, Smem, Op.Smem);
  if (!Written)
    return Written.takeError();
  Mbarrier &M = Barriers[Op.Bar][static_cast<std::size_t>(Op.Slot)];
  if (llvm::Error E = M.completeTx(*Written))
    return fail(K.Barriers[Op.Bar].Name + "[" + llvm::Twine(Op.Slot) +
                "]: " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Error Run::bulkCommit(Walker &W) {
  W.StoreGroups.push_back(std::move(W.UncommittedStores));
  W.UncommittedStores.clear();
  return llvm::Error::success();
}

llvm::Error Run::bulkWaitRead(Walker &W) {
  // `blocked` let the walker through: every committed group has read its
  // shared memory.
  W.StoreGroups.clear();
  return llvm::Error::success();
}

} // namespace tf::interp::impl
