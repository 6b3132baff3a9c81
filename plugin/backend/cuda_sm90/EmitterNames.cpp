//===- plugin/backend/cuda_sm90/EmitterNames.cpp - C++ names ----------------===//
//
// How the CUDA backend names what the LIR names: identifiers, runtime
// enumerators, shared-memory addresses of regions and ring stages,
// descriptor constants, and LIR expressions as 32-bit `int` C++ expressions.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/KernelEmitter.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

namespace tf::backend::sm90 {

using namespace lower;
using lower::sm90::SmemDescriptor;


std::string identifier(llvm::StringRef Name) {
  std::string Out;
  for (char C : Name) {
    const bool Keep = llvm::isAlnum(C) || C == '_';
    if (Keep)
      Out += C;
    else if (!Out.empty() && Out.back() != '_')
      Out += '_';
  }
  while (!Out.empty() && Out.back() == '_')
    Out.pop_back();
  if (Out.empty() || llvm::isDigit(Out.front()))
    Out.insert(0, "_");
  return Out;
}

const char *smemSwizzle(SwizzleMode M) {
  switch (M) {
  case SwizzleMode::none:
    return "sm90::SmemSwizzle::none";
  case SwizzleMode::bytes32:
    return "sm90::SmemSwizzle::bytes32";
  case SwizzleMode::bytes64:
    return "sm90::SmemSwizzle::bytes64";
  case SwizzleMode::bytes128:
    return "sm90::SmemSwizzle::bytes128";
  }
  return "?";
}

const char *tmaSwizzle(SwizzleMode M) {
  switch (M) {
  case SwizzleMode::none:
    return "tf::runtime::TmaSwizzle::none";
  case SwizzleMode::bytes32:
    return "tf::runtime::TmaSwizzle::bytes32";
  case SwizzleMode::bytes64:
    return "tf::runtime::TmaSwizzle::bytes64";
  case SwizzleMode::bytes128:
    return "tf::runtime::TmaSwizzle::bytes128";
  }
  return "?";
}

std::string dtypeEnum(DType T) { return "tf::DType::" + std::string(name(T)); }

std::string position(const hir::SourceRange &R) {
  if (R.File.empty())
    return "<unknown>";
  return R.File + ":" + std::to_string(R.Line) + ":" + std::to_string(R.Column);
}

namespace {

int precedence(ExprKind K) {
  switch (K) {
  case ExprKind::Xor:
    return 1;
  case ExprKind::And:
    return 2;
  case ExprKind::Add:
  case ExprKind::Sub:
    return 3;
  case ExprKind::Mul:
  case ExprKind::Div:
  case ExprKind::Mod:
    return 4;
  default:
    return 5;
  }
}

} // namespace

std::string KernelEmitter::expr(ExprId E) const {
  const Expr &X = K.Exprs[E];
  switch (X.Kind) {
  case ExprKind::Constant:
    return std::to_string(X.Value);
  case ExprKind::Var:
    return identifier(X.Name);
  case ExprKind::Extent:
    return identifier(X.Name) + "_extent" + std::to_string(X.Dim);
  case ExprKind::CeilDiv:
    return "ceil_div(" + expr(X.Lhs) + ", " + expr(X.Rhs) + ")";
  case ExprKind::Min:
    return "imin(" + expr(X.Lhs) + ", " + expr(X.Rhs) + ")";
  case ExprKind::Max:
    return "imax(" + expr(X.Lhs) + ", " + expr(X.Rhs) + ")";
  default:
    break;
  }
  static const std::map<ExprKind, const char *> Infix = {
      {ExprKind::Add, " + "}, {ExprKind::Sub, " - "}, {ExprKind::Mul, " * "},
      {ExprKind::Div, " / "}, {ExprKind::Mod, " % "}, {ExprKind::And, " & "},
      {ExprKind::Xor, " ^ "}};
  const int P = precedence(X.Kind);
  auto Side = [&](ExprId C, bool Right) {
    const ExprKind CK = K.Exprs[C].Kind;
    const bool Bits = X.Kind == ExprKind::And || X.Kind == ExprKind::Xor;
    const bool Paren = (Bits && Infix.count(CK)) || precedence(CK) < P ||
                       (Right && precedence(CK) == P &&
                        !(X.Kind == ExprKind::Add ||
                          (X.Kind == ExprKind::Mul && CK == ExprKind::Mul)));
    return Paren ? "(" + expr(C) + ")" : expr(C);
  };
  return Side(X.Lhs, false) + Infix.at(X.Kind) + Side(X.Rhs, true);
}

std::string KernelEmitter::stageAddress(hir::ValueId Ring, ExprId Slot) const {
  const Region &First = firstStage(Ring);
  const std::string Base =
      identifier(First.Name.substr(0, First.Name.rfind('[')));
  return "smem + " + Base + "_offset + (" + expr(Slot) + ") * " + Base +
         "_stage_bytes";
}

std::string KernelEmitter::viewAddress(const OperandView &V) const {
  std::string Address =
      V.Ring != hir::None
          ? stageAddress(V.Ring, V.Slot)
          : "smem + " + identifier(K.Regions[V.View].Name) + "_offset";
  if (V.Offset)
    Address += " + " + std::to_string(V.Offset);
  return Address;
}

std::string KernelEmitter::descName(hir::ValueId Ring,
                                    const SmemDescriptor &D) const {
  const Region &First = firstStage(Ring);
  std::string Name =
      identifier(First.Name.substr(0, First.Name.rfind('['))) + "_desc";
  const std::vector<SmemDescriptor> &List = Descriptors.at(Ring);
  if (List.size() > 1) {
    SmemDescriptor Template = D;
    Template.Start = 0;
    Name += std::to_string(llvm::find(List, Template) - List.begin());
  }
  return Name;
}

const Region &KernelEmitter::firstStage(hir::ValueId Ring) const {
  for (const Region &R : K.Regions)
    if (R.Kind == RegionKind::RingStage && R.Value == Ring)
      return R;
  llvm_unreachable("a ring without stages passed the verifier");
}

} // namespace tf::backend::sm90
