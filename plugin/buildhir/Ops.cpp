//===- buildhir/Ops.cpp - Calls of tf ops -> HIR Op statements ------------===//
//
// A call whose callee carries [[clang::annotate("tf.op.NAME")]] becomes an
// Op of that kind, with its operands (values, tiles, scalars, indices) and
// result; ops nested in operands become Ops of their own first.
//
//===----------------------------------------------------------------------===//

#include "buildhir/KernelBuilder.h"

#include "clang/AST/ExprCXX.h"

#include <memory>

using namespace clang;

namespace tf::plugin::buildhir {

bool KernelBuilder::isOpCall(const Expr *E) const {
  const auto *CE = dyn_cast_or_null<CallExpr>(strip(E));
  return CE && opKindOf(CE);
}

ValueId KernelBuilder::tileValue(const CXXMemberCallExpr *MC,
                                 const std::string &Name) {
  ValueId Parent = operandValue(MC->getImplicitObjectArgument());
  if (Parent == None)
    return None;
  std::optional<hir::TensorType> TT = tensorTypeOf(MC->getType());
  if (!TT) {
    unsupported(MC, "this tile", "tiles are `t.tile<E0, E1, ...>(o0, o1, ...)`");
    return None;
  }
  hir::Value V;
  V.Kind = hir::ValueKind::Tensor;
  V.Origin = hir::ValueOrigin::Temporary;
  V.Name = Name;
  V.Type = *TT;
  // The tile is written by its tensor's declaration.
  V.Type.ElementRange = K.Values[Parent].Type.ElementRange;
  V.Type.LayoutRange = K.Values[Parent].Type.LayoutRange;
  V.Type.StrideRanges = K.Values[Parent].Type.StrideRanges;
  V.Type.SwizzleRange = K.Values[Parent].Type.SwizzleRange;
  V.Range = range(MC);
  std::vector<ExprId> Offsets;
  for (const Expr *A : MC->arguments())
    Offsets.push_back(indexExpr(A));
  // A tile of a tile is a tile of the same parent at the summed offsets.
  const hir::Value &P = K.Values[Parent];
  if (P.TileOf != None && P.TileOffsets.size() == Offsets.size()) {
    for (unsigned I = 0; I < Offsets.size(); ++I) {
      hir::Expr Sum;
      Sum.Kind = hir::ExprKind::Add;
      Sum.Lhs = P.TileOffsets[I];
      Sum.Rhs = Offsets[I];
      Offsets[I] = K.addExpr(std::move(Sum));
    }
    Parent = P.TileOf;
  }
  V.TileOf = Parent;
  V.TileOffsets = std::move(Offsets);
  return addValue(std::move(V));
}

ValueId KernelBuilder::indexOperand(const Expr *E) {
  const Expr *S = strip(E);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S)) {
    ValueId V = valueOfDecl(DRE->getDecl());
    if (V != None && K.Values[V].Kind == hir::ValueKind::Index) {
      Mutable.insert(DRE->getDecl());
      return V;
    }
  }
  hir::Value V;
  V.Kind = hir::ValueKind::Index;
  V.Origin = hir::ValueOrigin::Temporary;
  V.Init = indexExpr(E);
  V.Range = range(E);
  return addValue(std::move(V));
}

ValueId KernelBuilder::scalarOperand(const Expr *E) {
  if (!checkScalar(E))
    return None;
  hir::Value V;
  V.Kind = hir::ValueKind::Scalar;
  V.Origin = hir::ValueOrigin::Temporary;
  V.Type.Element = floatingScalar(E->getType()).value_or(DType::f32);
  V.Written = sourceText(E->getSourceRange());
  V.Scalar = scalarExpr(E);
  V.Range = range(E);
  return addValue(std::move(V));
}

std::optional<hir::ScalarExpr> KernelBuilder::scalarExpr(const Expr *E) {
  using Kind = hir::ScalarExpr::Kind;
  if (!E || E->isValueDependent())
    return std::nullopt;
  hir::ScalarExpr Out;
  Expr::EvalResult R;
  if (E->EvaluateAsRValue(R, Ctx)) {
    if (R.Val.isFloat()) {
      Out.Constant = R.Val.getFloat().convertToDouble();
      return Out;
    }
    if (R.Val.isInt()) {
      Out.Constant = static_cast<double>(R.Val.getInt().getSExtValue());
      return Out;
    }
  }
  const Expr *S = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    const ValueId V = valueOfDecl(DRE->getDecl());
    if (V != None && K.Values[V].Kind == hir::ValueKind::Scalar &&
        K.Values[V].Origin == hir::ValueOrigin::Parameter) {
      Out.What = Kind::Parameter;
      Out.Parameter = V;
      return Out;
    }
  }
  if (isIndexType(S->getType())) {
    Out.What = Kind::Index;
    Out.Index = indexExpr(S);
    if (K.Exprs[Out.Index].Kind == hir::ExprKind::Opaque)
      return std::nullopt;
    return Out;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S);
      U && U->getOpcode() == UO_Minus) {
    std::optional<hir::ScalarExpr> A = scalarExpr(U->getSubExpr());
    if (!A)
      return std::nullopt;
    Out.What = Kind::Neg;
    Out.Args.push_back(std::move(*A));
    return Out;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    switch (B->getOpcode()) {
    case BO_Add: Out.What = Kind::Add; break;
    case BO_Sub: Out.What = Kind::Sub; break;
    case BO_Mul: Out.What = Kind::Mul; break;
    case BO_Div: Out.What = Kind::Div; break;
    default: return std::nullopt;
    }
    std::optional<hir::ScalarExpr> L = scalarExpr(B->getLHS());
    std::optional<hir::ScalarExpr> Rhs = scalarExpr(B->getRHS());
    if (!L || !Rhs)
      return std::nullopt;
    Out.Args.push_back(std::move(*L));
    Out.Args.push_back(std::move(*Rhs));
    return Out;
  }
  return std::nullopt;
}

