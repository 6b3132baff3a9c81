//===- plugin/analysis/Site.cpp - A tf::schedule op as the engine sees it -===//
//
// See Site.h. Operands take the contract's names: a tiled MMA's call
// operands (acc, lhs, rhs) are C, A and B; a copy's (src, dst) are src and
// dst; any other atom's are its contract's operand names in order. A ring
// operand contributes its slot type, a tile window the layout of the tensor
// it is a window of, cut to the window's extents and moved to its offsets.
//
//===----------------------------------------------------------------------===//

#include "analysis/Site.h"

#include "targets/TargetFacts.h"

#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/atoms/registry.hpp"

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
  case ExprKind::CeilDiv: {
    bool Ceil = X.Kind == ExprKind::CeilDiv;
    std::optional<std::int64_t> L = fold(K, X.Lhs, Depth + 1);
    std::optional<std::int64_t> R = fold(K, X.Rhs, Depth + 1);
    if (!L || !R || *R == 0)
      return std::nullopt;
    return Ceil ? (*L + *R - 1) / *R : *L / *R;
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
  const ParamDef *Sw = detail::find_param(C, "swizzle");
  if (Smem && Sw && Sw->choice_type == "SwizzleMode" &&
      Smem->storage == Storage::smem &&
      Smem->kind != OperandLayoutKind::none) {
    Swizzle Have = Smem->kind == OperandLayoutKind::composed
                       ? Smem->layout.swizzle
                       : Swizzle{};
    for (SwizzleMode M : atoms::nv::sm90::tma_swizzle_modes)
      if (swizzle_for(M) == Have) {
        Decide("swizzle",
               ParamValue::choose(atoms::nv::sm90::swizzle_mode_name(M)));
        break;
      }
  }
}

} // namespace

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
  }
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

} // namespace tf::analysis
