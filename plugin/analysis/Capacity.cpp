//===- plugin/analysis/Capacity.cpp - Capacities against target facts ----===//
//
// checkCapacity (Analysis.h) and the models it shares with `tf analyze`
// (Capacity.h): what a kernel's decisions cost in the three
// capacities a Hopper GEMM runs out of, against the target's facts. Each
// finding is a warning (warn_tf_capacity_*), never an error: exceeding a
// capacity makes a kernel fail to launch or slow, and the facts say where
// the limit is, but the decision stays the user's.
//
//   shared memory   Sum over the kernel's smem allocations -- rings (Stages
//                   x slot bytes) and buffers (tf::empty / tf::zeros /
//                   declared) -- of their storage bytes: the layout's
//                   cosize (plus offset) in elements, times the element
//                   size, rounded up to the swizzle's span (a swizzle
//                   permutes bytes inside aligned blocks of 2^(B+M+|S|)
//                   bytes, as tf::Tensor::cosize does). Against
//                   `cta.shared_memory.max` (byte/CTA).
//   registers       Per thread, for the register tensors a thread-level
//                   mesh holds: the mesh of the scope that defines the
//                   value, or the mesh of an explicit ShardLayout over the
//                   threads (Value::Shard). A register tensor outside every
//                   mesh scope without such a ShardLayout is held by the
//                   CTA-level mesh: its distribution over the threads is
//                   not decided yet, so it costs no thread anything here
//                   (`tf analyze` reports it as undecided); so is every
//                   register tensor of a kernel whose only topology level
//                   is its CTAs. A counted tensor's elements per thread are
//                   the product of its layout's unbound leaves (bound
//                   leaves say which thread holds an element; a layout
//                   without bindings is replicated: every thread of its
//                   mesh holds all of it), in 32-bit registers
//                   ceil(elements x bits / 32).
//                   A value is live from its definition to its last use in
//                   program order (Kernel::preorder); a use inside a loop
//                   its definition is not in keeps it live to the end of
//                   that loop (the next iteration reads it again). The
//                   peak over program points of the live values a thread
//                   holds, per mesh, against `thread.registers.max`
//                   (register/thread). This counts tensors only: addresses,
//                   indices and the instruction's own temporaries come on
//                   top, so a kernel near the limit may still spill.
//   L2 reuse        For a persistent_tiles / grid_tiles loop: the tiles of
//                   one wave run at the same time -- the first
//                   min(CTAs, tiles) tiles in the loop's order (group_m,
//                   column_major, cluster; for grid_tiles at most one CTA
//                   per SM, `sm.count`) -- and each gmem tensor read through
//                   a tile window is read, over the whole loop nest, as one
//                   panel per distinct tile row (a window offset that
//                   depends on m), per distinct tile column (on n), per
//                   tile (both; where the offsets evaluate, per distinct
//                   offset: a batch index taken from the row tile index
//                   repeats across a batch's rows) or once (neither); a
//                   dimension swept by an
//                   inner loop (the K of a GEMM) counts whole. The sum of
//                   those panels must stay in `memory.l2.capacity` for the
//                   wave's tiles to reuse each other's loads. Only with
//                   static extents: a tensor whose M, N or K is known at run
//                   time only (Tensor<bf16, "(?,?)">) has no window at
//                   compile time, and nothing is reported; `tf analyze`
//                   reports it with the run-time shape. The first wave is
//                   the steady state inside an L2 group; a wave that
//                   straddles two groups touches up to twice the rows for a
//                   moment, which this model does not report.
//
//===----------------------------------------------------------------------===//

#include "analysis/Capacity.h"
#include "analysis/Analysis.h"
#include "analysis/Residence.h"
#include "targets/TargetFacts.h"

#include "tf/layout/mesh_text.hpp"
#include "tf/scheduler/persistent_tiles.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace tf::analysis {

using hir::ExprId;
using hir::None;
using hir::StmtId;
using hir::ValueId;

//===- Shared helpers -----------------------------------------------------===//

std::optional<std::int64_t> intFact(const targets::MergedTarget &T,
                                    llvm::StringRef Key) {
  const targets::MergedFact *MF = T.fact(Key);
  if (!MF || !MF->F || MF->F->ValueKind != targets::Fact::Kind::Integer)
    return std::nullopt;
  return MF->F->Int;
}

std::optional<double> numberFact(const targets::MergedTarget &T,
                                 llvm::StringRef Key) {
  const targets::MergedFact *MF = T.fact(Key);
  if (!MF || !MF->F)
    return std::nullopt;
  if (MF->F->ValueKind == targets::Fact::Kind::Integer)
    return static_cast<double>(MF->F->Int);
  if (MF->F->ValueKind == targets::Fact::Kind::Float)
    return MF->F->Float;
  return std::nullopt;
}

std::optional<std::int64_t> staticProduct(const IntTuple &T) {
  std::int64_t P = 1;
  for (int I = 0; I < T.leaf_count(); ++I) {
    const Int &X = T.leaf_at(I);
    if (!X.is_constant())
      return std::nullopt;
    P *= X.value;
  }
  return P;
}