ValueId KernelBuilder::operandValue(const Expr *E) {
  const Expr *S = strip(E);
  if (!S)
    return None;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    ValueId V = valueOfDecl(DRE->getDecl());
    if (V != None)
      return V;
    if (isIndexType(DRE->getType()))
      return indexOperand(S);
    if (floatingScalar(DRE->getType()))
      return scalarOperand(S);
    if (isTensorLike(DRE->getType())) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->isConstexpr()) {
        // A constexpr tensor (a static smem tile type's view) is a value
        // without storage the HIR could follow.
      }
      unsupported(S, "a tensor declared outside the kernel",
                  "pass it as a kernel parameter");
      return None;
    }
    unsupported(S, "this operand",
                "operands of tf ops are tensors, rings, buffers and integers");
    return None;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && opKindOf(CE)) {
    hir::Value T;
    T.Origin = hir::ValueOrigin::Temporary;
    if (std::optional<TypeInfo> TI = typeInfo(CE->getType())) {
      T.Kind = TI->Kind;
      T.Type = TI->Type;
      T.Stages = TI->Stages;
      recordSpelling(T.Type, resultSpelling(CE, Ctx));
    }
    T.Range = range(CE);
    ValueId Tmp = addValue(std::move(T));
    StmtId Op = translateOp(CE, Tmp, false, CE);
    K.Values[Tmp].Def = Op;
    return Tmp;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && M->getIdentifier() && M->getName() == "tile" &&
        isTensorLike(MC->getImplicitObjectArgument()->getType()))
      return tileValue(MC, "");
  }
  if (isIndexType(S->getType()))
    return indexOperand(E);
  if (floatingScalar(S->getType()))
    return scalarOperand(S);
  if (const auto *IL = dyn_cast<InitListExpr>(S)) {
    // tf::zeros<T>({M, N}): the extents, one index operand each; the caller
    // flattens them.
    (void)IL;
    return None;
  }
  if (touchesTensor(S))
    unsupported(S, "this operand",
                "give tf ops tensors, tiles `t.tile<BM, BK>(m0, k0)` or the "
                "results of other tf ops");
  else
    checkScalar(S);
  return None;
}

StmtId KernelBuilder::translateOp(const CallExpr *CE, ValueId Result,
                                  bool Assigns, const Stmt *Whole) {
  std::optional<hir::OpKind> Kind = opKindOf(CE);
  if (!Kind)
    return None;
  // On the heap: a statement is large (its schedule's match report), and
  // nested ops -- an epilogue's chain, a row kernel's
  // tf::exp2(tf::mul(tf::sub(x, tf::broadcast<1>(m, x)), c)) -- translate
  // recursively, one statement per level.
  auto Owned = std::make_unique<hir::Stmt>();
  hir::Stmt &Op = *Owned;
  Op.Kind = hir::StmtKind::Op;
  Op.Op = *Kind;
  Op.CallRange = range(CE);
  Op.Range = range(Whole);
  Op.Assigns = Assigns;

  // Operands first: nested ops are emitted before this one.
  llvm::DenseMap<ValueId, hir::SourceRange> Ranges;
  std::vector<const Expr *> Args;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Args.push_back(MC->getImplicitObjectArgument());
  for (const Expr *A : CE->arguments())
    Args.push_back(A);
  for (const Expr *A : Args) {
    const Expr *S = strip(A);
    if (isa_and_nonnull<CXXDefaultArgExpr>(S))
      continue;
    if (const auto *IL = dyn_cast_or_null<InitListExpr>(S)) {
      for (const Expr *I : IL->inits())
        if (isIndexType(I->getType()))
          Op.Operands.push_back(indexOperand(I));
      continue;
    }
    ValueId V = operandValue(A);
    if (V != None) {
      Op.Operands.push_back(V);
      Ranges.try_emplace(V, range(A));
    }
  }

  // A discarded result of an op that returns a view of its destination
  // names no new value.
  if (Result == None && !CE->getType()->isVoidType()) {
    if (std::optional<TypeInfo> TI = typeInfo(CE->getType());
        TI && !hir::writesInPlace(*Kind)) {
      hir::Value T;
      T.Origin = hir::ValueOrigin::Temporary;
      T.Kind = TI->Kind;
      T.Type = TI->Type;
      T.Range = range(CE);
      Result = addValue(std::move(T));
    }
  }
  Op.Result = Result;

  if (*Kind == hir::OpKind::Cast)
    if (const TemplateArgumentList *TA = calleeTemplateArgs(CE);
        TA && TA->size() >= 1 && (*TA)[0].getKind() == TemplateArgument::Type)
      if (std::optional<DType> D = dtypeOf((*TA)[0].getAsType()))
        Op.CastTo = *D;
  if (*Kind == hir::OpKind::Broadcast)
    Op.BroadcastMode = modeArgument(CE);
  if (hir::opInfo(*Kind).Class == hir::OpClass::Reduce)
    Op.ReduceMode = modeArgument(CE);
  if (*Kind == hir::OpKind::Schedule)
    buildSchedule(Op, CE);
  OperandRanges = std::move(Ranges);
  buildAccess(Op, CE);
  OperandRanges.clear();

  StmtId Id = addStmt(std::move(Op));
  if (Result != None && (K.Values[Result].Def == None || !Assigns))
    K.Values[Result].Def = Id;
  return Id;
}

} // namespace tf::plugin::buildhir
