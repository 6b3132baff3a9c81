//===- plugin/analysis/Check.cpp - Every tf::schedule against its contract -===//
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
//                           declaration's element type, with a fix-it
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
// Each carries a note naming the contract item in describe.hpp's words (what
// `tf facts` and `tf candidates` print). Then the scope and capacity checks
// run, and all findings are sorted by source position; findings at one
// place with one fix (a declaration read by several sites) are one.
//
//===----------------------------------------------------------------------===//

#include "analysis/Analysis.h"
#include "analysis/Derive.h"
#include "analysis/Site.h"

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

namespace {

std::string str(const Name &N) { return std::string(N.view()); }

/// describe()'s line without its item prefix: "operand A: storage rmem,
/// expected smem" -> "storage rmem, expected smem".
std::string withoutItem(const std::string &Line) {
  std::size_t At = Line.find(": ");
  return At == std::string::npos ? Line : Line.substr(At + 2);
}

std::string joined(const std::vector<std::int64_t> &Xs) {
  std::string Out;
  for (std::size_t I = 0; I < Xs.size(); ++I)
    Out += (I ? ", " : "") + std::to_string(Xs[I]);
  return Out;
}

std::string joinedLeaves(const IntTuple &T) {
  std::vector<std::int64_t> Xs;
  for (int I = 0; I < T.leaf_count(); ++I)
    Xs.push_back(T.leaf_at(I).value);
  return joined(Xs);
}

std::string triple(const std::int64_t (&X)[3]) {
  return joined(std::vector<std::int64_t>(X, X + 3));
}

/// A parameter value as C++ writes it in the atom's template arguments.
std::string spelling(const ParamValue &V, const ParamDef &D) {
  switch (V.kind) {
  case ParamKind::integer:
    return std::to_string(V.integer);
  case ParamKind::dtype:
    return "tf::" + std::string(name(V.dtype));
  case ParamKind::choice:
    return "tf::" + str(D.choice_type) + "::" + str(V.choice);
  }
  return "";
}

/// An element type as C++ writes it in a tf::Tensor.
std::string elementSpelling(DType T) {
  switch (T) {
  case DType::f32:
    return "float";
  case DType::f64:
    return "double";
  case DType::i32:
    return "int";
  case DType::i8:
    return "signed char";
  case DType::u8:
    return "unsigned char";
  default:
    return "tf::" + std::string(name(T));
  }
}

/// How a finding names the value behind an operand.
std::string valueText(const Kernel &K, ValueId V) {
  if (V == None || V >= K.Values.size())
    return "missing";
  const Value &X = K.Values[V];
  if (!X.Name.empty())
    return (X.Kind == ValueKind::Ring ? "a slot of '" : "'") + X.Name + "'";
  if (X.TileOf != None && X.TileOf < K.Values.size() &&
      !K.Values[X.TileOf].Name.empty())
    return "a tile of '" + K.Values[X.TileOf].Name + "'";
  if (X.Def != None && X.Def < K.Stmts.size() &&
      K.Stmts[X.Def].Kind == StmtKind::Op)
    return "the result of tf::" + opName(K.Stmts[X.Def].Op).str();
  return "a temporary";
}

std::string meshText(const Mesh &M, const std::string &Spelling) {
  return to_string(M) + (Spelling.empty() ? std::string(" (the kernel's outer mesh)")
                                          : " ('" + Spelling + "')");
}

/// Why TMA cannot box copy \p Site, which inference did not split into
/// boxes (\p Split false) or did: the global side has no dimension of
/// stride 1 (TMA reads its dimension 0 contiguously), or the box order puts
/// its unit-stride dimension innermost and the shared-memory side is not
/// contiguous in it (the box lands in shared memory row-major in box
/// order). None when neither holds: the contract's reasons then stand.
std::optional<Finding> boxOrderFinding(const Kernel &K, const HirSite &Site,
                                       bool Split) {
  const SiteOperandSource *Global = nullptr, *Shared = nullptr;
  for (const SiteOperandSource &O : Site.Operands) {
    if (O.Value == None || O.Value >= K.Values.size())
      continue;
    const Storage Where = K.Values[O.Value].Type.Where;
    (Where == Storage::gmem ? Global : Shared) = &O;
  }
  if (!Global || !Shared)
    return std::nullopt;
  const Value &G = K.Values[Global->Value];
  const Value &Tensor = G.TileOf != None && G.TileOf < K.Values.size() ? K.Values[G.TileOf] : G;
  const LayoutText &L = Tensor.Type.Layout;
  if (L.layout.shape.is_leaf())
    return std::nullopt;
  const int Rank = L.layout.rank();
  const std::string Name = "'" + Tensor.Name + "' (" + to_string(L) + ")";
  const Value &Slot = K.Values[Shared->Value];
  const std::optional<int> SlotUnit = contiguousMode(Slot.Type.Layout.layout);
  const bool Loads = llvm::any_of(Site.C->operands, [&](const OperandPattern &P) {
    return P.name == Global->Operand && P.access == tf::Access::read;
  });
  std::string Why;
  if (Site.GlobalUnitMode < 0)
    Why = "no single dimension of " + Name +
          " has the constant stride 1 that TMA reads contiguously; give "
          "one dimension stride 1";
  else if (!Split && Site.GlobalUnitMode != Rank - 1)
    Why = Name + " is contiguous in dimension " +
          std::to_string(Site.GlobalUnitMode) +
          ", which its TMA box has innermost, and the box is written into "
          "shared memory row-major in that order; the shared-memory side (" +
          to_string(Slot.Type.Layout) +
          ") is not contiguous in dimension " +
          std::to_string(Site.GlobalUnitMode) + ": give it stride 1 there";
  else if (Loads && SlotUnit && *SlotUnit != Site.GlobalUnitMode) {
    // A load whose two sides say which dimension is contiguous, and they
    // disagree (B passed row-major to a kernel whose slot is K-major): the
    // global tensor's declaration is where that was said, the slot's in a
    // note. (A store's shared side is the kernel's own tile: the contract's
    // refusal at it stands.)
    Why = Name + " is contiguous in dimension " +
          std::to_string(Site.GlobalUnitMode) +
          ", which its TMA box has innermost and writes contiguously into "
          "shared memory; the shared-memory side (" +
          to_string(Slot.Type.Layout) + ") is contiguous in dimension " +
          std::to_string(*SlotUnit) + ": give '" + Tensor.Name +
          "' stride 1 in dimension " + std::to_string(*SlotUnit) +
          " or the shared-memory side stride 1 in dimension " +
          std::to_string(Site.GlobalUnitMode);
    Finding F{DiagId::err_tf_tma_box_order,
              Tensor.Type.LayoutRange.valid() ? Tensor.Type.LayoutRange
              : Global->Range.valid()         ? Global->Range
                                              : K.Stmts[Site.Op].Range,
              {str(Site.C->id), valueText(K, Global->Value), Why},
              {},
              {}};
    if (Tensor.Type.LayoutRange.valid() && Global->Range.valid())
      F.Notes.push_back({DiagId::note_tf_derived,
                         Global->Range,
                         {"'" + Tensor.Name + "' is copied here into " +
                          valueText(K, Shared->Value)},
                         {},
                         {}});
    if (Slot.Type.LayoutRange.valid())
      F.Notes.push_back({DiagId::note_tf_derived,
                         Slot.Type.LayoutRange,
                         {"the shared-memory side is contiguous in dimension " +
                          std::to_string(*SlotUnit) + " here"},
                         {},
                         {}});
    return F;
  } else
    return std::nullopt;
  return Finding{DiagId::err_tf_tma_box_order,
                 Global->Range.valid() ? Global->Range : K.Stmts[Site.Op].Range,
                 {str(Site.C->id), valueText(K, Global->Value), Why},
                 {},
                 {}};
}

class SiteChecker {
public:
  /// \p Whole: for the box site of a box copy, the copy's whole site (the
  /// boxes are derived from it again when a finding asks what another
  /// layout would give).
  SiteChecker(const Kernel &K, const HirSite &H, std::vector<Finding> &Out,
              const HirSite *Whole = nullptr)
      : K(K), H(H), Whole(Whole ? *Whole : H), Op(K.Stmts[H.Op]), C(*H.C),
        Out(Out) {}

