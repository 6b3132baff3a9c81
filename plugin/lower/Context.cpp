//===- plugin/lower/Context.cpp - What the lowering passes share ----------===//
//
// See Context.h.
//
//===----------------------------------------------------------------------===//
#include "lower/Context.h"

#include "backend/Backend.h"

namespace tf::lower {

HandoffProtocol::~HandoffProtocol() = default;

LoweringContext::LoweringContext(const hir::Kernel &H,
                                 const targets::MergedTarget &Target,
                                 const backend::Backend &Backend)
    : H(H), Target(Target), Backend(Backend),
      Protocol(Backend.handoffProtocol()) {}

int LoweringContext::roleOf(hir::StmtId Scope) const {
  auto It = ScopeRole.find(Scope);
  return It == ScopeRole.end() ? -1 : It->second;
}

bool LoweringContext::hasRole(hir::StmtId S, int R) const {
  const hir::Stmt &X = H.Stmts[S];
  if (X.Kind == hir::StmtKind::MeshScope)
    return roleOf(S) == R;
  for (hir::StmtId C : X.Body)
    if (hasRole(C, R))
      return true;
  return false;
}

std::int64_t LoweringContext::multicastOf(const hir::Stmt &S) {
  if (S.Sched && S.Sched->Match)
    for (const ResolvedParam &P : S.Sched->Match->params)
      if (P.name.view() == "multicast" && P.value.kind == ParamKind::integer)
        return P.value.integer;
  return 1;
}

std::int64_t LoweringContext::receivers(hir::ValueId Buffer) const {
  std::int64_t Ctas = 1;
  for (const hir::Stmt &S : H.Stmts)
    if (S.Operands.size() == 2 && S.Operands[1] == Buffer)
      Ctas = std::max(Ctas, multicastOf(S));
  return Ctas;
}

BarrierId LoweringContext::barrier(hir::ValueId Guards, const char *Which,
                                   int Count) {
  auto [It, New] = Barriers.try_emplace({Guards, Which}, 0);
  if (New) {
    Barrier B;
    B.Name = H.Values[Guards].Name + "." + Which;
    B.Count = Count;
    B.Guards = Guards;
    L.Barriers.push_back(std::move(B));
    It->second = static_cast<BarrierId>(L.Barriers.size() - 1);
  }
  return It->second;
}

void LoweringContext::refuse(plugin::DiagId Id, const hir::SourceRange &At,
                             std::vector<std::string> Args,
                             std::vector<analysis::Finding> Notes) {
  if (!Reported.insert({At.Begin, static_cast<unsigned>(Id), Args}).second)
    return;
  Refusals.push_back({Id, At, std::move(Args), {}, std::move(Notes)});
}

InstId LoweringContext::add(Stmt::Payload P, const hir::Stmt &S,
                            std::vector<InstId> &Out) {
  return add(Stmt(std::move(P), S.Range), Out);
}

InstId LoweringContext::add(std::unique_ptr<ExtensionInst> I,
                            const hir::Stmt &S, std::vector<InstId> &Out) {
  return add(Stmt(std::move(I), S.Range), Out);
}

InstId LoweringContext::add(Stmt St, std::vector<InstId> &Out) {
  InstId Id = L.addInst(std::move(St));
  Out.push_back(Id);
  return Id;
}

std::string LoweringContext::valueName(hir::ValueId V) const {
  if (V == hir::None || V >= H.Values.size() || H.Values[V].Name.empty())
    return "a temporary";
  return "'" + H.Values[V].Name + "'";
}

std::string LoweringContext::opText(const hir::Stmt &S) const {
  return "tf." + hir::opName(S.Op).str();
}

ExprId LoweringContext::expr(hir::ExprId E, const hir::SourceRange &At) {
  if (E == hir::None || E >= H.Exprs.size()) {
    refuse(plugin::DiagId::err_tf_lower_index, At,
           {"<missing>", "the expression is missing"});
    return L.constant(0);
  }
  const hir::Expr &X = H.Exprs[E];
  auto Binary = [&](ExprKind K) {
    ExprId A = expr(X.Lhs, At);
    return L.binary(K, A, expr(X.Rhs, At));
  };
  switch (X.Kind) {
  case hir::ExprKind::Constant:
    return L.constant(X.Constant);
  case hir::ExprKind::Ref:
    if (X.Ref != hir::None && X.Ref < H.Values.size() &&
        !H.Values[X.Ref].Name.empty())
      return L.var(H.Values[X.Ref].Name);
    break;
  case hir::ExprKind::Extent:
    // Only a kernel parameter's extents are run-time values the launcher
    // passes; any other value's extents are static (inference folded them).
    if (X.Ref != hir::None && X.Ref < H.Values.size() &&
        H.Values[X.Ref].Origin != hir::ValueOrigin::Parameter) {
      if (X.Static)
        return L.constant(*X.Static);
      refuse(plugin::DiagId::err_tf_lower_index, At,
             {X.Text, "it reads an extent of " + valueName(X.Ref) +
                          ", which is no kernel parameter and has no "
                          "compile-time extent"});
      return L.constant(0);
    }
    if (X.Ref != hir::None && X.Ref < H.Values.size()) {
      Expr Out;
      Out.Kind = ExprKind::Extent;
      Out.Name = H.Values[X.Ref].Name;
      Out.Dim = X.Dim;
      return L.addExpr(std::move(Out));
    }
    break;
  case hir::ExprKind::Add:
    return Binary(ExprKind::Add);
  case hir::ExprKind::Sub:
    return Binary(ExprKind::Sub);
  case hir::ExprKind::Mul:
    return Binary(ExprKind::Mul);
  case hir::ExprKind::Div:
    return Binary(ExprKind::Div);
  case hir::ExprKind::Mod:
    return Binary(ExprKind::Mod);
  case hir::ExprKind::CeilDiv:
    return Binary(ExprKind::CeilDiv);
  case hir::ExprKind::Min:
    return Binary(ExprKind::Min);
  case hir::ExprKind::Max:
    return Binary(ExprKind::Max);
  case hir::ExprKind::Opaque:
    refuse(plugin::DiagId::err_tf_lower_index, At,
           {X.Text, "write it with +, -, *, /, %, ceil_div, min and max of "
                    "extents, indices and constants"});
    return L.constant(0);
  }
  refuse(plugin::DiagId::err_tf_lower_index, At,
         {X.Text.empty() ? "<unnamed>" : X.Text,
          "it refers to a value without a name"});
  return L.constant(0);
}

} // namespace tf::lower
