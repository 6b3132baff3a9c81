//===- plugin/analysis/Site.cpp - A tf::schedule op as the engine sees it -===//
//
// See Site.h. Operands take the contract's names: a tiled MMA's call
// operands (acc, lhs, rhs) are C, A and B; a copy's (src, dst) are src and
// dst; any other atom's are its contract's operand names in order. A ring
// operand contributes its slot type, a tile window the layout of the tensor
// it is a window of, cut to the window's extents and moved to its offsets.
//
// A box copy (a TMA) whose shared-memory side is not one box is split into
// boxes here too (splitIntoBoxes): a box is to a copy what an atom is to an
// MMA tile, and the contract engine decides which boxes are valid.
//
//===----------------------------------------------------------------------===//

#include "analysis/Site.h"

#include "targets/TargetFacts.h"

#include "tf/atoms/intel/amx/tile_config.hpp"
#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/atoms/registry.hpp"
#include "tf/contract/match.hpp"
#include "tf/layout/algebra/divide.hpp"
#include "tf/layout/text/print.hpp"

#include <algorithm>

namespace tf::analysis {

using namespace hir;

bool hasType(const Value &V) {
  const IntTuple &Shape = V.Type.Layout.layout.shape;
  return !V.Type.Spelling.empty() || Shape.is_leaf() || Shape.rank() > 0;
}

namespace {

std::optional<std::int64_t> fold(const Kernel &K, ExprId E, int Depth) {
  if (E == None || E >= K.Exprs.size() || Depth > 64)
    return std::nullopt;
  const Expr &X = K.Exprs[E];
  if (X.Static)
    return X.Static;
  auto Both = [&](auto Op) -> std::optional<std::int64_t> {
    std::optional<std::int64_t> L = fold(K, X.Lhs, Depth + 1);
    std::optional<std::int64_t> R = fold(K, X.Rhs, Depth + 1);
    if (!L || !R)
      return std::nullopt;
    return Op(*L, *R);
  };
  switch (X.Kind) {
  case ExprKind::Constant:
    return X.Constant;
  case ExprKind::Ref:
    if (X.Ref == None || X.Ref >= K.Values.size())
      return std::nullopt;
    return fold(K, K.Values[X.Ref].Init, Depth + 1);
  case ExprKind::Extent: {
    if (X.Ref == None || X.Ref >= K.Values.size() ||
        !hasType(K.Values[X.Ref]))
      return std::nullopt;
    IntTuple Shape = K.Values[X.Ref].Type.shape();
    if (static_cast<int>(X.Dim) >= Shape.rank())
      return std::nullopt;
    IntTuple M = Shape.mode(static_cast<int>(X.Dim));
    if (!M.is_leaf() || !M.leaf().is_constant())
      return std::nullopt;
    return M.leaf().value;
  }
  case ExprKind::Add:
    return Both([](std::int64_t A, std::int64_t B) { return A + B; });
  case ExprKind::Sub:
    return Both([](std::int64_t A, std::int64_t B) { return A - B; });
  case ExprKind::Mul:
    return Both([](std::int64_t A, std::int64_t B) { return A * B; });
  case ExprKind::Div:
  case ExprKind::Mod:
  case ExprKind::CeilDiv: {
    std::optional<std::int64_t> L = fold(K, X.Lhs, Depth + 1);
    std::optional<std::int64_t> R = fold(K, X.Rhs, Depth + 1);
    if (!L || !R || *R == 0)
      return std::nullopt;
    return X.Kind == ExprKind::CeilDiv ? (*L + *R - 1) / *R
           : X.Kind == ExprKind::Mod   ? *L % *R
                                       : *L / *R;
  }
  case ExprKind::Min:
    return Both([](std::int64_t A, std::int64_t B) { return A < B ? A : B; });
  case ExprKind::Max:
    return Both([](std::int64_t A, std::int64_t B) { return A > B ? A : B; });
  case ExprKind::Opaque:
    return std::nullopt;
  }
  return std::nullopt;
}

/// \p Base cut to the window \p Extents at \p Offsets: a top-level mode that
/// is one leaf keeps its stride and takes the window's extent; a nested mode
/// must be taken whole. None when the window cannot be represented or its
/// strides are run-time values.
std::optional<ComposedLayout> window(const Kernel &K, Storage Where,
                                     const LayoutText &Base,
                                     const std::vector<std::int64_t> &Extents,
                                     const std::vector<ExprId> &Offsets) {
  const Layout &L = Base.layout;
  if (L.shape.is_leaf() || L.rank() != static_cast<int>(Extents.size()))
    return std::nullopt;
  Layout Out;
  Int Offset = Base.has_offset ? Base.offset : Int(0);
  bool Known = Offset.is_constant();
  std::int64_t Sum = Known ? Offset.value : 0;
  for (int I = 0; I < L.rank(); ++I) {
    IntTuple S = L.shape.mode(I), D = L.stride.mode(I);
    // Strides known only at run time (a tensor of run-time extents): the
    // window's layout is not static; its shape alone is matched.
    for (int J = 0; J < D.leaf_count(); ++J)
      if (!D.leaf_at(J).is_constant())
        return std::nullopt;
    if (S.is_leaf()) {
      Out.shape.push_back(IntTuple(Extents[I]));
      Out.stride.push_back(D);
    } else {
      Result<std::int64_t> Size = product(S);
      if (!Size.ok() || *Size != Extents[I])
        return std::nullopt;
      Out.shape.push_back(S);
      Out.stride.push_back(D);
    }
    if (static_cast<std::size_t>(I) >= Offsets.size()) {
      Known = Known && Offsets.empty();
      continue;
    }
    std::optional<std::int64_t> At = fold(K, Offsets[I], 0);
    if (At && *At == 0)
      continue;
    if (!At || !D.is_leaf() || !D.leaf().is_constant()) {
      Known = false;
      continue;
    }
    Sum += *At * D.leaf().value;
  }
  // A window at a run-time position: the engine needs a static offset. In
  // global memory the offset is where a copy starts (a TMA box coordinate),
  // which no contract constrains statically, so the window is matched at
  // offset 0; elsewhere (a shared-memory window at a run-time offset) its
  // alignment would be a guess, so the layout is left out.
  if (!Known && Where != Storage::gmem)
    return std::nullopt;
  return ComposedLayout{Base.has_swizzle ? Base.swizzle : Swizzle{},
                        Int(Known ? Sum : 0), Out};
}

/// Where operand \p V of \p Op is written: an access range at the use (one
/// that is not the value's own range, which for a named value is its
/// declaration), a temporary's expression (a tile, a cast), else the call.
SourceRange operandRange(const Kernel &K, const Stmt &Op, ValueId V) {
  const Value *X = V < K.Values.size() ? &K.Values[V] : nullptr;
  for (const hir::Access &A : Op.Access.Accesses)
    if (A.Operand == V && A.Range.valid() &&
        (!X || A.Range.Begin != X->Range.Begin))
      return A.Range;
  if (X && X->Origin == ValueOrigin::Temporary && X->Range.valid())
    return X->Range;
  return Op.CallRange.valid() ? Op.CallRange : Op.Range;
}

bool hasParam(const Contract &C, std::string_view Name) {
  for (const ParamDef &D : C.params)
    if (D.name == Name)
      return true;
  return false;
}

bool written(const tf::Site &S, std::string_view Name) {
  for (const ParamArg &A : S.params)
    if (A.name == Name)
      return true;
  return false;
}

const SiteOperand *findOperand(const tf::Site &S, std::string_view Name) {
  for (const SiteOperand &O : S.operands)
    if (O.name == Name)
      return &O;
  return nullptr;
}

/// The one operand of \p S in \p Where, or -1 (none, or several).
int operandIn(const tf::Site &S, Storage Where) {
  int Found = -1;
  for (std::size_t I = 0; I < S.operands.size(); ++I)
    if (S.operands[I].storage == Where) {
      if (Found >= 0)
        return -1;
      Found = static_cast<int>(I);
    }
  return Found;
}

/// The parameters a copy's operands decide when its atom type does not fix
/// them (tf::nv::CopyAsyncTensor and tf::Copy have no template arguments):
/// the element type, the TMA direction from the storages and the TMA
/// swizzle mode from the shared-memory side's swizzle.
void decideParams(const Contract &C, HirSite &Out) {
  tf::Site &S = Out.S;
  const SiteOperand *Src = findOperand(S, "src");
  const SiteOperand *Dst = findOperand(S, "dst");
  if (!Src && !Dst)
    return;
  auto Decide = [&](Name N, const ParamValue &V) {
    if (hasParam(C, N.view()) && !written(S, N.view()) &&
        S.params.push_back({N, V}))
      Out.DecidedParams.emplace_back(N.view());
  };
  const SiteOperand *First = Src ? Src : Dst;
  Decide("dtype", ParamValue::of(First->dtype));
  bool Store = Src && Dst && Src->storage == Storage::smem &&
               Dst->storage == Storage::gmem;
  if (Src && Dst)
    Decide("direction", ParamValue::choose(Store ? "store" : "load"));
  const SiteOperand *Smem = Store ? Src : Dst;
  if (Smem && Smem->storage == Storage::smem &&
      Smem->kind != OperandLayoutKind::none)
    if (std::optional<ParamValue> Mode = tmaSwizzleMode(
            C, Smem->kind == OperandLayoutKind::composed ? Smem->layout.swizzle
                                                         : Swizzle{}))
      Decide("swizzle", *Mode);
}

} // namespace

std::optional<ParamValue> tmaSwizzleMode(const Contract &C, const Swizzle &S) {
  const ParamDef *Sw = detail::find_param(C, "swizzle");
  if (!Sw || Sw->choice_type != "SwizzleMode")
    return std::nullopt;
  for (SwizzleMode M : atoms::nv::sm90::tma_swizzle_modes)
    if (swizzle_for(M) == S)
      return ParamValue::choose(atoms::nv::sm90::swizzle_mode_name(M));
  return std::nullopt;
}

std::optional<std::int64_t> foldExpr(const Kernel &K, ExprId E) {
  return fold(K, E, 0);
}

std::optional<ShardLayout> registerShard(const Kernel &K, const Value &V) {
  const LayoutText &T = V.Type.Layout;
  if (V.Kind != ValueKind::Tensor || V.Type.Where != Storage::rmem ||
      !T.has_axes)
    return std::nullopt;
  StmtId At = V.Def != None ? V.Def : V.Scope;
  std::optional<Mesh> M = K.meshOf(At);
  if (!M)
    return std::nullopt;
  return ShardLayout{T.layout, T.axes, *M};
}

std::optional<SiteOperand> siteOperand(const Kernel &K, ValueId V, Name N) {
  if (V == None || V >= K.Values.size() || !hasType(K.Values[V]))
    return std::nullopt;
  const Value &X = K.Values[V];
  const TensorType &T = X.Type;
  SiteOperand O = site_operand(N, T.shape(), T.Element, T.Where);
  if (T.Where == Storage::rmem && T.Layout.has_axes) {
    std::optional<ShardLayout> Shard = X.Shard ? X.Shard : registerShard(K, X);
    if (Shard)
      return site_operand(N, O.shape, T.Element, T.Where, *Shard);
    return O;
  }
  // A window: the layout of the tensor it is a view of (or its own, when the
  // builder gave it the parent's layout), cut to the window.
  if (!T.WindowExtents.empty() || X.TileOf != None) {
    const bool Parent = X.TileOf != None && X.TileOf < K.Values.size() &&
                        hasType(K.Values[X.TileOf]);
    const LayoutText &Base = Parent ? K.Values[X.TileOf].Type.Layout : T.Layout;
    std::vector<std::int64_t> Extents = T.WindowExtents;
    if (Extents.empty())
      return O;
    std::optional<ComposedLayout> W = window(K, T.Where, Base, Extents, X.TileOffsets);
    if (!W)
      return O;
    return site_operand(N, O.shape, T.Element, T.Where, *W);
  }
  const LayoutText &L = T.Layout;
  if (L.has_swizzle || L.has_offset)
    return site_operand(N, O.shape, T.Element, T.Where,
                        ComposedLayout{L.has_swizzle ? L.swizzle : Swizzle{},
                                       L.has_offset ? L.offset : Int(0),
                                       L.layout});
  return site_operand(N, O.shape, T.Element, T.Where, L.layout);
}

int unitStrideMode(const Kernel &K, ValueId V) {
  if (V == None || V >= K.Values.size() || !hasType(K.Values[V]))
    return -1;
  const Value &X = K.Values[V];
  if (X.Type.Where != Storage::gmem)
    return -1;
  const bool Parent = X.TileOf != None && X.TileOf < K.Values.size() &&
                      hasType(K.Values[X.TileOf]);
  const Layout &L = (Parent ? K.Values[X.TileOf].Type.Layout : X.Type.Layout).layout;
  if (L.stride.is_leaf())
    return -1;
  int Found = -1;
  for (int I = 0; I < L.rank(); ++I) {
    const IntTuple D = L.stride.mode(I);
    if (!D.is_leaf() || !D.leaf().is_constant() || D.leaf().value != 1)
      continue;
    if (Found >= 0)
      return -1;
    Found = I;
  }
  return Found;
}

/// The innermost \p E elements of mode \p M (leaves outermost first; an
/// outer leaf cut to what is left), or none when \p E does not nest.
static std::optional<Layout> innerPart(const Layout &M, std::int64_t E) {
  std::vector<std::pair<Int, Int>> Kept;
  for (int I = M.shape.leaf_count() - 1; I >= 0 && E > 1; --I) {
    const Int X = M.shape.leaf_at(I);
    if (X.is_constant() && E % X.value == 0) {
      Kept.push_back({X, M.stride.leaf_at(I)});
      E /= X.value;
    } else if (X.is_dynamic() || X.value % E == 0) {
      Kept.push_back({Int(E), M.stride.leaf_at(I)});
      E = 1;
    } else {
      return std::nullopt;
    }
  }
  if (E != 1)
    return std::nullopt;
  Layout Out;
  if (Kept.empty())
    Kept.push_back({Int(1), Int(0)});
  if (Kept.size() == 1)
    return Layout{IntTuple(Kept[0].first), IntTuple(Kept[0].second)};
  for (auto It = Kept.rbegin(); It != Kept.rend(); ++It) {
    Out.shape.push_back(IntTuple(It->first));
    Out.stride.push_back(IntTuple(It->second));
  }
  return Out;
}

/// Global window \p V as its tensor's layout gives it (see
/// HirSite::GlobalWindow); empty when \p V is no global window.
static Layout globalWindow(const Kernel &K, ValueId V) {
  if (V == None || V >= K.Values.size() || !hasType(K.Values[V]))
    return {};
  const Value &X = K.Values[V];
  const std::vector<std::int64_t> &E = X.Type.WindowExtents;
  if (X.Type.Where != Storage::gmem || E.empty())
    return {};
  const bool Parent = X.TileOf != None && X.TileOf < K.Values.size() &&
                      hasType(K.Values[X.TileOf]);
  const Layout &L = (Parent ? K.Values[X.TileOf].Type : X.Type).Layout.layout;
  if (L.shape.is_leaf() || L.rank() != static_cast<int>(E.size()))
    return {};
  Layout Out;
  for (int I = 0; I < L.rank(); ++I) {
    std::optional<Layout> Part = innerPart(L.mode(I), E[I]);
    if (!Part)
      return {};
    Out.shape.push_back(Part->shape);
    Out.stride.push_back(Part->stride);
  }
  return Out;
}

/// Records \p V's unit-stride mode and window in \p Out when \p V is its
/// global operand.
static void noteGlobalOperand(const Kernel &K, ValueId V, HirSite &Out) {
  if (int Mode = unitStrideMode(K, V); Mode >= 0)
    Out.GlobalUnitMode = Mode;
  if (Layout W = globalWindow(K, V); !W.shape.is_leaf() && W.rank() > 0)
    Out.GlobalWindow = W;
}

/// A copy between a global tile and a tile of lower rank whose extra
/// leading modes have extent 1 (a batch of matrices' tile (1, BM, BK) into a
/// BM x BK slot): the global operand as the contract sees it, those modes
/// dropped -- the copy's dimensions are the lower-rank side's, and lowering
/// adds the unit modes back to the tensor map's box (unitLeadingModes).
static void dropUnitLeadingModes(HirSite &Out) {
  const int Gmem = operandIn(Out.S, Storage::gmem);
  if (Gmem < 0 || Out.S.operands.size() != 2)
    return;
  SiteOperand &G = Out.S.operands[static_cast<std::size_t>(Gmem)];
  const SiteOperand &Other = Out.S.operands[Gmem == 0 ? 1 : 0];
  if (G.shape.is_leaf() || Other.shape.is_leaf())
    return;
  const int Drop = G.shape.rank() - Other.shape.rank();
  if (Drop <= 0)
    return;
  for (int I = 0; I < Drop; ++I) {
    const IntTuple E = G.shape.mode(I);
    if (!E.is_leaf() || !E.leaf().is_constant() || E.leaf().value != 1)
      return;
  }
  IntTuple Shape;
  for (int I = Drop; I < G.shape.rank(); ++I)
    Shape.push_back(G.shape.mode(I));
  G.shape = Shape;
  if (G.kind != OperandLayoutKind::none && !G.layout.layout.shape.is_leaf() &&
      G.layout.layout.rank() == Drop + Shape.rank()) {
    Layout Kept;
    for (int I = Drop; I < Drop + Shape.rank(); ++I) {
      Kept.shape.push_back(G.layout.layout.shape.mode(I));
      Kept.stride.push_back(G.layout.layout.stride.mode(I));
    }
    G.layout.layout = Kept;
  }
  if (Out.GlobalUnitMode >= 0)
    Out.GlobalUnitMode =
        Out.GlobalUnitMode >= Drop ? Out.GlobalUnitMode - Drop : -1;
}

int unitLeadingModes(const Kernel &K, ValueId Tile, std::size_t CopyRank) {
  if (Tile == None || Tile >= K.Values.size())
    return 0;
  const std::vector<std::int64_t> &E = K.Values[Tile].Type.WindowExtents;
  if (E.size() <= CopyRank)
    return 0;
  const std::size_t Drop = E.size() - CopyRank;
  for (std::size_t I = 0; I < Drop; ++I)
    if (E[I] != 1)
      return 0;
  return static_cast<int>(Drop);
}

const Contract *contractOf(const Stmt &Op) {
  if (Op.Kind != StmtKind::Op || !Op.Sched)
    return nullptr;
  return find_contract(Op.Sched->ContractId);
}

bool buildSite(const Kernel &K, StmtId OpId, const targets::MergedTarget *Target,
               HirSite &Out) {
  if (OpId == None || OpId >= K.Stmts.size())
    return false;
  const Stmt &Op = K.Stmts[OpId];
  const Contract *C = contractOf(Op);
  if (!C)
    return false;
  std::optional<Mesh> M = K.meshOf(OpId);
  if (!M)
    return false;
  Out.Op = OpId;
  Out.C = C;
  Out.S = tf::Site{};
  Out.S.mesh = *M;
  if (StmtId Scope = K.meshScopeOf(OpId); Scope != None)
    Out.MeshSpelling = K.Stmts[Scope].MeshSpelling;
  else
    Out.UnscopedMesh = std::string(K.unscopedMeshText(OpId));
  const Schedule &Sched = *Op.Sched;
  for (const detail::AtomParam &P : Sched.Params)
    Out.S.params.push_back({P.name, P.value});
  for (std::int64_t R : Sched.Repeat)
    Out.S.repeat.push_back(R);

  // The contract's operand names, in the order the call passes them.
  std::vector<Name> Names;
  if (!C->atom_shape.is_leaf() && C->atom_shape.rank() == 3) {
    Names = {Name("C"), Name("A"), Name("B")};
  } else {
    for (const OperandPattern &P : C->operands) {
      bool Seen = false;
      for (const Name &N : Names)
        Seen = Seen || N == P.name;
      if (!Seen)
        Names.push_back(P.name);
    }
  }
  for (std::size_t I = 0; I < Op.Operands.size(); ++I) {
    ValueId V = Op.Operands[I];
    Name N = I < Names.size() ? Names[I] : Name("#" + std::to_string(I));
    SiteOperandSource Src{N, V, operandRange(K, Op, V), false};
    std::optional<SiteOperand> O = siteOperand(K, V, N);
    if (O)
      Out.S.operands.push_back(*O);
    else
      Src.Untyped = true;
    Out.Operands.push_back(Src);
    noteGlobalOperand(K, V, Out);
  }
  if (C->kind == AtomKind::copy)
    dropUnitLeadingModes(Out);
  decideParams(*C, Out);

  if (Target) {
    for (const targets::MergedFact &F : Target->Capabilities)
      if (F.F && Name::fits(F.F->Key))
        Out.Capabilities.push_back(Name(F.F->Key));
    Out.S.check_capabilities = true;
    Out.S.capabilities = List<Name>(Out.Capabilities.data(),
                                    Out.Capabilities.size());
    if (Target->Doc)
      Out.TargetId = Target->Doc->Id;
  }
  return true;
}

namespace {

/// The capabilities of \p Target into \p Out's site.
void addCapabilities(const targets::MergedTarget *Target, HirSite &Out) {
  if (!Target)
    return;
  for (const targets::MergedFact &F : Target->Capabilities)
    if (F.F && Name::fits(F.F->Key))
      Out.Capabilities.push_back(Name(F.F->Key));
  Out.S.check_capabilities = true;
  Out.S.capabilities =
      List<Name>(Out.Capabilities.data(), Out.Capabilities.size());
  if (Target->Doc)
    Out.TargetId = Target->Doc->Id;
}

/// Whether an access of kind \p Have serves a contract operand of access
/// \p Want; \p Exact: only the same kind.
bool serves(hir::AccessKind Have, tf::Access Want, bool Exact) {
  switch (Want) {
  case tf::Access::read:
    return Have == hir::AccessKind::Read;
  case tf::Access::write:
    return Have == hir::AccessKind::Write ||
           (!Exact && Have == hir::AccessKind::ReadWrite);
  case tf::Access::read_write:
    return Have == hir::AccessKind::ReadWrite ||
           (!Exact && Have == hir::AccessKind::Write);
  }
  return false;
}

/// Access \p A of \p Op as site operand \p N: the value, or the window of
/// it the access writes at its offsets.
std::optional<SiteOperand> accessOperand(const Kernel &K, const hir::Access &A,
                                         Name N) {
  if (A.Offsets.empty() || A.Extents.empty() || A.Operand == None ||
      A.Operand >= K.Values.size() || !hasType(K.Values[A.Operand]))
    return siteOperand(K, A.Operand, N);
  const TensorType &T = K.Values[A.Operand].Type;
  IntTuple Shape;
  for (std::int64_t E : A.Extents) {
    if (E < 0)
      return siteOperand(K, A.Operand, N);
    Shape.push_back(IntTuple(Int(E)));
  }
  std::optional<ComposedLayout> W =
      window(K, T.Where, T.Layout, A.Extents, A.Offsets);
  if (!W)
    return site_operand(N, Shape, T.Element, T.Where);
  return site_operand(N, Shape, T.Element, T.Where, *W);
}

} // namespace

bool buildCandidateSite(const Kernel &K, StmtId OpId, const Contract &C,
                        const targets::MergedTarget *Target, HirSite &Out) {
  if (OpId == None || OpId >= K.Stmts.size() ||
      K.Stmts[OpId].Kind != StmtKind::Op)
    return false;
  const Stmt &Op = K.Stmts[OpId];
  std::optional<Mesh> M = K.meshOf(OpId);
  if (!M)
    return false;
  Out.Op = OpId;
  Out.C = &C;
  Out.S = tf::Site{};
  Out.S.mesh = *M;
  if (StmtId Scope = K.meshScopeOf(OpId); Scope != None)
    Out.MeshSpelling = K.Stmts[Scope].MeshSpelling;
  else
    Out.UnscopedMesh = std::string(K.unscopedMeshText(OpId));

  // The contract's operands, once per name, in contract order; each takes
  // the first unused access that serves it exactly, else the first that
  // serves it.
  std::vector<const OperandPattern *> Patterns;
  for (const OperandPattern &P : C.operands) {
    bool Seen = false;
    for (const OperandPattern *Q : Patterns)
      Seen = Seen || Q->name == P.name;
    if (!Seen)
      Patterns.push_back(&P);
  }
  const std::vector<hir::Access> &Accesses = Op.Access.Accesses;
  std::vector<bool> Used(Accesses.size(), false);
  for (const OperandPattern *P : Patterns) {
    int Found = -1;
    for (bool Exact : {true, false}) {
      for (std::size_t I = 0; I < Accesses.size() && Found < 0; ++I)
        if (!Used[I] && serves(Accesses[I].Kind, P->access, Exact))
          Found = static_cast<int>(I);
      if (Found >= 0)
        break;
    }
    if (Found < 0)
      continue; // the engine reports the operand missing
    Used[Found] = true;
    const hir::Access &A = Accesses[Found];
    SiteOperandSource Src{P->name, A.Operand, operandRange(K, Op, A.Operand),
                          false};
    if (std::optional<SiteOperand> O = accessOperand(K, A, P->name))
      Out.S.operands.push_back(*O);
    else
      Src.Untyped = true;
    Out.Operands.push_back(Src);
    noteGlobalOperand(K, A.Operand, Out);
  }
  decideParams(C, Out);
  addCapabilities(Target, Out);
  return true;
}

//===- Boxes ---------------------------------------------------------------===//

namespace {

/// Engine matches one split may try (each candidate box costs one match
/// plus one per rest leaf): the search stops there, as if no box fitted.
constexpr int MaxBoxMatches = 256;
/// Candidate boxes kept by the search (compact row-major ones only).
constexpr std::size_t MaxBoxCandidates = 4096;

bool staticLayout(const Layout &L) {
  for (int I = 0; I < L.shape.leaf_count(); ++I)
    if (!L.shape.leaf_at(I).is_constant())
      return false;
  for (int I = 0; I < L.stride.leaf_count(); ++I)
    if (!L.stride.leaf_at(I).is_constant())
      return false;
  return true;
}

bool hasLayout(const SiteOperand &O) {
  return O.kind == OperandLayoutKind::layout ||
         O.kind == OperandLayoutKind::composed;
}


/// Mode \p M cut into pieces of \p A consecutive indices:
/// logical_divide(M, A:1) = (tile, rest), tile the first A indices (the
/// fastest), rest where each piece starts: (4,64):(1024,1) by 64 is tile
/// 64:1, rest 4:1024. None when the divide does not exist.
std::optional<std::pair<Layout, Layout>> cutMode(const Layout &M,
                                                 std::int64_t A) {
  Result<Layout> D = logical_divide(M, Layout{IntTuple(Int(A)), IntTuple(Int(1))});
  if (!D || D->shape.is_leaf() || D->rank() != 2)
    return std::nullopt;
  Layout Tile = D->mode(0), Rest = D->mode(1);
  Result<std::int64_t> N = size(Tile);
  if (!N || *N != A || !staticLayout(Tile) || !staticLayout(Rest))
    return std::nullopt;
  return std::pair{Tile, Rest};
}

/// The layout whose modes are \p Modes.
Layout joinModes(const std::vector<Layout> &Modes) {
  Layout Out;
  for (const Layout &M : Modes) {
    Out.shape.push_back(M.shape);
    Out.stride.push_back(M.stride);
  }
  return Out;
}

IntTuple extentsTuple(const std::vector<std::int64_t> &Extents) {
  IntTuple Out;
  for (std::int64_t E : Extents)
    Out.push_back(IntTuple(Int(E)));
  return Out;
}

/// A box that is compact row-major in shared memory.
struct BoxCandidate {
  std::vector<std::int64_t> Extents;
  std::vector<Layout> Tiles, Rests;
  std::int64_t Boxes = 1;
};

/// Every compact row-major box of \p Modes from mode \p I outwards, the
/// modes after I already cut in \p Cur with the next leaf's stride
/// \p Expect: each divisor a of mode I's extent whose tile continues the
/// chain (leaves innermost first with strides Expect, Expect * e, ...;
/// extent-1 leaves aside).
void searchBoxes(const std::vector<Layout> &Modes,
                 const std::vector<std::int64_t> &Extents, int I,
                 std::int64_t Expect, BoxCandidate &Cur,
                 std::vector<BoxCandidate> &Out) {
  if (Out.size() >= MaxBoxCandidates)
    return;
  if (I < 0) {
    Out.push_back(Cur);
    return;
  }
  const std::int64_t E = Extents[I];
  for (std::int64_t A = E; A >= 1; --A) {
    if (E % A != 0)
      continue;
    std::optional<std::pair<Layout, Layout>> Cut = cutMode(Modes[I], A);
    if (!Cut)
      continue;
    Result<FlatLeaves> F = flat_leaves(Cut->first);
    if (!F)
      continue;
    std::int64_t Next = Expect;
    bool Chain = true;
    for (int L = F->count - 1; L >= 0 && Chain; --L) {
      if (F->extent[L] == 1)
        continue;
      Chain = F->stride[L] == Next;
      Next *= F->extent[L];
    }
    if (!Chain)
      continue;
    Cur.Extents[I] = A;
    Cur.Tiles[I] = Cut->first;
    Cur.Rests[I] = Cut->second;
    const std::int64_t Before = Cur.Boxes;
    Cur.Boxes *= E / A;
    searchBoxes(Modes, Extents, I - 1, Next, Cur, Out);
    Cur.Boxes = Before;
  }
}

/// The box order of a copy of rank \p Rank whose global side has unit
/// stride in mode \p UnitMode (-1: unknown): that mode innermost, the
/// others in their order.
std::vector<int> boxOrder(int Rank, int UnitMode) {
  std::vector<int> Order;
  for (int I = 0; I < Rank; ++I)
    if (I != UnitMode)
      Order.push_back(I);
  if (UnitMode >= 0 && UnitMode < Rank)
    Order.push_back(UnitMode);
  return Order;
}

/// \p Values (one per dimension of the copy) in box order \p Order.
template <class T>
std::vector<T> toBoxOrder(const std::vector<T> &Values,
                          const std::vector<int> &Order) {
  std::vector<T> Out;
  for (int D : Order)
    Out.push_back(Values[D]);
  return Out;
}

/// \p Values (one per box dimension) back in the copy's order.
template <class T>
std::vector<T> fromBoxOrder(const std::vector<T> &Values,
                            const std::vector<int> &Order) {
  std::vector<T> Out(Values.size());
  for (std::size_t J = 0; J < Order.size(); ++J)
    Out[Order[J]] = Values[J];
  return Out;
}

/// \p Whole cut to one box of extents \p Extents (the copy's order) seen in
/// box order \p Order, whose shared-memory layout is \p Box (box order),
/// into \p Out; false when the global side cannot be cut.
bool cutSite(const HirSite &Whole, const std::vector<std::int64_t> &Extents,
             const std::vector<int> &Order, const ComposedLayout &Box,
             HirSite &Out) {
  copySite(Whole, Out);
  const int Smem = operandIn(Out.S, Storage::smem);
  const int Gmem = operandIn(Out.S, Storage::gmem);
  if (Smem < 0 || Gmem < 0 || Order.size() != Extents.size())
    return false;
  const IntTuple Shape = extentsTuple(toBoxOrder(Extents, Order));
  SiteOperand &S = Out.S.operands[Smem];
  S.shape = Shape;
  S.layout = Box;
  SiteOperand &G = Out.S.operands[Gmem];
  G.shape = Shape;
  if (!hasLayout(G))
    return true;
  const Layout &L = G.layout.layout;
  if (L.shape.is_leaf() || L.rank() != static_cast<int>(Extents.size()))
    return false;
  std::vector<Layout> Tiles;
  for (int I : Order) {
    std::optional<std::pair<Layout, Layout>> Cut = cutMode(L.mode(I), Extents[I]);
    if (!Cut)
      return false;
    Tiles.push_back(Cut->first);
  }
  G.layout.layout = joinModes(Tiles);
  return true;
}

/// Whether the engine's report on a box says nothing against the box: its
/// operands' shapes, layouts and limits (the other reasons are the same for
/// every box and are the check's).
bool boxFits(const Contract &C, const tf::Site &S) {
  MatchReport R = match(C, S);
  if (R.dropped > 0)
    return false;
  for (const Reason &Why : R.reasons)
    if (Why.kind == ReasonKind::operand_shape ||
        Why.kind == ReasonKind::operand_layout ||
        Why.kind == ReasonKind::operand_limit)
      return false;
  return true;
}

} // namespace

/// Copies \p From into \p To (HirSite is not copyable: its site views its
/// own capability list).
void copySite(const HirSite &From, HirSite &To) {
  To.Op = From.Op;
  To.C = From.C;
  To.S = From.S;
  To.Capabilities = From.Capabilities;
  To.Operands = From.Operands;
  To.DecidedParams = From.DecidedParams;
  To.MeshSpelling = From.MeshSpelling;
  To.UnscopedMesh = From.UnscopedMesh;
  To.TargetId = From.TargetId;
  To.GlobalUnitMode = From.GlobalUnitMode;
  To.GlobalWindow = From.GlobalWindow;
  To.S.capabilities = List<Name>(To.Capabilities.data(), To.Capabilities.size());
}

bool isTileRegisterCopy(const Contract &C) {
  return C.kind == AtomKind::copy &&
         llvm::any_of(C.operands, [](const OperandPattern &P) {
           return P.storage == Storage::amx_tile;
         });
}

bool isBoxCopy(const Contract &C) {
  if (C.kind != AtomKind::copy)
    return false;
  if (isTileRegisterCopy(C))
    return true;
  for (const OperandPattern &P : C.operands)
    if (P.storage == Storage::smem)
      for (const LayoutPattern &L : P.layouts)
        if (L.kind == LayoutPatternKind::row_major)
          return true;
  return false;
}

ResultType resultRule(const Stmt &Op) {
  ResultType Rule = opInfo(Op.Op).Result;
  if (Rule != ResultType::Scheduled)
    return Rule;
  const Contract *C = contractOf(Op);
  std::optional<OpKind> Performs = C ? scheduledOp(C->kind) : std::nullopt;
  return Performs ? opInfo(*Performs).Result : ResultType::None;
}

bool refusesExtents(const hir::Stmt &Op) {
  const Contract *C = contractOf(Op);
  if (!C || !Op.Sched->Match)
    return false;
  auto accumulates = [&](const Name &N) {
    return llvm::any_of(C->operands, [&](const OperandPattern &P) {
      return P.name == N && P.access == tf::Access::read_write;
    });
  };
  for (const Reason &Why : Op.Sched->Match->reasons)
    if ((C->kind == AtomKind::copy && Why.kind == ReasonKind::operand_shape) ||
        (C->kind == AtomKind::mma && Why.kind == ReasonKind::tile_mismatch &&
         accumulates(Why.subject)))
      return true;
  return false;
}

std::optional<BoxSplit> recordedSplit(const hir::Stmt &Op) {
  if (!Op.Sched || Op.Sched->BoxExtents.empty())
    return std::nullopt;
  const hir::Schedule &S = *Op.Sched;
  return BoxSplit{S.DerivedRepeat, S.BoxExtents, S.BoxOrder, S.BoxOffsets,
                  S.BoxLayout};
}

namespace {

/// One leaf of a tile copy seen on both sides: its extent and its stride in
/// the tile registers and in memory (a run-time stride stays dynamic).
struct PairedLeaf {
  std::int64_t Extent = 1;
  std::int64_t TileStride = 0;
  Int MemoryStride{};
};

/// The leaves of \p L, outermost first, as (extent, stride); none when an
/// extent is not a constant.
std::optional<std::vector<std::pair<std::int64_t, Int>>> leavesOf(const Layout &L) {
  std::vector<std::pair<std::int64_t, Int>> Out;
  if (L.shape.leaf_count() != L.stride.leaf_count())
    return std::nullopt;
  for (int I = 0; I < L.shape.leaf_count(); ++I) {
    if (!L.shape.leaf_at(I).is_constant())
      return std::nullopt;
    Out.push_back({L.shape.leaf_at(I).value, L.stride.leaf_at(I)});
  }
  return Out;
}

/// Mode \p T (tile side) and mode \p M (memory side) over the same
/// coordinates, their leaves refined to common extents, outermost first;
/// \p M holds at least T's elements: its innermost ones are paired. None
/// when the extents do not nest.
std::optional<std::vector<PairedLeaf>> pairLeaves(const Layout &T, const Layout &M) {
  auto A = leavesOf(T);
  auto B = leavesOf(M);
  if (!A || !B)
    return std::nullopt;
  // From the innermost leaf outwards, split the larger of the two leaves;
  // a split leaf's outer part steps by its stride times the inner extent.
  std::vector<PairedLeaf> Inner;
  while (!A->empty() && !B->empty()) {
    auto &[EA, SA] = A->back();
    auto &[EB, SB] = B->back();
    const std::int64_t E = std::min(EA, EB);
    if (E <= 0 || EA % E != 0 || EB % E != 0 || !SA.is_constant())
      return std::nullopt;
    Inner.push_back({E, SA.value, SB});
    EA /= E;
    SA = Int(SA.value * E);
    EB /= E;
    SB = SB.is_constant() ? Int(SB.value * E) : Int::dynamic();
    if (EA == 1)
      A->pop_back();
    if (EB == 1)
      B->pop_back();
  }
  if (!A->empty())
    return std::nullopt;
  return std::vector<PairedLeaf>(Inner.rbegin(), Inner.rend());
}

/// The bytes of one AMX tile register (palette 1: 16 rows of 64 bytes).
constexpr std::int64_t TileRegisterBytes = tf::atoms::intel::amx::tile_bytes;

/// The split of a tile-register copy (TILELOADD / TILESTORED) into one copy
/// per tile register: on the tile side, the leaves whose stride reaches a
/// whole register pick the register, and must be the outermost leaves of
/// their modes; the rest of each mode is one register's part.
std::optional<BoxSplit> splitIntoTileRegisters(const HirSite &Whole) {
  const int Tile = operandIn(Whole.S, Storage::amx_tile);
  if (Tile < 0)
    return std::nullopt;
  const SiteOperand &T = Whole.S.operands[Tile];
  if (!hasLayout(T) || T.shape.is_leaf() || !T.layout.offset.is_constant() ||
      !staticLayout(T.layout.layout))
    return std::nullopt;
  const Layout &L = T.layout.layout;
  const int Rank = T.shape.rank();
  const std::int64_t Bytes = bytes(T.dtype);
  if (L.shape.is_leaf() || L.rank() != Rank || Bytes <= 0)
    return std::nullopt;
  const std::int64_t PerRegister = TileRegisterBytes / Bytes;
  BoxSplit Out;
  std::vector<Layout> Tiles, Rests;
  for (int I = 0; I < Rank; ++I) {
    Result<FlatLeaves> F = flat_leaves(L.mode(I));
    Result<std::int64_t> N = size(L.mode(I));
    if (!F || !N || *N <= 0)
      return std::nullopt;
    std::int64_t Registers = 1;
    int First = 0;
    for (; First < F->count && F->stride[First] >= PerRegister &&
           F->stride[First] % PerRegister == 0;
         ++First)
      Registers *= F->extent[First];
    for (int K = First; K < F->count; ++K)
      if (F->extent[K] > 1 && F->stride[K] >= PerRegister)
        return std::nullopt; // a register leaf inside a register's rows
    std::optional<std::pair<Layout, Layout>> Cut = cutMode(L.mode(I), *N / Registers);
    if (!Cut)
      return std::nullopt;
    Out.Count.push_back(Registers);
    Out.Extents.push_back(*N / Registers);
    Out.Order.push_back(I);
    Tiles.push_back(Cut->first);
    Rests.push_back(Cut->second);
  }
  Out.Offsets = joinModes(Rests);
  Out.Box = ComposedLayout{T.layout.swizzle, T.layout.offset, joinModes(Tiles)};
  return Out;
}

/// \p Whole cut to one tile register's part (\p Split's box 0), seen in the
/// register's row order: the leaves of both sides ordered by their tile
/// stride, outermost first, and merged where both sides are contiguous, so
/// that TILELOADD's rows of bytes are the modes the contract names --
/// (r, c):(c, 1) in the register, (r, c):(s, 1) in memory. A VNNI-packed B
/// tile, ((16,2),16):((32,1),2) in the register, is (16,32):(32,1) there.
/// A copy moves elements, so reordering its leaves on both sides alike
/// changes nothing it does. None when the two sides' extents do not nest.
std::optional<std::vector<PairedLeaf>> registerRows(const HirSite &Whole,
                                                    const BoxSplit &Split) {
  const int Memory = operandIn(Whole.S, Storage::gmem);
  if (Memory < 0)
    return std::nullopt;
  const SiteOperand &M = Whole.S.operands[Memory];
  const Layout &Window = hasLayout(M) ? M.layout.layout : Whole.GlobalWindow;
  if (Window.shape.is_leaf() || Window.rank() != Split.Box.layout.rank())
    return std::nullopt;
  std::vector<PairedLeaf> Leaves;
  for (int I = 0; I < Split.Box.layout.rank(); ++I) {
    std::optional<std::vector<PairedLeaf>> P =
        pairLeaves(Split.Box.layout.mode(I), Window.mode(I));
    if (!P)
      return std::nullopt;
    for (const PairedLeaf &X : *P)
      if (X.Extent > 1)
        Leaves.push_back(X);
  }
  std::stable_sort(Leaves.begin(), Leaves.end(),
                   [](const PairedLeaf &A, const PairedLeaf &B) {
                     return A.TileStride > B.TileStride;
                   });
  std::vector<PairedLeaf> Rows;
  for (const PairedLeaf &X : Leaves) {
    const PairedLeaf *Outer = Rows.empty() ? nullptr : &Rows.back();
    if (Outer && Outer->TileStride == X.TileStride * X.Extent &&
        Outer->MemoryStride.is_constant() && X.MemoryStride.is_constant() &&
        Outer->MemoryStride.value == X.MemoryStride.value * X.Extent) {
      Rows.back() = {Outer->Extent * X.Extent, X.TileStride, X.MemoryStride};
      continue;
    }
    Rows.push_back(X);
  }
  if (Rows.empty())
    Rows.push_back({1, 1, Int(1)});
  if (Rows.size() == 1) // one row: (1, c)
    Rows.insert(Rows.begin(), {1, Rows[0].Extent * Rows[0].TileStride, Int(0)});
  return Rows;
}

/// \p Rows as the layouts of its two sides.
std::pair<Layout, Layout> rowLayouts(const std::vector<PairedLeaf> &Rows) {
  Layout TL, ML;
  for (const PairedLeaf &X : Rows) {
    TL.shape.push_back(IntTuple(Int(X.Extent)));
    TL.stride.push_back(IntTuple(Int(X.TileStride)));
    ML.shape.push_back(IntTuple(Int(X.Extent)));
    ML.stride.push_back(IntTuple(X.MemoryStride));
  }
  return {TL, ML};
}

void buildTileRegisterSite(const HirSite &Whole, const BoxSplit &Split,
                           HirSite &Out) {
  copySite(Whole, Out);
  std::optional<std::vector<PairedLeaf>> Rows = registerRows(Whole, Split);
  const int Tile = operandIn(Out.S, Storage::amx_tile);
  const int Memory = operandIn(Out.S, Storage::gmem);
  if (!Rows || Tile < 0 || Memory < 0)
    return;
  auto [TL, ML] = rowLayouts(*Rows);
  SiteOperand &T = Out.S.operands[Tile];
  SiteOperand &M = Out.S.operands[Memory];
  T.shape = TL.shape;
  T.layout = ComposedLayout{Split.Box.swizzle, Split.Box.offset, TL};
  M.shape = TL.shape;
  // The engine reads static strides; a run-time row stride (a tensor's
  // `?`) leaves it the shape, and tileRowsProblem the rows.
  if (staticLayout(ML)) {
    M.kind = OperandLayoutKind::layout;
    M.layout = ComposedLayout{Swizzle{}, Int(0), ML};
  } else {
    M.kind = OperandLayoutKind::none;
  }
}

} // namespace

std::optional<BoxSplit> splitIntoBoxes(const HirSite &Whole) {
  if (!Whole.C || !isBoxCopy(*Whole.C))
    return std::nullopt;
  if (isTileRegisterCopy(*Whole.C))
    return splitIntoTileRegisters(Whole);
  const int Smem = operandIn(Whole.S, Storage::smem);
  const int Gmem = operandIn(Whole.S, Storage::gmem);
  if (Smem < 0 || Gmem < 0)
    return std::nullopt;
  const SiteOperand &S = Whole.S.operands[Smem];
  const SiteOperand &G = Whole.S.operands[Gmem];
  if (!hasLayout(S) || S.shape.is_leaf() || !S.layout.offset.is_constant())
    return std::nullopt;
  const Layout &L = S.layout.layout;
  const int Rank = S.shape.rank();
  if (L.shape.is_leaf() || L.rank() != Rank || !staticLayout(L) ||
      (hasLayout(G) && !staticLayout(G.layout.layout)))
    return std::nullopt;
  // The copy's extents: the smem side's modes, which must be its shape's.
  std::vector<Layout> Modes;
  std::vector<std::int64_t> Extents;
  for (int I = 0; I < Rank; ++I) {
    Result<std::int64_t> N = size(L.mode(I));
    IntTuple E = S.shape.mode(I);
    if (!N || *N <= 0 || !E.is_leaf() || !E.leaf().is_constant() ||
        E.leaf().value != *N)
      return std::nullopt;
    Modes.push_back(L.mode(I));
    Extents.push_back(*N);
  }

  // The boxes are searched in box order: the global unit-stride mode is
  // the shared-memory box's contiguous one.
  const std::vector<int> Order = boxOrder(Rank, Whole.GlobalUnitMode);
  BoxCandidate Cur;
  Cur.Extents.assign(Rank, 1);
  Cur.Tiles.assign(Rank, Layout{});
  Cur.Rests.assign(Rank, Layout{});
  std::vector<BoxCandidate> Candidates;
  searchBoxes(toBoxOrder(Modes, Order), toBoxOrder(Extents, Order), Rank - 1,
              1, Cur, Candidates);
  // Fewest boxes first; among as many, the widest innermost extents.
  std::stable_sort(Candidates.begin(), Candidates.end(),
                   [](const BoxCandidate &A, const BoxCandidate &B) {
                     if (A.Boxes != B.Boxes)
                       return A.Boxes < B.Boxes;
                     return std::lexicographical_compare(
                         B.Extents.rbegin(), B.Extents.rend(),
                         A.Extents.rbegin(), A.Extents.rend());
                   });

  int Matches = 0;
  for (const BoxCandidate &X : Candidates) {
    if (Matches >= MaxBoxMatches)
      break;
    const ComposedLayout Box{S.layout.swizzle, S.layout.offset,
                             joinModes(X.Tiles)};
    const std::vector<std::int64_t> BoxExtents = fromBoxOrder(X.Extents, Order);
    HirSite Site;
    ++Matches;
    if (!cutSite(Whole, BoxExtents, Order, Box, Site) ||
        !boxFits(*Whole.C, Site.S))
      continue;
    // Every box starts where box 0's start plus the rests' strides put it:
    // one step along each rest leaf must fit too (alignment is additive).
    const Layout Offsets = joinModes(fromBoxOrder(X.Rests, Order));
    Result<FlatLeaves> Steps = flat_leaves(Offsets);
    bool All = Steps.ok();
    for (int K = 0; All && K < Steps->count; ++K) {
      if (Steps->extent[K] == 1)
        continue;
      ComposedLayout Next = Box;
      Next.offset = Int(Box.offset.value + Steps->stride[K]);
      HirSite Neighbour;
      ++Matches;
      All = cutSite(Whole, BoxExtents, Order, Next, Neighbour) &&
            boxFits(*Whole.C, Neighbour.S);
    }
    if (!All)
      continue;
    BoxSplit Out;
    Out.Extents = BoxExtents;
    Out.Order = Order;
    for (int I = 0; I < Rank; ++I)
      Out.Count.push_back(Extents[I] / BoxExtents[I]);
    Out.Offsets = Offsets;
    Out.Box = Box;
    return Out;
  }
  return std::nullopt;
}

std::optional<std::string> tileRowsProblem(const HirSite &Whole,
                                           const BoxSplit &Split) {
  std::optional<std::vector<PairedLeaf>> Rows = registerRows(Whole, Split);
  if (!Rows)
    return std::nullopt;
  const PairedLeaf &Inner = Rows->back();
  if (Rows->size() == 2 && Inner.MemoryStride.is_constant() &&
      Inner.MemoryStride.value == 1)
    return std::nullopt;
  if (staticLayout(rowLayouts(*Rows).second))
    return std::nullopt; // the engine refuses it, with the contract's words
  return to_string(rowLayouts(*Rows).second);
}

void buildBoxSite(const HirSite &Whole, const BoxSplit &Split, HirSite &Out) {
  if (Whole.C && isTileRegisterCopy(*Whole.C)) {
    buildTileRegisterSite(Whole, Split, Out);
    return;
  }
  if (!cutSite(Whole, Split.Extents, Split.Order, Split.Box, Out))
    copySite(Whole, Out);
}

} // namespace tf::analysis
