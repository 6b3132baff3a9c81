//===- plugin/lower/Verify.cpp - Checks of a lowered kernel ---------------===//
//
// See Verify.h. The checks recompute from the instructions what Lower.cpp
// recorded in the barrier table and the map, so a lowering bug (or a hand
// edit of the LIR in a test) is caught here, not on the GPU as a hang.
//
//===----------------------------------------------------------------------===//
#include "lower/Verify.h"
#include "lower/Printer.h"

#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace tf::lower {

namespace {

/// The loops and lets around an instruction.
struct Context {
  int Role = -1;
  bool Persistent = false;
  std::string KVar;
  /// The lets in scope, by name.
  std::map<std::string, ExprId> Lets;
};

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

class Verifier {
public:
  explicit Verifier(const Kernel &K) : K(K) { Scratch.Exprs = K.Exprs; }

  llvm::Error run();

private:
  void fail(const hir::SourceRange &R, const llvm::Twine &Message) {
    Errors = llvm::joinErrors(std::move(Errors),
                              problemAt(R, "kernel " + K.Name + ": " + Message));
  }
  void checkMap();
  void walk(const std::vector<InstId> &Body, Context C);
  void checkClock(const Inst &I, const Context &C);
  void checkTx(const std::vector<InstId> &Body);
  void checkTma(const Inst &I);
  void checkDescriptor(const Inst &I, const char *Which,
                       const SmemDescriptor &D, hir::ValueId Ring);
  void checkArrivals();

  /// \p E with the lets of \p C substituted, built in Scratch.
  ExprId expand(ExprId E, const Context &C, unsigned Depth = 0);

