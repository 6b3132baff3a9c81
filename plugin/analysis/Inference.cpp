//===- plugin/analysis/Inference.cpp - What follows from the decisions ----===//
//
// infer (Analysis.h) fills in, in this order:
//  1. the constant value of every index expression (Expr::Static): constants,
//     static extents of typed tensors, Let-bound indices and arithmetic;
//  2. the types of op results the builder left unset, in program order so
//     that chains follow (cast -> Copy -> TMA store), as the op table's
//     result rule says (hir/Ops.def): a cast keeps the layout and changes
//     the element type, element-wise ops keep their first tensor operand's
//     type, a ring load (tf::schedule of a copy into a tf::Ring, ring_next,
//     ring_slot) yields the slot type, a copy the destination's view, an MMA
//     its accumulator; a tf::schedule follows the rule of the op its atom's
//     contract implements;
//  3. the ShardLayout of every register tensor whose layout binds mesh axes,
//     over the mesh of the scope that defines it;
//  4. the repeat of every tiled MMA, from the contract engine's
//     RepeatDerivation (the site as Site.h builds it), and of every box copy
//     (a TMA): the boxes it is issued as, their extents, shared-memory
//     offsets and box 0's layout (Site.h, splitIntoBoxes), which the checks
//     and lowering read (recordedSplit) rather than split again.
// What cannot be derived and matters to a contract check -- an operand of a
// tf::schedule whose type nothing determines -- is reported; the contract
// refusals themselves are check's (Check.cpp).
//
//===----------------------------------------------------------------------===//

#include "analysis/Analysis.h"
#include "analysis/Site.h"

#include "tf/contract/match.hpp"

#include "llvm/ADT/STLExtras.h"

