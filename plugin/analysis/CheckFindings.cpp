//===- plugin/analysis/CheckFindings.cpp - Findings from a refusal --------===//
//
// The findings SiteChecker (SiteChecker.h) derives from a contract's
// refusal: the site matched again with one decision changed -- a choice
// parameter (a major), a swizzle, an atom's parameter, the accumulator's
// layout over its mesh, the shared-memory side of a TMA box -- only to word
// the error at the declaration that holds the mistake and to offer the
// decision that clears it as a fix-it; the recorded match stays the
// decision. And how findings spell what they name (values, meshes,
// parameters, element types).
//
//===----------------------------------------------------------------------===//

#include "analysis/Derive.h"
#include "analysis/SiteChecker.h"

#include "tf/contract/describe.hpp"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace tf::analysis::detail {

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

std::string meshText(const Mesh &M, const std::string &Spelling,
                     const std::string &Unscoped) {
  return to_string(M) + (Spelling.empty() ? " (" + Unscoped + ")"
                                          : " ('" + Spelling + "')");
}

namespace {

/// An op reading value \p V that refuses it for its layout (the WGMMA that
/// cannot read the slot a TMA fills): the op, the operand, where it is read
/// and the reason in the contract's words.
struct LayoutRefusal {
  StmtId Reader = None;
  Name Operand{};
  SourceRange At;
  std::string Why;
};

std::optional<LayoutRefusal>
readerRefusingLayout(const Kernel &K, ValueId V,
                     const targets::MergedTarget *Target) {
  for (StmtId S : K.preorder()) {
    const Stmt &Op = K.Stmts[S];
    if (Op.Kind != StmtKind::Op || !Op.Sched || !Op.Sched->Match ||
        !llvm::is_contained(Op.Operands, V))
      continue;
    HirSite Reader;
    if (!buildSite(K, S, Target, Reader))
      continue;
    for (const SiteOperandSource &O : Reader.Operands)
      for (const Reason &W : Op.Sched->Match->reasons)
        if (O.Value == V && W.kind == ReasonKind::operand_layout &&
            W.subject == O.Operand)
          return LayoutRefusal{S, O.Operand,
                               O.Range.valid() ? O.Range : Op.CallRange,
                               str(Reader.C->id) + " cannot read it either: " +
                                   withoutItem(describe(W, *Reader.C))};
  }
  return std::nullopt;
}

/// Whether \p R's reader takes its operand in layout \p L: its site matched
/// again with it, no layout reason left for that operand.
bool readerAccepts(const Kernel &K, const LayoutRefusal &R,
                   const ComposedLayout &L,
                   const targets::MergedTarget *Target) {
  HirSite Reader;
  if (!buildSite(K, R.Reader, Target, Reader))
    return false;
  for (SiteOperand &X : Reader.S.operands)
    if (X.name == R.Operand)
      X.layout = L;
  return llvm::none_of(match(*Reader.C, Reader.S).reasons,
                       [&](const Reason &W) {
                         return W.kind == ReasonKind::operand_layout &&
                                W.subject == R.Operand;
                       });
}

} // namespace

std::optional<Finding> tileRowsFinding(const Kernel &K, const HirSite &Site,
                                       const BoxSplit &Split) {
  std::optional<std::string> Rows = tileRowsProblem(Site, Split);
  if (!Rows)
    return std::nullopt;
  const SiteOperandSource *Memory = nullptr;
  for (const SiteOperandSource &O : Site.Operands)
    if (O.Value != None && O.Value < K.Values.size() &&
        K.Values[O.Value].Type.Where == Storage::gmem)
      Memory = &O;
  if (!Memory)
    return std::nullopt;
  const SourceRange At =
      Memory->Range.valid() ? Memory->Range : K.Stmts[Site.Op].Range;
  return Finding{DiagId::err_tf_tile_rows,
                 At,
                 {str(Site.C->id), valueText(K, Memory->Value), *Rows,
                  "store the tensor so that each register row is contiguous "
                  "(a TDPBF16PS B operand in VNNI pairs: "
                  "((K/2,2),N):((2N,1),2)), or give the tile registers the "
                  "memory's order"},
                 {},
                 {}};
}