std::vector<std::optional<std::int64_t>>
extentsOf(const hir::Kernel &K, ValueId V, const Bindings *B) {
  std::vector<std::optional<std::int64_t>> Out;
  if (V >= K.Values.size())
    return Out;
  const hir::Value &Val = K.Values[V];
  if (!Val.Type.WindowExtents.empty()) {
    for (std::int64_t E : Val.Type.WindowExtents)
      Out.push_back(E);
    return Out;
  }
  IntTuple S = Val.Type.shape();
  const std::vector<std::int64_t> *Bound = nullptr;
  if (B) {
    auto It = B->Extents.find(rootOf(K, V));
    if (It != B->Extents.end())
      Bound = &It->second;
  }
  const int Rank = S.is_leaf() ? 1 : S.rank();
  for (int D = 0; D < Rank; ++D) {
    std::optional<std::int64_t> E = staticProduct(S.is_leaf() ? S : S.mode(D));
    if (!E && Bound && D < static_cast<int>(Bound->size()))
      E = (*Bound)[static_cast<std::size_t>(D)];
    Out.push_back(E);
  }
  return Out;
}

namespace {

std::optional<std::int64_t> evaluateAt(const hir::Kernel &K, ExprId E,
                                       const Bindings *B, unsigned Depth) {
  if (E == None || E >= K.Exprs.size() || Depth > 64)
    return std::nullopt;
  const hir::Expr &X = K.Exprs[E];
  auto Sub = [&](ExprId Y) { return evaluateAt(K, Y, B, Depth + 1); };
  switch (X.Kind) {
  case hir::ExprKind::Constant:
    return X.Constant;
  case hir::ExprKind::Ref: {
    if (X.Ref >= K.Values.size())
      return std::nullopt;
    if (B) {
      auto It = B->Indices.find(X.Ref);
      if (It != B->Indices.end())
        return It->second;
    }
    const hir::Value &V = K.Values[X.Ref];
    if (V.Init != None)
      return Sub(V.Init);
    if (V.Def != None && K.Stmts[V.Def].Kind == hir::StmtKind::Let)
      return Sub(K.Stmts[V.Def].Init);
    return std::nullopt;
  }
  case hir::ExprKind::Extent: {
    std::vector<std::optional<std::int64_t>> Es = extentsOf(K, X.Ref, B);
    if (X.Dim >= Es.size())
      return std::nullopt;
    return Es[X.Dim];
  }
  case hir::ExprKind::Opaque:
    return std::nullopt;
  default:
    break;
  }
  std::optional<std::int64_t> L = Sub(X.Lhs), R = Sub(X.Rhs);
  if (!L || !R)
    return std::nullopt;
  switch (X.Kind) {
  case hir::ExprKind::Add:
    return *L + *R;
  case hir::ExprKind::Sub:
    return *L - *R;
  case hir::ExprKind::Mul:
    return *L * *R;
  case hir::ExprKind::Div:
    return *R == 0 ? std::nullopt : std::optional(*L / *R);
  case hir::ExprKind::Mod:
    return *R == 0 ? std::nullopt : std::optional(*L % *R);
  case hir::ExprKind::CeilDiv:
    return *R <= 0 ? std::nullopt : std::optional((*L + *R - 1) / *R);
  case hir::ExprKind::Min:
    return std::min(*L, *R);
  case hir::ExprKind::Max:
    return std::max(*L, *R);
  default:
    return std::nullopt;
  }
}

void indicesOfAt(const hir::Kernel &K, ExprId E, std::set<ValueId> &Out,
                 unsigned Depth) {
  if (E == None || E >= K.Exprs.size() || Depth > 64)
    return;
  const hir::Expr &X = K.Exprs[E];
  if (X.Kind == hir::ExprKind::Ref && X.Ref < K.Values.size()) {
    const hir::Value &V = K.Values[X.Ref];
    if (V.Origin == hir::ValueOrigin::LoopIndex)
      Out.insert(X.Ref);
    else if (V.Init != None)
      indicesOfAt(K, V.Init, Out, Depth + 1);
    else if (V.Def != None && K.Stmts[V.Def].Kind == hir::StmtKind::Let)
      indicesOfAt(K, K.Stmts[V.Def].Init, Out, Depth + 1);
    return;
  }
  indicesOfAt(K, X.Lhs, Out, Depth + 1);
  indicesOfAt(K, X.Rhs, Out, Depth + 1);
}

} // namespace

std::optional<std::int64_t> evaluate(const hir::Kernel &K, ExprId E,
                                     const Bindings *B) {
  return evaluateAt(K, E, B, 0);
}

void indicesOf(const hir::Kernel &K, ExprId E, std::set<ValueId> &Out) {
  indicesOfAt(K, E, Out, 0);
}

ProgramOrder::ProgramOrder(const hir::Kernel &K)
    : Pos(K.Stmts.size(), 0), End(K.Stmts.size(), 0) {
  std::vector<StmtId> Order = K.preorder();
  for (unsigned I = 0; I < Order.size(); ++I)
    Pos[Order[I]] = End[Order[I]] = I;
  for (auto It = Order.rbegin(); It != Order.rend(); ++It)
    for (StmtId C : K.Stmts[*It].Body)
      End[*It] = std::max(End[*It], End[C]);
}