  /// A written Repeat on a box copy against its derived box count.
  void checkBoxes(const BoxSplit &Split) {
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
    Finding F = make(DiagId::err_tf_repeat_mismatch, At,
                     {joined(S.Repeat), Derived, str(C.id),
                      "(" + joined(Copy) + ")",
                      "(" + joined(Split.Extents) + ")"},
                     Why);
    if (S.RepeatRange.valid())
      F.FixIts.push_back({S.RepeatRange, "tf::Repeat<" + Derived + ">"});
    F.Notes.push_back({DiagId::note_tf_derived, At,
                       {"derived Repeat<" + Derived + "> = copy (" +
                        joined(Copy) + ") / box (" + joined(Split.Extents) +
                        "): one " + str(C.id) + " per box; the boxes start "
                        "at shared-memory offsets " + to_string(Split.Offsets)},
                       {},
                       {}});
    Out.push_back(std::move(F));
  }

  /// Reports the reasons of the match inference recorded on the op.
  /// @pre infer(K, Target) ran on the same target.
  void run() {
    if (!Op.Sched || !Op.Sched->Match)
      return;
    const MatchReport &R = *Op.Sched->Match;
    const std::size_t First = Out.size();
    bool ParamFixed[max_site_params] = {};
    for (const Reason &Why : R.reasons)
      report(Why, R, ParamFixed);
    if (R.dropped > 0 && Out.size() > First)
      Out.back().Notes.push_back(
          {DiagId::note_tf_derived, Out.back().Range,
           {"and " + std::to_string(R.dropped) + " more reason" +
            (R.dropped == 1 ? "" : "s") + " why " + str(C.id) +
            " refuses this site (`tf candidates` lists them all)"},
           {},
           {}});
  }

private:
  const Kernel &K;
  const HirSite &H;
  const HirSite &Whole;
  const Stmt &Op;
  const Contract &C;
  std::vector<Finding> &Out;
  /// The operands a tile mismatch was reported for: another extent of the
  /// same operand is that one mistake.
  std::vector<Name> Mismatched;

