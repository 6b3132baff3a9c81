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

} // namespace

void fuseElementwise(LoweringContext &Ctx) {
  const hir::Kernel &H = Ctx.H;
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
    // is no elementwise op produced (the accumulator).
    bool Refused = false;
    while (V != hir::None && H.Values[V].Def != hir::None &&
           H.Values[V].Origin == hir::ValueOrigin::Temporary) {
      const hir::Stmt &Def = H.Stmts[H.Values[V].Def];
      if (Def.Kind != hir::StmtKind::Op || Def.Sched)
        break;
      if (!registerOpOf(Def) || Def.Operands.size() != 1) {
        Ctx.refuse(DiagId::err_tf_lower_fusion, LoweringContext::at(Def),
                   {Ctx.opText(Def), std::string(Ctx.Backend.name()),
                    Def.Operands.size() != 1
                        ? "it takes " + std::to_string(Def.Operands.size()) +
                              " operands; only ops of one register tensor "
                              "are applied to a fragment so far"
                        : "it has no register form"});
        Refused = true;
        break;
      }
      if (readElsewhere(H, V, Reader)) {
        Ctx.refuse(DiagId::err_tf_lower_fusion, LoweringContext::at(Def),
                   {Ctx.opText(Def), std::string(Ctx.Backend.name()),
                    "its result is read by another op too; a fused op "
                    "feeds exactly one store"});
        Refused = true;
        break;
      }
      Chain.Ops.push_back(H.Values[V].Def);
      Reader = H.Values[V].Def;
      V = Def.Operands[0];
    }
    if (Refused)
      continue;
    std::reverse(Chain.Ops.begin(), Chain.Ops.end());
    Chain.Source = V;
    Ctx.Fused[Id] = std::move(Chain);
  }
}

/// The fragment ops of \p Chain, in order.
std::vector<FragmentOp> fragmentOps(const LoweringContext &Ctx,
                                    const FusedChain &Chain) {
  std::vector<FragmentOp> Out;
  for (hir::StmtId Id : Chain.Ops) {
    const hir::Stmt &S = Ctx.H.Stmts[Id];
    FragmentOp F;
    F.Op = *registerOpOf(S);
    F.To = F.Op == ElementwiseOp::Cast ? S.CastTo : DType::f32;
    Out.push_back(F);
  }
  return Out;
}

} // namespace tf::lower