//===- Shared memory ------------------------------------------------------===//

std::optional<std::int64_t> storageBytes(const hir::TensorType &T) {
  const Layout &L = T.Layout.layout;
  if (!staticProduct(L.shape) || !staticProduct(L.stride))
    return std::nullopt;
  Result<std::int64_t> Co = cosize(L);
  if (!Co.ok())
    return std::nullopt;
  std::int64_t Elements = *Co;
  if (T.Layout.has_offset) {
    if (!T.Layout.offset.is_constant())
      return std::nullopt;
    if (Elements > 0)
      Elements += T.Layout.offset.value;
  }
  std::int64_t Bytes = Elements * bytes(T.Element);
  const Swizzle &Sw = T.Layout.swizzle;
  if (T.Layout.has_swizzle && !Sw.is_identity()) {
    int Shift = Sw.shift < 0 ? -Sw.shift : Sw.shift;
    std::int64_t Span = std::int64_t(1) << (Sw.base + Shift + Sw.bits);
    Bytes = (Bytes + Span - 1) / Span * Span;
  }
  return Bytes;
}

namespace {

/// Whether \p V owns shared memory: a ring, or a buffer from tf::empty /
/// tf::zeros or a declaration (not a view such as a ring slot or a window).
bool ownsSharedMemory(const hir::Kernel &K, ValueId V) {
  const hir::Value &Val = K.Values[V];
  if (Val.TileOf != None || Val.Type.Where != Storage::smem)
    return false;
  if (Val.Kind == hir::ValueKind::Ring)
    return true;
  if (Val.Kind != hir::ValueKind::Tensor || Val.Def == None)
    return false;
  const hir::Stmt &D = K.Stmts[Val.Def];
  if (D.Kind == hir::StmtKind::Alloc)
    return true;
  return D.Kind == hir::StmtKind::Op && !D.Assigns && D.Result == V &&
         hir::opInfo(D.Op).Class == hir::OpClass::Allocate;
}

} // namespace

std::vector<SharedAllocation> sharedAllocations(const hir::Kernel &K) {
  std::vector<SharedAllocation> Out;
  for (ValueId V = 0; V < K.Values.size(); ++V) {
    if (!ownsSharedMemory(K, V))
      continue;
    const hir::Value &Val = K.Values[V];
    SharedAllocation A;
    A.V = V;
    A.Name = !Val.Name.empty()                     ? Val.Name
             : Val.Kind == hir::ValueKind::Ring ? "a ring"
                                                : "a buffer";
    if (Val.Kind == hir::ValueKind::Ring)
      A.Stages = std::max(Val.Stages, 1);
    A.SlotBytes = storageBytes(Val.Type);
    Out.push_back(std::move(A));
  }
  return Out;
}

//===- Registers ----------------------------------------------------------===//

