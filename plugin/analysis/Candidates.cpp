//===- plugin/analysis/Candidates.cpp - Instructions an undecided op could use -===//
//
// See Candidates.h. One site per op (buildCandidateSite, Site.h) per
// candidate contract; its open parameters are decided from the operands and
// the contract data, the rest tried; every combination goes through
// tf::match, box copies as their boxes (splitIntoBoxes, as inference does
// for the site's own contract). These are other sites than the decided one
// -- each candidate contract with its tried parameters -- so they are
// matched here, not read from the HIR.
//
//===----------------------------------------------------------------------===//

#include "analysis/Candidates.h"
#include "analysis/Derive.h"
#include "analysis/Site.h"

#include "tf/atoms/registry.hpp"
#include "tf/contract/describe.hpp"
#include "tf/contract/match.hpp"
#include "tf/layout/mesh_text.hpp"
#include "tf/layout/swizzle.hpp"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cctype>
#include <optional>

namespace tf::analysis {

using namespace hir;

namespace {

std::string str(const Name &N) { return std::string(N.view()); }

/// Whether element-wise contract \p C converts: a read operand takes its
/// element type from another parameter than a written one.
bool converts(const Contract &C) {
  for (const OperandPattern &R : C.operands)
    for (const OperandPattern &W : C.operands)
      if (R.access == tf::Access::read && W.access != tf::Access::read &&
          R.dtype.kind == DTypeRule::Kind::of_param &&
          W.dtype.kind == DTypeRule::Kind::of_param &&
          !(R.dtype.param == W.dtype.param))
        return true;
  return false;
}

/// The choice types of the parameter that says which op an element-wise or
/// reduction contract computes; an op's value of it is its BinaryOp column
/// (hir/Ops.def).
constexpr std::string_view OpChoiceTypes[] = {"BinaryOp", "UnaryOp",
                                              "ReduceOp"};

bool isOpChoice(const ParamDef &D) {
  return D.kind == ParamKind::choice &&
         llvm::is_contained(OpChoiceTypes, D.choice_type.view());
}

/// The parameter of \p C that says which op it computes, or null.
const ParamDef *opChoiceOf(const Contract &C) {
  for (const ParamDef &D : C.params)
    if (isOpChoice(D))
      return &D;
  return nullptr;
}

/// Whether contract \p C implements op \p Op: its kind implements the op's
/// class, and an element-wise or reduction contract computes the op -- it
/// allows the op's value of its op choice (BinaryOp, UnaryOp, ReduceOp), or
/// it converts and the op is a cast.
bool implements(const Contract &C, OpKind Op) {
  if (!contractKindImplements(C.kind, Op))
    return false;
  if (C.kind != AtomKind::elementwise && C.kind != AtomKind::reduce)
    return true;
  const OpInfo &Info = opInfo(Op);
  if (const ParamDef *P = opChoiceOf(C)) {
    if (Info.BinaryOp.empty())
      return false;
    for (const ParamValue &V : P->allowed)
      if (V.choice == std::string_view(Info.BinaryOp))
        return true;
    return false;
  }
  return Info.Class == OpClass::Cast && converts(C);
}

//===- Parameters ----------------------------------------------------------===//

const ParamArg *findArg(const std::vector<ParamArg> &Args, const Name &N) {
  for (const ParamArg &A : Args)
    if (A.name == N)
      return &A;
  return nullptr;
}

/// The values parameter \p D may take given the parameters \p Known: the
/// first case whose conditions all hold on known values, else its allowed
/// set, else the union of its cases' sets.
std::vector<ParamValue> domainOf(const ParamDef &D,
                                 const std::vector<ParamArg> &Known) {
  for (const ParamCase &Case : D.cases) {
    bool Holds = true;
    for (const Condition &If : Case.when) {
      const ParamArg *A = findArg(Known, If.param);
      Holds = Holds && A && A->value == If.value;
    }
    if (Holds)
      return std::vector<ParamValue>(Case.allowed.begin(), Case.allowed.end());
  }
  std::vector<ParamValue> Out(D.allowed.begin(), D.allowed.end());
  if (!Out.empty())
    return Out;
  for (const ParamCase &Case : D.cases)
    for (const ParamValue &V : Case.allowed)
      if (std::find(Out.begin(), Out.end(), V) == Out.end())
        Out.push_back(V);
  return Out;
}

bool validInteger(const ParamDef &D, std::int64_t V,
                  const std::vector<ParamArg> &Known) {
  if (D.has_range &&
      (V < D.lo || V > D.hi || (D.step > 1 && V % D.step != 0)))
    return false;
  std::vector<ParamValue> Domain = domainOf(D, Known);
  return Domain.empty() ||
         std::find(Domain.begin(), Domain.end(), ParamValue::of(V)) !=
             Domain.end();
}

bool hasDefault(const ParamDef &D, const std::vector<ParamArg> &Known) {
  if (D.has_default)
    return true;
  for (const ParamCase &Case : D.cases) {
    bool Holds = true;
    for (const Condition &If : Case.when) {
      const ParamArg *A = findArg(Known, If.param);
      Holds = Holds && A && A->value == If.value;
    }
    if (Holds)
      return Case.has_default;
  }
  return false;
}

const SiteOperand *siteOperandNamed(const tf::Site &S, const Name &N) {
  for (const SiteOperand &O : S.operands)
    if (O.name == N)
      return &O;
  return nullptr;
}

bool isSymbol(const IntTuple &T, const Name &N) {
  return T.is_leaf() && T.leaf().is_symbolic() && T.leaf().symbol == N;
}

/// The op's extent that atom extent \p N of MMA contract \p C tiles: the
/// op's iteration domain in the atom mode naming \p N, else the extent of
/// the site operand whose pattern shape names \p N (WGMMA's C is (64,n)).
std::optional<std::int64_t> symbolExtent(const Contract &C, const Name &N,
                                         const Stmt &Op, const tf::Site &S) {
  if (C.atom_shape.is_leaf())
    return std::nullopt;
  const IntTuple &Domain = Op.Access.Domain;
  for (int M = 0; M < C.atom_shape.rank(); ++M) {
    if (!isSymbol(C.atom_shape.mode(M), N) || Domain.is_leaf() ||
        M >= Domain.rank())
      continue;
    IntTuple E = Domain.mode(M);
    if (E.is_leaf() && E.leaf().is_constant() && E.leaf().value > 0)
      return E.leaf().value;
  }
  for (const OperandPattern &P : C.operands) {
    const SiteOperand *O = siteOperandNamed(S, P.name);
    if (!O || P.shape.is_leaf() || O->shape.is_leaf())
      continue;
    for (int I = 0; I < P.shape.rank() && I < O->shape.rank(); ++I) {
      if (!isSymbol(P.shape.mode(I), N))
        continue;
      Result<std::int64_t> E = product(O->shape.mode(I));
      if (E.ok() && *E > 0)
        return *E;
    }
  }
  return std::nullopt;
}

/// What the operands of \p Base say about parameter \p D of \p C, or none.
std::optional<ParamValue> fromOperands(const Contract &C, const ParamDef &D,
                                       const Stmt &Op, const HirSite &Base,
                                       const std::vector<ParamArg> &Known,
                                       std::vector<ParamValue> &Domain) {
  const tf::Site &S = Base.S;
  switch (D.kind) {
  case ParamKind::dtype:
    // The operand whose element type the parameter names.
    for (const OperandPattern &P : C.operands)
      if (P.dtype.kind == DTypeRule::Kind::of_param && P.dtype.param == D.name)
        if (const SiteOperand *O = siteOperandNamed(S, P.name))
          return ParamValue::of(O->dtype);
    return std::nullopt;
  case ParamKind::integer: {
    // An extent of the atom: the largest valid value dividing the op's.
    std::optional<std::int64_t> Extent = symbolExtent(C, D.name, Op, S);
    if (!Extent)
      return std::nullopt;
    for (std::int64_t V = *Extent; V >= 1; --V)
      if (*Extent % V == 0 && validInteger(D, V, Known))
        return ParamValue::of(V);
    return std::nullopt;
  }
  case ParamKind::choice:
    break;
  }
  if (isOpChoice(D))
    return ParamValue::choose(Name(std::string_view(opInfo(Op.Op).BinaryOp)));
  // A choice that selects an operand's storage: the values whose variant of
  // every such operand is in the storage the site's operand is in.
  bool Selects = false;
  std::vector<ParamValue> Fit;
  for (const ParamValue &V : Domain) {
    bool All = true;
    for (const OperandPattern &P : C.operands) {
      const Condition *On = nullptr;
      for (const Condition &If : P.when)
        if (If.param == D.name)
          On = &If;
      if (!On)
        continue;
      Selects = true;
      const SiteOperand *O = siteOperandNamed(S, P.name);
      if (On->value == V && O && O->storage != P.storage)
        All = false;
    }
    if (All)
      Fit.push_back(V);
  }
  if (Selects) {
    Domain = Fit;
    if (Fit.size() == 1)
      return Fit.front();
    return std::nullopt;
  }
  // `<x>_major`: operand X's unit stride in its K mode (K) or not (MN).
  std::string_view N = D.name.view();
  if (N.size() > 6 && N.substr(1) == "_major") {
    std::string Operand(1, static_cast<char>(std::toupper(N[0])));
    for (const OperandPattern &P : C.operands) {
      if (!(P.name == Operand) || P.atom_modes.empty())
        continue;
      const SiteOperand *O = siteOperandNamed(S, P.name);
      if (!O || (O->kind != OperandLayoutKind::layout &&
                 O->kind != OperandLayoutKind::composed))
        return std::nullopt;
      std::optional<int> Unit = contiguousMode(O->layout.layout);
      if (!Unit || *Unit >= static_cast<int>(P.atom_modes.size()))
        return std::nullopt;
      ParamValue V = ParamValue::choose(P.atom_modes[*Unit] == 2 ? "K" : "MN");
      if (std::find(Domain.begin(), Domain.end(), V) != Domain.end())
        return V;
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::string valueText(const ParamValue &V) {
  switch (V.kind) {
  case ParamKind::integer:
    return std::to_string(V.integer);
  case ParamKind::dtype:
    return std::string(name(V.dtype));
  case ParamKind::choice:
    return str(V.choice);
  }
  return "";
}

std::string sourceText(ParamSource S) {
  switch (S) {
  case ParamSource::given:
    return "given";
  case ParamSource::case_default:
  case ParamSource::def_default:
    return "default";
  case ParamSource::derived:
    return "derived";
  case ParamSource::missing:
    return "missing";
  }
  return "";
}

bool isParamReason(ReasonKind K) {
  return K == ReasonKind::param_unknown || K == ReasonKind::param_type ||
         K == ReasonKind::param_missing || K == ReasonKind::param_predicate ||
         K == ReasonKind::param_case || K == ReasonKind::param_derived;
}

/// Matches \p Site (a box copy as its boxes) into \p Out; returns the
/// engine's report.
MatchReport matchInto(const HirSite &Site, Candidate &Out) {
  const Contract &C = *Site.C;
  MatchReport R;
  std::optional<BoxSplit> Split = splitIntoBoxes(Site);
  if (Split) {
    HirSite Box;
    buildBoxSite(Site, *Split, Box);
    R = match(C, Box.S);
  } else {
    R = match(C, Site.S);
  }
  Out.Accepted = R.accepted;
  for (const Reason &Why : R.reasons)
    Out.Reasons.push_back({Why.kind, describe(Why, C)});
  Out.Dropped = R.dropped;
  if (!R.accepted)
    return R;
  Out.MeshInstance = to_string(R.mesh_instance);
  if (Split) {
    Out.Repeat = Split->Count;
    Out.BoxExtents = Split->Extents;
  } else if (R.repeat.derived) {
    Out.Repeat.assign(R.repeat.count, R.repeat.count + 3);
  }
  return R;
}

/// Whether operand \p N is the subject of one of \p R's reasons.
bool refuses(const MatchReport &R, const Name &N) {
  return llvm::any_of(R.reasons,
                      [&](const Reason &W) { return W.subject == N; });
}

/// The kernel's meshes an accumulator may be placed over: the op's own
/// (unnamed), then each mesh scope's, by spelling, in program order.
std::vector<std::pair<Mesh, std::string>> meshesOf(const Kernel &K,
                                                   const HirSite &Site) {
  std::vector<std::pair<Mesh, std::string>> Out{{Site.S.mesh, ""}};
  for (const Stmt &S : K.Stmts)
    if (S.Kind == StmtKind::MeshScope && S.MeshSpelling != Site.MeshSpelling &&
        llvm::none_of(Out, [&](const auto &M) {
          return M.second == S.MeshSpelling;
        }))
      Out.push_back({S.Mesh, S.MeshSpelling});
  return Out;
}

/// The placement of a refused MMA candidate (CandidatePlacement): none
/// unless every refusal is an operand's layout or the mesh, and unless each
/// layout it offers is accepted when the site is matched again with it.
std::optional<CandidatePlacement>
placementOf(const Kernel &K, const HirSite &Site, const MatchReport &R) {
  const Contract &C = *Site.C;
  if (C.kind != AtomKind::mma || R.accepted || R.reasons.empty() ||
      C.atom_shape.is_leaf() || C.atom_shape.rank() != 3 ||
      !llvm::all_of(R.reasons, [](const Reason &W) {
        return W.kind == ReasonKind::operand_layout ||
               W.kind == ReasonKind::mesh;
      }))
    return std::nullopt;
  auto valueOf = [&](const Name &N) {
    for (const SiteOperandSource &O : Site.Operands)
      if (O.Operand == N)
        return O.Value;
    return None;
  };
  auto patternOf = [&](const Name &N) -> const OperandPattern * {
    for (const OperandPattern &P : C.operands)
      if (P.name == N)
        return &P;
    return nullptr;
  };

  // The shared-memory tiles the contract refuses, as TMA writes them.
  CandidatePlacement Out;
  HirSite Tiles;
  copySite(Site, Tiles);
  std::vector<Name> Placed;
  const SiteOperand *Acc = nullptr;
  const OperandPattern *AccPattern = nullptr;
  for (SiteOperand &X : Tiles.S.operands) {
    const OperandPattern *P = patternOf(X.name);
    if (!P)
      continue;
    if (P->storage == Storage::rmem && P->access == tf::Access::read_write) {
      Acc = &X;
      AccPattern = P;
      continue;
    }
    if (P->storage != Storage::smem || X.storage != Storage::smem ||
        !refuses(R, X.name))
      continue;
    const std::vector<std::int64_t> Extents = staticExtents(X.shape);
    std::optional<int> Unit = X.kind == OperandLayoutKind::shard
                                  ? std::nullopt
                                  : contiguousMode(X.layout.layout);
    std::optional<ComposedLayout> L;
    if (Unit)
      L = panelLayout(Extents, bits(X.dtype) / 8,
                      swizzle_for(SwizzleMode::bytes128), *Unit);
    if (!L)
      return std::nullopt;
    X = site_operand(X.name, X.shape, X.dtype, X.storage, *L);
    Out.Layouts.push_back({str(X.name), valueOf(X.name), to_string(*L)});
    Placed.push_back(X.name);
  }

  // The accumulator over the first of the kernel's meshes that takes it.
  const RepeatDerivation &Rep = R.repeat;
  if (Acc && AccPattern && AccPattern->atom_modes.size() == 2) {
    const int DM = AccPattern->atom_modes[0], DN = AccPattern->atom_modes[1];
    for (const auto &[Where, Spelling] : meshesOf(K, Site))
      for (const LayoutPattern &L : AccPattern->layouts) {
        if (L.kind != LayoutPatternKind::shard)
          continue;
        std::optional<ShardLayout> Tiled =
            tiledAccumulator(L.shard, Where, Rep.atom[DM], Rep.atom[DN],
                             Rep.tile[DM], Rep.tile[DN]);
        if (!Tiled)
          continue;
        HirSite Try;
        copySite(Tiles, Try);
        Try.S.mesh = Where;
        for (SiteOperand &X : Try.S.operands)
          if (X.name == Acc->name)
            X = site_operand(X.name, X.shape, X.dtype, X.storage, *Tiled);
        if (!match(C, Try.S).reasons.empty())
          continue;
        Out.Layouts.push_back({str(Acc->name), valueOf(Acc->name),
                               to_string(Tiled->layout, Tiled->axes)});
        Out.Mesh = Spelling;
        Out.Accepted = true;
        return Out;
      }
  }

  // No mesh of the kernel holds the accumulator: the tiles alone, when the
  // contract takes them.
  const MatchReport Left = match(C, Tiles.S);
  if (Placed.empty() || llvm::any_of(Placed, [&](const Name &N) {
        return refuses(Left, N);
      }))
    return std::nullopt;
  Out.Accepted = Left.reasons.empty();
  if (Acc && refuses(Left, Acc->name))
    Out.Unplaced = "operand " + str(Acc->name) +
                   ": no mesh of the kernel holds its register fragment (" +
                   str(C.id) + " runs on " + to_string(C.execution_mesh.mesh) +
                   ")";
  else if (!Out.Accepted)
    Out.Unplaced = "the mesh: " + str(C.id) + " runs on " +
                   to_string(C.execution_mesh.mesh);
  return Out;
}

/// Every candidate of contract \p C for op \p OpId into \p Out.
void candidatesOf(const Kernel &K, StmtId OpId, const Contract &C,
                  const targets::MergedTarget *Target,
                  std::vector<Candidate> &Out) {
  const Stmt &Op = K.Stmts[OpId];
  HirSite Base;
  if (!buildCandidateSite(K, OpId, C, Target, Base))
    return;

  // Decide what the operands decide (two passes: a parameter's cases may
  // depend on one decided later in contract order), then the values to try.
  std::vector<ParamArg> Known(Base.S.params.begin(), Base.S.params.end());
  std::vector<std::string> FromOperands = Base.DecidedParams;
  for (int Pass = 0; Pass < 2; ++Pass)
    for (const ParamDef &D : C.params) {
      if (D.derived || findArg(Known, D.name))
        continue;
      std::vector<ParamValue> Domain = domainOf(D, Known);
      if (std::optional<ParamValue> V =
              fromOperands(C, D, Op, Base, Known, Domain)) {
        Known.push_back({D.name, *V});
        FromOperands.push_back(str(D.name));
      }
    }
  std::vector<std::pair<Name, std::vector<ParamValue>>> Open;
  for (const ParamDef &D : C.params) {
    if (D.derived || findArg(Known, D.name))
      continue;
    std::vector<ParamValue> Domain = domainOf(D, Known);
    (void)fromOperands(C, D, Op, Base, Known, Domain); // narrows Domain
    std::string_view N = D.name.view();
    bool Major = N.size() > 6 && N.substr(1) == "_major";
    if ((hasDefault(D, Known) && !Major) || Domain.empty())
      continue; // the engine takes the default or reports it missing
    Open.push_back({D.name, Domain});
  }

  // The combinations of the open parameters, first value first.
  std::vector<std::vector<ParamArg>> Combos{Known};
  for (const auto &[N, Values] : Open) {
    std::vector<std::vector<ParamArg>> Next;
    for (const std::vector<ParamArg> &Combo : Combos)
      for (const ParamValue &V : Values) {
        if (Next.size() >= MaxCombinations)
          break;
        Next.push_back(Combo);
        Next.back().push_back({N, V});
      }
    Combos = std::move(Next);
  }

  std::vector<Candidate> Tried;
  for (const std::vector<ParamArg> &Combo : Combos) {
    HirSite Site;
    copySite(Base, Site);
    Site.S.params = {};
    for (const ParamArg &A : Combo)
      Site.S.params.push_back(A);
    Candidate Cand;
    Cand.ContractId = str(C.id);
    // The parameters as the engine resolved them, in contract order.
    const MatchReport R = matchInto(Site, Cand);
    Cand.Placement = placementOf(K, Site, R);
    for (const ResolvedParam &P : R.params) {
      if (P.source == ParamSource::missing)
        continue;
      std::string Source = sourceText(P.source);
      if (P.source == ParamSource::given)
        Source = std::find(FromOperands.begin(), FromOperands.end(),
                           str(P.name)) != FromOperands.end()
                     ? "operands"
                     : "tried";
      Cand.Params.push_back({str(P.name), valueText(P.value), Source});
    }
    Tried.push_back(std::move(Cand));
  }

  // Accepted combinations; else those the parameters themselves allow.
  bool AnyAccepted = false, AnyValid = false;
  for (const Candidate &X : Tried) {
    AnyAccepted |= X.Accepted;
    bool Valid = true;
    for (const CandidateReason &Why : X.Reasons)
      Valid = Valid && !isParamReason(Why.Kind);
    AnyValid |= Valid;
  }
  for (Candidate &X : Tried) {
    bool Valid = true;
    for (const CandidateReason &Why : X.Reasons)
      Valid = Valid && !isParamReason(Why.Kind);
    if (AnyAccepted ? X.Accepted : (!AnyValid || Valid))
      Out.push_back(std::move(X));
  }
}

} // namespace

std::vector<const Contract *> contractsFor(OpKind Op) {
  std::vector<const Contract *> Out;
  for (const Contract *C : all_contracts())
    if (implements(*C, Op))
      Out.push_back(C);
  return Out;
}

bool isUndecided(const Kernel &K, StmtId OpId) {
  if (OpId == None || OpId >= K.Stmts.size())
    return false;
  const Stmt &Op = K.Stmts[OpId];
  if (Op.Kind != StmtKind::Op || Op.Sched || !needsInstruction(Op.Op))
    return false;
  return !hir::isFusedElementwise(K, Op) && !hir::isRegisterOp(K, Op);
}

CandidateSite candidateSite(const Kernel &K, StmtId Id,
                            const targets::MergedTarget *Target) {
  const Stmt &Op = K.Stmts[Id];
  CandidateSite Site;
  Site.Op = Id;
  Site.Kind = Op.Op;
  Site.Range = Op.CallRange.valid() ? Op.CallRange : Op.Range;
  Site.StmtRange = Op.Range;
  Site.Kernel = K.Name;
  Site.Target = K.Target;
  if (std::optional<Mesh> M = K.meshOf(Id))
    Site.Mesh = to_string(*M);
  if (StmtId Scope = K.meshScopeOf(Id); Scope != None)
    Site.MeshSpelling = K.Stmts[Scope].MeshSpelling;
  else
    Site.UnscopedMesh = std::string(K.unscopedMeshText(Id));
  for (const hir::Access &A : Op.Access.Accesses) {
    if (A.Operand == None || A.Operand >= K.Values.size())
      continue;
    const char *Kind = A.Kind == AccessKind::Read    ? "read"
                       : A.Kind == AccessKind::Write ? "write"
                                                     : "read-write";
    Site.Operands.push_back({Kind, A.Operand});
  }
  std::vector<const Contract *> Contracts = contractsFor(Op.Op);
  if (Contracts.empty())
    Site.NoCandidates = "no contract in tf's registry implements tf." +
                        opName(Op.Op).str();
  for (const Contract *C : Contracts)
    candidatesOf(K, Id, *C, Target, Site.Candidates);
  return Site;
}

std::vector<CandidateSite> findCandidates(const Kernel &K,
                                          const targets::MergedTarget *Target) {
  std::vector<CandidateSite> Out;
  for (StmtId Id : K.preorder())
    if (isUndecided(K, Id))
      Out.push_back(candidateSite(K, Id, Target));
  return Out;
}

} // namespace tf::analysis
