//===- buildhir/IndexExpressions.cpp - Index expressions and meshes -> HIR ===//
//
// Integer expressions over loop variables, index parameters and constants
// become hir::Expr trees; mesh expressions are evaluated as constants.
//
//===----------------------------------------------------------------------===//

#include "buildhir/KernelBuilder.h"
#include "ConstantValue.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace tf::plugin::buildhir {

ExprId KernelBuilder::constantExpr(std::int64_t V) {
  hir::Expr E;
  E.Kind = hir::ExprKind::Constant;
  E.Constant = V;
  return K.addExpr(std::move(E));
}

ExprId KernelBuilder::indexExpr(const Expr *E) {
  ExprId Id = buildIndexExpr(E);
  if (Id != None && !K.Exprs[Id].Range.valid())
    K.Exprs[Id].Range = range(E->getSourceRange());
  return Id;
}

ExprId KernelBuilder::buildIndexExpr(const Expr *E) {
  if (!E)
    return None;
  if (E->isValueDependent() || E->isTypeDependent()) {
    hir::Expr O;
    O.Kind = hir::ExprKind::Opaque;
    O.Text = sourceText(E->getSourceRange());
    return K.addExpr(std::move(O));
  }
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() &&
      E->EvaluateAsInt(R, Ctx) && R.Val.isInt())
    return constantExpr(R.Val.getInt().getExtValue());

  const Expr *S = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    ValueId V = valueOfDecl(DRE->getDecl());
    if (V != None && K.Values[V].Kind == hir::ValueKind::Index) {
      Mutable.insert(DRE->getDecl());
      hir::Expr O;
      O.Kind = hir::ExprKind::Ref;
      O.Ref = V;
      return K.addExpr(std::move(O));
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    hir::ExprKind Kind;
    bool Known = true;
    switch (BO->getOpcode()) {
    case BO_Add: Kind = hir::ExprKind::Add; break;
    case BO_Sub: Kind = hir::ExprKind::Sub; break;
    case BO_Mul: Kind = hir::ExprKind::Mul; break;
    case BO_Div: Kind = hir::ExprKind::Div; break;
    case BO_Rem: Kind = hir::ExprKind::Mod; break;
    default: Known = false; Kind = hir::ExprKind::Opaque; break;
    }
    if (Known) {
      ExprId L = indexExpr(BO->getLHS());
      ExprId Rr = indexExpr(BO->getRHS());
      hir::Expr O;
      O.Kind = Kind;
      O.Lhs = L;
      O.Rhs = Rr;
      return K.addExpr(std::move(O));
    }
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    const Expr *Obj = strip(MC->getImplicitObjectArgument());
    if (M && M->getIdentifier() && M->getName() == "extent" &&
        MC->getNumArgs() == 1 && Obj) {
      Expr::EvalResult D;
      const auto *DRE = dyn_cast<DeclRefExpr>(Obj);
      ValueId V = DRE ? valueOfDecl(DRE->getDecl()) : None;
      if (V != None && K.Values[V].Kind == hir::ValueKind::Tensor &&
          MC->getArg(0)->EvaluateAsInt(D, Ctx)) {
        hir::Expr O;
        O.Kind = hir::ExprKind::Extent;
        O.Ref = V;
        O.Dim = static_cast<unsigned>(D.Val.getInt().getExtValue());
        return K.addExpr(std::move(O));
      }
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && CE->getNumArgs() == 2) {
    if (const FunctionDecl *Callee = calleeOf(CE)) {
      std::string Q = Callee->getQualifiedNameAsString();
      std::optional<hir::ExprKind> Kind;
      if (Q == "tf::ceil_div")
        Kind = hir::ExprKind::CeilDiv;
      else if (Q == "std::min")
        Kind = hir::ExprKind::Min;
      else if (Q == "std::max")
        Kind = hir::ExprKind::Max;
      if (Kind) {
        ExprId L = indexExpr(CE->getArg(0));
        ExprId Rr = indexExpr(CE->getArg(1));
        hir::Expr O;
        O.Kind = *Kind;
        O.Lhs = L;
        O.Rhs = Rr;
        return K.addExpr(std::move(O));
      }
    }
  }
  checkScalar(S);
  hir::Expr O;
  O.Kind = hir::ExprKind::Opaque;
  O.Text = sourceText(E->getSourceRange());
  return K.addExpr(std::move(O));
}

std::optional<tf::Mesh> KernelBuilder::evaluateMesh(const Expr *E) {
  const Expr *S = strip(E);
  if (!S || S->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!S->EvaluateAsRValue(R, Ctx))
    return std::nullopt;
  return decodeMesh(R.Val, S->getType());
}

} // namespace tf::plugin::buildhir
