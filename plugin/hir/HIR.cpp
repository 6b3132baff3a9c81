//===- plugin/hir/HIR.cpp - tf's tile-level IR ----------------------------===//

#include "hir/HIR.h"

#include <algorithm>

namespace tf::hir {

IntTuple TensorType::shape() const {
  if (!WindowExtents.empty()) {
    IntTuple T;
    for (std::int64_t E : WindowExtents)
      T.push_back(IntTuple(E));
    return T;
  }
  const IntTuple &S = Layout.layout.shape;
  if (S.is_leaf())
    return IntTuple{S};
  IntTuple T;
  for (int I = 0; I < S.rank(); ++I) {
    Result<std::int64_t> Size = product(S.mode(I));
    T.push_back(IntTuple(Size.ok() ? Int(*Size) : Int::dynamic()));
  }
  return T;
}

std::vector<std::int64_t> TensorType::extents() const {
  const IntTuple S = shape();
  std::vector<std::int64_t> Out;
  for (int I = 0; I < (S.is_leaf() ? 1 : S.rank()); ++I) {
    Result<std::int64_t> P = product(S.is_leaf() ? S : S.mode(I));
    Out.push_back(P.ok() ? *P : -1);
  }
  return Out;
}

std::string shapeText(llvm::ArrayRef<std::int64_t> Extents) {
  std::string Out = "(";
  for (std::size_t I = 0; I < Extents.size(); ++I)
    Out += (I ? "," : "") +
           (Extents[I] < 0 ? std::string("?") : std::to_string(Extents[I]));
  return Out + ")";
}

ValueId Kernel::addValue(Value V) {
  Values.push_back(std::move(V));
  return static_cast<ValueId>(Values.size() - 1);
}

ExprId Kernel::addExpr(Expr E) {
  Exprs.push_back(std::move(E));
  return static_cast<ExprId>(Exprs.size() - 1);
}

StmtId Kernel::addStmt(Stmt S) {
  Stmts.push_back(std::move(S));
  return static_cast<StmtId>(Stmts.size() - 1);
}

StmtId Kernel::meshScopeOf(StmtId S) const {
  for (; S != None; S = Stmts[S].Parent)
    if (Stmts[S].Kind == StmtKind::MeshScope)
      return S;
  return None;
}

std::optional<tf::Mesh> Kernel::meshOf(StmtId S) const {
  if (StmtId Scope = meshScopeOf(S); Scope != None)
    return Stmts[Scope].Mesh;
  if (Topologies.empty())
    return std::nullopt;
  const tf::Topology &Outer = Topologies.front();
  Result<Mesh> All = make_mesh(Outer.level, IntTuple(Outer.extent));
  if (!All.ok())
    return std::nullopt;
  return *All;
}

std::vector<StmtId> Kernel::preorder() const {
  std::vector<StmtId> Order;
  if (Body == None)
    return Order;
  std::vector<StmtId> Stack{Body};
  while (!Stack.empty()) {
    StmtId S = Stack.back();
    Stack.pop_back();
    Order.push_back(S);
    const std::vector<StmtId> &Children = Stmts[S].Body;
    for (auto It = Children.rbegin(); It != Children.rend(); ++It)
      Stack.push_back(*It);
  }
  return Order;
}

bool isFusedElementwise(const Kernel &K, const Stmt &Op) {
  if (Op.Kind != StmtKind::Op || Op.Sched || !fusesIntoProducer(Op.Op) ||
      Op.Result == None || Op.Result >= K.Values.size() ||
      K.Values[Op.Result].Origin != ValueOrigin::Temporary)
    return false;
  bool Used = false;
  for (const Stmt &S : K.Stmts) {
    if (S.Kind != StmtKind::Op || &S == &Op ||
        std::find(S.Operands.begin(), S.Operands.end(), Op.Result) ==
            S.Operands.end())
      continue;
    // Read by a scheduled op (whose instruction does it), or by an
    // elementwise op that is itself fused (a chain ending at one).
    if (!S.Sched && !isFusedElementwise(K, S))
      return false;
    Used = true;
  }
  return Used;
}

} // namespace tf::hir
