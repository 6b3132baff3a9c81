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

StmtId Kernel::tileLoopOf(StmtId S) const {
  for (; S != None; S = Stmts[S].Parent) {
    const Stmt &X = Stmts[S];
    if (X.Kind == StmtKind::MeshScope)
      return None;
    if (X.Kind == StmtKind::Loop && X.Loop != LoopKind::TileOffsets)
      return S;
  }
  return None;
}

std::optional<tf::Mesh> Kernel::meshOf(StmtId S) const {
  if (StmtId Scope = meshScopeOf(S); Scope != None)
    return Stmts[Scope].Mesh;
  if (StmtId Loop = tileLoopOf(S); Loop != None) {
    Result<Mesh> One = make_mesh(Stmts[Loop].LoopMesh.level, IntTuple(1));
    if (One.ok())
      return *One;
  }
  if (Topologies.empty())
    return std::nullopt;
  const tf::Topology &Outer = Topologies.front();
  Result<Mesh> All = make_mesh(Outer.level, IntTuple(Outer.extent));
  if (!All.ok())
    return std::nullopt;
  return *All;
}

std::string_view Kernel::unscopedMeshText(StmtId S) const {
  return tileLoopOf(S) != None ? "one unit of the tile loop's mesh"
                               : "the kernel's outer mesh";
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

namespace {

/// Whether register value \p V is an MMA's accumulator (a scheduled op or
/// tf::matmul writes it) or is computed from one: what a fused epilogue
/// applies, not a register program.
bool fromAccumulator(const Kernel &K, ValueId V, std::vector<bool> &Seen) {
  if (V == None || V >= K.Values.size() || Seen[V])
    return false;
  Seen[V] = true;
  for (const Stmt &S : K.Stmts)
    if (S.Kind == StmtKind::Op && S.Result == V &&
        (S.Sched || S.Op == OpKind::Matmul))
      return true;
  const StmtId Def = K.Values[V].Def;
  if (Def == None || Def >= K.Stmts.size() || K.Stmts[Def].Kind != StmtKind::Op)
    return false;
  return std::any_of(K.Stmts[Def].Operands.begin(), K.Stmts[Def].Operands.end(),
                     [&](ValueId O) { return fromAccumulator(K, O, Seen); });
}

} // namespace

bool isRegisterOp(const Kernel &K, const Stmt &Op) {
  if (Op.Kind != StmtKind::Op || Op.Sched || isFusedElementwise(K, Op) ||
      K.Topologies.empty())
    return false;
  std::vector<bool> Seen(K.Values.size(), false);
  if (std::any_of(Op.Operands.begin(), Op.Operands.end(), [&](ValueId V) {
        return fromAccumulator(K, V, Seen);
      }))
    return false;
  const StmtId Id = static_cast<StmtId>(&Op - K.Stmts.data());
  const StmtId Scope = K.meshScopeOf(Id);
  if (Scope == None || !(K.Stmts[Scope].Mesh.level == K.Topologies.back().level))
    return false;
  auto Where = [&](ValueId V) {
    return V == None || V >= K.Values.size() ? Storage::gmem
                                             : K.Values[V].Type.Where;
  };
  const bool RegisterResult =
      Op.Result != None && Op.Result < K.Values.size() &&
      K.Values[Op.Result].Kind == ValueKind::Tensor &&
      Where(Op.Result) == Storage::rmem;
  switch (opInfo(Op.Op).Class) {
  case OpClass::Copy:
    return Op.Operands.size() == 2 &&
           ((Where(Op.Operands[0]) == Storage::gmem &&
             Where(Op.Operands[1]) == Storage::rmem) ||
            (Where(Op.Operands[0]) == Storage::rmem &&
             Where(Op.Operands[1]) == Storage::gmem));
  case OpClass::Allocate:
    // An accumulator is zeroed by the MMA's lowering.
    return RegisterResult && !fromAccumulator(K, Op.Result, Seen);
  case OpClass::Cast:
  case OpClass::ElementwiseUnary:
  case OpClass::ElementwiseBinary:
  case OpClass::Select:
  case OpClass::Reduce:
    // Tensor operands in registers (a mask and scalars aside).
    return RegisterResult &&
           std::all_of(Op.Operands.begin(), Op.Operands.end(), [&](ValueId V) {
             return V >= K.Values.size() ||
                    K.Values[V].Kind != ValueKind::Tensor ||
                    Where(V) == Storage::rmem ||
                    (K.Values[V].Def != None &&
                     K.Stmts[K.Values[V].Def].Op == OpKind::InBounds);
           });
  case OpClass::Broadcast:
    // A register statistic, or a global tile each thread reads.
    return RegisterResult && !Op.Operands.empty() &&
           Where(Op.Operands[0]) != Storage::smem;
  case OpClass::Mask:
    return !Op.Operands.empty() && Where(Op.Operands[0]) == Storage::gmem;
  default:
    return false;
  }
}

} // namespace tf::hir
