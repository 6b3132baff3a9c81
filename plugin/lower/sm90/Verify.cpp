//===- plugin/lower/sm90/Verify.cpp - The sm90 extension checks -----------===//
//
// See Verify.h. The checks recompute from the statements what pipeline
// synthesis recorded in the barrier table, so a lowering bug is caught
// here, not on the GPU as a hang.
//
//===----------------------------------------------------------------------===//
#include "lower/sm90/Verify.h"
#include "lower/sm90/Sm90.h"

#include "lower/Printer.h"

#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace tf::lower::sm90 {

namespace {

/// Whether \p E mentions variable \p Name.
bool mentions(const Kernel &K, ExprId E, llvm::StringRef Name) {
  if (E == None)
    return false;
  const Expr &X = K.Exprs[E];
  return (X.Kind == ExprKind::Var && X.Name == Name) ||
         mentions(K, X.Lhs, Name) || mentions(K, X.Rhs, Name);
}

/// Whether \p E is \p Op(\p L, constant \p R).
bool isOp(const Kernel &K, ExprId E, ExprKind Op, ExprId L, std::int64_t R) {
  if (E == None)
    return false;
  const Expr &X = K.Exprs[E];
  return X.Kind == Op && K.sameExpr(X.Lhs, L) && X.Rhs != None &&
         K.Exprs[X.Rhs].Kind == ExprKind::Constant && K.Exprs[X.Rhs].Value == R;
}

/// The largest value an encoded descriptor field holds: 14 bits of bytes >> 4.
constexpr std::int64_t DescriptorFieldLimit = std::int64_t(1) << 18;
/// An mbarrier's pending transaction count is 20 bits (PTX ISA, "Contents of
/// the mbarrier object": tx-count range -(2^20 - 1) .. 2^20 - 1).
constexpr std::int64_t MaxTxBytes = std::int64_t(1) << 20;
/// Named barriers per CTA (PTX ISA, bar.sync: ids 0..15).
constexpr std::int64_t NamedBarriers = 16;

/// One use of a barrier object: the statement's barrier, slot and clock.
struct Use {
  BarrierId Bar = None;
  ExprId Slot = None, Clock = None;
  /// Waits: the parity, and whether it is the producer's flipped one.
  const Wait *W = nullptr;
  const char *What = "";
};

class Sm90Verifier final : public ExtensionVerifier {
public:
  Sm90Verifier(const Kernel &K, VerifyFailure Fail)
      : K(K), Fail(std::move(Fail)) {
    Scratch.Exprs = K.Exprs;
  }

  void body(llvm::ArrayRef<InstId> Body, const VerifyScope &C) override;
  void stmt(InstId Id, const Stmt &S, const VerifyScope &C) override;
  void finish() override;

private:
  void fail(const hir::SourceRange &R, const llvm::Twine &Message) {
    Fail(R, Message);
  }
  void checkClock(const hir::SourceRange &R, const Use &U,
                  const VerifyScope &C);
  void checkTma(const hir::SourceRange &R, const AtomCallStmt &Call,
                const Tma &T);
  void checkDescriptor(const hir::SourceRange &R, const char *Which,
                       const SmemDescriptor &D, hir::ValueId Ring);

  /// \p E with the lets of \p C substituted, built in Scratch.
  ExprId expand(ExprId E, const VerifyScope &C, unsigned Depth = 0);

