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
#include "backend/cuda_sm90/CudaSm90.h"

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

/// Whether the innermost stride of parameter \p P is the static 1 that a
/// TMA tensor map assumes.
bool innermostContiguous(const hir::Kernel &K, ValueId P) {
  const Layout &L = K.Values[P].Type.Layout.layout;
  IntTuple Strides = L.stride;
  while (!Strides.is_leaf())
    Strides = Strides.mode(Strides.rank() - 1);
  return Strides.leaf().is_constant() && Strides.leaf().value == 1;
}

Support yes(int Rank) { return {true, "", Rank}; }
Support no(std::string Why) { return {false, std::move(Why), 0}; }

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
    const ValueId Param = K.Values[Load ? Ops[0] : Ops[1]].TileOf;
    if (!innermostContiguous(K, Param))
      return no("the innermost stride of " + K.Values[Param].Name +
                " is not the constant 1 a TMA tensor map needs (" +
                K.Values[Param].Type.Spelling +
                "); write its layout with a unit innermost stride");
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
    return yes(2);
  }
  if (&C == &atoms::generic::copy) {
    if (Ops.size() == 2 && isBuffer(K, Ops[1]) &&
        K.Values[Ops[0]].Type.Where == Storage::rmem)
      return yes(1);
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

unsigned tensorMap(LoweringContext &Ctx, ValueId Tensor,
                   const hir::Schedule &Sched, SwizzleMode Mode) {
  Kernel &L = Ctx.L;
  for (unsigned I = 0; I < L.Maps.size(); ++I)
    if (L.Maps[I].Value == Tensor && L.Maps[I].Box == Sched.BoxExtents &&
        L.Maps[I].Swizzle == Mode)
      return I;
  TensorMap M;
  M.Tensor = Ctx.H.Values[Tensor].Name;
  M.Value = Tensor;
  M.Element = Ctx.H.Values[Tensor].Type.Element;
  M.Box = Sched.BoxExtents;
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
  for (std::int64_t B = 0; B < Boxes; ++B) {
    std::vector<std::int64_t> At = boxCoord(B, Sched.DerivedRepeat);
    OperandView Global;
    Global.Place = OperandPlace::Global;
    Global.Map = Map;
    IntTuple Crd;
    for (std::size_t D = 0; D < At.size(); ++D) {
      Crd.push_back(IntTuple(At[D]));
      ExprId Base = D < T.TileOffsets.size()
                        ? Ctx.expr(T.TileOffsets[D], S.Range)
                        : L.constant(0);
      Global.Coords.push_back(
          At[D] == 0 ? Base
                     : L.binary(ExprKind::Add, Base,
                                L.constant(At[D] * Sched.BoxExtents[D])));
    }
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
    Call.Target = ExtensionPtr(std::move(Enc));
    Ctx.add(std::move(Call), S, Out);
  }
}

void lowerLoad(LoweringContext &Ctx, const hir::Stmt &S, Selection &Sel) {
  const ValueId Tile = S.Operands[0], Ring = S.Operands[1];
  const hir::Value &Src = Ctx.H.Values[Tile];
  if (!Ctx.Views.count(Ring) || S.Sched->BoxExtents.empty())
    return; // the memory plan or inference refused it
  const unsigned Map =
      tensorMap(Ctx, Src.TileOf, *S.Sched, swizzleOf(Ctx.H.Values[Ring]));
  const BufferUse &U = acquire(Ctx, Sel, Ring, Handoff::AsyncFill);
  Tma Load;
  Load.Bar = U.Full;
  Load.Slot = U.Slot;
  Load.Clock = U.Clock;
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
  const unsigned Map = tensorMap(Ctx, Ctx.H.Values[Tile].TileOf, *S.Sched,
                                 swizzleOf(Ctx.H.Values[Buffer]));
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
  acquire(Ctx, Sel, Buffer, Handoff::SyncFill);
  StoreFragmentStmt Store;
  Store.Acc = Src;
  Store.Shard = to_string(*V.Shard);
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