namespace {

/// Elements per thread of a register tensor of type \p T: the unbound
/// leaves' product (all leaves when none is bound), leaving out mode
/// \p Skip's (-1: none).
std::optional<std::int64_t> elementsPerThread(const hir::TensorType &T,
                                              int Skip = -1) {
  const IntTuple &S = T.Layout.layout.shape;
  if (!T.Layout.has_axes && Skip < 0)
    return staticProduct(S);
  std::int64_t P = 1;
  for (int D = 0, Leaf = 0; D < S.rank(); Leaf += S.mode(D).leaf_count(), ++D)
    for (int I = Leaf; I < Leaf + S.mode(D).leaf_count(); ++I) {
      if (D == Skip || (I < static_cast<int>(T.Layout.axes.size()) &&
                        T.Layout.axes[I].bound()))
        continue;
      const Int &X = S.leaf_at(I);
      if (!X.is_constant())
        return std::nullopt;
      P *= X.value;
    }
  return P;
}

/// Elements per thread of register tensor \p V: a reduction's result is
/// held as its operand's kept modes are (a row statistic declared without
/// a layout of its own is replicated over the threads of its row).
std::optional<std::int64_t> elementsPerThread(const hir::Kernel &K, ValueId V) {
  const hir::Value &Val = K.Values[V];
  const hir::Stmt &Def = K.Stmts[Val.Def];
  if (Def.Kind == hir::StmtKind::Op &&
      hir::opInfo(Def.Op).Class == hir::OpClass::Reduce &&
      !Def.Operands.empty() && Def.Operands[0] < K.Values.size()) {
    const hir::TensorType &From = K.Values[Def.Operands[0]].Type;
    if (From.Layout.has_axes &&
        static_cast<int>(Def.ReduceMode) < From.Layout.layout.shape.rank())
      return elementsPerThread(From, static_cast<int>(Def.ReduceMode));
  }
  return elementsPerThread(Val.Type);
}

/// Whether \p V is a register tensor of its own (not a window, not the
/// result of an elementwise op fused into the instruction that reads it,
/// not a mask: tf::in_bounds is a predicate of coordinates, computed where
/// it is read).
bool isRegisterTensor(const hir::Kernel &K, ValueId V) {
  const hir::Value &Val = K.Values[V];
  return Val.Kind == hir::ValueKind::Tensor && Val.TileOf == None &&
         Val.Type.Where == Storage::rmem && Val.Def != None &&
         Val.Def < K.Stmts.size() &&
         !hir::isFusedElementwise(K, K.Stmts[Val.Def]) &&
         !(K.Stmts[Val.Def].Kind == hir::StmtKind::Op &&
           hir::opInfo(K.Stmts[Val.Def].Op).Class == hir::OpClass::Mask);
}

/// The thread-level mesh holding register tensor \p V: its scope's, or its
/// ShardLayout's over the threads; none when it sits on the CTA mesh.
std::optional<Mesh> threadHolder(const hir::Kernel &K, ValueId V,
                                 const tf::Topology &Inner) {
  const hir::Value &Val = K.Values[V];
  std::optional<Mesh> Holder;
  if (StmtId Scope = holderScope(K, V); Scope != None)
    Holder = K.Stmts[Scope].Mesh;
  else if (Val.Shard)
    Holder = Val.Shard->mesh;
  if (!Holder || !(Holder->level == Inner.level))
    return std::nullopt;
  return Holder;
}

/// Liveness: each value's last use, extended to the end of every loop
/// around the use that does not also hold the definition.
void extendLiveness(const hir::Kernel &K, const ProgramOrder &PO,
                    std::vector<RegisterValue> &Regs) {
  std::map<ValueId, unsigned> Index;
  for (unsigned I = 0; I < Regs.size(); ++I)
    Index[Regs[I].V] = I;
  for (StmtId S : K.preorder()) {
    const hir::Stmt &St = K.Stmts[S];
    if (St.Kind != hir::StmtKind::Op)
      continue;
    std::vector<ValueId> Uses = St.Operands;
    if (St.Assigns)
      Uses.push_back(St.Result);
    for (ValueId U : Uses) {
      if (U == None || U >= K.Values.size())
        continue;
      auto It = Index.find(rootOf(K, U));
      if (It == Index.end())
        continue;
      RegisterValue &R = Regs[It->second];
      StmtId Def = K.Values[R.V].Def;
      unsigned Until = PO.Pos[S];
      for (StmtId A = St.Parent; A != None; A = K.Stmts[A].Parent)
        if (K.Stmts[A].Kind == hir::StmtKind::Loop && !PO.contains(A, Def))
          Until = std::max(Until, PO.End[A]);
      R.Last = std::max(R.Last, Until);
    }
  }
}

} // namespace

std::optional<RegisterModel> registerModel(const hir::Kernel &K) {
  // The threads: the innermost topology's units. A kernel of one topology
  // level (its CTAs) has no thread level: nothing is distributed over
  // threads yet.
  if (K.Topologies.size() < 2)
    return std::nullopt;
  const tf::Topology &Inner = K.Topologies.back();
  RegisterModel Model;
  if (Inner.extent.is_constant() && Inner.extent.value > 0 &&
      Inner.extent.value <= (1 << 20))
    Model.Threads = Inner.extent.value;
  const std::int64_t Threads = Model.Threads;

  ProgramOrder PO(K);
  std::vector<RegisterValue> &Regs = Model.Values;
  for (ValueId V = 0; V < K.Values.size(); ++V) {
    if (!isRegisterTensor(K, V))
      continue;
    std::optional<Mesh> Holder = threadHolder(K, V, Inner);
    if (!Holder)
      continue;
    const hir::Value &Val = K.Values[V];
    std::optional<std::int64_t> E = elementsPerThread(K, V);
    if (!E)
      continue;
    RegisterValue R;
    R.V = V;
    R.Elements = *E;
    R.Registers = (*E * bits(Val.Type.Element) + 31) / 32;
    R.Start = R.Last = PO.Pos[Val.Def];
    R.Mesh = to_string(*Holder);
    R.Units.assign(static_cast<std::size_t>(Threads), true);
    if (Threads > 1) {
      const Mesh &M = *Holder;
      Result<std::int64_t> Size = M.size();
      if (Size.ok()) {
        std::vector<bool> Held(static_cast<std::size_t>(Threads), false);
        bool Ok = true;
        for (std::int64_t I = 0; I < *Size && Ok; ++I) {
          Result<std::int64_t> U = M.unit(I);
          Ok = U.ok() && *U >= 0 && *U < Threads;
          if (Ok)
            Held[static_cast<std::size_t>(*U)] = true;
        }
        if (Ok)
          R.Units = std::move(Held);
      }
    }
    Regs.push_back(std::move(R));
  }
  if (Regs.empty())
    return Model;

  extendLiveness(K, PO, Regs);

  // The peak is reached where some value starts. Per program point and
  // thread, the registers of the live values that thread holds; each mesh
  // that holds a value has its own peak.
  auto LiveAt = [&](unsigned P, const RegisterValue &R) {
    return R.Start <= P && P <= R.Last;
  };
  std::vector<std::string> Holders;
  for (const RegisterValue &R : Regs)
    if (std::find(Holders.begin(), Holders.end(), R.Mesh) == Holders.end())
      Holders.push_back(R.Mesh);
  for (const std::string &H : Holders) {
    // The threads of this mesh.
    std::vector<bool> Mine;
    for (const RegisterValue &R : Regs)
      if (R.Mesh == H) {
        Mine = R.Units;
        break;
      }
    RegisterPeak Peak;
    Peak.Mesh = H;
    std::size_t PeakUnit = 0;
    for (unsigned Starter = 0; Starter < Regs.size(); ++Starter) {
      unsigned P = Regs[Starter].Start;
      for (std::size_t U = 0; U < Mine.size(); ++U) {
        if (!Mine[U])
          continue;
        std::int64_t Sum = 0;
        for (const RegisterValue &R : Regs)
          if (LiveAt(P, R) && R.Units[U])
            Sum += R.Registers;
        if (Sum > Peak.Registers) {
          Peak.Registers = Sum;
          Peak.At = P;
          Peak.Starter = Starter;
          PeakUnit = U;
        }
      }
    }
    for (unsigned I = 0; I < Regs.size(); ++I)
      if (LiveAt(Peak.At, Regs[I]) && Regs[I].Units[PeakUnit])
        Peak.Live.push_back(I);
    Model.Peaks.push_back(std::move(Peak));
  }

  // The CTA's registers: each thread at its own peak.
  for (std::size_t U = 0; U < static_cast<std::size_t>(Threads); ++U) {
    std::int64_t Mine = 0;
    for (const RegisterValue &Starter : Regs) {
      std::int64_t Sum = 0;
      for (const RegisterValue &R : Regs)
        if (LiveAt(Starter.Start, R) && R.Units[U])
          Sum += R.Registers;
      Mine = std::max(Mine, Sum);
    }
    Model.CtaRegisters += Mine;
  }
  return Model;
}