  SourceRange callRange() const {
    return Op.CallRange.valid() ? Op.CallRange : Op.Range;
  }

  const SiteOperandSource *operand(const Name &N) const {
    for (const SiteOperandSource &O : H.Operands)
      if (O.Operand == N)
        return &O;
    return nullptr;
  }

  SourceRange operandRange(const Name &N) const {
    const SiteOperandSource *O = operand(N);
    return O && O->Range.valid() ? O->Range : callRange();
  }

  /// Index into Sched.Params of parameter \p N, or -1.
  int paramIndex(const Name &N) const {
    const Schedule &S = *Op.Sched;
    for (std::size_t I = 0; I < S.Params.size(); ++I)
      if (S.Params[I].name == N)
        return static_cast<int>(I);
    return -1;
  }

  SourceRange paramRange(const Name &N) const {
    int I = paramIndex(N);
    const Schedule &S = *Op.Sched;
    if (I >= 0 && static_cast<std::size_t>(I) < S.ParamRanges.size() &&
        S.ParamRanges[I].valid())
      return S.ParamRanges[I];
    return callRange();
  }

  /// When operand \p Why.subject's layout is the one another value of a
  /// written choice parameter reads (B stored N-major for an atom written
  /// with Major::K), the error is at that template argument, with the
  /// value as a fix-it and the operand in a note. The site is matched again
  /// with the one value changed: a question asked only to word the error;
  /// the recorded match stays the decision.
  std::optional<Finding> layoutParameterFinding(const Reason &Why,
                                                const SiteOperandSource *O) const {
    for (std::size_t I = 0; I < H.S.params.size(); ++I) {
      const ParamArg &A = H.S.params[I];
      const ParamDef *D = nullptr;
      for (const ParamDef &Def : C.params)
        if (Def.name == A.name)
          D = &Def;
      SourceRange At = paramRange(A.name);
      if (!D || D->kind != ParamKind::choice || !At.valid() ||
          At.Begin == callRange().Begin)
        continue;
      for (const ParamValue &V : D->allowed) {
        if (V == A.value)
          continue;
        tf::Site Alt = H.S;
        Alt.params[I].value = V;
        MatchReport R = match(C, Alt);
        if (llvm::any_of(R.reasons, [&](const Reason &W) {
              return W.kind == ReasonKind::operand_layout &&
                     W.subject == Why.subject;
            }))
          continue;
        const std::string Operand =
            str(Why.subject) + " (" + valueText(K, O ? O->Value : None) + ")";
        Finding F = make(DiagId::err_tf_contract_layout, At,
                         {str(C.id), str(Why.subject),
                          valueText(K, O ? O->Value : None),
                          "its layout is what " + str(A.name) + " = " +
                              spelling(V, *D) + " reads, but the atom is "
                              "written with " + str(A.name) + " = " +
                              spelling(A.value, *D)},
                         Why);
        F.FixIts.push_back({At, spelling(V, *D)});
        F.Notes.push_back({DiagId::note_tf_derived,
                           operandRange(Why.subject),
                           {"operand " + Operand + " is read here"},
                           {},
                           {}});
        return F;
      }
    }
    return std::nullopt;
  }

  /// The element type a contract fixes (an MMA accumulates in f32) is a
  /// decision of the operand's declaration, not of the call that reads it:
  /// the error stands at the element type the declaration writes, the fixed
  /// type as a fix-it, the use in a note.
  std::optional<Finding> elementFinding(const Reason &Why,
                                        const SiteOperandSource *O) const {
    if (!O || O->Value == None || O->Value >= K.Values.size() ||
        Why.index < 0 || Why.index >= static_cast<int>(C.operands.size()) ||
        C.operands[Why.index].dtype.kind != DTypeRule::Kind::fixed)
      return std::nullopt;
    const SourceRange &At = K.Values[O->Value].Type.ElementRange;
    if (!At.valid())
      return std::nullopt;
    const std::string Value = valueText(K, O->Value);
    Finding F = make(DiagId::err_tf_contract_operand, At,
                     {str(Why.subject), Value, str(C.id),
                      withoutItem(describe(Why, C))},
                     Why);
    F.FixIts.push_back({At, elementSpelling(Why.expected_dtype)});
    F.Notes.push_back({DiagId::note_tf_derived,
                       operandRange(Why.subject),
                       {"operand " + str(Why.subject) + " (" + Value +
                        ") is read here"},
                       {},
                       {}});
    return F;
  }