  const Kernel &K;
  VerifyFailure Fail;
  /// K's expressions and the expanded clocks (compared and printed).
  Kernel Scratch;
  /// Per barrier: the threads arriving per phase, by role.
  std::map<BarrierId, std::map<InstId, std::int64_t>> Arrivals;
  std::map<BarrierId, std::int64_t> Inits;
  /// Per barrier: the roles waiting on it.
  std::map<BarrierId, std::set<InstId>> Waiters;
  /// Per barrier: the first use's expanded clock (in Scratch).
  std::map<BarrierId, ExprId> FirstClock;
};

ExprId Sm90Verifier::expand(ExprId E, const VerifyScope &C, unsigned Depth) {
  if (E == None || Depth > 64)
    return E;
  const Expr X = Scratch.Exprs[E]; // a copy: binary() may reallocate
  if (X.Kind == ExprKind::Var) {
    auto It = C.Lets.find(X.Name);
    return It == C.Lets.end() ? E : expand(It->second, C, Depth + 1);
  }
  if (X.Lhs == None)
    return E;
  ExprId L = expand(X.Lhs, C, Depth + 1);
  return Scratch.binary(X.Kind, L, expand(X.Rhs, C, Depth + 1));
}

void Sm90Verifier::checkClock(const hir::SourceRange &R, const Use &U,
                              const VerifyScope &C) {
  const Barrier &B = K.Barriers[U.Bar];
  // Slot and phase are the clock's, in the ring of B.Count objects: slot
  // clock % n and parity (clock / n) & 1; one object: slot 0, clock & 1.
  const bool One = B.Count == 1;
  const bool SlotOk =
      One ? U.Slot != None && K.Exprs[U.Slot].Kind == ExprKind::Constant &&
                K.Exprs[U.Slot].Value == 0
          : isOp(K, U.Slot, ExprKind::Mod, U.Clock, B.Count);
  if (!SlotOk)
    fail(R, std::string(U.What) + " on " + B.Name + " indexes slot " +
                exprText(K, U.Slot) + ", not its clock " +
                exprText(K, U.Clock) + " modulo " + std::to_string(B.Count));
  if (const Wait *W = U.W) {
    const Expr *P = W->Phase == None ? nullptr : &K.Exprs[W->Phase];
    ExprId Parity = W->Phase;
    if (W->ProducerParity && P && P->Kind == ExprKind::Xor)
      Parity = P->Lhs;
    ExprId Div = Parity == None ? None : K.Exprs[Parity].Lhs;
    const bool ParityOk =
        isOp(K, Parity, ExprKind::And, Div, 1) &&
        (One ? K.sameExpr(Div, U.Clock)
             : isOp(K, Div, ExprKind::Div, U.Clock, B.Count)) &&
        (!W->ProducerParity || (P && P->Kind == ExprKind::Xor));
    if (!ParityOk)
      fail(R, "the wait on " + B.Name + " uses parity " +
                  exprText(K, W->Phase) + ", not " +
                  (One ? "clock & 1"
                       : "(clock / " + std::to_string(B.Count) + ") & 1") +
                  (W->ProducerParity ? " ^ 1" : ""));
  }
  // The clock counts every loop the barrier is used in.
  const ExprId Clock = expand(U.Clock, C);
  if (C.Persistent && !mentions(Scratch, Clock, "task"))
    fail(R, "the clock of " + B.Name + " (" + exprText(Scratch, Clock) +
                ") does not count the persistent tiles; every tile would "
                "reuse the first tile's phases");
  if (!C.KVar.empty() && !One && !mentions(Scratch, Clock, C.KVar))
    fail(R, "the clock of " + B.Name + " (" + exprText(Scratch, Clock) +
                ") does not count the K iterations of loop " + C.KVar);
  auto [It, New] = FirstClock.try_emplace(U.Bar, Clock);
  if (!New && !Scratch.sameExpr(It->second, Clock))
    fail(R, "producer and consumer of " + B.Name +
                " use different clocks: " + exprText(Scratch, It->second) +
                " and " + exprText(Scratch, Clock));
}

void Sm90Verifier::body(llvm::ArrayRef<InstId> Body, const VerifyScope &) {
  for (InstId Id : Body) {
    const Stmt &S = K.Insts[Id];
    const auto *Arrive = as<ArriveExpectTx>(S);
    if (!Arrive)
      continue;
    std::int64_t Issued = 0;
    for (InstId Other : Body) {
      const auto *Copy = as<Tma>(K.Insts[Other]);
      if (Copy && !Copy->Store && Copy->Bar == Arrive->Bar &&
          K.sameExpr(Copy->Slot, Arrive->Slot))
        Issued += Copy->Bytes;
    }
    const Barrier &B = K.Barriers[Arrive->Bar];
    if (Issued != Arrive->Bytes || B.TxBytes != Arrive->Bytes)
      fail(S.Range, "mbarrier.arrive.expect_tx on " + B.Name + " expects " +
                        llvm::Twine(Arrive->Bytes) + " bytes (barrier table: " +
                        llvm::Twine(B.TxBytes) + ") but the TMA copies "
                        "issued on it move " + llvm::Twine(Issued));
  }
}

void Sm90Verifier::checkTma(const hir::SourceRange &R,
                            const AtomCallStmt &Call, const Tma &T) {
  const OperandView *Global = nullptr, *Shared = nullptr;
  for (const OperandView &O : Call.Operands)
    (O.Place == OperandPlace::Global ? Global : Shared) = &O;
  if (!Global || !Shared || Global->Map >= K.Maps.size()) {
    fail(R, "a TMA copy needs a box of a tensor map and a shared-memory "
            "view");
    return;
  }
  if (T.Multicast > 1 &&
      (T.Store || T.Multicast != K.ClusterCtas || T.Issuer < 0 ||
       T.Issuer >= T.Multicast))
    fail(R, "a multicast TMA load reaches every CTA of its cluster from one "
            "of them: multicast " + llvm::Twine(T.Multicast) + " by rank " +
            llvm::Twine(T.Issuer) + " in clusters of " +
            llvm::Twine(K.ClusterCtas) + (T.Store ? ", a store" : ""));
  const TensorMap &M = K.Maps[Global->Map];
  std::vector<bool> Seen(M.Box.size(), false);
  bool Permutation = M.Order.size() == M.Box.size();
  for (int D : M.Order) {
    Permutation = Permutation && D >= 0 &&
                  static_cast<std::size_t>(D) < Seen.size() && !Seen[D];
    if (Permutation)
      Seen[D] = true;
  }
  if (!Permutation || Global->Coords.size() != M.Box.size()) {
    fail(R, "tensor map of '" + M.Tensor + "': its box order is not a "
            "permutation of the box's " + std::to_string(M.Box.size()) +
            " dimensions, or the copy names " +
            std::to_string(Global->Coords.size()) + " coordinates");
    return;
  }
  if (Shared->View == None)
    return;
  const Region &V = K.Regions[Shared->View];
  const std::int64_t Align = atoms::nv::sm90::tma_smem_alignment(M.Swizzle);
  const char *Name =
      T.Store ? "cp.async.bulk.tensor.store" : "cp.async.bulk.tensor.load";
  if (Shared->Offset % Align != 0 || Shared->Offset + T.Bytes > V.Bytes)
    fail(R, std::string(Name) + " box at byte " +
                std::to_string(Shared->Offset) + " of " + V.Name + " (" +
                std::to_string(V.Bytes) + " bytes) is not a " +
                std::to_string(T.Bytes) + "-byte box aligned to " +
                std::to_string(Align) + " bytes inside it");
}

void Sm90Verifier::checkDescriptor(const hir::SourceRange &R,
                                   const char *Which, const SmemDescriptor &D,
                                   hir::ValueId Ring) {
  std::int64_t Base = 0, Bytes = 0;
  for (const Region &X : K.Regions)
    if (X.Kind == RegionKind::RingStage && X.Value == Ring) {
      Base = std::max(Base, X.Offset);
      Bytes = X.Bytes;
    }
  // 16-byte units of 14 bits: every start address and offset below 256 KiB.
  if (D.Start % 16 != 0 || D.Start >= Bytes ||
      Base + D.Start >= DescriptorFieldLimit || D.LeadingBytes % 16 != 0 ||
      D.LeadingBytes >= DescriptorFieldLimit || D.StrideBytes % 16 != 0 ||
      D.StrideBytes >= DescriptorFieldLimit)
    fail(R, std::string("the WGMMA descriptor of ") + Which + " (start " +
                std::to_string(D.Start) + ", lbo " +
                std::to_string(D.LeadingBytes) + ", sbo " +
                std::to_string(D.StrideBytes) +
                ") does not fit its 16-byte, 14-bit fields or its view");
}

void Sm90Verifier::stmt(InstId, const Stmt &S, const VerifyScope &C) {
  const auto &I = llvm::cast<Inst>(*S.extension());
  switch (I.sm90Kind()) {
  case Kind::BarrierInit: {
    const auto &X = llvm::cast<BarrierInit>(I);
    Inits[X.Bar] = X.Count;
    return;
  }
  case Kind::Arrive:
  case Kind::ArriveExpectTx: {
    const auto &X = llvm::cast<BarrierUse>(I);
    // A cluster-wide arrival: every CTA of the cluster arrives on this
    // CTA's object.
    const auto *A = llvm::dyn_cast<Arrive>(&X);
    Arrivals[X.Bar][C.Role] +=
        X.Threads * (A && A->Cluster ? K.ClusterCtas : 1);
    checkClock(S.Range, {X.Bar, X.Slot, X.Clock, nullptr, kindName(I.sm90Kind())},
               C);
    return;
  }
  case Kind::Wait: {
    const auto &X = llvm::cast<Wait>(I);
    Waiters[X.Bar].insert(C.Role);
    checkClock(S.Range, {X.Bar, X.Slot, X.Clock, &X, kindName(Kind::Wait)}, C);
    return;
  }
  case Kind::NamedBarrier: {
    // bar.sync counts whole warps; ids 1..15 (0 is __syncthreads').
    const auto &X = llvm::cast<NamedBarrier>(I);
    if (X.Count % 32 != 0 || X.Count > K.BlockThreads || X.Id < 1 ||
        X.Id >= NamedBarriers)
      fail(S.Range, "bar.sync " + llvm::Twine(X.Id) + ", " +
                        llvm::Twine(X.Count) +
                        " needs an id in [1, 16) and a multiple of 32 "
                        "threads within the CTA");
    return;
  }
  case Kind::Tma: {
    const auto &X = llvm::cast<Tma>(I);
    if (!X.Store)
      checkClock(S.Range,
                 {X.Bar, X.Slot, X.Clock, nullptr, "cp.async.bulk.tensor.load"},
                 C);
    checkTma(S.Range, S.get<AtomCallStmt>(), X);
    return;
  }
  case Kind::Wgmma: {
    const auto &X = llvm::cast<Wgmma>(I);
    const AtomCallStmt &Call = S.get<AtomCallStmt>();
    const OperandView *A = Call.operand("A"), *B = Call.operand("B");
    if (!A || !B || !Call.operand("C")) {
      fail(S.Range, "a WGMMA needs operands A, B and C");
      return;
    }
    checkDescriptor(S.Range, "A", X.A, A->Ring);
    checkDescriptor(S.Range, "B", X.B, B->Ring);
    return;
  }
  default:
    return;
  }
}

void Sm90Verifier::finish() {
  for (BarrierId B = 0; B < K.Barriers.size(); ++B) {
    const Barrier &X = K.Barriers[B];
    std::int64_t Performed = 0;
    for (const auto &[Role, Threads] : Arrivals[B])
      Performed += Threads;
    auto Init = Inits.find(B);
    if (Init == Inits.end())
      fail(K.Range, "barrier " + X.Name + " is never initialised");
    else if (Init->second != X.Arrivals)
      fail(K.Range, "barrier " + X.Name + " is initialised with " +
                        llvm::Twine(Init->second) + " arrivals, the table "
                        "says " + llvm::Twine(X.Arrivals));
    if (Performed != X.Arrivals)
      fail(K.Range, "barrier " + X.Name + " expects " +
                        llvm::Twine(X.Arrivals) + " arrivals per phase but "
                        "the roles perform " + llvm::Twine(Performed));
    if (!FirstClock.count(B))
      fail(K.Range, "barrier " + X.Name + " is never used");
    // A barrier hands something from the arriving roles to others.
    bool Handoff = false;
    for (InstId Role : Waiters[B])
      Handoff |= !Arrivals[B].count(Role);
    if (!Handoff)
      fail(K.Range, "barrier " + X.Name + " is never waited on by a role "
                    "that does not arrive on it");
    if (X.TxBytes >= MaxTxBytes)
      fail(K.Range, "barrier " + X.Name + " expects " +
                        llvm::Twine(X.TxBytes) + " bytes per phase; an "
                        "mbarrier's transaction count holds less than " +
                        llvm::Twine(MaxTxBytes));
  }
}

} // namespace

std::unique_ptr<ExtensionVerifier> makeVerifier(const Kernel &K,
                                                VerifyFailure Fail) {
  return std::make_unique<Sm90Verifier>(K, std::move(Fail));
}

} // namespace tf::lower::sm90