std::int64_t undistributedRegisters(const hir::Kernel &K,
                                    std::vector<ValueId> *Values) {
  std::optional<tf::Topology> Inner;
  if (K.Topologies.size() >= 2)
    Inner = K.Topologies.back();
  ProgramOrder PO(K);
  std::vector<RegisterValue> Regs;
  for (ValueId V = 0; V < K.Values.size(); ++V) {
    if (!isRegisterTensor(K, V))
      continue;
    if (Inner && threadHolder(K, V, *Inner))
      continue;
    const hir::Value &Val = K.Values[V];
    std::optional<std::int64_t> E = staticProduct(Val.Type.Layout.layout.shape);
    if (!E)
      continue;
    RegisterValue R;
    R.V = V;
    R.Elements = *E;
    R.Registers = (*E * bits(Val.Type.Element) + 31) / 32;
    R.Start = R.Last = PO.Pos[Val.Def];
    Regs.push_back(std::move(R));
    if (Values)
      Values->push_back(V);
  }
  extendLiveness(K, PO, Regs);
  // The most held at once: at some value's start.
  std::int64_t Peak = 0;
  for (const RegisterValue &Starter : Regs) {
    std::int64_t Sum = 0;
    for (const RegisterValue &R : Regs)
      if (R.Start <= Starter.Start && Starter.Start <= R.Last)
        Sum += R.Registers;
    Peak = std::max(Peak, Sum);
  }
  return Peak;
}

//===- L2 reuse windows ---------------------------------------------------===//

std::optional<TileGrid> tileGrid(const hir::Kernel &K, StmtId L,
                                 const Bindings *B) {
  const hir::Stmt &Loop = K.Stmts[L];
  if (Loop.Kind != hir::StmtKind::Loop ||
      Loop.Loop == hir::LoopKind::TileOffsets || Loop.Indices.size() < 2 ||
      Loop.Bounds.size() < 2)
    return std::nullopt;
  std::optional<std::int64_t> GM =
      evaluate(K, Loop.Bounds[Loop.Bounds.size() - 2], B);
  std::optional<std::int64_t> GN = evaluate(K, Loop.Bounds.back(), B);
  if (!GM || !GN || *GM < 1 || *GN < 1)
    return std::nullopt;
  TileGrid G;
  G.Loop = L;
  G.GM = *GM;
  G.GN = *GN;
  Result<std::int64_t> MeshSize = Loop.LoopMesh.size();
  G.StaticMesh = MeshSize.ok() &&
                 Loop.LoopMesh.layout.shape.leaf_count() > 0 &&
                 staticProduct(Loop.LoopMesh.layout.shape).has_value() &&
                 *MeshSize > 0;
  G.CTAs = G.StaticMesh ? *MeshSize : G.tiles();
  return G;
}