std::optional<Finding> boxOrderFinding(const Kernel &K, const HirSite &Site,
                                       bool Split,
                                       const targets::MergedTarget *Target) {
  if (isTileRegisterCopy(*Site.C)) // no TMA: its boxes are tile registers
    return std::nullopt;
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
  const Value &Tensor =
      G.TileOf != None && G.TileOf < K.Values.size() ? K.Values[G.TileOf] : G;
  const LayoutText &L = Tensor.Type.Layout;
  if (L.layout.shape.is_leaf())
    return std::nullopt;
  const int Rank = L.layout.rank();
  const int Unit = Site.GlobalUnitMode;
  const std::string Name = "'" + Tensor.Name + "' (" + to_string(L) + ")";
  const Value &Slot = K.Values[Shared->Value];
  const std::optional<int> SlotUnit = contiguousMode(Slot.Type.Layout.layout);
  const bool Loads =
      llvm::any_of(Site.C->operands, [&](const OperandPattern &P) {
        return P.name == Global->Operand && P.access == tf::Access::read;
      });
  const SourceRange CopyRange =
      Global->Range.valid() ? Global->Range : K.Stmts[Site.Op].Range;
  auto finding = [&](SourceRange At, std::string Why) {
    return Finding{DiagId::err_tf_tma_box_order,
                   At,
                   {str(Site.C->id), valueText(K, Global->Value),
                    std::move(Why)},
                   {},
                   {}};
  };
  auto note = [](Finding &F, SourceRange At, std::string Text) {
    if (At.valid())
      F.Notes.push_back({DiagId::note_tf_derived, At, {std::move(Text)}, {}, {}});
  };
  if (Unit < 0)
    return finding(CopyRange,
                   "no single dimension of " + Name +
                       " has the constant stride 1 that TMA reads "
                       "contiguously; give one dimension stride 1");
  if (Loads && SlotUnit && *SlotUnit != Unit) {
    // A load whose two sides say which dimension is contiguous, and they
    // disagree. The side at fault is the one another contract refuses too:
    // the slot when the op reading it cannot read its layout either (a
    // K-major B slot declared row-major), else the global tensor (B passed
    // row-major to a kernel whose slot is K-major). (A store's shared side
    // is the kernel's own tile: the contract's refusal at it stands.)
    const std::string Contiguous =
        " is contiguous in dimension " + std::to_string(Unit) +
        ", which its TMA box has innermost and writes contiguously into "
        "shared memory";
    const std::optional<LayoutRefusal> Reader =
        Slot.Type.LayoutRange.valid()
            ? readerRefusingLayout(K, K.Stmts[Site.Op].Result, Target)
            : std::nullopt;
    if (Reader) {
      Finding F = finding(
          Slot.Type.LayoutRange,
          "the shared-memory side (" + to_string(Slot.Type.Layout) +
              ") is contiguous in dimension " + std::to_string(*SlotUnit) +
              ", but " + Name + Contiguous + ": give the shared-memory side "
              "stride 1 in dimension " + std::to_string(Unit));
      note(F, CopyRange,
           "'" + Tensor.Name + "' is copied here into " +
               valueText(K, Shared->Value));
      note(F, Reader->At, Reader->Why);
      // The slot TMA writes for this box order, in the panels of its
      // swizzle's width, when the reader takes it.
      const std::vector<std::int64_t> Extents =
          staticExtents(Slot.Type.shape());
      if (std::optional<ComposedLayout> Fixed =
              panelLayout(Extents, bits(Slot.Type.Element) / 8,
                          Slot.Type.Layout.swizzle, Unit);
          Fixed && contiguousMode(Fixed->layout) == Unit &&
          readerAccepts(K, *Reader, *Fixed, Target))
        F.FixIts.push_back({Slot.Type.LayoutRange,
                            "\"" + to_string(*Fixed) + "\""});
      return F;
    }
    Finding F = finding(
        Tensor.Type.LayoutRange.valid() ? Tensor.Type.LayoutRange : CopyRange,
        Name + Contiguous + "; the shared-memory side (" +
            to_string(Slot.Type.Layout) + ") is contiguous in dimension " +
            std::to_string(*SlotUnit) + ": give '" + Tensor.Name +
            "' stride 1 in dimension " + std::to_string(*SlotUnit) +
            " or the shared-memory side stride 1 in dimension " +
            std::to_string(Unit));
    if (Tensor.Type.LayoutRange.valid())
      note(F, Global->Range,
           "'" + Tensor.Name + "' is copied here into " +
               valueText(K, Shared->Value));
    note(F, Slot.Type.LayoutRange,
         "the shared-memory side is contiguous in dimension " +
             std::to_string(*SlotUnit) + " here");
    return F;
  }
  if (!Split && Unit != Rank - 1)
    return finding(CopyRange,
                   Name + " is contiguous in dimension " +
                       std::to_string(Unit) +
                       ", which its TMA box has innermost, and the box is "
                       "written into shared memory row-major in that order; "
                       "the shared-memory side (" +
                       to_string(Slot.Type.Layout) +
                       ") is not contiguous in dimension " +
                       std::to_string(Unit) + ": give it stride 1 there");
  return std::nullopt;
}

