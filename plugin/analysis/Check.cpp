//===- plugin/analysis/Check.cpp - Every tf::schedule against its contract ===//
//
// check (Analysis.h): each tf::schedule op's site (Site.h) goes through tf's
// one matching engine, tf::match, and every Reason of the report becomes one
// finding, at the most exact range known -- the parameter's template
// argument, the operand at the call, the written Repeat, else the call:
//
//   capability              err_tf_contract_capability
//   mesh                    err_tf_contract_mesh (the site's mesh and the
//                           contract's execution mesh)
//   param_*                 err_tf_contract_parameter, with a fix-it to the
//                           nearest valid value when there is one
//   operand_* but layout    err_tf_contract_operand; an element type the
//                           contract fixes (the f32 accumulator) at the
//                           declaration's element type, with a fix-it; one
//                           a written dtype parameter would read (f16
//                           operands, an atom written for bf16)
//                           err_tf_contract_parameter at that argument
//   operand_layout          err_tf_contract_layout; at the template argument
//                           of a choice that would read the layout (a
//                           major), or at the declaration's swizzle when
//                           another swizzle would be read; with a fix-it
//   tile_mismatch/extent    err_tf_contract_tile
//   repeat                  err_tf_repeat_mismatch, with a fix-it writing
//                           the derived tf::Repeat<M, N, K>
//
// A box copy (a TMA, Site.h) whose shared-memory side is not one box is
// checked as the boxes inference split it into (recordedSplit): the reasons
// of box 0's match (its mesh, capability and parameter reasons are the
// copy's), and a written Repeat must be the box count
// (err_tf_repeat_mismatch, "tile" the copy, "atom" the box). When no box
// fits, the whole copy's match and its own reasons are reported.
//
// Where the mistake is a declaration's and another decision clears it, the
// finding is derived by matching the site again (CheckFindings.cpp; the
// SiteChecker class is shared through SiteChecker.h).
//
// Each carries a note naming the contract item in describe.hpp's words (what
// `tf facts` and `tf candidates` print). Then the scope and capacity checks
// run, and all findings are sorted by source position; findings at one
// place with one fix (a declaration read by several sites) are one.
//
//===----------------------------------------------------------------------===//

#include "analysis/Derive.h"
#include "analysis/SiteChecker.h"

#include "targets/TargetFacts.h"

#include "tf/atoms/registry.hpp"
#include "tf/contract/describe.hpp"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>
#include <tuple>

