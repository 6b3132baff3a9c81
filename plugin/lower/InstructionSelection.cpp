//===- plugin/lower/InstructionSelection.cpp - Ops to instructions --------===//
//
// See InstructionSelection.h.
//
//===----------------------------------------------------------------------===//
#include "lower/InstructionSelection.h"
#include "lower/RegisterProgram.h"

#include "analysis/Site.h"
#include "backend/Backend.h"

#include "llvm/ADT/STLExtras.h"

namespace tf::lower {

using plugin::DiagId;

void selectInstructions(LoweringContext &Ctx, hir::StmtId Op, int R,
                        const LoopClock &C, std::vector<InstId> &Out) {
  const hir::Stmt &S = Ctx.H.Stmts[Op];
  if (hir::isRegisterOp(Ctx.H, S)) {
    lowerRegisterOp(Ctx, Op, R, Out);
    return;
  }
  if (!S.Sched) {
    if (S.Op == hir::OpKind::Zeros && S.Result != hir::None &&
        Ctx.H.Values[S.Result].Type.Where == Storage::rmem) {
      // Register tiles are the accumulators of scheduled ops, sized and
      // laid out by the op that accumulates into them.
      const bool Accumulated = llvm::any_of(Ctx.H.Stmts, [&](const hir::Stmt &X) {
        return X.Kind == hir::StmtKind::Op && X.Sched && X.Assigns &&
               X.Result == S.Result;
      });
      if (!Accumulated) {
        Ctx.refuse(DiagId::err_tf_lower_op, LoweringContext::at(S),
                   {Ctx.opText(S), std::string(Ctx.Backend.name()),
                    "its register tile " + Ctx.valueName(S.Result) +
                        " is accumulated by no scheduled op; registers are "
                        "zero-filled only as an accumulator"});
        return;
      }
      Ctx.add(ZeroFragmentStmt{S.Result}, S, Out);
      return;
    }
    // An elementwise op the store that reads it applies (fusion).
    for (const auto &[Store, Chain] : Ctx.Fused)
      if (Chain.fuses(Op))
        return;
    Ctx.refuse(DiagId::err_tf_lower_op, LoweringContext::at(S),
               {Ctx.opText(S), std::string(Ctx.Backend.name()),
                "it has no instruction and is fused into no store"});
    return;
  }
  const Contract *Contract = analysis::contractOf(S);
  backend::LoweringRule Rule = Contract ? Ctx.Backend.rule(*Contract) : nullptr;
  if (!Rule) {
    Ctx.refuse(DiagId::err_tf_lower_op, LoweringContext::at(S),
               {Ctx.opText(S) + " as " + S.Sched->ContractId,
                std::string(Ctx.Backend.name()),
                "the backend has no lowering rule for this contract"});
    return;
  }
  Selection Sel;
  Sel.Op = Op;
  Sel.Role = R;
  Sel.Clock = C;
  Rule(Ctx, Op, Sel);
  synthesize(Ctx, Sel, Out);
}

} // namespace tf::lower