/// When operand \p Why.subject's layout or element type is the one another
/// value of a written parameter reads -- B stored N-major for an atom
/// written with Major::K (a choice), f16 operands for an atom written for
/// bf16 (a dtype) -- the error is at that template argument, with the value
/// as a fix-it and the operand in a note. The site is matched again with
/// the one value changed -- a question asked only to word the error; the
/// recorded match stays the decision -- and a value is offered only when
/// that match clears the reason and brings none the written value's match
/// did not have.
std::optional<Finding>
SiteChecker::parameterFinding(const Reason &Why,
                              const SiteOperandSource *O) const {
  const bool Layout = Why.kind == ReasonKind::operand_layout;
  const ParamKind Reads = Layout ? ParamKind::choice : ParamKind::dtype;
  const SiteOperand *Operand = nullptr;
  for (const SiteOperand &X : H.S.operands)
    if (X.name == Why.subject)
      Operand = &X;
  const MatchReport Original = match(C, H.S);
  for (std::size_t I = 0; I < H.S.params.size(); ++I) {
    const ParamArg &A = H.S.params[I];
    const ParamDef *D = nullptr;
    for (const ParamDef &Def : C.params)
      if (Def.name == A.name)
        D = &Def;
    SourceRange At = paramRange(A.name);
    if (!D || D->kind != Reads || !At.valid() ||
        At.Begin == callRange().Begin)
      continue;
    std::vector<ParamValue> Values(D->allowed.begin(), D->allowed.end());
    if (!Layout)
      Values = {ParamValue::of(Operand ? Operand->dtype : DType::f32)};
    for (const ParamValue &V : Values) {
      if (V == A.value || (!Layout && !Operand))
        continue;
      tf::Site Alt = H.S;
      Alt.params[I].value = V;
      // The other value must clear this reason and bring no new one (fp8
      // has no MN-major form: a_major = MN is no fix for an fp8 slot).
      MatchReport R = match(C, Alt);
      const auto Same = [](const Reason &X, const Reason &Y) {
        return X.kind == Y.kind && X.subject == Y.subject;
      };
      if (llvm::any_of(R.reasons, [&](const Reason &W) {
            return Same(W, Why) ||
                   llvm::none_of(Original.reasons, [&](const Reason &X) {
                     return Same(W, X);
                   });
          }))
        continue;
      const std::string Value = valueText(K, O ? O->Value : None);
      const std::string Written = "the atom is written with " + str(A.name) +
                                  " = " + spelling(A.value, *D);
      Finding F =
          Layout ? make(DiagId::err_tf_contract_layout, At,
                        {str(C.id), str(Why.subject), Value,
                         "its layout is what " + str(A.name) + " = " +
                             spelling(V, *D) + " reads, but " + Written},
                        Why)
                 : make(DiagId::err_tf_contract_parameter, At,
                        {str(A.name), str(C.id),
                         "operand " + str(Why.subject) + " (" + Value +
                             ") holds " + spelling(V, *D) + ", but " + Written},
                        Why);
      F.FixIts.push_back({At, spelling(V, *D)});
      F.Notes.push_back({DiagId::note_tf_derived,
                         operandRange(Why.subject),
                         {"operand " + str(Why.subject) + " (" + Value +
                          ") is read here"},
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
std::optional<Finding>
SiteChecker::elementFinding(const Reason &Why,
                            const SiteOperandSource *O) const {
  if (!O || O->Value == None || O->Value >= K.Values.size() || Why.index < 0 ||
      Why.index >= static_cast<int>(C.operands.size()) ||
      C.operands[Why.index].dtype.kind != DTypeRule::Kind::fixed)
    return std::nullopt;
  const SourceRange &At = K.Values[O->Value].Type.ElementRange;
  if (!At.valid())
    return std::nullopt;
  const std::string Value = valueText(K, O->Value);
  Finding F = make(
      DiagId::err_tf_contract_operand, At,
      {str(Why.subject), Value, str(C.id), withoutItem(describe(Why, C))}, Why);
  F.FixIts.push_back({At, std::string(cpp_name(Why.expected_dtype))});
  F.Notes.push_back(
      {DiagId::note_tf_derived,
       operandRange(Why.subject),
       {"operand " + str(Why.subject) + " (" + Value + ") is read here"},
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
std::optional<Finding> SiteChecker::swizzleFinding(const Reason &Why) const {
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
                 (W.kind == ReasonKind::operand_layout && W.subject == Subject);
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
            : "it reads the " + Bytes + "-byte swizzle " + to_string(Meant) +
                  ", not " + to_string(Written);
    const std::string Value = valueText(K, O->Value);
    Finding F = make(DiagId::err_tf_contract_layout, T.SwizzleRange,
                     {str(C.id), str(Subject), Value, Because}, Why);
    F.FixIts.push_back({T.SwizzleRange, (Written.is_identity() ? " | " : "") +
                                            to_string(Meant)});
    F.Notes.push_back(
        {DiagId::note_tf_derived,
         operandRange(Subject),
         {"operand " + str(Subject) + " (" + Value + ") is read here"},
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
SiteChecker::atomParameterFix(const Reason &Why, const MatchReport &R) const {
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
std::optional<Finding> SiteChecker::atomExtentFinding(const Reason &Why,
                                                      const MatchReport &R,
                                                      bool *ParamFixed) const {
  std::optional<std::pair<int, ParamValue>> Fix = atomParameterFix(Why, R);
  if (!Fix)
    return std::nullopt;
  const ParamDef &PD = C.params[static_cast<std::size_t>(Fix->first)];
  const int I = paramIndex(PD.name);
  const SourceRange At = paramRange(PD.name);
  if (I < 0 || static_cast<std::size_t>(I) >= max_site_params || !At.valid() ||
      At.Begin == callRange().Begin || ParamFixed[I])
    return std::nullopt;
  Finding F = make(DiagId::err_tf_contract_tile, At,
                   {str(C.id), withoutItem(describe(Why, C))}, Why);
  F.FixIts.push_back({At, spelling(Fix->second, PD)});
  F.Notes.push_back(
      {DiagId::note_tf_derived,
       At,
       {"the nearest value " + str(C.id) + " allows that divides the tile's " +
        std::to_string(Why.found) + " is " + str(PD.name) + " = " +
        value_string(Fix->second, PD)},
       {},
       {}});
  F.Notes.push_back({DiagId::note_tf_derived,
                     operandRange(Why.subject),
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
std::optional<Finding>
SiteChecker::accumulatorFinding(const Reason &Why, const MatchReport &R) const {
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
  std::optional<Mesh> Where = K.meshOf(Acc.Def != None ? Acc.Def : Acc.Scope);
  const OperandPattern &OP = C.operands[static_cast<std::size_t>(Pattern)];
  if (!T.LayoutRange.valid() || !Where || OP.atom_modes.size() != 2)
    return std::nullopt;
  // The atom as the fix-its of its parameters make it (a retiled WGMMA's
  // n follows the tile too).
  std::int64_t Atom[3] = {R.repeat.atom[0], R.repeat.atom[1], R.repeat.atom[2]};
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
    F.Notes.push_back(
        {DiagId::note_tf_derived,
         T.LayoutRange,
         {"the " + std::to_string(TM) + "x" + std::to_string(TN) +
          " accumulator over mesh " + to_string(*Where) + ": " + Text},
         {},
         {}});
    F.Notes.push_back({DiagId::note_tf_derived,
                       operandRange(Why.subject),
                       {"operand " + str(Why.subject) + " (" +
                        valueText(K, O->Value) + ") is read here"},
                       {},
                       {}});
    return F;
  }
  return meshGroupsFinding(Why, R, Acc, *Where, OP, {AM, AN}, {TM, TN});
}

namespace {

/// \p Text, a layout or shape literal's contents written "(Old,...)", with
/// New for its leading extent; none when it does not begin so.
std::optional<std::string> withLeadingExtent(llvm::StringRef Text,
                                             std::int64_t Old,
                                             std::int64_t New) {
  llvm::StringRef Rest = Text.ltrim();
  if (!Rest.consume_front("("))
    return std::nullopt;
  Rest = Rest.ltrim();
  const std::size_t Digits = Rest.find_first_not_of("0123456789");
  std::int64_t Have = 0;
  if (Digits == 0 || Digits == llvm::StringRef::npos ||
      Rest.take_front(Digits).getAsInteger(10, Have) || Have != Old ||
      !Rest.drop_front(Digits).ltrim().starts_with(","))
    return std::nullopt;
  return "\"(" + std::to_string(New) + Rest.drop_front(Digits).str() + "\"";
}

/// Mesh scope \p At's mesh \p Where, whose leading mode runs \p Have groups,
/// regrouped to \p Want: the edits of the declarations it is written in
/// (MeshGroupsSource; the groups are the last of the root mesh's leading
/// mode, so the root shrinks or grows with them, and with it the kernel's
/// topology of the level) and the mesh they make.
struct Regrouped {
  Mesh Where;
  std::vector<FixIt> Edits;
  /// The root mesh's new layout and the level's new extent, as the note
  /// says them.
  std::string RootLayout;
  std::int64_t Units = 0;
};

std::optional<Regrouped> regroup(const Kernel &K, const Stmt &At,
                                 const Mesh &Where, std::int64_t Have,
                                 std::int64_t Want) {
  const std::optional<MeshGroupsSource> &W = At.MeshGroups;
  if (!W || Want <= 0 || W->End - W->Begin != Have ||
      !Where.layout.shape.mode(0).is_leaf() ||
      !Where.layout.shape.mode(0).leaf().is_constant() ||
      *Where.layout.shape.mode(0).leaf().get() != Have)
    return std::nullopt;
  // The root's leading extent is the range's end: the groups are its last.
  const std::int64_t RootGroups = W->End;
  const std::int64_t NewRoot = RootGroups - Have + Want;
  std::optional<std::string> Root =
      withLeadingExtent(W->RootLayoutText, RootGroups, NewRoot);
  if (!Root)
    return std::nullopt;
  Regrouped Out;
  Out.RootLayout = Root->substr(1, Root->size() - 2);
  Out.Edits.push_back({W->RootLayout, *Root});
  Out.Edits.push_back({W->EndRange, std::to_string(W->Begin + Want)});
  if (W->ReshapeShape.valid()) {
    std::optional<std::string> Shape =
        withLeadingExtent(W->ReshapeShapeText, Have, Want);
    if (!Shape)
      return std::nullopt;
    Out.Edits.push_back({W->ReshapeShape, *Shape});
  }
  for (std::size_t I = 0; I < K.Topologies.size(); ++I) {
    const Topology &T = K.Topologies[I];
    if (T.level != Where.level)
      continue;
    Result<std::int64_t> Units = T.extent.get();
    if (!Units || *Units % RootGroups != 0 || I >= K.TopologyExtentRanges.size() ||
        !K.TopologyExtentRanges[I].valid())
      return std::nullopt;
    Out.Units = *Units / RootGroups * NewRoot;
    Out.Edits.push_back({K.TopologyExtentRanges[I], std::to_string(Out.Units)});
  }
  if (Out.Units == 0)
    return std::nullopt;
  // The scope's mesh with Want groups: its leading mode is the groups (the
  // range's extent, or the reshape's leading extent over them).
  IntTuple Shape, Stride;
  Shape.push_back(IntTuple(Int(Want)));
  Stride.push_back(Where.layout.stride.mode(0));
  for (int I = 1; I < Where.rank(); ++I) {
    Shape.push_back(Where.layout.shape.mode(I));
    Stride.push_back(Where.layout.stride.mode(I));
  }
  Out.Where = Where;
  Out.Where.layout = Layout{Shape, Stride};
  return Out;
}

} // namespace

std::optional<Finding> SiteChecker::meshGroupsFinding(
    const Reason &Why, const MatchReport &R, const Value &Acc,
    const Mesh &Where, const OperandPattern &OP, const std::int64_t (&Atom)[2],
    const std::int64_t (&Tile)[2]) const {
  const std::int64_t AM = Atom[0], TM = Tile[0];
  std::int64_t Groups = 0;
  const ShardLayout *Pattern = nullptr;
  for (const LayoutPattern &L : OP.layouts)
    if (L.kind == LayoutPatternKind::shard && Groups == 0) {
      Groups = leadingGroups(L.shard, Where);
      Pattern = &L.shard;
    }
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
  std::string Offer;
  if (std::optional<Regrouped> New = regroup(K, At, Where, Groups, Fills)) {
    std::optional<ShardLayout> Tiled = tiledAccumulator(
        *Pattern, New->Where, AM, Atom[1], TM, Tile[1]);
    if (Tiled && acceptsAccumulator(Why.subject, *Tiled, R, &New->Where)) {
      const std::string Text =
          "\"" + to_string(Tiled->layout, Tiled->axes) + "\"";
      F.FixIts = std::move(New->Edits);
      F.FixIts.push_back({Acc.Type.LayoutRange, Text});
      Offer = "; the fix-its give " + Name + " " + std::to_string(Fills) +
              " group" + (Fills == 1 ? "" : "s") + " (the mesh it is cut from " +
              New->RootLayout + ", " + std::to_string(New->Units) + " " +
              str(Where.level) + "s in the kernel's topology) and the "
              "accumulator its layout over it, " + Text;
    }
  }
  F.Notes.push_back(
      {DiagId::note_tf_derived,
       At.Range,
       {"mesh " + Name + " runs " + std::to_string(Groups) +
        " groups side by side along M, " + std::to_string(AM) +
        " rows each (one " + str(C.id) + " atom); the " + std::to_string(TM) +
        "-row tile fills " + std::to_string(Fills) + ": a mesh of " +
        std::to_string(Fills) + " group" + (Fills == 1 ? "" : "s") + " of " +
        std::to_string(PerGroup) +
        " threads holds it, or a tile of a multiple of " +
        std::to_string(AM * Groups) + " rows" + Offer},
       {},
       {}});
  F.Notes.push_back(
      {DiagId::note_tf_derived,
       operandRange(Why.subject),
       {"operand " + str(Why.subject) + " (" +
        valueText(K, operand(Why.subject)->Value) + ") is read here"},
       {},
       {}});
  return F;
}

/// Whether the site accepts operand \p N as register layout \p L: its
/// tile and its layout (other reasons are not the accumulator's), with
/// the atom's parameters as their own fix-its would make them (a retiled
/// WGMMA's n).
bool SiteChecker::acceptsAccumulator(const Name &N, const ShardLayout &L,
                                     const MatchReport &Recorded,
                                     const Mesh *Instead) const {
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
  if (Instead)
    Alt.S.mesh = *Instead;
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
std::optional<Finding> SiteChecker::boxExtentsFinding(const Reason &Why) const {
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
        Ring.Kind == ValueKind::Ring && !Ring.Name.empty() &&
        Ring.Type.Element == Filled.Type.Element &&
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
  F.Notes.push_back(
      {DiagId::note_tf_derived,
       T.LayoutRange,
       {"the shared-memory tile's layout for a " + Extents + " box: " + Text},
       {},
       {}});
  return F;
}

/// Whether the copy accepts a slot of layout \p L for the box \p Box:
/// the site matched again with it, split into boxes.
bool SiteChecker::acceptsSlot(const ComposedLayout &L,
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
MatchReport SiteChecker::matchSwizzled(const Name &Operand,
                                       const Swizzle &Meant) const {
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

} // namespace tf::analysis::detail
