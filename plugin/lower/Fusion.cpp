//===- plugin/lower/Fusion.cpp - Elementwise ops into fragments -----------===//
//
// See Fusion.h.
//
//===----------------------------------------------------------------------===//
#include "lower/Fusion.h"

#include "backend/Backend.h"

#include <algorithm>

namespace tf::lower {

using plugin::DiagId;

namespace {

/// The register op an elementwise HIR op becomes in a fragment store, if it
/// becomes one.
std::optional<ElementwiseOp> registerOpOf(const hir::Stmt &S) {
  switch (S.Op) {
  case hir::OpKind::Cast:
    return ElementwiseOp::Cast;
  case hir::OpKind::Relu:
    return ElementwiseOp::Relu;
  case hir::OpKind::Neg:
    return ElementwiseOp::Neg;
  case hir::OpKind::Exp:
    return ElementwiseOp::Exp;
  case hir::OpKind::GeluTanh:
    return ElementwiseOp::GeluTanh;
  case hir::OpKind::GeluErf:
    return ElementwiseOp::GeluErf;
  case hir::OpKind::Silu:
    return ElementwiseOp::Silu;
  case hir::OpKind::Scale:
    return ElementwiseOp::Scale;
  case hir::OpKind::Add:
    return ElementwiseOp::Add;
  default:
    return std::nullopt;
  }
}

/// Whether \p V is read by another statement than \p Reader.
bool readElsewhere(const hir::Kernel &H, hir::ValueId V, hir::StmtId Reader) {
  for (hir::StmtId Id = 0; Id < H.Stmts.size(); ++Id) {
    const hir::Stmt &S = H.Stmts[Id];
    if (Id != Reader && S.Kind == hir::StmtKind::Op &&
        std::find(S.Operands.begin(), S.Operands.end(), V) != S.Operands.end())
      return true;
  }
  return false;
}

/// The statement of the unscheduled op whose unnamed result \p V is: a link
/// of an epilogue; null for anything else (the accumulator, a tile, a
/// parameter).
const hir::Stmt *linkDef(const hir::Kernel &H, hir::ValueId V) {
  if (V == hir::None || H.Values[V].Def == hir::None ||
      H.Values[V].Origin != hir::ValueOrigin::Temporary)
    return nullptr;
  const hir::Stmt &Def = H.Stmts[H.Values[V].Def];
  return Def.Kind == hir::StmtKind::Op && !Def.Sched ? &Def : nullptr;
}

/// The tensor operands of \p S, in order (scalars and indices left out).
std::vector<hir::ValueId> tensorOperands(const hir::Kernel &H,
                                         const hir::Stmt &S) {
  std::vector<hir::ValueId> Out;
  for (hir::ValueId V : S.Operands)
    if (H.Values[V].Kind == hir::ValueKind::Tensor)
      Out.push_back(V);
  return Out;
}

/// Whether the links from \p V lead to a register tensor no link computes
/// (the accumulator).
bool reachesRegisters(const hir::Kernel &H, hir::ValueId V) {
  while (const hir::Stmt *Def = linkDef(H, V)) {
    const std::vector<hir::ValueId> T = tensorOperands(H, *Def);
    if (T.empty())
      return false;
    // A broadcast's second operand lends its shape only.
    if (T.size() == 2 && Def->Op != hir::OpKind::Broadcast &&
        reachesRegisters(H, T[1]))
      return true;
    V = T[0];
  }
  const hir::Value &X = H.Values[V];
  return X.Kind == hir::ValueKind::Tensor && X.Type.Where == Storage::rmem &&
         X.TileOf == hir::None;
}

/// Why \p S cannot be a link of a fused epilogue in place of \p Reader's
/// operand \p V; empty when it can. A tf.scale needs a float kernel
/// parameter for its factor.
std::string notFusible(const hir::Kernel &H, const hir::Stmt &S,
                       hir::ValueId V, hir::StmtId Reader) {
  const std::optional<ElementwiseOp> Op = registerOpOf(S);
  const std::size_t Tensors = tensorOperands(H, S).size();
  if (!Op && Tensors == 2)
    return "of the ops of two operands only tf.add is applied to a fragment "
           "so far";
  if (!Op)
    return "it has no register form";
  if (readElsewhere(H, V, Reader))
    return "its result is read by another op too; a fused op feeds exactly "
           "one store";
  if (*Op == ElementwiseOp::Scale &&
      llvm::none_of(S.Operands, [&](hir::ValueId X) {
        return H.Values[X].Kind == hir::ValueKind::Scalar &&
               H.Values[X].Origin == hir::ValueOrigin::Parameter;
      }))
    return "its factor is not a float kernel parameter; a fragment is "
           "scaled by one (`float alpha` in the kernel's parameters)";
  return {};
}

std::string extentsText(const std::vector<std::int64_t> &E) {
  std::string Out;
  for (std::size_t I = 0; I < E.size(); ++I)
    Out += (I ? " x " : "") + (E[I] < 0 ? std::string("?") : std::to_string(E[I]));
  return Out;
}

/// What add \p AddId adds through its operand \p V: the tile of a global
/// tensor parameter the links from V lead to and the ops on the way; the
/// reason when it is not one, with the op to refuse at.
struct AddedOrWhy {
  FusedOperand Added;
  std::string Why;
  hir::StmtId At = hir::None;
};

AddedOrWhy addedOperand(const hir::Kernel &H, hir::ValueId V,
                        hir::StmtId AddId) {
  AddedOrWhy Out;
  Out.At = AddId;
  hir::StmtId Reader = AddId;
  while (H.Values[V].TileOf == hir::None) {
    const hir::Stmt *Def = linkDef(H, V);
    if (!Def) {
      Out.Why = "it adds " +
                (H.Values[V].Name.empty() ? std::string("a value")
                                          : "'" + H.Values[V].Name + "'") +
                ", not a tile of a tensor parameter; an added operand is "
                "read from global memory where the accumulator's registers "
                "meet it (c.tile<BM, BN>(m0, n0), or a vector tile "
                "through tf::broadcast)";
      return Out;
    }
    const hir::StmtId DefId = H.Values[V].Def;
    if (Def->Op == hir::OpKind::Broadcast) {
      if (Out.Added.BroadcastMode >= 0) {
        Out.Why = "it broadcasts twice; an added operand is a matrix tile or "
                  "one vector tile broadcast once";
        Out.At = DefId;
        return Out;
      }
      if (readElsewhere(H, V, Reader)) {
        Out.Why = "its result is read by another op too; a fused op feeds "
                  "exactly one store";
        Out.At = DefId;
        return Out;
      }
      Out.Added.Broadcast = DefId;
      Out.Added.BroadcastMode = static_cast<int>(Def->BroadcastMode);
    } else if (Def->Op == hir::OpKind::Add) {
      Out.Why = "an add inside an added operand is not applied to a fragment "
                "so far; add the terms to the accumulator one by one";
      Out.At = DefId;
      return Out;
    } else if (std::string Why = notFusible(H, *Def, V, Reader);
               !Why.empty()) {
      Out.Why = std::move(Why);
      Out.At = DefId;
      return Out;
    } else {
      Out.Added.Ops.push_back(DefId);
    }
    const std::vector<hir::ValueId> T = tensorOperands(H, *Def);
    if (T.empty()) {
      Out.Why = "its operand is not a tensor";
      Out.At = DefId;
      return Out;
    }
    Reader = DefId;
    V = T[0];
  }
  const hir::Value &Parent = H.Values[H.Values[V].TileOf];
  if (Parent.Origin != hir::ValueOrigin::Parameter ||
      Parent.Type.Where != Storage::gmem) {
    Out.Why = "it adds a tile of " +
              (Parent.Name.empty() ? std::string("a temporary")
                                   : "'" + Parent.Name + "'") +
              ", which is no tensor parameter in global memory";
    return Out;
  }
  std::reverse(Out.Added.Ops.begin(), Out.Added.Ops.end());
  Out.Added.Tile = V;
  Out.Why.clear();
  return Out;
}

/// Why what \p Added adds does not cover the accumulator tile of \p Acc
/// extents element for element; empty when it does.
std::string shapeMismatch(const hir::Kernel &H, const FusedOperand &Added,
                          const std::vector<std::int64_t> &Acc) {
  const hir::Value &Tile = H.Values[Added.Tile];
  const std::vector<std::int64_t> &E = Tile.Type.WindowExtents;
  const std::string Name = "'" + H.Values[Tile.TileOf].Name + "'";
  const int Mode = Added.BroadcastMode;
  if (Mode < 0) {
    if (E == Acc)
      return {};
    return "it adds a " + extentsText(E) + " tile of " + Name +
           "; the accumulator tile is " + extentsText(Acc);
  }
  if (E.size() == 1 && Acc.size() == 2 && Mode <= 1 &&
      E[0] == Acc[static_cast<std::size_t>(1 - Mode)])
    return {};
  return "it adds a tile of " + extentsText(E) + " elements of " + Name +
         " broadcast " +
         (Mode == 0 ? "along the rows (one value per column)"
                    : "along the columns (one value per row)") +
         "; the accumulator tile is " + extentsText(Acc);
}

} // namespace

void fuseElementwise(LoweringContext &Ctx) {
  const hir::Kernel &H = Ctx.H;
  auto Refuse = [&](hir::StmtId At, std::string Why) {
    const hir::Stmt &S = H.Stmts[At];
    Ctx.refuse(DiagId::err_tf_lower_fusion, LoweringContext::at(S),
               {Ctx.opText(S), std::string(Ctx.Backend.name()),
                std::move(Why)});
  };
  for (hir::StmtId Id : H.preorder()) {
    const hir::Stmt &S = H.Stmts[Id];
    if (S.Kind != hir::StmtKind::Op || !S.Sched || S.Operands.size() != 2)
      continue;
    const hir::Value &Dst = H.Values[S.Operands[1]];
    if (Dst.Kind != hir::ValueKind::Tensor || Dst.Type.Where != Storage::smem ||
        Dst.TileOf != hir::None)
      continue;
    FusedChain Chain;
    hir::ValueId V = S.Operands[0];
    Chain.StoredAs = H.Values[V].Type.Element;
    hir::StmtId Reader = Id;
    // Walk from the copy's source back to the register value an op that
    // is no elementwise op produced (the accumulator); at an add, along
    // the operand that leads there, the other one being what it adds.
    bool Refused = false;
    while (const hir::Stmt *Def = linkDef(H, V)) {
      const hir::StmtId DefId = H.Values[V].Def;
      if (std::string Why = notFusible(H, *Def, V, Reader); !Why.empty()) {
        Refuse(DefId, std::move(Why));
        Refused = true;
        break;
      }
      const std::vector<hir::ValueId> T = tensorOperands(H, *Def);
      hir::ValueId Next = T.empty() ? hir::None : T[0];
      if (Def->Op == hir::OpKind::Add) {
        const bool First = reachesRegisters(H, T[0]);
        if (First == reachesRegisters(H, T[1])) {
          Refuse(DefId, First ? "both of its operands are computed in "
                                "registers; an add applied to a fragment "
                                "adds a tile read from global memory"
                              : "neither of its operands is the "
                                "accumulator's");
          Refused = true;
          break;
        }
        Next = First ? T[0] : T[1];
        AddedOrWhy Added = addedOperand(H, First ? T[1] : T[0], DefId);
        if (!Added.Why.empty()) {
          Refuse(Added.At, std::move(Added.Why));
          Refused = true;
          break;
        }
        Chain.Added[DefId] = std::move(Added.Added);
      }
      Chain.Ops.push_back(DefId);
      Reader = DefId;
      V = Next;
    }
    if (Refused)
      continue;
    std::reverse(Chain.Ops.begin(), Chain.Ops.end());
    Chain.Source = V;
    const std::vector<std::int64_t> Acc = H.Values[V].Type.extents();
    for (const auto &[AddId, Added] : Chain.Added)
      if (std::string Why = shapeMismatch(H, Added, Acc); !Why.empty()) {
        Refuse(AddId, std::move(Why));
        Refused = true;
      }
    if (!Refused)
      Ctx.Fused[Id] = std::move(Chain);
  }
}

namespace {

/// Appends the fragment op of HIR op \p Id to \p Out, and the rounding of
/// its result when the op computes in a narrower type than f32 (as the
/// header-only op rounds once to its element type).
void appendOp(LoweringContext &Ctx, const FusedChain &Chain, hir::StmtId Id,
              bool Added, std::vector<FragmentOp> &Out) {
  const hir::Kernel &H = Ctx.H;
  const hir::Stmt &S = H.Stmts[Id];
  FragmentOp F;
  F.Op = *registerOpOf(S);
  F.To = F.Op == ElementwiseOp::Cast ? S.CastTo : DType::f32;
  // In an added operand a cast to f32 widens an exact value: nothing to do.
  if (Added && F.Op == ElementwiseOp::Cast && F.To == DType::f32)
    return;
  if (F.Op == ElementwiseOp::Scale)
    for (hir::ValueId X : S.Operands)
      if (H.Values[X].Kind == hir::ValueKind::Scalar)
        F.Scalar = H.Values[X].Name;
  if (F.Op == ElementwiseOp::Add) {
    const FusedOperand &A = Chain.Added.at(Id);
    const hir::Value &Tile = H.Values[A.Tile];
    FragmentOperand X;
    X.Load.Tensor = H.Values[Tile.TileOf].Name;
    X.Load.Element = H.Values[Tile.TileOf].Type.Element;
    for (hir::ExprId E : Tile.TileOffsets)
      X.Load.Origin.push_back(Ctx.expr(E, LoweringContext::at(S)));
    if (A.BroadcastMode < 0)
      X.Load.Dims = {0, 1};
    else
      X.Load.Dims = {1 - A.BroadcastMode};
    for (hir::StmtId Op : A.Ops)
      appendOp(Ctx, Chain, Op, true, X.Ops);
    F.Operand.push_back(std::move(X));
  }
  const ElementwiseOp Kind = F.Op;
  Out.push_back(std::move(F));
  if (Kind != ElementwiseOp::Cast && S.Result != hir::None &&
      H.Values[S.Result].Type.Element != DType::f32) {
    FragmentOp Round;
    Round.To = H.Values[S.Result].Type.Element;
    Out.push_back(Round);
  }
}

} // namespace

std::vector<FragmentOp> fragmentOps(LoweringContext &Ctx,
                                    const FusedChain &Chain) {
  std::vector<FragmentOp> Out;
  for (hir::StmtId Id : Chain.Ops)
    appendOp(Ctx, Chain, Id, false, Out);
  return Out;
}

} // namespace tf::lower