  /// A swizzle refused where another would be read: most often CuTe's
  /// element-unit spelling (Swizzle(3,3,3) for the 128-byte swizzle of
  /// 2-byte elements, which tf writes Swizzle(3,4,3)) or a swizzle for
  /// another row width. The swizzle in question is the refused operand's,
  /// or, for a TMA whose swizzle mode its shared-memory side decides (a box
  /// too wide for a 64-byte swizzle), that side's. The site is matched again
  /// with each swizzle meant (swizzlesMeant), only to word the error; the
  /// first that clears the refusal is the fix-it, at the swizzle in the
  /// layout text of the operand's declaration.
  std::optional<Finding> swizzleFinding(const Reason &Why) const {
    // A TMA: its contract has a swizzle-mode parameter, whose unswizzled
    // mode every such contract has.
    const bool Tma = tmaSwizzleMode(C, Swizzle{}).has_value();
    auto indexOf = [&](auto Pred) {
      for (std::size_t J = 0; J < H.S.operands.size(); ++J)
        if (Pred(H.S.operands[J]))
          return static_cast<int>(J);
      return -1;
    };
    int I = indexOf([&](const SiteOperand &X) { return X.name == Why.subject; });
    if (Tma && (I < 0 || H.S.operands[I].storage != Storage::smem))
      I = indexOf(
          [](const SiteOperand &X) { return X.storage == Storage::smem; });
    const SiteOperandSource *O = I < 0 ? nullptr : operand(H.S.operands[I].name);
    if (!O || O->Value == None || O->Value >= K.Values.size())
      return std::nullopt;
    const TensorType &T = K.Values[O->Value].Type;
    const Swizzle Written = H.S.operands[I].layout.swizzle;
    // An unswizzled text has the empty range at its end: the fix-it
    // inserts the swizzle there.
    if (!T.SwizzleRange.valid() ||
        (Written.is_identity() != (T.SwizzleRange.Begin == T.SwizzleRange.End)))
      return std::nullopt;
    const Name Subject = H.S.operands[I].name;
    for (const Swizzle &Meant : swizzlesMeant(Written, T.Element)) {
      const MatchReport R = matchSwizzled(Subject, Meant);
      if (llvm::any_of(R.reasons, [&](const Reason &W) {
            return (W.kind == Why.kind && W.subject == Why.subject) ||
                   (W.kind == ReasonKind::operand_layout &&
                    W.subject == Subject);
          }))
        continue;
      const std::string Bytes = std::to_string(16 << Meant.bits);
      std::string Because =
          Written.is_identity()
              ? "it reads the " + Bytes + "-byte swizzle " + to_string(Meant) +
                    ", and the layout writes no swizzle"
          : bits(T.Element) >= 16 && Meant == inBytes(Written, T.Element)
              ? to_string(Written) + " counts " +
                    std::to_string(bits(T.Element) / 8) +
                    "-byte elements, as CuTe's Swizzle<" +
                    std::to_string(Written.bits) + "," +
                    std::to_string(Written.base) + "," +
                    std::to_string(Written.shift) +
                    "> does; tf swizzles byte offsets, and the " + Bytes +
                    "-byte swizzle is " + to_string(Meant)
              : "it reads the " + Bytes + "-byte swizzle " +
                    to_string(Meant) + ", not " + to_string(Written);
      const std::string Value = valueText(K, O->Value);
      Finding F = make(DiagId::err_tf_contract_layout, T.SwizzleRange,
                       {str(C.id), str(Subject), Value, Because}, Why);
      F.FixIts.push_back({T.SwizzleRange, (Written.is_identity() ? " | " : "") +
                                              to_string(Meant)});
      F.Notes.push_back({DiagId::note_tf_derived,
                         operandRange(Subject),
                         {"operand " + str(Subject) + " (" + Value +
                          ") is read here"},
                         {},
                         {}});
      return F;
    }
    return std::nullopt;
  }

  /// For a tile the atom's extent does not divide (\p Why, tile_extent),
  /// where a parameter sizes the atom along that mode (WGMMA's n for N):
  /// that parameter (its index in the contract) and the nearest value the
  /// contract allows that divides the tile.
  std::optional<std::pair<int, ParamValue>>
  atomParameterFix(const Reason &Why, const MatchReport &R) const {
    const int D = Why.index;
    if (Why.kind != ReasonKind::tile_extent || D < 0 || D > 2 ||
        C.atom_shape.is_leaf() || C.atom_shape.rank() != 3 || Why.found <= 0)
      return std::nullopt;
    const IntTuple &Mode = C.atom_shape.mode(D);
    if (!Mode.is_leaf() || !Mode.leaf().is_symbolic())
      return std::nullopt;
    const Name P = Mode.leaf().symbol;
    int Def = -1;
    for (std::size_t J = 0; J < C.params.size(); ++J)
      if (C.params[J].name == P)
        Def = static_cast<int>(J);
    const ResolvedParam *Current = nullptr;
    for (const ResolvedParam &X : R.params)
      if (X.name == P)
        Current = &X;
    if (Def < 0 || !Current || Current->value.kind != ParamKind::integer)
      return std::nullopt;
    Reason Asked;
    Asked.kind = ReasonKind::param_predicate;
    Asked.subject = P;
    Asked.index = Def;
    Asked.value = Current->value;
    std::optional<ParamValue> V = nearest(Asked, C, Why.found);
    if (!V || V->kind != ParamKind::integer || V->integer <= 0 ||
        V->integer == Current->value.integer || Why.found % V->integer != 0)
      return std::nullopt;
    return std::pair(Def, *V);
  }