namespace tf::analysis {

using namespace hir;

namespace {

/// The value Result takes the type of, or None.
ValueId typeSource(const Kernel &K, const Stmt &Op, ResultType Rule) {
  auto Operand = [&](std::size_t I) {
    return I < Op.Operands.size() ? Op.Operands[I] : None;
  };
  switch (Rule) {
  case ResultType::FirstOperand:
  case ResultType::CastTarget:
    return Operand(0);
  case ResultType::Destination:
    return Operand(1); // a ring: its slot
  case ResultType::FirstTensorOperand:
    for (ValueId V : Op.Operands)
      if (V != None && V < K.Values.size() &&
          K.Values[V].Kind == ValueKind::Tensor)
        return V;
    return None;
  case ResultType::None:
  case ResultType::Declared:
  case ResultType::Scheduled:
    return None;
  }
  return None;
}

/// Gives Op's result a type from its operands when the builder left it
/// unset.
void deriveResultType(Kernel &K, const Stmt &Op) {
  if (Op.Result == None || Op.Result >= K.Values.size() || Op.Assigns ||
      hasType(K.Values[Op.Result]))
    return;
  ResultType Rule = resultRule(Op);
  ValueId From = typeSource(K, Op, Rule);
  if (From == None || From >= K.Values.size() || From == Op.Result ||
      !hasType(K.Values[From]))
    return;
  const Value Src = K.Values[From];
  Value &R = K.Values[Op.Result];
  R.Type = Src.Type;
  R.TypeDerived = true;
  if (Rule == ResultType::CastTarget)
    R.Type.Element = Op.CastTo;
  // The view of a destination window is that window.
  if (Src.Kind == ValueKind::Tensor && Rule != ResultType::CastTarget) {
    R.TileOf = Src.TileOf;
    R.TileOffsets = Src.TileOffsets;
  }
}

Finding untypedOperand(const Kernel &K, const Stmt &Op, const Contract &C,
                       const SiteOperandSource &O) {
  const Value &V = K.Values[O.Value];
  std::string Why = "its type cannot be derived";
  if (V.Def != None && V.Def < K.Stmts.size() &&
      K.Stmts[V.Def].Kind == StmtKind::Op)
    Why += " from the result of tf::" + opName(K.Stmts[V.Def].Op).str();
  Finding F{plugin::DiagId::err_tf_contract_operand, O.Range, {}, {}, {}};
  F.Args = {std::string(O.Operand.view()),
            V.Name.empty() ? std::string("a temporary") : "'" + V.Name + "'",
            std::string(C.id.view()), Why};
  (void)Op;
  return F;
}

} // namespace

std::vector<Finding> infer(Kernel &K, const targets::MergedTarget *Target) {
  std::vector<Finding> Findings;
  // 1. Constant index expressions (extents of typed parameters are known
  // before any op runs).
  for (Expr &E : K.Exprs)
    E.Static.reset();
  for (ExprId E = 0; E < K.Exprs.size(); ++E)
    K.Exprs[E].Static = foldExpr(K, E);

  // 2. Result types, in program order.
  const std::vector<StmtId> Order = K.preorder();
  for (StmtId S : Order)
    if (K.Stmts[S].Kind == StmtKind::Op)
      deriveResultType(K, K.Stmts[S]);
  // Extents of derived types may fold more expressions.
  for (ExprId E = 0; E < K.Exprs.size(); ++E)
    if (!K.Exprs[E].Static)
      K.Exprs[E].Static = foldExpr(K, E);

  // 3. ShardLayouts of register tensors.
  for (Value &V : K.Values)
    V.Shard = registerShard(K, V);

  // 4. Every site's match on the target, recorded once (the checks report
  // its reasons, lowering reads its decisions); derived repeats and TMA
  // boxes from it; operands nothing types.
  for (StmtId S : Order) {
    Stmt &Op = K.Stmts[S];
    if (Op.Kind != StmtKind::Op || !Op.Sched)
      continue;
    Op.Sched->DerivedRepeat.clear();
    Op.Sched->BoxExtents.clear();
    Op.Sched->BoxOrder.clear();
    Op.Sched->BoxOffsets = Layout{};
    Op.Sched->BoxLayout = ComposedLayout{};
    Op.Sched->Match.reset();
    HirSite Site;
    if (!buildSite(K, S, Target, Site))
      continue;
    for (const SiteOperandSource &O : Site.Operands)
      if (O.Untyped && O.Value != None && O.Value < K.Values.size())
        Findings.push_back(untypedOperand(K, Op, *Site.C, O));
    if (isBoxCopy(*Site.C)) {
      // Extents first: the boxes are cut from the shared-memory side, so a
      // box whose extents differ from its slot's (A's tile loaded into B's
      // ring) is the whole copy's refusal; its layout and limits are
      // questions about boxes that cannot be cut.
      MatchReport Whole = match(*Site.C, Site.S);
      if (llvm::any_of(Whole.reasons, [](const Reason &Why) {
            return Why.kind == ReasonKind::operand_shape;
          })) {
        MatchReport Extents = Whole;
        Extents.reasons = {};
        Extents.dropped = 0;
        for (const Reason &Why : Whole.reasons)
          if (Why.kind != ReasonKind::operand_layout &&
              Why.kind != ReasonKind::operand_limit)
            Extents.reasons.push_back(Why);
        Op.Sched->Match = std::move(Extents);
        continue;
      }
      if (std::optional<BoxSplit> Split = splitIntoBoxes(Site)) {
        Op.Sched->DerivedRepeat = Split->Count;
        Op.Sched->BoxExtents = Split->Extents;
        Op.Sched->BoxOrder = Split->Order;
        Op.Sched->BoxOffsets = Split->Offsets;
        Op.Sched->BoxLayout = Split->Box;
        HirSite Box;
        buildBoxSite(Site, *Split, Box);
        Op.Sched->Match = match(*Box.C, Box.S);
        continue;
      }
      Op.Sched->Match = match(*Site.C, Site.S);
      continue;
    }
    MatchReport R = match(*Site.C, Site.S);
    if (!Site.C->atom_shape.is_leaf() && Site.C->atom_shape.rank() == 3 &&
        R.repeat.derived)
      Op.Sched->DerivedRepeat.assign(std::begin(R.repeat.count),
                                     std::end(R.repeat.count));
    Op.Sched->Match = std::move(R);
  }
  return Findings;
}

} // namespace tf::analysis