std::vector<std::vector<TileCoord>> tileRounds(const hir::Stmt &Loop,
                                               const TileGrid &G,
                                               std::int64_t Running,
                                               std::int64_t Limit) {
  std::vector<std::vector<TileCoord>> Rounds;
  const std::int64_t Tiles = G.tiles();
  if (Loop.Loop == hir::LoopKind::PersistentTiles) {
    PersistentTilesOptions Opts{Loop.GroupM, Loop.ColumnMajor, Loop.Cluster};
    for (std::int64_t P = 0; P < G.CTAs; ++P) {
      Result<PersistentTiles> PT =
          make_persistent_tiles(P, G.CTAs, G.GM, G.GN, Opts);
      if (!PT.ok())
        break;
      for (auto It = PT->begin(); !(It == PT->end()); ++It) {
        std::int64_t R = (*It).iteration;
        if (Limit > 0 && R >= Limit)
          break;
        if (static_cast<std::int64_t>(Rounds.size()) <= R)
          Rounds.resize(static_cast<std::size_t>(R + 1));
        Rounds[static_cast<std::size_t>(R)].push_back({(*It).m, (*It).n});
      }
    }
    return Rounds;
  }
  Running = std::max<std::int64_t>(1, std::min(Running, Tiles));
  for (std::int64_t Id = 0; Id < Tiles; ++Id) {
    std::int64_t R = Id / Running;
    if (Limit > 0 && R >= Limit)
      break;
    Result<TileCoord> C =
        make_grouped_tile(Id, G.GM, G.GN, Loop.GroupM, Loop.ColumnMajor);
    if (!C.ok())
      break;
    if (static_cast<std::int64_t>(Rounds.size()) <= R)
      Rounds.resize(static_cast<std::size_t>(R + 1));
    Rounds[static_cast<std::size_t>(R)].push_back(*C);
  }
  return Rounds;
}

bool readsOperand(const hir::Kernel &K, const hir::Stmt &S, ValueId V,
                  std::size_t OperandIndex) {
  const hir::Value &Val = K.Values[V];
  for (const hir::Access &A : S.Access.Accesses)
    if (A.Operand == V ||
        (Val.TileOf != None && A.Operand == Val.TileOf &&
         A.Offsets == Val.TileOffsets))
      return A.Kind != hir::AccessKind::Write;
  bool Copy =
      S.Sched && (S.Sched->ContractId.find("Copy") != std::string::npos ||
                  S.Sched->AtomSpelling.find("Copy") != std::string::npos);
  return !(Copy && S.Operands.size() >= 2 &&
           OperandIndex + 1 == S.Operands.size());
}

std::map<ValueId, Panel> wavePanels(const hir::Kernel &K, StmtId L,
                                    const std::vector<TileCoord> &Wave,
                                    const Bindings *B, bool &Unknown) {
  std::map<ValueId, Panel> Panels;
  const hir::Stmt &Loop = K.Stmts[L];
  if (Wave.empty() || Loop.Indices.size() < 2)
    return Panels;
  ProgramOrder PO(K);
  // Which loop each loop index belongs to.
  std::map<ValueId, StmtId> LoopOf;
  for (StmtId S = 0; S < K.Stmts.size(); ++S)
    if (K.Stmts[S].Kind == hir::StmtKind::Loop)
      for (ValueId I : K.Stmts[S].Indices)
        LoopOf[I] = S;
  std::set<std::int64_t> Rows, Cols;
  for (const TileCoord &C : Wave) {
    Rows.insert(C.m);
    Cols.insert(C.n);
  }
  const ValueId MIndex = Loop.Indices[0], NIndex = Loop.Indices[1];

  // The gmem tensors read through windows inside the loop.
  for (StmtId S : K.preorder()) {
    if (!PO.contains(L, S) || K.Stmts[S].Kind != hir::StmtKind::Op)
      continue;
    const hir::Stmt &Op = K.Stmts[S];
    for (std::size_t I = 0; I < Op.Operands.size(); ++I) {
      ValueId W = Op.Operands[I];
      if (W == None || W >= K.Values.size() || K.Values[W].TileOf == None)
        continue;
      ValueId Root = rootOf(K, W);
      const hir::Value &R = K.Values[Root];
      if (R.Kind != hir::ValueKind::Tensor || R.Type.Where != Storage::gmem ||
          !readsOperand(K, Op, W, I))
        continue;
      const hir::Value &Win = K.Values[W];
      std::vector<std::optional<std::int64_t>> Shape = extentsOf(K, Root, B);
      const std::size_t Rank = Win.TileOffsets.size();
      if (Rank == 0 || Win.Type.WindowExtents.size() != Rank ||
          Rank != Shape.size()) {
        Unknown = true;
        continue;
      }
      Panel P;
      P.Root = Root;
      P.Window = W;
      bool OnM = false, OnN = false;
      // The dimensions whose offsets follow the tile indices.
      std::vector<std::size_t> Tiled;
      for (std::size_t D = 0; D < Rank; ++D) {
        std::set<ValueId> Deps;
        indicesOf(K, Win.TileOffsets[D], Deps);
        if (Deps.count(MIndex) || Deps.count(NIndex))
          Tiled.push_back(D);
        bool Swept = false;
        for (ValueId X : Deps) {
          OnM |= X == MIndex;
          OnN |= X == NIndex;
          auto It = LoopOf.find(X);
          Swept |= It != LoopOf.end() && It->second != L &&
                   PO.contains(L, It->second);
        }
        std::optional<std::int64_t> E = Win.Type.WindowExtents[D];
        if (Swept)
          E = Shape[D];
        if (!E) {
          Unknown = true;
          break;
        }
        P.Extent.push_back(*E);
      }
      if (P.Extent.size() != Rank)
        continue;
      P.Count = OnM && OnN ? static_cast<std::int64_t>(Wave.size())
                : OnM      ? static_cast<std::int64_t>(Rows.size())
                : OnN      ? static_cast<std::int64_t>(Cols.size())
                           : 1;
      P.Per = OnM && OnN ? "one per tile"
              : OnM      ? "one per tile row"
              : OnN      ? "one per tile column"
                         : "shared by every tile";
      // Tiles whose offsets coincide read one panel: a batch index taken
      // from the row tile index (l = lm / GM) leaves B's panel one per batch
      // and tile column, not one per tile. Counted at each tile's offsets
      // where they evaluate.
      if (OnM && OnN) {
        std::set<std::vector<std::int64_t>> Offsets;
        Bindings At = B ? *B : Bindings();
        for (const TileCoord &C : Wave) {
          At.Indices[MIndex] = C.m;
          At.Indices[NIndex] = C.n;
          std::vector<std::int64_t> Key;
          for (std::size_t D : Tiled)
            if (std::optional<std::int64_t> O =
                    evaluate(K, Win.TileOffsets[D], &At))
              Key.push_back(*O);
          if (Key.size() != Tiled.size()) {
            Offsets.clear();
            break;
          }
          Offsets.insert(std::move(Key));
        }
        if (!Offsets.empty() &&
            static_cast<std::int64_t>(Offsets.size()) < P.Count) {
          P.Count = static_cast<std::int64_t>(Offsets.size());
          P.Per = "one per distinct window offset";
        }
      }
      P.Bytes = P.Count * bytes(R.Type.Element);
      for (std::int64_t E : P.Extent)
        P.Bytes *= E;
      // Never more than the whole tensor.
      std::int64_t All = bytes(R.Type.Element);
      bool Known = true;
      for (const std::optional<std::int64_t> &E : Shape) {
        Known &= E.has_value();
        if (E)
          All *= *E;
      }
      if (Known)
        P.Bytes = std::min(P.Bytes, All);
      auto [It, New] = Panels.try_emplace(Root, P);
      if (!New && P.Bytes > It->second.Bytes)
        It->second = P;
    }
  }
  return Panels;
}