  /// A tile the atom's extent does not divide, where a written parameter
  /// sizes the atom along that mode: the error is at that template
  /// argument, with atomParameterFix's value as a fix-it, the operand in a
  /// note.
  std::optional<Finding> atomExtentFinding(const Reason &Why,
                                           const MatchReport &R,
                                           bool *ParamFixed) const {
    std::optional<std::pair<int, ParamValue>> Fix = atomParameterFix(Why, R);
    if (!Fix)
      return std::nullopt;
    const ParamDef &PD = C.params[static_cast<std::size_t>(Fix->first)];
    const int I = paramIndex(PD.name);
    const SourceRange At = paramRange(PD.name);
    if (I < 0 || static_cast<std::size_t>(I) >= max_site_params ||
        !At.valid() || At.Begin == callRange().Begin || ParamFixed[I])
      return std::nullopt;
    Finding F = make(DiagId::err_tf_contract_tile, At,
                     {str(C.id), withoutItem(describe(Why, C))}, Why);
    F.FixIts.push_back({At, spelling(Fix->second, PD)});
    F.Notes.push_back({DiagId::note_tf_derived, At,
                       {"the nearest value " + str(C.id) +
                        " allows that divides the tile's " +
                        std::to_string(Why.found) + " is " + str(PD.name) +
                        " = " + value_string(Fix->second, PD)},
                       {},
                       {}});
    F.Notes.push_back({DiagId::note_tf_derived, operandRange(Why.subject),
                       {"operand " + str(Why.subject) + " is read here"},
                       {},
                       {}});
    ParamFixed[I] = true;
    return F;
  }

  /// An accumulator whose extents are not the tile's that the other
  /// operands (the user's tiles) give: the accumulator's declaration is the
  /// mistake (a retiled kernel's). The error is at its layout text, with
  /// the layout the contract's register fragment tiles to over the op's
  /// mesh as a fix-it (tiledAccumulator) -- offered only when the contract
  /// accepts the site with it -- and the use in a note.
  std::optional<Finding> accumulatorFinding(const Reason &Why,
                                            const MatchReport &R) const {
    const SiteOperandSource *O = operand(Why.subject);
    int Pattern = -1;
    for (std::size_t I = 0; I < C.operands.size(); ++I)
      if (C.operands[I].name == Why.subject &&
          C.operands[I].storage == Storage::rmem &&
          C.operands[I].access == tf::Access::read_write)
        Pattern = static_cast<int>(I);
    if (!O || O->Value == None || O->Value >= K.Values.size() || Pattern < 0 ||
        C.atom_shape.is_leaf() || C.atom_shape.rank() != 3)
      return std::nullopt;
    const Value &Acc = K.Values[O->Value];
    const TensorType &T = Acc.Type;
    std::optional<Mesh> Where =
        K.meshOf(Acc.Def != None ? Acc.Def : Acc.Scope);
    const OperandPattern &OP = C.operands[static_cast<std::size_t>(Pattern)];
    if (!T.LayoutRange.valid() || !Where || OP.atom_modes.size() != 2)
      return std::nullopt;
    // The atom as the fix-its of its parameters make it (a retiled WGMMA's
    // n follows the tile too).
    std::int64_t Atom[3] = {R.repeat.atom[0], R.repeat.atom[1],
                            R.repeat.atom[2]};
    for (const Reason &W : R.reasons)
      if (std::optional<std::pair<int, ParamValue>> Fix = atomParameterFix(W, R))
        Atom[W.index] = Fix->second.integer;
    const std::int64_t TM = R.repeat.tile[OP.atom_modes[0]];
    const std::int64_t TN = R.repeat.tile[OP.atom_modes[1]];
    const std::int64_t AM = Atom[OP.atom_modes[0]];
    const std::int64_t AN = Atom[OP.atom_modes[1]];
    for (const LayoutPattern &L : OP.layouts) {
      if (L.kind != LayoutPatternKind::shard)
        continue;
      std::optional<ShardLayout> Tiled =
          tiledAccumulator(L.shard, *Where, AM, AN, TM, TN);
      if (!Tiled || !acceptsAccumulator(Why.subject, *Tiled, R))
        continue;
      const std::string Text =
          "\"" + to_string(Tiled->layout, Tiled->axes) + "\"";
      Finding F = make(DiagId::err_tf_contract_tile, T.LayoutRange,
                       {str(C.id), withoutItem(describe(Why, C))}, Why);
      F.FixIts.push_back({T.LayoutRange, Text});
      F.Notes.push_back({DiagId::note_tf_derived, T.LayoutRange,
                         {"the " + std::to_string(TM) + "x" +
                          std::to_string(TN) + " accumulator over mesh " +
                          to_string(*Where) + ": " + Text},
                         {},
                         {}});
      F.Notes.push_back({DiagId::note_tf_derived, operandRange(Why.subject),
                         {"operand " + str(Why.subject) + " (" +
                          valueText(K, O->Value) + ") is read here"},
                         {},
                         {}});
      return F;
    }
    return meshGroupsFinding(Why, Acc, *Where, OP, AM, TM);
  }

