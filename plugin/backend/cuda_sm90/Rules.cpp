//===- plugin/backend/cuda_sm90/Rules.cpp - Lowering rules for sm_90 ------===//
//
// One rule per contract the cuda_sm90 backend lowers (CudaSm90.h), and the
// test of whether a site is one the rules serve. A rule reads what
// inference recorded on the op (the match, the TMA boxes) and the memory
// plan (views, backing); it acquires the rings and buffers the op hands
// over (pipeline synthesis adds the waits and releases) and selects the
// instructions.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/AccumulatorStore.h"
#include "backend/cuda_sm90/CudaSm90.h"
#include "backend/cuda_sm90/Forms.h"

#include "analysis/Candidates.h"
#include "analysis/Site.h"
#include "lower/Context.h"
#include "lower/sm90/Descriptor.h"
#include "lower/Fusion.h"
#include "lower/PipelineSynthesis.h"
#include "lower/sm90/Sm90.h"

#include "tf/atoms/generic/copy.hpp"
#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/atoms/nv/sm90/wgmma.hpp"
#include "tf/contract/print.hpp"
#include "tf/layout/mesh_text.hpp"

#include <map>
#include <optional>
#include <tuple>

namespace tf::backend::sm90 {

using namespace tf::lower;
using namespace tf::lower::sm90;
using hir::StmtId;
using hir::ValueId;
using plugin::DiagId;

namespace {

constexpr llvm::StringLiteral BackendName = "cuda_sm90";

/// Whether \p V is a window of a kernel parameter in global memory.
bool isParameterTile(const hir::Kernel &K, ValueId V) {
  const hir::Value &X = K.Values[V];
  return X.TileOf != hir::None &&
         K.Values[X.TileOf].Origin == hir::ValueOrigin::Parameter &&
         K.Values[X.TileOf].Type.Where == Storage::gmem;
}

/// Whether \p V is a whole shared-memory buffer (not a ring, not a window).
bool isBuffer(const hir::Kernel &K, ValueId V) {
  const hir::Value &X = K.Values[V];
  return X.Kind == hir::ValueKind::Tensor && X.Type.Where == Storage::smem &&
         X.TileOf == hir::None;
}

/// The value a copy into a ring or a buffer produced \p V from: the ring
/// or buffer, when \p V is such a copy's result.
ValueId backingOf(const hir::Kernel &K, ValueId V) {
  const hir::Value &X = K.Values[V];
  if (X.Def == hir::None)
    return hir::None;
  const hir::Stmt &S = K.Stmts[X.Def];
  if (S.Kind != hir::StmtKind::Op || !S.Sched || S.Operands.size() != 2 ||
      S.Result != V)
    return hir::None;
  const ValueId Dst = S.Operands[1];
  return K.Values[Dst].Kind == hir::ValueKind::Ring || isBuffer(K, Dst)
             ? Dst
             : hir::None;
}

Support yes(int Rank) { return {true, "", Rank}; }
Support no(std::string Why) { return {false, std::move(Why), 0}; }

/// The WGMMA site (under nv.sm90.Wgmma) that accumulates into \p Acc, or
/// null.
const hir::Stmt *accumulatingWgmma(const hir::Kernel &K, ValueId Acc) {
  for (const hir::Stmt &S : K.Stmts)
    if (S.Kind == hir::StmtKind::Op && S.Sched && S.Result == Acc &&
        analysis::contractOf(S) == &atoms::nv::sm90::wgmma)
      return &S;
  return nullptr;
}

/// The value a staging copy's source \p V is computed from: \p V after
/// the elementwise temporaries the store applies (fusion, lower/Fusion.h);
/// through an add, the operand that leads to a register tensor (the other
/// is what it adds, read from global memory).
ValueId stagedSource(const hir::Kernel &K, ValueId V) {
  if (V == hir::None || K.Values[V].Def == hir::None ||
      K.Values[V].Origin != hir::ValueOrigin::Temporary)
    return V;
  const hir::Stmt &Def = K.Stmts[K.Values[V].Def];
  if (Def.Kind != hir::StmtKind::Op || Def.Sched || Def.Operands.empty())
    return V;
  for (ValueId Operand : Def.Operands) {
    if (K.Values[Operand].Kind != hir::ValueKind::Tensor)
      continue;
    const ValueId Source = stagedSource(K, Operand);
    const hir::Value &X = K.Values[Source];
    if (X.Type.Where == Storage::rmem && X.TileOf == hir::None)
      return Source;
  }
  return stagedSource(K, Def.Operands[0]);
}

/// "a, b or c": the element types for which \p Written is true.
template <typename Pred> std::string typesWhere(Pred Written) {
  std::vector<std::string> Names;
  for (DType T : all_dtypes)
    if (Written(T))
      Names.push_back(std::string(name(T)));
  std::string Out;
  for (std::size_t I = 0; I < Names.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Names.size() ? " or " : ", ") + Names[I];
  return Out;
}

/// Why the WGMMA site \p S is not one the emitter writes (its element
/// types), or empty.
std::string wgmmaForm(const hir::Kernel &K, const hir::Stmt &S) {
  const char *Operand[] = {"A", "B"};
  for (int I = 0; I < 2; ++I) {
    const DType T = K.Values[backingOf(K, S.Operands[1 + I])].Type.Element;
    if (!wgmmaType(T))
      return std::string("cuda_sm90 writes WGMMA with ") +
             typesWhere([](DType X) { return wgmmaType(X) != nullptr; }) +
             " operands; operand " + Operand[I] + " is " +
             std::string(name(T));
  }
  const DType D = K.Values[S.Operands[0]].Type.Element;
  if (D != WgmmaAccumulator)
    return "cuda_sm90 writes WGMMA with an " +
           std::string(name(WgmmaAccumulator)) + " accumulator; this one is " +
           std::string(name(D));
  return "";
}

} // namespace

Support supports(const hir::Kernel &K, StmtId Op, const Contract &C) {
  const hir::Stmt &S = K.Stmts[Op];
  const auto &Ops = S.Operands;
  if (&C == &atoms::nv::sm90::copy_async_tensor) {
    if (Ops.size() != 2)
      return no("a TMA copy has a source and a destination");
    const bool Load = isParameterTile(K, Ops[0]) &&
                      K.Values[Ops[1]].Kind == hir::ValueKind::Ring;
    const bool Store = isParameterTile(K, Ops[1]) &&
                       backingOf(K, Ops[0]) != hir::None &&
                       isBuffer(K, backingOf(K, Ops[0]));
    if (!Load && !Store)
      return no("cuda_sm90 issues TMA copies of a kernel parameter's tile "
                "into a tf::Ring and of a staged shared-memory buffer into "
                "a kernel parameter's tile; this copy is neither");
    // A global side TMA cannot box (no unit stride, or none the shared
    // side agrees with) is the check's (err_tf_tma_box_order).
    return yes(2);
  }
  if (&C == &atoms::nv::sm90::wgmma) {
    if (Ops.size() != 3)
      return no("a WGMMA reads an accumulator and two operands");
    if (K.Values[Ops[0]].Type.Where != Storage::rmem)
      return no("cuda_sm90 accumulates WGMMA in registers; the accumulator "
                "is not a register tensor");
    for (int I = 1; I <= 2; ++I) {
      const ValueId B = backingOf(K, Ops[I]);
      if (B == hir::None || K.Values[B].Kind != hir::ValueKind::Ring)
        return no(std::string("cuda_sm90 reads WGMMA operand ") +
                  (I == 1 ? "A" : "B") +
                  " from a ring slot a TMA load filled (the SS form); this "
                  "operand is not one");
    }
    if (S.Sched && S.Sched->Match)
      if (const ParamValue *Form = S.Sched->Match->param("form");
          Form && Form->choice != "SS")
        return no("cuda_sm90 lowers the SS form of WGMMA (A and B in shared "
                  "memory); this site chooses form " +
                  std::string(Form->choice.view()));
    if (std::string Why = wgmmaForm(K, S); !Why.empty())
      return no(std::move(Why));
    return yes(2);
  }
  if (&C == &atoms::generic::copy) {
    if (Ops.size() == 2 && isBuffer(K, Ops[1]) &&
        K.Values[Ops[0]].Type.Where == Storage::rmem) {
      // A value an op without an instruction computes is refused when the
      // kernel is lowered (err_tf_lower_undecided), not a second time here.
      const ValueId Source = stagedSource(K, Ops[0]);
      bool Undecided = false;
      for (hir::StmtId Id = 0; Id < K.Stmts.size() && !Undecided; ++Id)
        Undecided = analysis::isUndecided(K, Id) &&
                    (K.Stmts[Id].Result == Source ||
                     llvm::is_contained(K.Stmts[Id].Operands, Source));
      if (!Undecided && !accumulatingWgmma(K, Source))
        return no("cuda_sm90 stages WGMMA accumulators (their registers "
                  "are the fragment it stores); " +
                  (K.Values[Source].Name.empty()
                       ? std::string("the stored value")
                       : "'" + K.Values[Source].Name + "'") +
                  " is accumulated by no nv.sm90.Wgmma");
      const DType Stored = K.Values[Ops[1]].Type.Element;
      if (!pairConversion(Stored))
        return no("cuda_sm90 stores accumulators as " +
                  typesWhere([](DType T) { return bool(pairConversion(T)); }) +
                  "; '" + K.Values[Ops[1]].Name + "' holds " +
                  std::string(name(Stored)));
      return yes(1);
    }
    return no("cuda_sm90 lowers generic.Copy only from a register tensor "
              "into a shared-memory buffer (the staged epilogue); this one "
              "copies " + std::string(name(K.Values[Ops[0]].Type.Where)) +
              " into " +
              (Ops.size() == 2
                   ? std::string(name(K.Values[Ops[1]].Type.Where))
                   : std::string("?")) +
              " (a global tile goes into shared memory by "
              "nv.sm90.CopyAsyncTensor, TMA)");
  }
  return no("cuda_sm90 has no lowering for " + std::string(C.id.view()) +
            "; it lowers nv.sm90.CopyAsyncTensor, nv.sm90.Wgmma and "
            "generic.Copy into a shared-memory buffer");
}

//===- TMA -----------------------------------------------------------------===//

namespace {

/// \p Values, one per dimension of a copy, in the box order of \p Sched.
template <class T>
std::vector<T> inBoxOrder(const std::vector<T> &Values,
                          const hir::Schedule &Sched) {
  std::vector<T> Out;
  for (int D : Sched.BoxOrder)
    Out.push_back(Values[D]);
  return Out;
}

/// The tensor map of the tensor \p Tile is a tile of, whose box is the
/// copy's boxes (\p Sched's) behind the tile's unit leading modes (a
/// batch's tile copied as a matrix: unitLeadingModes), outermost in the box
/// order.
unsigned tensorMap(LoweringContext &Ctx, ValueId Tile,
                   const hir::Schedule &Sched, SwizzleMode Mode) {
  Kernel &L = Ctx.L;
  const ValueId Tensor = Ctx.H.Values[Tile].TileOf;
  const int Units =
      analysis::unitLeadingModes(Ctx.H, Tile, Sched.BoxExtents.size());
  std::vector<std::int64_t> Box(static_cast<std::size_t>(Units), 1);
  std::vector<int> Order;
  for (int D = 0; D < Units; ++D)
    Order.push_back(D);
  for (std::int64_t E : inBoxOrder(Sched.BoxExtents, Sched))
    Box.push_back(E);
  for (int D : Sched.BoxOrder)
    Order.push_back(Units + D);
  for (unsigned I = 0; I < L.Maps.size(); ++I)
    if (L.Maps[I].Value == Tensor && L.Maps[I].Box == Box &&
        L.Maps[I].Order == Order && L.Maps[I].Swizzle == Mode)
      return I;
  TensorMap M;
  M.Tensor = Ctx.H.Values[Tensor].Name;
  M.Value = Tensor;
  M.Element = Ctx.H.Values[Tensor].Type.Element;
  M.Box = std::move(Box);
  M.Order = std::move(Order);
  M.Swizzle = Mode;
  L.Maps.push_back(std::move(M));
  return static_cast<unsigned>(L.Maps.size() - 1);
}

/// Box \p Index (row-major over \p Count) as per-dimension indices.
std::vector<std::int64_t> boxCoord(std::int64_t Index,
                                   const std::vector<std::int64_t> &Count) {
  std::vector<std::int64_t> Out(Count.size());
  for (std::size_t D = Count.size(); D-- > 0;) {
    Out[D] = Index % Count[D];
    Index /= Count[D];
  }
  return Out;
}

SwizzleMode swizzleOf(const hir::Value &V) {
  const LayoutText &T = V.Type.Layout;
  return swizzleModeOf(T.has_swizzle ? T.swizzle : Swizzle{})
      .value_or(SwizzleMode::none);
}

/// The atom call of the site \p S (contract and recorded parameters),
/// performed by every thread of role \p R.
AtomCallStmt atomCall(LoweringContext &Ctx, const hir::Stmt &S, int R) {
  AtomCallStmt Call;
  Call.Contract = S.Sched->ContractId;
  if (S.Sched->Match)
    for (const ResolvedParam &P : S.Sched->Match->params)
      Call.Params.push_back(std::string(P.name.view()) + "=" +
                            to_string(P.value));
  Call.Threads = Ctx.Roles[R].threads();
  return Call;
}

/// One TMA atom call per box of the copy (inference's split), each at its
/// global coordinates and its byte offset in the shared-memory view
/// \p Shared; \p Proto holds the call's encoding but the box's bytes.
void issueBoxes(LoweringContext &Ctx, const hir::Stmt &S, int R,
                ValueId Tile, unsigned Map, const OperandView &Shared,
                const Tma &Proto, std::vector<InstId> &Out) {
  const hir::Schedule &Sched = *S.Sched;
  const hir::Value &T = Ctx.H.Values[Tile];
  const DType Element = T.Type.Element;
  Kernel &L = Ctx.L;
  std::int64_t Boxes = 1, BoxElements = 1;
  for (std::int64_t C : Sched.DerivedRepeat)
    Boxes *= C;
  for (std::int64_t E : Sched.BoxExtents)
    BoxElements *= E;
  // The tile's unit leading modes (a batch's index) come first, as in the
  // tensor map (whose box has them beside the copy's dimensions).
  const int Units = static_cast<int>(L.Maps[Map].Box.size() -
                                     Sched.BoxExtents.size());
  auto offset = [&](std::size_t D) {
    return D < T.TileOffsets.size() ? Ctx.expr(T.TileOffsets[D], S.Range)
                                    : L.constant(0);
  };
  for (std::int64_t B = 0; B < Boxes; ++B) {
    std::vector<std::int64_t> At = boxCoord(B, Sched.DerivedRepeat);
    OperandView Global;
    Global.Place = OperandPlace::Global;
    Global.Map = Map;
    IntTuple Crd;
    std::vector<ExprId> Coords;
    for (std::size_t D = 0; D < At.size(); ++D) {
      Crd.push_back(IntTuple(At[D]));
      const ExprId Base = offset(static_cast<std::size_t>(Units) + D);
      Coords.push_back(
          At[D] == 0 ? Base
                     : L.binary(ExprKind::Add, Base,
                                L.constant(At[D] * Sched.BoxExtents[D])));
    }
    for (int D = 0; D < Units; ++D)
      Global.Coords.push_back(offset(static_cast<std::size_t>(D)));
    for (ExprId C : inBoxOrder(Coords, Sched))
      Global.Coords.push_back(C);
    Result<std::int64_t> Offset = evaluate(Sched.BoxOffsets, Crd);
    if (!Offset) {
      Ctx.refuse(DiagId::err_tf_lower_op, LoweringContext::at(S),
                 {Ctx.opText(S), BackendName.str(),
                  "the boxes' shared-memory offsets are not static"});
      return;
    }
    OperandView Box = Shared;
    Box.Offset = *Offset * bytes(Element);
    AtomCallStmt Call = atomCall(Ctx, S, R);
    Global.Name = Proto.Store ? "dst" : "src";
    Box.Name = Proto.Store ? "src" : "dst";
    Call.Operands = Proto.Store ? std::vector{Box, Global}
                                : std::vector{Global, Box};
    auto Enc = std::make_unique<Tma>(Proto);
    Enc->Bytes = BoxElements * bytes(Element);
    // A multicast tile's boxes are shared out: box B from cluster rank
    // B mod c, each into every CTA of the cluster.
    Enc->Issuer = B % Proto.Multicast;
    Call.Target = ExtensionPtr(std::move(Enc));
    Ctx.add(std::move(Call), S, Out);
  }
}

/// Whether HIR expression \p E reads index value \p V, directly or through
/// the lets it reads.
bool readsIndex(const hir::Kernel &K, hir::ExprId E, ValueId V,
                unsigned Depth = 0) {
  if (E == hir::None || Depth > 64)
    return false;
  const hir::Expr &X = K.Exprs[E];
  if (X.Kind == hir::ExprKind::Ref)
    return X.Ref == V ||
           readsIndex(K, K.Values[X.Ref].Init, V, Depth + 1);
  return readsIndex(K, X.Lhs, V, Depth + 1) ||
         readsIndex(K, X.Rhs, V, Depth + 1);
}

/// The tile loop's row index (`m` of persistent_tiles), or None.
ValueId tileRowIndex(const hir::Kernel &K) {
  for (const hir::Stmt &S : K.Stmts)
    if (S.Kind == hir::StmtKind::Loop &&
        S.Loop != hir::LoopKind::TileOffsets && !S.Indices.empty())
      return S.Indices[0];
  return hir::None;
}

/// The CTAs a load is multicast to (its site's `multicast`), after checking
/// that they are its cluster's and that every CTA of the cluster reads the
/// same tile; 0 when refused.
std::int64_t checkedMulticast(LoweringContext &Ctx, const hir::Stmt &S,
                              ValueId Tile) {
  const std::int64_t Ctas = LoweringContext::multicastOf(S);
  if (Ctas == 1)
    return 1;
  auto Refuse = [&](const std::string &Why) {
    Ctx.refuse(DiagId::err_tf_lower_op, LoweringContext::at(S),
               {Ctx.opText(S) + " with multicast=" + std::to_string(Ctas),
                BackendName.str(), Why});
    return 0;
  };
  if (Ctas != Ctx.L.ClusterCtas)
    return Refuse(
        "a multicast load reaches the CTAs of one cluster, and its tile "
        "loop runs " +
        (Ctx.L.ClusterCtas == 1
             ? std::string("one CTA per cluster; write persistent_tiles' "
                           "option .cluster = ") +
                   std::to_string(Ctas)
             : "clusters of " + std::to_string(Ctx.L.ClusterCtas) +
                   " CTAs; multicast to all of them"));
  const ValueId Row = tileRowIndex(Ctx.H);
  for (hir::ExprId E : Ctx.H.Values[Tile].TileOffsets)
    if (readsIndex(Ctx.H, E, Row))
      return Refuse(
          "its tile's offsets read the tile row '" + Ctx.H.Values[Row].Name +
          "', which differs between the CTAs of a cluster (they take "
          "neighbouring rows); multicast a tile every CTA of the cluster "
          "reads, such as B's (k, n * BN)");
  return Ctas;
}

void lowerLoad(LoweringContext &Ctx, const hir::Stmt &S, Selection &Sel) {
  const ValueId Tile = S.Operands[0], Ring = S.Operands[1];
  if (!Ctx.Views.count(Ring) || S.Sched->BoxExtents.empty())
    return; // the memory plan or inference refused it
  const unsigned Map =
      tensorMap(Ctx, Tile, *S.Sched, swizzleOf(Ctx.H.Values[Ring]));
  const BufferUse &U = acquire(Ctx, Sel, Ring, Handoff::AsyncFill);
  // Refused after the ring is acquired: its readers' handoff stays whole,
  // so the refusal is the one error.
  const std::int64_t Multicast = checkedMulticast(Ctx, S, Tile);
  if (Multicast == 0)
    return;
  Tma Load;
  Load.Bar = U.Full;
  Load.Slot = U.Slot;
  Load.Clock = U.Clock;
  Load.Multicast = Multicast;
  OperandView Shared;
  Shared.View = Ctx.Views[Ring];
  Shared.Ring = Ring;
  Shared.Slot = U.Slot;
  issueBoxes(Ctx, S, Sel.Role, Tile, Map, Shared, Load, Sel.Body);
}

void lowerStore(LoweringContext &Ctx, const hir::Stmt &S, Selection &Sel) {
  const ValueId Staged = S.Operands[0], Tile = S.Operands[1];
  auto It = Ctx.Backing.find(Staged);
  if (It == Ctx.Backing.end() || !Ctx.Views.count(It->second) ||
      S.Sched->BoxExtents.empty())
    return; // refused by the support check or the memory plan
  const ValueId Buffer = It->second;
  const unsigned Map =
      tensorMap(Ctx, Tile, *S.Sched, swizzleOf(Ctx.H.Values[Buffer]));
  acquire(Ctx, Sel, Buffer, Handoff::Read);
  Tma Store;
  Store.Store = true;
  OperandView Shared;
  Shared.View = Ctx.Views[Buffer];
  issueBoxes(Ctx, S, Sel.Role, Tile, Map, Shared, Store, Sel.Body);
  Ctx.add(std::make_unique<BulkCommit>(), S, Sel.Body);
  // The buffer may be overwritten once the stores have read it (.read:
  // their global writes need not be done).
  Ctx.add(std::make_unique<BulkWaitRead>(), S, Sel.Body);
}

/// Refuses \p S unless the backend supports it; true when it does.
bool supported(LoweringContext &Ctx, StmtId Op, const Contract &C) {
  const Support Sup = supports(Ctx.H, Op, C);
  if (!Sup.Lowerable)
    Ctx.refuse(DiagId::err_tf_lower_op,
               LoweringContext::at(Ctx.H.Stmts[Op]),
               {Ctx.opText(Ctx.H.Stmts[Op]) + " as " + std::string(C.id.view()),
                BackendName.str(), Sup.Why});
  return Sup.Lowerable;
}

} // namespace

void lowerTmaCopy(LoweringContext &Ctx, StmtId Op, Selection &Sel) {
  if (!supported(Ctx, Op, atoms::nv::sm90::copy_async_tensor))
    return;
  const hir::Stmt &S = Ctx.H.Stmts[Op];
  if (Ctx.H.Values[S.Operands[1]].Kind == hir::ValueKind::Ring)
    lowerLoad(Ctx, S, Sel);
  else
    lowerStore(Ctx, S, Sel);
}

//===- WGMMA ---------------------------------------------------------------===//

void lowerWgmma(LoweringContext &Ctx, StmtId Op, Selection &Sel) {
  if (!supported(Ctx, Op, atoms::nv::sm90::wgmma))
    return;
  const hir::Stmt &S = Ctx.H.Stmts[Op];
  const MatchReport *R = S.Sched->Match ? &*S.Sched->Match : nullptr;
  const OperandFragment *FA = R ? R->fragment("A") : nullptr;
  const OperandFragment *FB = R ? R->fragment("B") : nullptr;
  if (!R || !R->accepted || !R->repeat.derived || !FA || !FB) {
    Ctx.internalError(LoweringContext::at(S),
                      "the WGMMA site reached lowering without an accepted "
                      "match recorded by inference");
    return;
  }
  ValueId Rings[2];
  for (int I = 0; I < 2; ++I)
    Rings[I] = backingOf(Ctx.H, S.Operands[1 + I]);
  const BufferUse UA = acquire(Ctx, Sel, Rings[0], Handoff::Read);
  const BufferUse UB = acquire(Ctx, Sel, Rings[1], Handoff::Read);

  Ctx.add(std::make_unique<WgmmaFence>(), S, Sel.Body);
  const DType TA = Ctx.H.Values[Rings[0]].Type.Element;
  const DType TB = Ctx.H.Values[Rings[1]].Type.Element;
  const ParamValue *MajorA = R->param("a_major"), *MajorB = R->param("b_major");
  const MmaAtom Atom{R->repeat.atom[0], R->repeat.atom[1], R->repeat.atom[2],
                     TA, TB, Ctx.H.Values[S.Operands[0]].Type.Element};
  const std::int64_t *Count = R->repeat.count, *Spatial = R->repeat.spatial;
  const std::int64_t PerGroup = Count[0] / Spatial[0];
  // The warpgroups run one sequence: warpgroup g's instructions are
  // warpgroup 0's with the operand starts g times a fixed offset further,
  // so the emitted code has no branch around the WGMMAs (ptxas serialises
  // WGMMAs under a branch, warning C7520). Warpgroup 0's descriptors by
  // (block, k-step, N block), and the offsets per warpgroup.
  std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>,
           std::pair<SmemDescriptor, SmemDescriptor>>
      GroupZero;
  std::optional<std::pair<std::int64_t, std::int64_t>> GroupStride;
  bool OneSequence = true;
  for (std::int64_t KK = 0; KK < Count[2]; ++KK)
    for (std::int64_t MI = 0; MI < Count[0]; ++MI)
      for (std::int64_t NJ = 0; NJ < Count[1]; ++NJ) {
        llvm::Expected<SmemDescriptor> DA = wgmmaDescriptor(*FA, TA, {MI, KK});
        llvm::Expected<SmemDescriptor> DB = wgmmaDescriptor(*FB, TB, {KK, NJ});
        if (!DA || !DB) {
          Ctx.refuse(DiagId::err_tf_lower_descriptor, LoweringContext::at(S),
                     {DA ? "B" : "A",
                      llvm::toString(DA ? DB.takeError() : DA.takeError())});
          if (DA)
            continue;
          llvm::consumeError(DB.takeError());
          continue;
        }
        auto W = std::make_unique<Wgmma>();
        W->Atom = Atom;
        W->Axis = std::string(R->repeat.spatial_axis[0].view());
        W->AxisValue = MI / PerGroup;
        W->KStep = KK;
        W->TransA = MajorA && MajorA->choice == "MN";
        W->TransB = MajorB && MajorB->choice == "MN";
        W->A = *DA;
        W->B = *DB;
        if (W->AxisValue == 0) {
          GroupZero[{MI, KK, NJ}] = {W->A, W->B};
        } else if (auto Zero = GroupZero.find({MI % PerGroup, KK, NJ});
                   OneSequence && Zero != GroupZero.end()) {
          const auto &[A0, B0] = Zero->second;
          if (!GroupStride)
            GroupStride = {(W->A.Start - A0.Start) / W->AxisValue,
                           (W->B.Start - B0.Start) / W->AxisValue};
          SmemDescriptor A = W->A, B = W->B;
          A.Start -= W->AxisValue * GroupStride->first;
          B.Start -= W->AxisValue * GroupStride->second;
          if (!(A == A0 && B == B0)) {
            OneSequence = false;
            Ctx.refuse(DiagId::err_tf_lower_op, LoweringContext::at(S),
                       {Ctx.opText(S) + " as " + S.Sched->ContractId,
                        BackendName.str(),
                        "the warpgroups on '" + W->Axis +
                            "' cannot issue one WGMMA sequence: warpgroup " +
                            std::to_string(W->AxisValue) +
                            "'s operands are not warpgroup 0's moved by a "
                            "fixed offset per warpgroup; lay out A's M "
                            "blocks and B's N blocks at a constant stride"});
          }
        }
        AtomCallStmt Call = atomCall(Ctx, S, Sel.Role);
        Call.Threads = Ctx.Roles[Sel.Role].threads() / Spatial[0];
        OperandView A, B, C;
        A.Name = "A";
        A.Ring = Rings[0];
        A.Slot = UA.Slot;
        B.Name = "B";
        B.Ring = Rings[1];
        B.Slot = UB.Slot;
        C.Name = "C";
        C.Place = OperandPlace::Registers;
        C.Fragment = S.Result;
        C.Block = (MI % PerGroup) * Count[1] + NJ;
        Call.Operands = {A, B, C};
        Call.Target = ExtensionPtr(std::move(W));
        Ctx.add(std::move(Call), S, Sel.Body);
      }
  Ctx.add(std::make_unique<WgmmaCommit>(), S, Sel.Body);
  // The slots are released only once the wgmmas reading them are done.
  Ctx.add(std::make_unique<WgmmaWait>(), S, Sel.Body);
}

//===- The staged epilogue -------------------------------------------------===//

void lowerStagingCopy(LoweringContext &Ctx, StmtId Op, Selection &Sel) {
  if (!supported(Ctx, Op, atoms::generic::copy))
    return;
  const hir::Stmt &S = Ctx.H.Stmts[Op];
  auto Chain = Ctx.Fused.find(Op);
  const ValueId Buffer = S.Operands[1];
  if (Chain == Ctx.Fused.end() || !Ctx.Views.count(Buffer))
    return; // fusion or the memory plan refused it
  // The buffer is this op's to fill even when it is refused below, so that
  // its reader is not reported as waiting on a buffer nothing fills.
  acquire(Ctx, Sel, Buffer, Handoff::SyncFill);
  const ValueId Src = Chain->second.Source;
  const hir::Value &V = Ctx.H.Values[Src];
  if (V.Type.Where != Storage::rmem || !V.Shard) {
    Ctx.refuse(DiagId::err_tf_lower_op, LoweringContext::at(S),
               {Ctx.opText(S), BackendName.str(),
                "the staged value " + Ctx.valueName(Src) +
                    " is not a register tensor distributed over the "
                    "scope's threads"});
    return;
  }
  // The store rounds f32 to the types it can store (Forms.h), so do the
  // casts on the way.
  for (hir::StmtId Fused : Chain->second.Ops) {
    const hir::Stmt &F = Ctx.H.Stmts[Fused];
    if (F.Op == hir::OpKind::Cast && !pairConversion(F.CastTo))
      Ctx.refuse(DiagId::err_tf_lower_fusion, LoweringContext::at(F),
                 {Ctx.opText(F), BackendName.str(),
                  "it rounds f32 only to " +
                      typesWhere([](DType T) { return bool(pairConversion(T)); }) +
                      " in a fragment, not to " + std::string(name(F.CastTo))});
  }
  // What the adds read, each thread from global memory as f32.
  for (const auto &[Add, X] : Chain->second.Added) {
    const hir::Value &Tensor = Ctx.H.Values[Ctx.H.Values[X.Tile].TileOf];
    if (!loadedType(Tensor.Type.Element))
      Ctx.refuse(DiagId::err_tf_lower_fusion,
                 LoweringContext::at(Ctx.H.Stmts[Add]),
                 {Ctx.opText(Ctx.H.Stmts[Add]), BackendName.str(),
                  "it reads " + Ctx.valueName(Ctx.H.Values[X.Tile].TileOf) +
                      ", whose elements are " +
                      std::string(name(Tensor.Type.Element)) +
                      "; a fragment reads " +
                      typesWhere([](DType T) { return loadedType(T) != nullptr; }) +
                      " elements from global memory"});
    for (hir::StmtId Fused : X.Ops) {
      const hir::Stmt &F = Ctx.H.Stmts[Fused];
      if (F.Op == hir::OpKind::Cast && !pairConversion(F.CastTo))
        Ctx.refuse(DiagId::err_tf_lower_fusion, LoweringContext::at(F),
                   {Ctx.opText(F), BackendName.str(),
                    "it rounds f32 only to " +
                        typesWhere([](DType T) { return bool(pairConversion(T)); }) +
                        " in a fragment, not to " + std::string(name(F.CastTo))});
    }
  }
  // Each thread stores its accumulator registers where the view's layout
  // puts them: the layout must be a per-thread base plus a constant per
  // register pair (AccumulatorStore.h).
  const hir::Stmt *Mma = accumulatingWgmma(Ctx.H, Src);
  if (!Mma || !Mma->Sched->Match) {
    Ctx.internalError(LoweringContext::at(S),
                      "the staged accumulator reached lowering without the "
                      "WGMMA match that computes it");
    return;
  }
  const RepeatDerivation &Repeat = Mma->Sched->Match->repeat;
  // The accumulator's registers as the WGMMA contract numbers them, read
  // from the fragment of C the match recorded.
  llvm::Expected<RegisterFragment> Registers = RegisterFragment::fromMatch(
      atoms::nv::sm90::wgmma, *Mma->Sched->Match, "C");
  if (!Registers) {
    Ctx.internalError(LoweringContext::at(S),
                      llvm::toString(Registers.takeError()));
    return;
  }
  const Region &View = Ctx.L.Regions[Ctx.Views[Buffer]];
  // Each warpgroup's blocks, as lowerWgmma numbers them.
  const AccumulatorBlocks Blocks{Repeat.count[0] / Repeat.spatial[0],
                                 Repeat.count[1]};
  if (llvm::Expected<AccumulatorStore> Placed =
          accumulatorStore(View, *Registers, Blocks, Repeat.spatial[0]);
      !Placed) {
    Ctx.refuse(DiagId::err_tf_lower_op, LoweringContext::at(S),
               {Ctx.opText(S) + " as " + S.Sched->ContractId,
                BackendName.str(), llvm::toString(Placed.takeError())},
               {{DiagId::note_tf_derived,
                 Ctx.H.Values[Buffer].Range,
                 {Ctx.valueName(Buffer) + " is laid out as " + View.Layout},
                 {},
                 {}}});
    return;
  }
  StoreFragmentStmt Store;
  Store.Acc = Src;
  Store.Shard = to_string(*V.Shard);
  Store.Registers = std::move(*Registers);
  Store.Blocks = Blocks;
  Store.CastTo = Chain->second.StoredAs;
  Store.Epilogue = fragmentOps(Ctx, Chain->second);
  // The store's own conversion rounds to the stored type: a last cast to
  // it is that conversion.
  if (!Store.Epilogue.empty() &&
      Store.Epilogue.back().Op == ElementwiseOp::Cast &&
      Store.Epilogue.back().To == Store.CastTo)
    Store.Epilogue.pop_back();
  Store.View = Ctx.Views[Buffer];
  Ctx.add(std::move(Store), S, Sel.Body);
}

} // namespace tf::backend::sm90