  const Kernel &K;
  /// K's expressions and the expanded clocks (compared and printed).
  Kernel Scratch;
  llvm::Error Errors = llvm::Error::success();
  /// Per barrier: the threads arriving per phase, by role.
  std::map<BarrierId, std::map<int, std::int64_t>> Arrivals;
  std::map<BarrierId, std::int64_t> Inits;
  /// Per barrier: the roles waiting on it.
  std::map<BarrierId, std::set<int>> Waiters;
  /// Per barrier: the first use's expanded clock (in Scratch).
  std::map<BarrierId, ExprId> FirstClock;
  std::vector<std::pair<std::int64_t, std::int64_t>> RoleRanges;
};

ExprId Verifier::expand(ExprId E, const Context &C, unsigned Depth) {
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

void Verifier::checkMap() {
  std::vector<RegionId> Order(K.Regions.size());
  for (RegionId I = 0; I < Order.size(); ++I)
    Order[I] = I;
  std::stable_sort(Order.begin(), Order.end(), [&](RegionId A, RegionId B) {
    return K.Regions[A].Offset < K.Regions[B].Offset;
  });
  std::int64_t End = 0;
  for (std::size_t I = 0; I < Order.size(); ++I) {
    const Region &R = K.Regions[Order[I]];
    if (R.Align <= 0 || R.Offset % R.Align != 0 || K.SharedAlign % R.Align)
      fail(K.Range, "shared-memory region " + R.Name + " at byte " +
                        llvm::Twine(R.Offset) + " is not aligned to " +
                        llvm::Twine(R.Align) + " bytes (" + R.AlignReason +
                        ") within a base aligned to " +
                        llvm::Twine(K.SharedAlign));
    if (I > 0) {
      const Region &P = K.Regions[Order[I - 1]];
      if (P.Offset + P.Bytes > R.Offset)
        fail(K.Range, "shared-memory regions " + P.Name + " [" +
                          llvm::Twine(P.Offset) + ", " +
                          llvm::Twine(P.Offset + P.Bytes) + ") and " + R.Name +
                          " [" + llvm::Twine(R.Offset) + ", " +
                          llvm::Twine(R.Offset + R.Bytes) + ") overlap");
    }
    End = std::max(End, R.Offset + R.Bytes);
  }
  if (End > K.SharedBytes)
    fail(K.Range, "the shared-memory map ends at byte " + llvm::Twine(End) +
                      " but the launch asks for " +
                      llvm::Twine(K.SharedBytes) + " bytes");
  if (K.SharedBytes > K.SharedLimit)
    fail(K.Range, "the shared-memory map takes " +
                      llvm::Twine(K.SharedBytes) + " bytes, more than the " +
                      llvm::Twine(K.SharedLimit) + " of cta.shared_memory.max "
                      "on " + K.Target + "; use fewer stages or smaller tiles");
}

void Verifier::checkClock(const Inst &I, const Context &C) {
  const Barrier &B = K.Barriers[I.Bar];
  if (I.Kind == InstKind::BarrierInit)
    return;
  // Slot and phase are the clock's, in the ring of B.Count objects: slot
  // clock % n and parity (clock / n) & 1; one object: slot 0, clock & 1.
  const bool One = B.Count == 1;
  const bool SlotOk =
      One ? I.Slot != None && K.Exprs[I.Slot].Kind == ExprKind::Constant &&
                K.Exprs[I.Slot].Value == 0
          : isOp(K, I.Slot, ExprKind::Mod, I.Clock, B.Count);
  if (!SlotOk)
    fail(I.Range, std::string(instName(I.Kind)) + " on " + B.Name +
                      " indexes slot " + exprText(K, I.Slot) +
                      ", not its clock " + exprText(K, I.Clock) + " modulo " +
                      std::to_string(B.Count));
  if (I.Kind == InstKind::Wait) {
    const Expr *P = I.Phase == None ? nullptr : &K.Exprs[I.Phase];
    ExprId Parity = I.Phase;
    if (I.ProducerParity && P && P->Kind == ExprKind::Xor)
      Parity = P->Lhs;
    ExprId Div = Parity == None ? None : K.Exprs[Parity].Lhs;
    const bool ParityOk =
        isOp(K, Parity, ExprKind::And, Div, 1) &&
        (One ? K.sameExpr(Div, I.Clock)
             : isOp(K, Div, ExprKind::Div, I.Clock, B.Count)) &&
        (!I.ProducerParity || (P && P->Kind == ExprKind::Xor));
    if (!ParityOk)
      fail(I.Range, "the wait on " + B.Name + " uses parity " +
                        exprText(K, I.Phase) + ", not " +
                        (One ? "clock & 1"
                             : "(clock / " + std::to_string(B.Count) +
                                   ") & 1") +
                        (I.ProducerParity ? " ^ 1" : ""));
  }
  // The clock counts every loop the barrier is used in.
  const ExprId Clock = expand(I.Clock, C);
  if (C.Persistent && !mentions(Scratch, Clock, "task"))
    fail(I.Range, "the clock of " + B.Name + " (" +
                      exprText(Scratch, Clock) +
                      ") does not count the persistent tiles; every tile "
                      "would reuse the first tile's phases");
  if (!C.KVar.empty() && !One && !mentions(Scratch, Clock, C.KVar))
    fail(I.Range, "the clock of " + B.Name + " (" +
                      exprText(Scratch, Clock) +
                      ") does not count the K iterations of loop " + C.KVar);
  auto [It, New] = FirstClock.try_emplace(I.Bar, Clock);
  if (!New && !Scratch.sameExpr(It->second, Clock))
    fail(I.Range, "producer and consumer of " + B.Name +
                      " use different clocks: " +
                      exprText(Scratch, It->second) + " and " +
                      exprText(Scratch, Clock));
}

void Verifier::checkTx(const std::vector<InstId> &Body) {
  for (InstId Id : Body) {
    const Inst &Arrive = K.Insts[Id];
    if (Arrive.Kind != InstKind::ArriveExpectTx)
      continue;
    std::int64_t Issued = 0;
    for (InstId Other : Body) {
      const Inst &Copy = K.Insts[Other];
      if (Copy.Kind == InstKind::TmaLoad && Copy.Bar == Arrive.Bar &&
          K.sameExpr(Copy.Slot, Arrive.Slot))
        Issued += Copy.Bytes;
    }
    const Barrier &B = K.Barriers[Arrive.Bar];
    if (Issued != Arrive.Bytes || B.TxBytes != Arrive.Bytes)
      fail(Arrive.Range, "mbarrier.arrive.expect_tx on " + B.Name +
                             " expects " + llvm::Twine(Arrive.Bytes) +
                             " bytes (barrier table: " +
                             llvm::Twine(B.TxBytes) + ") but the TMA copies "
                             "issued on it move " + llvm::Twine(Issued));
  }
}

void Verifier::checkTma(const Inst &I) {
  const TensorMap &M = K.Maps[I.Map];
  if (I.View == None)
    return;
  const Region &R = K.Regions[I.View];
  const std::int64_t Align =
      atoms::nv::sm90::tma_smem_alignment(M.Swizzle);
  if (I.ViewOffset % Align != 0 || I.ViewOffset + I.Bytes > R.Bytes)
    fail(I.Range, std::string(instName(I.Kind)) + " box at byte " +
                      std::to_string(I.ViewOffset) + " of " + R.Name + " (" +
                      std::to_string(R.Bytes) + " bytes) is not a " +
                      std::to_string(I.Bytes) + "-byte box aligned to " +
                      std::to_string(Align) + " bytes inside it");
}

void Verifier::checkDescriptor(const Inst &I, const char *Which,
                               const SmemDescriptor &D, hir::ValueId Ring) {
  std::int64_t Base = 0, Bytes = 0;
  for (const Region &R : K.Regions)
    if (R.Kind == RegionKind::RingStage && R.Value == Ring) {
      Base = std::max(Base, R.Offset);
      Bytes = R.Bytes;
    }
  // 16-byte units of 14 bits: every start address and offset below 256 KiB.
  if (D.Start % 16 != 0 || D.Start >= Bytes ||
      Base + D.Start >= DescriptorFieldLimit ||
      D.LeadingBytes % 16 != 0 || D.LeadingBytes >= DescriptorFieldLimit ||
      D.StrideBytes % 16 != 0 || D.StrideBytes >= DescriptorFieldLimit)
    fail(I.Range, std::string("the WGMMA descriptor of ") + Which +
                      " (start " + std::to_string(D.Start) + ", lbo " +
                      std::to_string(D.LeadingBytes) + ", sbo " +
                      std::to_string(D.StrideBytes) +
                      ") does not fit its 16-byte, 14-bit fields or its "
                      "view");
}

void Verifier::walk(const std::vector<InstId> &Body, Context C) {
  checkTx(Body);
  for (InstId Id : Body) {
    const Inst &I = K.Insts[Id];
    Context Inner = C;
    switch (I.Kind) {
    case InstKind::Let:
      C.Lets[I.Vars[0]] = I.Value;
      break;
    case InstKind::Role: {
      if (I.Begin < 0 || I.End > K.BlockThreads || I.Begin >= I.End)
        fail(I.Range, "role " + I.RoleName + " runs threads [" +
                          llvm::Twine(I.Begin) + ", " + llvm::Twine(I.End) +
                          "), outside the CTA's " +
                          llvm::Twine(K.BlockThreads));
      if (I.RoleName != "init") {
        for (const auto &[B, E] : RoleRanges)
          if (B < I.End && I.Begin < E)
            fail(I.Range, "role " + I.RoleName + " overlaps another role");
        RoleRanges.push_back({I.Begin, I.End});
      }
      Inner.Role = static_cast<int>(Id);
      walk(I.Body, Inner);
      break;
    }
    case InstKind::TileLoop:
      Inner.Persistent = I.Persistent;
      walk(I.Body, Inner);
      break;
    case InstKind::KLoop:
      Inner.KVar = I.Vars[0];
      walk(I.Body, Inner);
      break;
    case InstKind::BarrierInit:
      Inits[I.Bar] = I.Count;
      break;
    case InstKind::Arrive:
    case InstKind::ArriveExpectTx:
      Arrivals[I.Bar][C.Role] += I.Threads;
      checkClock(I, C);
      break;
    case InstKind::Wait:
      Waiters[I.Bar].insert(C.Role);
      checkClock(I, C);
      break;
    case InstKind::NamedBarrier:
      // bar.sync counts whole warps; ids 1..15 (0 is __syncthreads').
      if (I.Count % 32 != 0 || I.Count > K.BlockThreads ||
          I.BarrierIdNum < 1 || I.BarrierIdNum >= NamedBarriers)
        fail(I.Range, "bar.sync " + llvm::Twine(I.BarrierIdNum) + ", " +
                          llvm::Twine(I.Count) +
                          " needs an id in [1, 16) and a multiple of 32 "
                          "threads within the CTA");
      break;
    case InstKind::TmaLoad:
      checkClock(I, C);
      checkTma(I);
      break;
    case InstKind::TmaStore:
      checkTma(I);
      break;
    case InstKind::Wgmma:
      checkDescriptor(I, "A", I.A, I.RingA);
      checkDescriptor(I, "B", I.B, I.RingB);
      break;
    default:
      break;
    }
  }
}

void Verifier::checkArrivals() {
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
    for (int Role : Waiters[B])
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

llvm::Error Verifier::run() {
  checkMap();
  walk(K.Body, Context{});
  checkArrivals();
  return std::move(Errors);
}

} // namespace

llvm::Error verify(const Kernel &K) { return Verifier(K).run(); }

} // namespace tf::lower