  /// An accumulator no layout over its mesh can hold because the mesh runs
  /// more groups side by side along M than the tile has rows of atoms (a
  /// 64-row tile on the example's two consumer warpgroups): the mesh and
  /// the tile disagree, and the fix is one of them, not a layout. The error
  /// is at the accumulator's layout text, with a note at its mesh scope
  /// saying how many groups the tile fills and what would hold it.
  std::optional<Finding> meshGroupsFinding(const Reason &Why, const Value &Acc,
                                           const Mesh &Where,
                                           const OperandPattern &OP,
                                           std::int64_t AM,
                                           std::int64_t TM) const {
    std::int64_t Groups = 0;
    for (const LayoutPattern &L : OP.layouts)
      if (L.kind == LayoutPatternKind::shard && Groups == 0)
        Groups = leadingGroups(L.shard, Where);
    Result<std::int64_t> Units = Where.size();
    const StmtId Scope = K.meshScopeOf(Acc.Def != None ? Acc.Def : Acc.Scope);
    if (Groups <= 1 || AM <= 0 || TM % AM != 0 || (TM / AM) % Groups == 0 ||
        !Units || Scope == None)
      return std::nullopt;
    const std::int64_t Fills = TM / AM, PerGroup = *Units / Groups;
    const Stmt &At = K.Stmts[Scope];
    const std::string Name =
        At.MeshSpelling.empty() ? to_string(Where) : "'" + At.MeshSpelling + "'";
    Finding F = make(DiagId::err_tf_contract_tile, Acc.Type.LayoutRange,
                     {str(C.id), withoutItem(describe(Why, C))}, Why);
    F.Notes.push_back(
        {DiagId::note_tf_derived,
         At.Range,
         {"mesh " + Name + " runs " + std::to_string(Groups) +
          " groups side by side along M, " + std::to_string(AM) +
          " rows each (one " + str(C.id) + " atom); the " +
          std::to_string(TM) + "-row tile fills " + std::to_string(Fills) +
          ": a mesh of " + std::to_string(Fills) + " group" +
          (Fills == 1 ? "" : "s") + " of " + std::to_string(PerGroup) +
          " threads holds it, or a tile of a multiple of " +
          std::to_string(AM * Groups) + " rows"},
         {},
         {}});
    F.Notes.push_back({DiagId::note_tf_derived, operandRange(Why.subject),
                       {"operand " + str(Why.subject) + " (" +
                        valueText(K, operand(Why.subject)->Value) +
                        ") is read here"},
                       {},
                       {}});
    return F;
  }

  /// Whether the site accepts operand \p N as register layout \p L: its
  /// tile and its layout (other reasons are not the accumulator's), with
  /// the atom's parameters as their own fix-its would make them (a retiled
  /// WGMMA's n).
  bool acceptsAccumulator(const Name &N, const ShardLayout &L,
                          const MatchReport &Recorded) const {
    IntTuple Shape;
    for (int I = 0; I < L.layout.rank(); ++I) {
      Result<std::int64_t> E = size(L.layout.mode(I));
      if (!E)
        return false;
      Shape.push_back(IntTuple(Int(*E)));
    }
    HirSite Alt;
    copySite(Whole, Alt);
    for (SiteOperand &X : Alt.S.operands)
      if (X.name == N)
        X = site_operand(N, Shape, X.dtype, X.storage, L);
    for (const Reason &Why : Recorded.reasons)
      if (std::optional<std::pair<int, ParamValue>> Fix =
              atomParameterFix(Why, Recorded)) {
        const Name P = C.params[static_cast<std::size_t>(Fix->first)].name;
        auto Arg = llvm::find_if(Alt.S.params,
                                 [&](const ParamArg &A) { return A.name == P; });
        if (Arg != Alt.S.params.end())
          Arg->value = Fix->second;
        else
          Alt.S.params.push_back({P, Fix->second});
      }
    const MatchReport R = match(C, Alt.S);
    return llvm::none_of(R.reasons, [&](const Reason &W) {
      return W.kind == ReasonKind::tile_mismatch ||
             W.kind == ReasonKind::tile_extent ||
             ((W.kind == ReasonKind::operand_layout ||
               W.kind == ReasonKind::operand_shape) &&
              W.subject == N);
    });
  }

