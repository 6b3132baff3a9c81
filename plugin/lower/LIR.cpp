//===- plugin/lower/LIR.cpp - tf's lowered form of a kernel ---------------===//
//
// See LIR.h: the arenas' helpers, the statements' accessors and the names
// of elementwise ops.
//
//===----------------------------------------------------------------------===//
#include "lower/LIR.h"

namespace tf::lower {

ExtensionInst::~ExtensionInst() = default;
Extension::~Extension() = default;

const ExtensionInst *Stmt::extension() const {
  if (const auto *E = getIf<ExtensionStmt>())
    return E->Inst.get();
  if (const auto *A = getIf<AtomCallStmt>())
    return A->Target.get();
  return nullptr;
}

const OperandView *AtomCallStmt::operand(llvm::StringRef Name) const {
  for (const OperandView &O : Operands)
    if (O.Name == Name)
      return &O;
  return nullptr;
}

OperandView *AtomCallStmt::operand(llvm::StringRef Name) {
  return const_cast<OperandView *>(std::as_const(*this).operand(Name));
}

ExprId Kernel::addExpr(Expr E) {
  Exprs.push_back(std::move(E));
  return static_cast<ExprId>(Exprs.size() - 1);
}

InstId Kernel::addInst(Stmt S) {
  Insts.push_back(std::move(S));
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

const char *registerOpName(RegisterOp Op) {
  switch (Op) {
  case RegisterOp::Cast: return "cast";
  case RegisterOp::Add: return "add";
  case RegisterOp::Sub: return "sub";
  case RegisterOp::Mul: return "mul";
  case RegisterOp::Div: return "div";
  case RegisterOp::Max: return "max";
  case RegisterOp::Min: return "min";
  case RegisterOp::Neg: return "neg";
  case RegisterOp::Exp: return "exp";
  case RegisterOp::Exp2: return "exp2";
  case RegisterOp::Rsqrt: return "rsqrt";
  case RegisterOp::Relu: return "relu";
  case RegisterOp::GeluTanh: return "gelu_tanh";
  case RegisterOp::GeluErf: return "gelu_erf";
  case RegisterOp::Silu: return "silu";
  case RegisterOp::Select: return "select";
  }
  return "?";
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
  case ElementwiseOp::GeluTanh:
    return "gelu_tanh";
  case ElementwiseOp::GeluErf:
    return "gelu_erf";
  case ElementwiseOp::Scale:
    return "scale";
  case ElementwiseOp::Add:
    return "add";
  case ElementwiseOp::Silu:
    return "silu";
  }
  return "?";
}

void forEachLoad(llvm::ArrayRef<FragmentOp> Ops,
                 llvm::function_ref<void(const EpilogueLoad &)> F) {
  for (const FragmentOp &Op : Ops)
    for (const FragmentOperand &X : Op.Operand) {
      F(X.Load);
      forEachLoad(X.Ops, F);
    }
}

std::array<bool, 2> loadAxes(const StoreFragmentStmt &S) {
  std::array<bool, 2> Axes{false, false};
  forEachLoad(S.Epilogue, [&](const EpilogueLoad &L) {
    for (int D : L.Dims)
      Axes[static_cast<std::size_t>(D)] = true;
  });
  return Axes;
}

bool readsGlobal(const StoreFragmentStmt &S) {
  const std::array<bool, 2> Axes = loadAxes(S);
  return Axes[0] || Axes[1];
}

llvm::Error problemAt(const hir::SourceRange &R, const llvm::Twine &Message) {
  if (R.File.empty())
    return llvm::createStringError(Message);
  return llvm::createStringError(R.File + ":" + llvm::Twine(R.Line) + ":" +
                                 llvm::Twine(R.Column) + ": " + Message);
}

} // namespace tf::lower
