//===- plugin/lower/LIR.cpp - tf's lowered form of a kernel ---------------===//
//
// See LIR.h: the arenas' helpers and the names of instructions.
//
//===----------------------------------------------------------------------===//
#include "lower/LIR.h"

namespace tf::lower {

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

ExprId Kernel::addExpr(Expr E) {
  Exprs.push_back(std::move(E));
  return static_cast<ExprId>(Exprs.size() - 1);
}

InstId Kernel::addInst(Inst I) {
  Insts.push_back(std::move(I));
  return static_cast<InstId>(Insts.size() - 1);
}

ExprId Kernel::constant(std::int64_t V) {
  Expr E;
  E.Kind = ExprKind::Constant;
  E.Value = V;
  return addExpr(std::move(E));
}

ExprId Kernel::var(std::string Name) {
  Expr E;
  E.Kind = ExprKind::Var;
  E.Name = std::move(Name);
  return addExpr(std::move(E));
}

ExprId Kernel::binary(ExprKind K, ExprId L, ExprId R) {
  Expr E;
  E.Kind = K;
  E.Lhs = L;
  E.Rhs = R;
  return addExpr(std::move(E));
}

bool Kernel::sameExpr(ExprId A, ExprId B) const {
  if (A == B)
    return true;
  if (A == None || B == None)
    return false;
  const Expr &X = Exprs[A], &Y = Exprs[B];
  return X.Kind == Y.Kind && X.Value == Y.Value && X.Name == Y.Name &&
         X.Dim == Y.Dim && sameExpr(X.Lhs, Y.Lhs) && sameExpr(X.Rhs, Y.Rhs);
}

std::string wgmmaOpcode(const MmaAtom &A) {
  return "wgmma.mma_async.sync.aligned.m" + std::to_string(A.M) + "n" +
         std::to_string(A.N) + "k" + std::to_string(A.K) + "." +
         std::string(name(A.D)) + "." + std::string(name(A.A)) + "." +
         std::string(name(A.B));
}

const char *elementwiseName(ElementwiseOp Op) {
  switch (Op) {
  case ElementwiseOp::Cast:
    return "cast";
  case ElementwiseOp::Relu:
    return "relu";
  case ElementwiseOp::Neg:
    return "neg";
  case ElementwiseOp::Exp:
    return "exp";
  }
  return "?";
}

const char *instName(InstKind K) {
  switch (K) {
  case InstKind::Role: return "scope";
  case InstKind::TileLoop: return "for";
  case InstKind::KLoop: return "for";
  case InstKind::Let: return "let";
  case InstKind::BarrierInit: return "mbarrier.init";
  case InstKind::FenceBarrierInit: return "fence.mbarrier_init";
  case InstKind::Wait: return "mbarrier.try_wait.parity";
  case InstKind::ArriveExpectTx: return "mbarrier.arrive.expect_tx";
  case InstKind::Arrive: return "mbarrier.arrive";
  case InstKind::TmaLoad: return "cp.async.bulk.tensor.load";
  case InstKind::TmaStore: return "cp.async.bulk.tensor.store";
  case InstKind::BulkCommit: return "cp.async.bulk.commit_group";
  case InstKind::BulkWaitRead: return "cp.async.bulk.wait_group.read";
  case InstKind::ZeroAcc: return "zero";
  case InstKind::WgmmaFence: return "wgmma.fence";
  case InstKind::Wgmma: return "wgmma.mma_async";
  case InstKind::WgmmaCommit: return "wgmma.commit_group";
  case InstKind::WgmmaWait: return "wgmma.wait_group";
  case InstKind::StoreFragment: return "st.shared";
  case InstKind::FenceProxyAsync: return "fence.proxy.async.shared::cta";
  case InstKind::NamedBarrier: return "bar.sync";
  }
  return "?";
}

llvm::Error problemAt(const hir::SourceRange &R, const llvm::Twine &Message) {
  if (R.File.empty())
    return llvm::createStringError(Message);
  return llvm::createStringError(R.File + ":" + llvm::Twine(R.Line) + ":" +
                                 llvm::Twine(R.Column) + ": " + Message);
}

} // namespace tf::lower