  /// A TMA copy whose box (the global window, the user's tile) has other
  /// extents than its shared-memory side. The window is the decision when
  /// it is the one refused in a load, or when, refused in a store, it
  /// advances with its loops by its own extents (a window narrower than
  /// its loop's step is the mistake itself: no fix is offered). What
  /// follows from the window is offered: another ring of the kernel whose
  /// slots have the box's extents and element type (A's tile loaded into
  /// B's ring), as the operand; else the shared-memory side's declaration
  /// in the box's extents (a retiled kernel), in the row-major panels of
  /// its swizzle's width -- offered only when the contract accepts the copy
  /// into that layout.
  std::optional<Finding> boxExtentsFinding(const Reason &Why) const {
    const SiteOperand *Slot = nullptr, *Window = nullptr;
    for (const SiteOperand &X : H.S.operands) {
      if (X.storage == Storage::smem)
        Slot = &X;
      else if (X.storage == Storage::gmem)
        Window = &X;
    }
    if (!isBoxCopy(C) || !Slot || !Window || Window->shape.is_leaf())
      return std::nullopt;
    const SiteOperandSource *O = operand(Slot->name);
    const SiteOperandSource *W = operand(Window->name);
    if (!O || O->Value == None || O->Value >= K.Values.size() || !W ||
        W->Value == None)
      return std::nullopt;
    const Name Refused = Why.subject;
    if (Refused != Slot->name &&
        !(Refused == Window->name && windowFitsItsLoops(K, W->Value)))
      return std::nullopt;
    std::vector<std::int64_t> Box;
    for (int I = 0; I < Window->shape.rank(); ++I) {
      Result<std::int64_t> E = product(Window->shape.mode(I));
      if (!E)
        return std::nullopt;
      Box.push_back(*E);
    }
    const Value &Filled = K.Values[O->Value];
    const SiteOperandSource &At = Refused == Slot->name ? *O : *W;
    Finding F = make(DiagId::err_tf_contract_operand, operandRange(Refused),
                     {str(Refused), valueText(K, At.Value), str(C.id),
                      withoutItem(describe(Why, C))},
                     Why);
    const std::string Extents = llvm::join(
        llvm::map_range(Box, [](std::int64_t E) { return std::to_string(E); }),
        "x");
    for (const hir::Value &Ring : K.Values)
      if (Filled.Kind == ValueKind::Ring && &Ring != &Filled &&
          Ring.Kind == ValueKind::Ring &&
          !Ring.Name.empty() && Ring.Type.Element == Filled.Type.Element &&
          staticExtents(Ring.Type.shape()) == Box) {
        F.FixIts.push_back({operandRange(Slot->name), Ring.Name});
        F.Notes.push_back({DiagId::note_tf_derived,
                           Ring.Range,
                           {"'" + Ring.Name + "' holds slots of " + Extents},
                           {},
                           {}});
        return F;
      }
    const TensorType &T = Filled.Type;
    std::optional<ComposedLayout> Derived =
        panelLayout(Box, bits(T.Element) / 8, Slot->layout.swizzle);
    if (!T.LayoutRange.valid() || !Derived || !acceptsSlot(*Derived, Box))
      return F;
    const std::string Text = "\"" + to_string(*Derived) + "\"";
    F.FixIts.push_back({T.LayoutRange, Text});
    F.Notes.push_back({DiagId::note_tf_derived,
                       T.LayoutRange,
                       {"the shared-memory tile's layout for a " + Extents +
                        " box: " + Text},
                       {},
                       {}});
    return F;
  }

  /// Whether the copy accepts a slot of layout \p L for the box \p Box:
  /// the site matched again with it, split into boxes.
  bool acceptsSlot(const ComposedLayout &L,
                   const std::vector<std::int64_t> &Box) const {
    HirSite Alt;
    copySite(Whole, Alt);
    for (SiteOperand &X : Alt.S.operands)
      if (X.storage == Storage::smem) {
        X.shape = IntTuple();
        for (std::int64_t E : Box)
          X.shape.push_back(IntTuple(Int(E)));
        X.layout = L;
      }
    std::optional<BoxSplit> Split = splitIntoBoxes(Alt);
    if (!Split)
      return false;
    HirSite Boxed;
    buildBoxSite(Alt, *Split, Boxed);
    return match(C, Boxed.S).reasons.empty();
  }

  /// The site matched again with operand \p Operand's swizzle \p Meant, a
  /// TMA's swizzle mode (when the site decided it) following it, and a box
  /// copy split into boxes again.
  MatchReport matchSwizzled(const Name &Operand, const Swizzle &Meant) const {
    HirSite Alt;
    copySite(Whole, Alt);
    for (SiteOperand &X : Alt.S.operands)
      if (X.name == Operand)
        X.layout.swizzle = Meant;
    if (std::optional<ParamValue> Mode = tmaSwizzleMode(C, Meant);
        Mode && (paramIndex("swizzle") < 0 ||
                 llvm::is_contained(Whole.DecidedParams, "swizzle"))) {
      auto P = llvm::find_if(Alt.S.params, [](const ParamArg &A) {
        return A.name == Name("swizzle");
      });
      if (P != Alt.S.params.end())
        P->value = *Mode;
      else
        Alt.S.params.push_back({Name("swizzle"), *Mode});
    }
    if (isBoxCopy(C))
      if (std::optional<BoxSplit> Split = splitIntoBoxes(Alt)) {
        HirSite Box;
        buildBoxSite(Alt, *Split, Box);
        return match(C, Box.S);
      }
    return match(C, Alt.S);
  }

  Finding make(DiagId Id, SourceRange At, std::vector<std::string> Args,
               const Reason &Why) const {
    Finding F{Id, At, std::move(Args), {}, {}};
    F.Notes.push_back(
        {DiagId::note_tf_contract_item, At, {str(C.id), describe(Why, C)}, {}, {}});
    return F;
  }

  /// A note at the definition of a register operand: the mesh its
  /// ShardLayout was derived over.
  void addShardNote(Finding &F, const Name &N) const {
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
    F.Notes.push_back({DiagId::note_tf_derived,
                       V.Range,
                       {"'" + V.Name + "' is distributed as " +
                        to_string(*V.Shard) +
                        (Scope.empty() ? std::string(", outside every mesh scope")
                                       : ", the mesh of its scope '" + Scope + "'")},
                       {},
                       {}});
  }

