//===- plugin/interp/Tma.cpp - TMA copies and bulk groups -------------------===//
//
// See Run.h: TMA atom calls queue their boxes for the TMA unit, which
// performs one per step (Schedule.cpp); a load completes its bytes on its
// barrier, a store is pending until performed, and wait_group.read blocks
// on the committed stores. A multicast load (.multicast::cluster) is
// issued by one rank of the cluster and lands, with its completion, in the
// shared memory of every CTA its mask names.
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
    llvm::Expected<std::int64_t> S = eval(W, V.Slot);
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

llvm::Expected<Run::TmaBox> Run::tmaBox(Walker &W, const AtomCallStmt &Call) {
  TmaBox B;
  llvm::Expected<std::int64_t> N = share(W, Call.Elected, Call.Threads);
  if (!N)
    return N.takeError();
  B.Issuers = *N;
  if (B.Issuers == 0)
    return B;
  std::tie(B.Global, B.Shared) = tmaOperands(Call);
  if (!B.Global || !B.Shared || B.Global->Map >= K.Maps.size())
    return fail("names no tensor map");
  std::int64_t Slot = 0;
  llvm::Expected<const Region *> R = view(W, *B.Shared, Slot);
  if (!R)
    return R.takeError();
  B.View = *R;
  const lower::TensorMap &Map = K.Maps[B.Global->Map];
  B.Bytes = bytes(Map.Element);
  for (std::int64_t E : Map.Box)
    B.Bytes *= E;
  return B;
}

llvm::Error Run::tmaBoxAligned(const TmaBox &B) {
  const std::int64_t Address = B.View->Offset + B.Shared->Offset;
  if (Address % 128 != 0)
    return fail("the box's shared-memory address " + llvm::Twine(Address) +
                " is not 128-byte aligned");
  return llvm::Error::success();
}

llvm::Error Run::tmaBoxInside(const TmaBox &B) {
  if (B.Shared->Offset < 0 || B.Shared->Offset + B.Bytes > B.View->Bytes)
    return fail("the box's " + llvm::Twine(B.Bytes) + " bytes at offset " +
                llvm::Twine(B.Shared->Offset) + " of " + B.View->Name +
                " reach outside its " + llvm::Twine(B.View->Bytes) + " bytes");
  return llvm::Error::success();
}

llvm::Expected<TmaOp> Run::tmaOp(Walker &W, const Stmt &S, const TmaBox &B,
                                  bool Store) {
  // A load reports a misaligned address before a box outside its view, a
  // store the other way round.
  if (llvm::Error E = Store ? tmaBoxInside(B) : tmaBoxAligned(B))
    return E;
  if (llvm::Error E = Store ? tmaBoxAligned(B) : tmaBoxInside(B))
    return E;
  TmaOp Op;
  Op.Store = Store;
  Op.I = &S;
  Op.Map = B.Global->Map;
  Op.Smem = B.View->Offset + B.Shared->Offset;
  Op.Cta = W.Cta;
  Op.Walker = W.Name;
  for (ExprId C : B.Global->Coords) {
    llvm::Expected<std::int64_t> V = eval(W, C);
    if (!V)
      return V.takeError();
    Op.Coords.push_back(*V);
  }
  return Op;
}

llvm::Error Run::tma(Walker &W, const Stmt &S, const ext::Tma &T) {
  llvm::Expected<TmaBox> B = tmaBox(W, S.get<AtomCallStmt>());
  if (!B)
    return B.takeError();
  if (B->Issuers == 0)
    return llvm::Error::success();
  if (T.Multicast > 1) {
    // The backend guards a multicast load by the rank (`if (cta_x % C ==
    // Issuer)`) and masks ranks [0, Multicast): in the other CTAs the
    // instruction does nothing.
    if (T.Store || T.Multicast > K.ClusterCtas || T.Issuer < 0 ||
        T.Issuer >= T.Multicast)
      return fail("a multicast to " + llvm::Twine(T.Multicast) +
                  " CTAs by rank " + llvm::Twine(T.Issuer) +
                  (T.Store ? " of a store" : "") + " in clusters of " +
                  llvm::Twine(K.ClusterCtas) + " CTAs");
    if (static_cast<std::int64_t>(W.Cta) != T.Issuer)
      return llvm::Error::success();
  }
  return T.Store ? tmaStore(W, S, *B) : tmaLoad(W, S, T, *B);
}

llvm::Error Run::tmaLoad(Walker &W, const Stmt &S, const ext::Tma &T,
                         const TmaBox &B) {
  std::int64_t BarSlot = 0;
  llvm::Expected<Mbarrier *> M = mbarrier(W, T.Bar, T.Slot, BarSlot);
  if (!M)
    return M.takeError();
  llvm::Expected<TmaOp> Op = tmaOp(W, S, B, /*Store=*/false);
  if (!Op)
    return Op.takeError();
  Op->Bar = T.Bar;
  Op->Slot = BarSlot;
  Op->Multicast = T.Multicast;
  for (std::int64_t I = 0; I < B.Issuers; ++I) {
    Op->Id = NextOp++;
    Tma.push_back(*Op);
    ++Stats.TmaLoads;
  }
  return llvm::Error::success();
}

llvm::Error Run::tmaStore(Walker &W, const Stmt &S, const TmaBox &B) {
  llvm::Expected<TmaOp> Op = tmaOp(W, S, B, /*Store=*/true);
  if (!Op)
    return Op.takeError();
  for (std::int64_t I = 0; I < B.Issuers; ++I) {
    Op->Id = NextOp++;
    PendingStores.insert(Op->Id);
    W.UncommittedStores.push_back(Op->Id);
    Tma.push_back(*Op);
    ++Stats.TmaStores;
  }
  return llvm::Error::success();
}

llvm::Error Run::performTma(const TmaOp &Op) {
  const lower::TensorMap &Map = K.Maps[Op.Map];
  const TensorArg &Global = argumentOf(Op.Map);
  if (Op.Store) {
    PendingStores.erase(Op.Id);
    return interp::tmaStore(Map, Global, Op.Coords, Ctas[Op.Cta].Smem, Op.Smem);
  }
  // Each receiving CTA gets the box at the same offset and completes its
  // bytes on its own object Bar[Slot] -- possibly before its own producer's
  // arrive.expect_tx announced them (the count goes below zero while the
  // arrival is pending, as PTX allows). Errors in a peer name it; the
  // issuer is the message's prefix.
  const std::size_t First = Op.Multicast > 1 ? 0 : Op.Cta;
  const std::size_t End =
      Op.Multicast > 1 ? static_cast<std::size_t>(Op.Multicast) : Op.Cta + 1;
  for (std::size_t R = First; R < End; ++R) {
    CtaState &C = Ctas[R];
    const bool Own = R == Op.Cta;
    llvm::Expected<std::int64_t> Written =
        interp::tmaLoad(Map, Global, Op.Coords, C.Smem, Op.Smem);
    if (!Written)
      return fail((Own ? "" : "into CTA " + std::to_string(C.Index) + ": ") +
                  llvm::toString(Written.takeError()));
    Mbarrier &M = C.Barriers[Op.Bar][static_cast<std::size_t>(Op.Slot)];
    if (llvm::Error E = M.completeTx(*Written))
      return fail((Own ? "" : "CTA " + std::to_string(C.Index) + "'s ") +
                  K.Barriers[Op.Bar].Name + "[" + llvm::Twine(Op.Slot) +
                  "]: " + llvm::toString(std::move(E)));
  }
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