//===- The checks ---------------------------------------------------------===//

namespace {

std::string targetName(const targets::MergedTarget &T) {
  return T.Doc ? T.Doc->Id : std::string("the target");
}

/// The total is a sum, so no one allocation is "the" mistake; the warning
/// stands at the largest (what shrinking helps most, and where a stage count
/// raised too far sits), the others in notes.
void checkSharedMemory(const hir::Kernel &K, const targets::MergedTarget &T,
                       std::vector<Finding> &Out) {
  std::optional<std::int64_t> Max = intFact(T, "cta.shared_memory.max");
  if (!Max)
    return;
  std::int64_t Total = 0;
  std::vector<Finding> Notes;
  std::optional<std::size_t> Largest;
  std::int64_t LargestBytes = 0;
  for (const SharedAllocation &A : sharedAllocations(K)) {
    Finding Note;
    Note.Id = plugin::DiagId::note_tf_derived;
    Note.Range = definitionRange(K, A.V);
    if (!A.SlotBytes) {
      Note.Args = {A.Name + ": extents known at run time only, not counted"};
    } else {
      Total += *A.bytes();
      Note.Args = {A.Stages > 0 ? A.Name + ": " + std::to_string(A.Stages) +
                                      " x " + formatBytes(*A.SlotBytes) +
                                      " = " + formatBytes(*A.bytes())
                                : A.Name + ": " + formatBytes(*A.SlotBytes)};
      if (*A.bytes() > LargestBytes) {
        LargestBytes = *A.bytes();
        Largest = Notes.size();
      }
    }
    Notes.push_back(std::move(Note));
  }
  if (Total <= *Max)
    return;
  Finding F;
  F.Id = plugin::DiagId::warn_tf_capacity_smem;
  F.Range = Notes[*Largest].Range;
  F.Args = {K.Name, formatBytes(Total), formatBytes(*Max), targetName(T),
            Notes[*Largest].Args[0]};
  Notes.erase(Notes.begin() + *Largest);
  F.Notes = std::move(Notes);
  Out.push_back(std::move(F));
}

void checkRegisters(const hir::Kernel &K, const targets::MergedTarget &T,
                    std::vector<Finding> &Out) {
  std::optional<std::int64_t> Max = intFact(T, "thread.registers.max");
  if (!Max)
    return;
  std::optional<RegisterModel> Model = registerModel(K);
  if (!Model)
    return;
  // Each mesh reports its own peak, once per program point.
  std::set<unsigned> Reported;
  for (const RegisterPeak &Peak : Model->Peaks) {
    if (Peak.Registers <= *Max || !Reported.insert(Peak.At).second)
      continue;
    Finding F;
    F.Id = plugin::DiagId::warn_tf_capacity_registers;
    F.Range = definitionRange(K, Model->Values[Peak.Starter].V);
    F.Args = {std::to_string(Peak.Registers), Peak.Mesh, std::to_string(*Max),
              targetName(T)};
    for (unsigned I : Peak.Live) {
      const RegisterValue &R = Model->Values[I];
      const hir::Value &Val = K.Values[R.V];
      Finding Note;
      Note.Id = plugin::DiagId::note_tf_derived;
      Note.Range = definitionRange(K, R.V);
      Note.Args = {describeValue(K, R.V) + " holds " +
                   std::to_string(R.Elements) + " " +
                   std::string(name(Val.Type.Element)) + " per thread: " +
                   std::to_string(R.Registers) + " registers"};
      F.Notes.push_back(std::move(Note));
    }
    Out.push_back(std::move(F));
  }
}

void checkL2(const hir::Kernel &K, const targets::MergedTarget &T,
             std::vector<Finding> &Out) {
  std::optional<std::int64_t> L2 = intFact(T, "memory.l2.capacity");
  if (!L2)
    return;
  for (StmtId L : K.preorder()) {
    // The grid of tiles, statically; with run-time extents the window is
    // unknown here (tf analyze reports it with the run-time shape).
    std::optional<TileGrid> G = tileGrid(K, L);
    if (!G)
      continue;
    const hir::Stmt &Loop = K.Stmts[L];
    // The wave: the tiles the first CTAs take, in the loop's order; for
    // grid_tiles at most one CTA per SM runs at a time.
    std::int64_t Running = std::min(G->CTAs, G->tiles());
    if (Loop.Loop == hir::LoopKind::GridTiles)
      if (std::optional<std::int64_t> SMs = intFact(T, "sm.count"))
        Running = std::min(Running, *SMs);
    std::vector<std::vector<TileCoord>> Rounds =
        tileRounds(Loop, *G, Running, /*Limit=*/1);
    if (Rounds.empty() || Rounds.front().empty())
      continue;
    const std::vector<TileCoord> &Wave = Rounds.front();
    std::set<std::int64_t> Rows, Cols;
    for (const TileCoord &C : Wave) {
      Rows.insert(C.m);
      Cols.insert(C.n);
    }
    bool Unknown = false;
    std::map<ValueId, Panel> Panels = wavePanels(K, L, Wave, nullptr, Unknown);
    if (Unknown || Panels.empty())
      continue;
    std::int64_t Total = 0;
    for (const auto &[Root, P] : Panels)
      Total += P.Bytes;
    if (Total <= *L2)
      continue;

    Finding F;
    F.Id = plugin::DiagId::warn_tf_capacity_l2;
    F.Range = Loop.Range;
    F.Args = {"one wave of " + std::to_string(Wave.size()) + " tiles",
              formatBytes(Total), formatBytes(*L2), targetName(T)};
    Finding WaveNote;
    WaveNote.Id = plugin::DiagId::note_tf_derived;
    WaveNote.Range = Loop.Range;
    WaveNote.Args = {
        std::to_string(Wave.size()) + " CTAs run the first tiles of the " +
        std::to_string(G->GM) + " x " + std::to_string(G->GN) +
        " grid at once: " + std::to_string(Rows.size()) + " tile rows and " +
        std::to_string(Cols.size()) + " tile columns (group_m = " +
        std::to_string(Loop.GroupM) +
        (Loop.ColumnMajor ? ", column-major)" : ")")};
    F.Notes.push_back(std::move(WaveNote));
    // Notes in source order of the windows.
    std::vector<const Panel *> Sorted;
    for (const auto &[Root, P] : Panels)
      Sorted.push_back(&P);
    std::sort(Sorted.begin(), Sorted.end(), [](const Panel *A, const Panel *B) {
      return A->Window < B->Window;
    });
    for (const Panel *P : Sorted) {
      std::string Dims;
      for (std::int64_t E : P->Extent)
        Dims += (Dims.empty() ? "" : " x ") + std::to_string(E);
      const hir::Value &R = K.Values[P->Root];
      Finding Note;
      Note.Id = plugin::DiagId::note_tf_derived;
      Note.Range = K.Values[P->Window].Range;
      Note.Args = {describeValue(K, P->Root) + ": " + std::to_string(P->Count) +
                   (P->Count == 1 ? " panel of " : " panels of ") + Dims +
                   " " + std::string(name(R.Type.Element)) + " (" + P->Per +
                   ") = " + formatBytes(P->Bytes)};
      F.Notes.push_back(std::move(Note));
    }
    Out.push_back(std::move(F));
  }
}

} // namespace

std::vector<Finding> checkCapacity(const hir::Kernel &K,
                                   const targets::MergedTarget &Target) {
  std::vector<Finding> Out;
  checkSharedMemory(K, Target, Out);
  checkRegisters(K, Target, Out);
  checkL2(K, Target, Out);
  std::stable_sort(Out.begin(), Out.end(),
                   [](const Finding &A, const Finding &B) {
                     return std::tie(A.Range.File, A.Range.Line,
                                     A.Range.Column) <
                            std::tie(B.Range.File, B.Range.Line,
                                     B.Range.Column);
                   });
  return Out;
}

} // namespace tf::analysis
