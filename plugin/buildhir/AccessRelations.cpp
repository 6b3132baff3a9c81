//===- buildhir/AccessRelations.cpp - Each op's access relation -----------===//
//
// The domain of an op (its iteration space) and, for each operand, the map
// from the domain to the operand's modes, with a tile's offsets and
// extents in its parent.
//
//===----------------------------------------------------------------------===//

#include "buildhir/KernelBuilder.h"
#include "tf/atoms/registry.hpp"
#include "tf/layout/text/print.hpp"

#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringExtras.h"

using namespace clang;

namespace tf::plugin::buildhir {

namespace {

/// The access of operand \p V on domain dimensions \p Map: a tile names its
/// parent with the window's offsets and extents.
hir::Access accessOf(const hir::Kernel &K, ValueId V, hir::AccessKind Kind,
                     std::vector<unsigned> Map,
                     const llvm::DenseMap<ValueId, hir::SourceRange> *Written =
                         nullptr) {
  hir::Access A;
  A.Kind = Kind;
  A.Map = std::move(Map);
  A.Operand = V;
  if (V == None)
    return A;
  const hir::Value &Val = K.Values[V];
  // Where the operand is written in this call; the value's own range for
  // a result.
  A.Range = Val.Range;
  if (Written)
    if (auto It = Written->find(V); It != Written->end())
      A.Range = It->second;
  if (Val.TileOf != None) {
    A.Operand = Val.TileOf;
    A.Offsets = Val.TileOffsets;
    A.Extents = Val.Type.WindowExtents;
  }
  return A;
}


std::vector<unsigned> identity(unsigned N) {
  std::vector<unsigned> M(N);
  for (unsigned I = 0; I < N; ++I)
    M[I] = I;
  return M;
}


void setDomain(hir::AccessRelation &R, const IntTuple &Shape,
               std::vector<std::string> Names = {}) {
  R.Domain = IntTuple{};
  int Rank = Shape.is_leaf() ? 1 : Shape.rank();
  for (int I = 0; I < Rank; ++I) {
    IntTuple Mode = Shape.is_leaf() ? Shape : Shape.mode(I);
    Result<std::int64_t> Size = product(Mode);
    R.Domain.push_back(IntTuple(Size.ok() ? Int(*Size) : Int::dynamic()));
    R.DimNames.push_back(I < static_cast<int>(Names.size())
                             ? Names[I]
                             : "d" + std::to_string(I));
  }
}

} // namespace

void KernelBuilder::buildAccess(hir::Stmt &Op, const CallExpr *CE) {
  hir::AccessRelation &R = Op.Access;
  auto accessOf = [&](const hir::Kernel &K, ValueId V, hir::AccessKind Kind,
                      std::vector<unsigned> Map) {
    return buildhir::accessOf(K, V, Kind, std::move(Map), &OperandRanges);
  };
  std::vector<ValueId> Tensors;
  for (ValueId V : Op.Operands)
    if (K.Values[V].Kind != hir::ValueKind::Index &&
        K.Values[V].Kind != hir::ValueKind::Scalar)
      Tensors.push_back(V);
  auto Rank = [&](ValueId V) {
    IntTuple S = K.Values[V].Type.shape();
    return static_cast<unsigned>(S.is_leaf() ? 1 : S.rank());
  };
  // The op whose relation this is: for tf::schedule, the op its atom's
  // contract implements (none for an atom tf's registry does not hold).
  std::optional<hir::OpKind> Performs = Op.Op;
  if (hir::opInfo(Op.Op).Access == hir::AccessShape::Scheduled) {
    const tf::Contract *C =
        Op.Sched ? tf::find_contract(Op.Sched->ContractId) : nullptr;
    Performs = C ? hir::scheduledOp(C->kind) : std::nullopt;
  }
  hir::AccessShape Shape =
      Performs ? hir::opInfo(*Performs).Access : hir::AccessShape::Elementwise;
  // Operands that do not fit the op (a malformed call, reported elsewhere)
  // get the element-wise relation, as any other op does.
  if (Performs && !hir::takesTensorOperands(*Performs, Tensors.size()))
    Shape = hir::AccessShape::Elementwise;
  switch (Shape) {
  case hir::AccessShape::None:
  case hir::AccessShape::Scheduled:
  case hir::AccessShape::Elementwise:
    break;
  case hir::AccessShape::Mma: {
    // C(m, n) += A(m, k) * B(k, n).
    IntTuple C = K.Values[Tensors[0]].Type.shape();
    IntTuple A = K.Values[Tensors[1]].Type.shape();
    IntTuple Dom;
    auto Size = [](const IntTuple &S, int I) {
      if (S.is_leaf() || I >= S.rank())
        return Int::dynamic();
      Result<std::int64_t> P = product(S.mode(I));
      return P.ok() ? Int(*P) : Int::dynamic();
    };
    Dom.push_back(IntTuple(Size(C, 0)));
    Dom.push_back(IntTuple(Size(C, 1)));
    Dom.push_back(IntTuple(Size(A, 1)));
    R.Domain = Dom;
    R.DimNames = {"m", "n", "k"};
    R.Accesses.push_back(
        accessOf(K, Tensors[0], hir::AccessKind::ReadWrite, {0, 1}));
    R.Accesses.push_back(accessOf(K, Tensors[1], hir::AccessKind::Read, {0, 2}));
    R.Accesses.push_back(accessOf(K, Tensors[2], hir::AccessKind::Read, {2, 1}));
    return;
  }
  case hir::AccessShape::Fill:
    if (Op.Result == None)
      return;
    setDomain(R, K.Values[Op.Result].Type.shape());
    R.Accesses.push_back(accessOf(K, Op.Result, hir::AccessKind::Write,
                                  identity(R.DimNames.size())));
    return;
  case hir::AccessShape::RingHandout:
    // No element moves: the ring hands out a slot.
    R.Accesses.push_back(accessOf(K, Tensors[0],
                                  Op.Op == hir::OpKind::RingNext
                                      ? hir::AccessKind::ReadWrite
                                      : hir::AccessKind::Read,
                                  {}));
    return;
  case hir::AccessShape::InsertSlice: {
    // out(o + d) = tile(d) over the tile's shape.
    ValueId Out = Tensors[0], Tile = Tensors[1];
    setDomain(R, K.Values[Tile].Type.shape());
    unsigned D = R.DimNames.size();
    R.Accesses.push_back(accessOf(K, Tile, hir::AccessKind::Read, identity(D)));
    hir::Access W = accessOf(K, Out, hir::AccessKind::Write, identity(D));
    if (W.Offsets.empty()) {
      for (ValueId V : Op.Operands)
        if (K.Values[V].Kind == hir::ValueKind::Index) {
          const hir::Value &I = K.Values[V];
          if (I.Init != None) {
            W.Offsets.push_back(I.Init);
          } else {
            hir::Expr Ref;
            Ref.Kind = hir::ExprKind::Ref;
            Ref.Ref = V;
            W.Offsets.push_back(K.addExpr(std::move(Ref)));
          }
        }
      IntTuple S = K.Values[Tile].Type.shape();
      for (int I = 0; I < (S.is_leaf() ? 1 : S.rank()); ++I) {
        Result<std::int64_t> P = product(S.is_leaf() ? S : S.mode(I));
        W.Extents.push_back(P.ok() ? *P : -1);
      }
    }
    R.Accesses.push_back(std::move(W));
    return;
  }
  case hir::AccessShape::Broadcast: {
    // result(d) = t(d without Mode) over the result's (`like`'s) shape;
    // `like` lends its shape, no element of it is read.
    if (Op.Result == None || Tensors.empty())
      return;
    const unsigned Mode = Op.BroadcastMode;
    setDomain(R, K.Values[Op.Result].Type.shape());
    unsigned D = R.DimNames.size();
    std::vector<unsigned> Kept;
    for (unsigned I = 0; I < D; ++I)
      if (I != Mode)
        Kept.push_back(I);
    R.Accesses.push_back(
        accessOf(K, Tensors[0], hir::AccessKind::Read, std::move(Kept)));
    R.Accesses.push_back(
        accessOf(K, Op.Result, hir::AccessKind::Write, identity(D)));
    return;
  }
  case hir::AccessShape::Reduce: {
    unsigned Mode = modeArgument(CE);
    setDomain(R, K.Values[Tensors[0]].Type.shape());
    unsigned D = R.DimNames.size();
    R.Accesses.push_back(
        accessOf(K, Tensors[0], hir::AccessKind::Read, identity(D)));
    if (Op.Result != None) {
      std::vector<unsigned> Kept;
      for (unsigned I = 0; I < D; ++I)
        if (I != Mode)
          Kept.push_back(I);
      R.Accesses.push_back(
          accessOf(K, Op.Result, hir::AccessKind::Write, std::move(Kept)));
    }
    return;
  }
  case hir::AccessShape::Copy: {
    // dst(d) = src(d) over the destination's shape (a ring: its slot's).
    ValueId Src = Tensors[0], Dst = Tensors[1];
    setDomain(R, K.Values[Dst].Type.shape());
    unsigned D = R.DimNames.size();
    R.Accesses.push_back(accessOf(K, Src, hir::AccessKind::Read, identity(D)));
    R.Accesses.push_back(accessOf(K, Dst, hir::AccessKind::Write, identity(D)));
    return;
  }
  }
  // Element-wise ops and anything else: every operand read over the
  // result's shape (or the first operand's), the result written.
  ValueId Over = Op.Result != None ? Op.Result
                 : Tensors.empty() ? None
                                   : Tensors[0];
  if (Over == None)
    return;
  setDomain(R, K.Values[Over].Type.shape());
  unsigned D = R.DimNames.size();
  for (ValueId V : Tensors)
    R.Accesses.push_back(accessOf(
        K, V, hir::AccessKind::Read,
        Rank(V) == D ? identity(D) : identity(std::min(Rank(V), D))));
  // `x = tf::add(x, y)` reads x as an operand and overwrites it.
  if (Op.Result != None)
    R.Accesses.push_back(
        accessOf(K, Op.Result, hir::AccessKind::Write, identity(D)));
}

} // namespace tf::plugin::buildhir