  void report(const Reason &Why, const MatchReport &R, bool *ParamFixed) {
    const std::string Line = describe(Why, C);
    const std::string Id = str(C.id);
    switch (Why.kind) {
    case ReasonKind::capability:
      Out.push_back(make(DiagId::err_tf_contract_capability, callRange(),
                         {Id, str(Why.subject),
                          H.TargetId.empty() ? "?" : H.TargetId},
                         Why));
      return;
    case ReasonKind::mesh: {
      std::string Pattern = to_string(C.execution_mesh.mesh);
      std::string Because = Line;
      std::size_t At = Line.find(" does not match " + Pattern + ": ");
      if (At != std::string::npos)
        Because = Line.substr(At + 16 + Pattern.size() + 2);
      Out.push_back(make(DiagId::err_tf_contract_mesh, callRange(),
                         {Id, meshText(H.S.mesh, H.MeshSpelling), Pattern,
                          Because},
                         Why));
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
          F.Notes.push_back({DiagId::note_tf_derived, At,
                             {"the nearest value " + str(C.id) + " allows" +
                              (Divides ? " that divides the tile's " +
                                             std::to_string(Tile)
                                       : std::string()) +
                              " is " + str(Why.subject) + " = " +
                              value_string(*V, D)},
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
      if (Why.kind == ReasonKind::operand_dtype)
        if (std::optional<Finding> F = elementFinding(Why, O)) {
          Out.push_back(std::move(*F));
          return;
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
                         {str(Why.subject),
                          valueText(K, O ? O->Value : None), Id,
                          withoutItem(Line)},
                         Why));
      return;
    }
    case ReasonKind::operand_layout: {
      const SiteOperandSource *O = operand(Why.subject);
      if (std::optional<Finding> F = layoutParameterFinding(Why, O)) {
        Out.push_back(std::move(*F));
        return;
      }
      if (std::optional<Finding> F = swizzleFinding(Why)) {
        Out.push_back(std::move(*F));
        return;
      }
      Finding F = make(DiagId::err_tf_contract_layout,
                       operandRange(Why.subject),
                       {Id, str(Why.subject),
                        valueText(K, O ? O->Value : None), withoutItem(Line)},
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
      Out.push_back(make(DiagId::err_tf_contract_tile,
                         operandRange(Why.subject), {Id, withoutItem(Line)},
                         Why));
      return;
    case ReasonKind::repeat: {
      const Schedule &S = *Op.Sched;
      const RepeatDerivation &P = R.repeat;
      const std::string Derived = joinedLeaves(Why.expected_shape);
      SourceRange At = S.RepeatRange.valid() ? S.RepeatRange : callRange();
      Finding F = make(DiagId::err_tf_repeat_mismatch, At,
                       {joinedLeaves(Why.found_shape), Derived, Id,
                        "(" + triple(P.tile) + ")",
                        "(" + triple(P.atom) + ")"},
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
      F.Notes.push_back({DiagId::note_tf_derived, At,
                         {"derived Repeat<" + Derived + "> = tile (" +
                          triple(P.tile) +
                          ") / atom (" +
                          triple(P.atom) + ")" +
                          (How.empty() ? "" : ": " + How)},
                         {},
                         {}});
      Out.push_back(std::move(F));
      return;
    }
    }
  }
};

std::string knownContracts() {
  std::string Out;
  for (const Contract *C : all_contracts())
    Out += (Out.empty() ? "" : ", ") + str(C->id);
  return Out;
}


/// The contract checks of scheduled op \p S.
void checkSite(const Kernel &K, StmtId S, const targets::MergedTarget *Target,
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
    return;
  }
  HirSite Site;
  if (!buildSite(K, S, Target, Site))
    return;
  if (isBoxCopy(*Site.C)) {
    const std::optional<BoxSplit> Split = recordedSplit(Op);
    if (std::optional<Finding> F = boxOrderFinding(K, Site, Split.has_value())) {
      Findings.push_back(std::move(*F));
      return;
    }
    if (Split) {
      HirSite Box;
      buildBoxSite(Site, *Split, Box);
      SiteChecker Checker(K, Box, Findings, &Site);
      Checker.run();
      Checker.checkBoxes(*Split);
      return;
    }
  }
  SiteChecker(K, Site, Findings).run();
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
               return std::get<0>(P).Range.Begin == std::get<1>(P).Range.Begin &&
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
  // tile through B's ring, the cast of an accumulator not retiled).
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
      checkSite(K, S, Target, Findings);
      if (Op.Result != hir::None && refusesExtents(Op))
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
  std::stable_sort(Findings.begin(), Findings.end(),
                   [](const Finding &A, const Finding &B) {
                     return std::tie(A.Range.File, A.Range.Line,
                                     A.Range.Column) <
                            std::tie(B.Range.File, B.Range.Line,
                                     B.Range.Column);
                   });
  return withoutRepeats(std::move(Findings));
}

} // namespace tf::analysis