namespace tf::analysis {

using namespace hir;
using plugin::DiagId;

namespace detail {

/// A written Repeat on a box copy against its derived box count.
void SiteChecker::checkBoxes(const BoxSplit &Split) {
  const Schedule &S = *Op.Sched;
  if (S.Repeat.empty() || S.Repeat == Split.Count)
    return;
  Reason Why;
  Why.kind = ReasonKind::repeat;
  for (std::int64_t X : S.Repeat)
    Why.found_shape.push_back(IntTuple(Int(X)));
  for (std::int64_t X : Split.Count)
    Why.expected_shape.push_back(IntTuple(Int(X)));
  std::vector<std::int64_t> Copy;
  for (std::size_t D = 0; D < Split.Count.size(); ++D)
    Copy.push_back(Split.Count[D] * Split.Extents[D]);
  const std::string Derived = joined(Split.Count);
  SourceRange At = S.RepeatRange.valid() ? S.RepeatRange : callRange();
  Finding F =
      make(DiagId::err_tf_repeat_mismatch, At,
           {joined(S.Repeat), Derived, str(C.id), "(" + joined(Copy) + ")",
            "(" + joined(Split.Extents) + ")"},
           Why);
  if (S.RepeatRange.valid())
    F.FixIts.push_back({S.RepeatRange, "tf::Repeat<" + Derived + ">"});
  F.Notes.push_back(
      {DiagId::note_tf_derived,
       At,
       {"derived Repeat<" + Derived + "> = copy (" + joined(Copy) +
        ") / box (" + joined(Split.Extents) + "): one " + str(C.id) +
        " per box; the boxes start "
        "at shared-memory offsets " +
        to_string(Split.Offsets)},
       {},
       {}});
  Out.push_back(std::move(F));
}

/// Reports the reasons of the match inference recorded on the op.
/// @pre infer(K, Target) ran on the same target.
void SiteChecker::run() {
  if (!Op.Sched || !Op.Sched->Match)
    return;
  const MatchReport &R = *Op.Sched->Match;
  const std::size_t First = Out.size();
  bool ParamFixed[max_site_params] = {};
  for (const Reason &Why : R.reasons)
    report(Why, R, ParamFixed);
  if (R.dropped > 0 && Out.size() > First)
    Out.back().Notes.push_back(
        {DiagId::note_tf_derived,
         Out.back().Range,
         {"and " + std::to_string(R.dropped) + " more reason" +
          (R.dropped == 1 ? "" : "s") + " why " + str(C.id) +
          " refuses this site (`tf candidates` lists them all)"},
         {},
         {}});
}

Finding SiteChecker::make(DiagId Id, SourceRange At,
                          std::vector<std::string> Args,
                          const Reason &Why) const {
  Finding F{Id, At, std::move(Args), {}, {}};
  F.Notes.push_back({DiagId::note_tf_contract_item,
                     At,
                     {str(C.id), describe(Why, C)},
                     {},
                     {}});
  return F;
}

/// A note at the definition of a register operand: the mesh its
/// ShardLayout was derived over.
void SiteChecker::addShardNote(Finding &F, const Name &N) const {
  const SiteOperandSource *O = operand(N);
  if (!O || O->Value == None || O->Value >= K.Values.size())
    return;
  const Value &V = K.Values[O->Value];
  if (!V.Shard || !V.Range.valid())
    return;
  std::string Scope;
  StmtId At = V.Def != None ? V.Def : V.Scope;
  if (StmtId S = K.meshScopeOf(At); S != None)
    Scope = K.Stmts[S].MeshSpelling;
  F.Notes.push_back(
      {DiagId::note_tf_derived,
       V.Range,
       {"'" + V.Name + "' is distributed as " + to_string(*V.Shard) +
        (Scope.empty() ? std::string(", outside every mesh scope")
                       : ", the mesh of its scope '" + Scope + "'")},
       {},
       {}});
}

void SiteChecker::report(const Reason &Why, const MatchReport &R,
                         bool *ParamFixed) {
  const std::string Line = describe(Why, C);
  const std::string Id = str(C.id);
  switch (Why.kind) {
  case ReasonKind::capability:
    Out.push_back(make(
        DiagId::err_tf_contract_capability, callRange(),
        {Id, str(Why.subject), H.TargetId.empty() ? "?" : H.TargetId}, Why));
    return;
  case ReasonKind::mesh: {
    std::string Pattern = to_string(C.execution_mesh.mesh);
    std::string Because = Line;
    std::size_t At = Line.find(" does not match " + Pattern + ": ");
    if (At != std::string::npos)
      Because = Line.substr(At + 16 + Pattern.size() + 2);
    Out.push_back(
        make(DiagId::err_tf_contract_mesh, callRange(),
             {Id, meshText(H.S.mesh, H.MeshSpelling, H.UnscopedMesh), Pattern, Because}, Why));
    return;
  }
  case ReasonKind::param_unknown:
  case ReasonKind::param_type:
  case ReasonKind::param_missing:
  case ReasonKind::param_predicate:
  case ReasonKind::param_case:
  case ReasonKind::param_derived: {
    SourceRange At = paramRange(Why.subject);
    Finding F = make(DiagId::err_tf_contract_parameter, At,
                     {str(Why.subject), Id, withoutItem(Line)}, Why);
    int I = paramIndex(Why.subject);
    bool Written = I >= 0 && static_cast<std::size_t>(I) < max_site_params &&
                   At.valid() && At.Begin != callRange().Begin;
    if (Written && !ParamFixed[I] && Why.index >= 0 &&
        Why.index < static_cast<int>(C.params.size())) {
      const std::int64_t Tile = tileSizedBy(C, R, Why.subject);
      if (std::optional<ParamValue> V = nearest(Why, C, Tile)) {
        const ParamDef &D = C.params[Why.index];
        const bool Divides = Tile > 0 && V->kind == ParamKind::integer &&
                             V->integer > 0 && Tile % V->integer == 0;
        F.FixIts.push_back({At, spelling(*V, D)});
        F.Notes.push_back(
            {DiagId::note_tf_derived,
             At,
             {"the nearest value " + str(C.id) + " allows" +
              (Divides ? " that divides the tile's " + std::to_string(Tile)
                       : std::string()) +
              " is " + str(Why.subject) + " = " + value_string(*V, D)},
             {},
             {}});
        ParamFixed[I] = true;
      }
    }
    Out.push_back(std::move(F));
    return;
  }
  case ReasonKind::operand_missing: {
    const SiteOperandSource *O = operand(Why.subject);
    if (O && O->Untyped)
      return; // infer reported that its type cannot be derived
    Out.push_back(make(DiagId::err_tf_contract_operand, callRange(),
                       {str(Why.subject), "missing", Id, withoutItem(Line)},
                       Why));
    return;
  }
  case ReasonKind::operand_unknown:
  case ReasonKind::operand_shape:
  case ReasonKind::operand_dtype:
  case ReasonKind::operand_storage:
  case ReasonKind::operand_limit: {
    const SiteOperandSource *O = operand(Why.subject);
    if (Why.kind == ReasonKind::operand_dtype) {
      std::optional<Finding> F = elementFinding(Why, O);
      if (!F)
        F = parameterFinding(Why, O);
      if (F) {
        Out.push_back(std::move(*F));
        return;
      }
    }
    if (Why.kind == ReasonKind::operand_limit)
      if (std::optional<Finding> F = swizzleFinding(Why)) {
        Out.push_back(std::move(*F));
        return;
      }
    if (Why.kind == ReasonKind::operand_shape)
      if (std::optional<Finding> F = boxExtentsFinding(Why)) {
        Out.push_back(std::move(*F));
        return;
      }
    Out.push_back(make(DiagId::err_tf_contract_operand,
                       operandRange(Why.subject),
                       {str(Why.subject), valueText(K, O ? O->Value : None), Id,
                        withoutItem(Line)},
                       Why));
    return;
  }
  case ReasonKind::operand_layout: {
    const SiteOperandSource *O = operand(Why.subject);
    if (std::optional<Finding> F = parameterFinding(Why, O)) {
      Out.push_back(std::move(*F));
      return;
    }
    if (std::optional<Finding> F = swizzleFinding(Why)) {
      Out.push_back(std::move(*F));
      return;
    }
    Finding F = make(DiagId::err_tf_contract_layout, operandRange(Why.subject),
                     {Id, str(Why.subject), valueText(K, O ? O->Value : None),
                      withoutItem(Line)},
                     Why);
    addShardNote(F, Why.subject);
    Out.push_back(std::move(F));
    return;
  }
  case ReasonKind::tile_mismatch:
  case ReasonKind::tile_extent:
    if (Why.kind == ReasonKind::tile_extent)
      if (std::optional<Finding> F = atomExtentFinding(Why, R, ParamFixed)) {
        Out.push_back(std::move(*F));
        return;
      }
    if (Why.kind == ReasonKind::tile_mismatch) {
      // One operand whose M and N both differ is one mistake.
      if (llvm::is_contained(Mismatched, Why.subject))
        return;
      Mismatched.push_back(Why.subject);
      if (std::optional<Finding> F = accumulatorFinding(Why, R)) {
        Out.push_back(std::move(*F));
        return;
      }
    }
    Out.push_back(make(DiagId::err_tf_contract_tile, operandRange(Why.subject),
                       {Id, withoutItem(Line)}, Why));
    return;
  case ReasonKind::repeat: {
    const Schedule &S = *Op.Sched;
    const RepeatDerivation &P = R.repeat;
    const std::string Derived = joinedLeaves(Why.expected_shape);
    SourceRange At = S.RepeatRange.valid() ? S.RepeatRange : callRange();
    Finding F = make(DiagId::err_tf_repeat_mismatch, At,
                     {joinedLeaves(Why.found_shape), Derived, Id,
                      "(" + triple(P.tile) + ")", "(" + triple(P.atom) + ")"},
                     Why);
    if (S.RepeatRange.valid())
      F.FixIts.push_back({S.RepeatRange, "tf::Repeat<" + Derived + ">"});
    std::string How;
    for (int D = 0; D < 3; ++D) {
      if (P.count[D] == 1)
        continue;
      How += std::string(How.empty() ? "" : "; ") + "MNK"[D] + ": ";
      if (P.spatial[D] > 1)
        How += std::to_string(P.spatial[D]) + " side by side on " +
               str(P.spatial_axis[D]);
      std::int64_t Seq = P.count[D] / (P.spatial[D] > 0 ? P.spatial[D] : 1);
      if (Seq > 1)
        How += (P.spatial[D] > 1 ? ", " : "") + std::to_string(Seq) +
               " one after another";
    }
    F.Notes.push_back({DiagId::note_tf_derived,
                       At,
                       {"derived Repeat<" + Derived + "> = tile (" +
                        triple(P.tile) + ") / atom (" + triple(P.atom) + ")" +
                        (How.empty() ? "" : ": " + How)},
                       {},
                       {}});
    Out.push_back(std::move(F));
    return;
  }
  }
}

} // namespace detail

namespace {

using detail::boxOrderFinding;
using detail::SiteChecker;
using detail::str;

std::string knownContracts() {
  std::string Out;
  for (const Contract *C : all_contracts())
    Out += (Out.empty() ? "" : ", ") + str(C->id);
  return Out;
}

/// The contract checks of scheduled op \p S. Returns whether TMA cannot box
/// it (err_tf_tma_box_order): the ops reading a load so refused are not
/// checked against its result.
bool checkSite(const Kernel &K, StmtId S, const targets::MergedTarget *Target,
               std::vector<Finding> &Findings) {
  const Stmt &Op = K.Stmts[S];
  if (!contractOf(Op)) {
    Findings.push_back(
        {DiagId::err_tf_atom_unknown,
         Op.CallRange.valid() ? Op.CallRange : Op.Range,
         {"'" + Op.Sched->AtomSpelling + "'",
          Op.Sched->ContractId.empty()
              ? "it names no contract id; tf knows " + knownContracts()
              : "'" + Op.Sched->ContractId + "' is not among " +
                    knownContracts()},
         {},
         {}});
    return false;
  }
  HirSite Site;
  if (!buildSite(K, S, Target, Site))
    return false;
  if (isBoxCopy(*Site.C)) {
    const std::optional<BoxSplit> Split = recordedSplit(Op);
    if (Split && isTileRegisterCopy(*Site.C))
      if (std::optional<Finding> F = detail::tileRowsFinding(K, Site, *Split)) {
        Findings.push_back(std::move(*F));
        return true;
      }
    if (std::optional<Finding> F =
            boxOrderFinding(K, Site, Split.has_value(), Target)) {
      Findings.push_back(std::move(*F));
      return true;
    }
    if (Split) {
      HirSite Box;
      buildBoxSite(Site, *Split, Box);
      SiteChecker Checker(K, Box, Findings, &Site);
      Checker.run();
      Checker.checkBoxes(*Split);
      return false;
    }
  }
  SiteChecker(K, Site, Findings).run();
  return false;
}

/// One mistake, one error: findings that stand at one place with one fix
/// (a declaration's swizzle read by the TMA copy and by the WGMMA) are the
/// same mistake, reported once; the uses of the others become notes of the
/// first.
std::vector<Finding> withoutRepeats(std::vector<Finding> Findings) {
  std::vector<Finding> Out;
  for (Finding &F : Findings) {
    auto Same = [&](const Finding &G) {
      return G.Id == F.Id && G.Range.Begin == F.Range.Begin &&
             G.Range.End == F.Range.End && !F.FixIts.empty() &&
             G.FixIts.size() == F.FixIts.size() &&
             llvm::all_of(llvm::zip(G.FixIts, F.FixIts), [](const auto &P) {
               return std::get<0>(P).Range.Begin ==
                          std::get<1>(P).Range.Begin &&
                      std::get<0>(P).Replacement == std::get<1>(P).Replacement;
             });
    };
    auto First = llvm::find_if(Out, Same);
    if (First == Out.end()) {
      Out.push_back(std::move(F));
      continue;
    }
    for (Finding &Note : F.Notes)
      if (Note.Range.Begin != F.Range.Begin &&
          llvm::none_of(First->Notes, [&](const Finding &N) {
            return N.Id == Note.Id && N.Range.Begin == Note.Range.Begin &&
                   N.Args == Note.Args;
          }))
        First->Notes.push_back(std::move(Note));
  }
  return Out;
}

} // namespace

std::vector<Finding> check(const Kernel &K,
                           const targets::MergedTarget *Target) {
  // One mistake, one error. An op whose operands its mesh does not hold is
  // the scope check's error; matching its contract on that mesh would only
  // repeat it, unless the contract refuses the mesh itself (a WGMMA with no
  // thread mesh): that error names the cause and stands alone. An op that
  // reads such an op's result (the cast of a value the mesh does not hold,
  // then copied) is not checked at all; nor is one that reads the result of
  // an op whose extents were refused (refusesExtents: a WGMMA reading A's
  // tile through B's ring, the cast of an accumulator not retiled), or a
  // load TMA cannot box (its slot's layout is that error's).
  std::vector<StmtId> NotHeld;
  std::vector<Finding> Scoped = checkScopes(K, &NotHeld);
  std::vector<Finding> Findings;
  std::vector<StmtId> RefusedMesh;
  std::vector<ValueId> Unheld;
  for (StmtId S : K.preorder()) {
    const Stmt &Op = K.Stmts[S];
    if (Op.Kind != StmtKind::Op)
      continue;
    auto unheld = [&](ValueId V) { return llvm::is_contained(Unheld, V); };
    if (llvm::any_of(Op.Operands, unheld)) {
      // Its result is what it computed from what it read -- unless it is
      // the destination it wrote (a copy's), which is as good as that is.
      const bool IntoDestination = resultRule(Op) == ResultType::Destination &&
                                   Op.Operands.size() > 1 &&
                                   !unheld(Op.Operands[1]);
      if (Op.Result != hir::None && !IntoDestination)
        Unheld.push_back(Op.Result);
      continue;
    }
    const bool Held = !llvm::is_contained(NotHeld, S);
    if (!Held && Op.Result != hir::None)
      Unheld.push_back(Op.Result);
    if (!Op.Sched)
      continue;
    if (Held) {
      const bool Unboxed = checkSite(K, S, Target, Findings);
      if (Op.Result != hir::None && (Unboxed || refusesExtents(Op)))
        Unheld.push_back(Op.Result);
      continue;
    }
    std::vector<Finding> Site;
    checkSite(K, S, Target, Site);
    for (Finding &F : Site)
      if (F.Id == DiagId::err_tf_contract_mesh)
        Findings.push_back(std::move(F));
    if (llvm::any_of(Site, [](const Finding &F) {
          return F.Id == DiagId::err_tf_contract_mesh;
        }))
      RefusedMesh.push_back(S);
  }
  std::size_t NotHeldIndex = 0;
  for (Finding &F : Scoped) {
    if (F.Id == DiagId::err_tf_scope_not_held &&
        llvm::is_contained(RefusedMesh, NotHeld[NotHeldIndex++]))
      continue;
    Findings.push_back(std::move(F));
  }
  for (Finding &F : checkCoverage(K))
    Findings.push_back(std::move(F));
  for (Finding &F : checkShapes(K))
    Findings.push_back(std::move(F));
  for (Finding &F : checkStorage(K))
    Findings.push_back(std::move(F));
  if (Target) {
    for (Finding &F : checkLaunch(K, *Target))
      Findings.push_back(std::move(F));
    for (Finding &F : checkCapacity(K, *Target))
      Findings.push_back(std::move(F));
  }
  std::stable_sort(
      Findings.begin(), Findings.end(), [](const Finding &A, const Finding &B) {
        return std::tie(A.Range.File, A.Range.Line, A.Range.Column) <
               std::tie(B.Range.File, B.Range.Line, B.Range.Column);
      });
  return withoutRepeats(std::move(Findings));
}

} // namespace tf::analysis
