//===- plugin/lower/sm90/Sm90.cpp - The LIR's Hopper extension ------------===//
//
// See Sm90.h: the extension object, the names of its statements and how
// `tf finalize` prints them (docs/finalize.md). Its verifier is Verify.cpp.
//
//===----------------------------------------------------------------------===//
#include "lower/sm90/Sm90.h"
#include "lower/sm90/Verify.h"

#include "lower/Printer.h"

#include "llvm/ADT/StringExtras.h"

namespace tf::lower::sm90 {

namespace {

std::string descriptorText(const SmemDescriptor &D, const std::string &View) {
  return "desc(" + View + " + " + std::to_string(D.Start) + ", lbo=" +
         (D.LeadingUsed ? std::to_string(D.LeadingBytes) : "unused") +
         ", sbo=" + std::to_string(D.StrideBytes) +
         ", base_offset=" + std::to_string(D.BaseOffset) +
         ", swizzle=" + swizzleName(D.Swizzle) + ")";
}

std::string sharedText(const Kernel &K, const OperandView &V) {
  return viewText(K, V.View, V.Ring, V.Slot);
}

void printTma(const Kernel &K, const AtomCallStmt &Call, const Tma &T,
              llvm::raw_ostream &OS) {
  const OperandView *Global = nullptr, *Shared = nullptr;
  for (const OperandView &O : Call.Operands)
    (O.Place == OperandPlace::Global ? Global : Shared) = &O;
  std::vector<std::string> Coords;
  for (ExprId C : Global->Coords)
    Coords.push_back(exprText(K, C));
  const std::string GlobalText =
      K.Maps[Global->Map].Tensor + "[" + llvm::join(Coords, ", ") + "]";
  const std::string SharedText =
      sharedText(K, *Shared) + " + " + std::to_string(Shared->Offset);
  OS << (T.Store ? "cp.async.bulk.tensor.store" : "cp.async.bulk.tensor.load")
     << " map" << Global->Map << " ";
  if (T.Store)
    OS << SharedText << " -> " << GlobalText;
  else
    OS << GlobalText << " -> " << SharedText << ", "
       << barrierText(K, T.Bar, T.Slot);
  if (T.Multicast > 1)
    OS << " multicast to " << T.Multicast << " CTAs by rank " << T.Issuer;
  if (!Call.Params.empty())
    OS << " " << paramsText(Call);
  OS << "  # " << T.Bytes << " bytes";
}

void printWgmma(const Kernel &K, const AtomCallStmt &Call, const Wgmma &W,
                llvm::raw_ostream &OS) {
  const OperandView &A = *Call.operand("A"), &B = *Call.operand("B"),
                    &C = *Call.operand("C");
  OS << wgmmaOpcode(W.Atom) << " " << W.Axis << "=" << W.AxisValue
     << " k=" << W.KStep << " acc[" << C.Block << "], "
     << descriptorText(W.A, sharedText(K, A)) << ", "
     << descriptorText(W.B, sharedText(K, B)) << ", tnsp_a=" << W.TransA
     << ", tnsp_b=" << W.TransB;
  if (!Call.Params.empty())
    OS << " " << paramsText(Call);
}

class Sm90Extension final : public Extension {
public:
  llvm::StringRef name() const override { return "sm90"; }
  void print(const Kernel &K, const Stmt &S,
             llvm::raw_ostream &OS) const override;
  std::unique_ptr<ExtensionVerifier>
  verifier(const Kernel &K, VerifyFailure Fail) const override {
    return makeVerifier(K, std::move(Fail));
  }
};

void Sm90Extension::print(const Kernel &K, const Stmt &S,
                          llvm::raw_ostream &OS) const {
  const auto &I = llvm::cast<Inst>(*S.extension());
  const Kind Kd = I.sm90Kind();
  switch (Kd) {
  case Kind::Tma:
    printTma(K, S.get<AtomCallStmt>(), llvm::cast<Tma>(I), OS);
    return;
  case Kind::Wgmma:
    printWgmma(K, S.get<AtomCallStmt>(), llvm::cast<Wgmma>(I), OS);
    return;
  case Kind::BarrierInit: {
    const auto &X = llvm::cast<BarrierInit>(I);
    const Barrier &B = K.Barriers[X.Bar];
    OS << kindName(Kd) << " " << B.Name << "[0:" << B.Count
       << "], arrivals=" << X.Count;
    return;
  }
  case Kind::FenceBarrierInit:
    OS << kindName(Kd) << "; bar.sync 0  # every thread sees the "
       << "initialised barriers";
    return;
  case Kind::Wait: {
    const auto &X = llvm::cast<Wait>(I);
    OS << kindName(Kd) << " " << barrierText(K, X.Bar, X.Slot)
       << ", parity=" << exprText(K, X.Phase);
    return;
  }
  case Kind::ArriveExpectTx: {
    const auto &X = llvm::cast<ArriveExpectTx>(I);
    OS << kindName(Kd) << " " << barrierText(K, X.Bar, X.Slot)
       << ", tx=" << X.Bytes;
    return;
  }
  case Kind::Arrive: {
    const auto &X = llvm::cast<Arrive>(I);
    OS << kindName(Kd) << " " << barrierText(K, X.Bar, X.Slot);
    if (X.Cluster)
      OS << " of cluster rank r, by thread r of each warpgroup";
    if (X.Elected >= 0)
      OS << "  # by thread " << X.Elected;
    return;
  }
  case Kind::ClusterBarrier:
    OS << kindName(Kd) << "  # every thread of the cluster";
    return;
  case Kind::BulkCommit:
  case Kind::WgmmaFence:
  case Kind::WgmmaCommit:
  case Kind::FenceProxyAsync:
    OS << kindName(Kd);
    return;
  case Kind::BulkWaitRead:
    OS << kindName(Kd) << " 0";
    return;
  case Kind::WgmmaWait:
    OS << kindName(Kd) << " " << llvm::cast<WgmmaWait>(I).Count;
    return;
  case Kind::NamedBarrier: {
    const auto &X = llvm::cast<NamedBarrier>(I);
    OS << kindName(Kd) << " " << X.Id << ", " << X.Count;
    return;
  }
  }
}

} // namespace

const Extension &extension() {
  static const Sm90Extension E;
  return E;
}

const char *kindName(Kind K) {
  switch (K) {
  case Kind::BarrierInit: return "mbarrier.init";
  case Kind::FenceBarrierInit: return "fence.mbarrier_init";
  case Kind::Wait: return "mbarrier.try_wait.parity";
  case Kind::ArriveExpectTx: return "mbarrier.arrive.expect_tx";
  case Kind::Arrive: return "mbarrier.arrive";
  case Kind::ClusterBarrier: return "barrier.cluster";
  case Kind::FenceProxyAsync: return "fence.proxy.async.shared::cta";
  case Kind::NamedBarrier: return "bar.sync";
  case Kind::BulkCommit: return "cp.async.bulk.commit_group";
  case Kind::BulkWaitRead: return "cp.async.bulk.wait_group.read";
  case Kind::WgmmaFence: return "wgmma.fence";
  case Kind::WgmmaCommit: return "wgmma.commit_group";
  case Kind::WgmmaWait: return "wgmma.wait_group";
  case Kind::Tma: return "cp.async.bulk.tensor";
  case Kind::Wgmma: return "wgmma.mma_async";
  }
  return "?";
}

int SmemDescriptor::swizzleField() const {
  switch (Swizzle) {
  case SwizzleMode::none:
    return 0;
  case SwizzleMode::bytes128:
    return 1;
  case SwizzleMode::bytes64:
    return 2;
  case SwizzleMode::bytes32:
    return 3;
  }
  return 0;
}

std::string wgmmaOpcode(const MmaAtom &A) {
  return "wgmma.mma_async.sync.aligned.m" + std::to_string(A.M) + "n" +
         std::to_string(A.N) + "k" + std::to_string(A.K) + "." +
         std::string(name(A.D)) + "." + std::string(name(A.A)) + "." +
         std::string(name(A.B));
}

} // namespace tf::lower::sm90
