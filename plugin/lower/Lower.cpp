//===- plugin/lower/Lower.cpp - HIR to LIR --------------------------------===//
//
// See Lower.h. The kernel is lowered in warp-specialized form: each mesh
// scope's thread range is a role, and each role runs its own copy of the
// loops that hold its ops (a projection of the HIR's statement tree), so the
// loader and the compute warpgroups proceed independently and meet only at
// mbarriers. What the roles hand each other decides the barriers:
//
//   - a ring filled by TMA: `full[s]` (the producer's arrive.expect_tx, the
//     boxes' bytes) and `empty[s]` (every consumer thread arrives once it no
//     longer reads slot s);
//   - a shared-memory buffer written by one role and stored by another's
//     TMA: `full` (one elected thread after a named barrier of the writers)
//     and `empty` (the storing thread, once the bulk store has read it).
//
// Slots and phases come from one iteration clock per ring, the same
// expression in producer and consumer: the tiles this CTA ran before
// (persistent: (task - cta.x) / CTAs; one tile per CTA: 0) times the K
// iterations per tile, plus the K index -- the seed's
// `(((task - cta.persistent) // 132) * 80 + k // 64) % 3`. A buffer's clock
// is the tile count alone.
//
//===----------------------------------------------------------------------===//
#include "lower/Lower.h"
#include "lower/Descriptor.h"

#include "analysis/Candidates.h"
#include "analysis/Capacity.h"
#include "analysis/Site.h"

#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/contract/match.hpp"
#include "tf/layout/mesh_text.hpp"
#include "tf/layout/text/print.hpp"

#include <algorithm>
#include <map>
#include <set>

namespace tf::lower {

using hir::StmtId;
using hir::StmtKind;
using hir::ValueId;

namespace {

/// A role: the threads of a mesh scope.
struct RoleInfo {
  std::string Name;
  std::string Mesh;
  std::int64_t Begin = 0, End = 0;
  std::int64_t threads() const { return End - Begin; }
};

/// The loops enclosing the statement being lowered, for the clocks.
struct LoopContext {
  /// Inside a tile loop: the tiles this CTA ran before the current one
  /// (`tiles_done`, or 0 for one tile per CTA).
  ExprId TileClock = None;
  /// Inside a K loop as well: the iterations before this one (`it`).
  ExprId KClock = None;
};

class Lowering {
public:
  Lowering(const hir::Kernel &H, const targets::MergedTarget *Target)
      : H(H), Target(Target) {}

  llvm::Expected<Kernel> run();

private:
  /// Records a problem once: a loop shared by several roles is lowered once
  /// per role, but its problem is one.
  void fail(const hir::SourceRange &R, const llvm::Twine &Message) {
    Failed = true;
    std::string Text = "kernel " + H.Name + ": " + Message.str();
    if (!Reported.insert({R.Begin, Text}).second)
      return;
    Errors = llvm::joinErrors(std::move(Errors), problemAt(R, Text));
  }
  std::string opText(const hir::Stmt &S) const {
    return "tf." + hir::opName(S.Op).str();
  }

  bool setUp();
  void collectRoles();
  void collectBacking();
  int roleOf(StmtId Scope) const;
  bool hasRole(StmtId S, int Role) const;
  void layOutViews();
  void layOutBarriers();

  ExprId expr(hir::ExprId E, const hir::SourceRange &At);
  ExprId clock(const LoopContext &C, bool PerK);
  BarrierId barrier(ValueId Guards, const char *Which, int Count);

  void project(const std::vector<StmtId> &Stmts, int Role,
               const LoopContext &C, std::vector<InstId> &Out);
  void lowerLoop(const hir::Stmt &S, int Role, const LoopContext &C,
                 std::vector<InstId> &Out);
  void lowerOp(StmtId Id, int Role, const LoopContext &C,
               std::vector<InstId> &Out);
  void lowerLoad(const hir::Stmt &S, int Role, const LoopContext &C,
                 std::vector<InstId> &Out);
  void lowerStore(const hir::Stmt &S, int Role, const LoopContext &C,
                  std::vector<InstId> &Out);
  void lowerMma(StmtId Id, int Role, const LoopContext &C,
                std::vector<InstId> &Out);
  void lowerStaging(const hir::Stmt &S, int Role, const LoopContext &C,
                    std::vector<InstId> &Out);
  unsigned tensorMap(ValueId Tensor, const hir::Schedule &Sched,
                     SwizzleMode Mode);
  void issueBoxes(const hir::Stmt &S, InstKind Kind, ValueId Tile,
                  unsigned Map, const Inst &Proto, std::vector<InstId> &Out);

  /// The Let of HIR let \p S.
  Inst let(const hir::Stmt &S) {
    Inst I;
    I.Kind = InstKind::Let;
    I.Range = S.Range;
    if (S.Defines == hir::None || S.Defines >= H.Values.size() ||
        H.Values[S.Defines].Name.empty()) {
      fail(S.Range, "a let defines no named value");
      return I;
    }
    I.Vars = {H.Values[S.Defines].Name};
    I.Value = expr(S.Init, S.Range);
    return I;
  }
  InstId add(Inst I, std::vector<InstId> &Out) {
    InstId Id = L.addInst(std::move(I));
    Out.push_back(Id);
    return Id;
  }
  Inst inst(InstKind K, const hir::Stmt &S, int Role) const {
    Inst I;
    I.Kind = K;
    I.Range = S.Range;
    I.Threads = Roles[Role].threads();
    return I;
  }
  /// A wait on slot \p Slot of \p Bar for the phase \p Phase of \p Clock
  /// names; a producer waits for the phase before it (the consumers freed
  /// the slot), hence the flipped parity.
  void addWait(BarrierId Bar, ExprId Slot, ExprId Phase, ExprId Clock,
               bool Producer, const hir::Stmt &S, int Role,
               std::vector<InstId> &Out) {
    Inst Wait = inst(InstKind::Wait, S, Role);
    Wait.Bar = Bar;
    Wait.Slot = Slot;
    Wait.Phase =
        Producer ? L.binary(ExprKind::Xor, Phase, L.constant(1)) : Phase;
    Wait.Clock = Clock;
    Wait.ProducerParity = Producer;
    add(std::move(Wait), Out);
  }

  const hir::Kernel &H;
  const targets::MergedTarget *Target;
  Kernel L;
  llvm::Error Errors = llvm::Error::success();
  bool Failed = false;
  std::set<std::pair<unsigned, std::string>> Reported;

  std::vector<RoleInfo> Roles;
  std::map<StmtId, int> ScopeRole;
  /// The shared-memory view of each ring and buffer: its first region.
  std::map<ValueId, RegionId> Views;
  /// A ring load's result -> its ring; a staging copy's result -> its buffer
  /// (collectBacking, before any role is lowered).
  std::map<ValueId, ValueId> Backing;
  /// Barrier arrays by (guarded value, "full"/"empty").
  std::map<std::pair<ValueId, std::string>, BarrierId> Barriers;
  /// Named barrier 0 is __syncthreads'; the epilogues take the next ones.
  unsigned NextNamedBarrier = 1;
};

//===- Set-up --------------------------------------------------------------===//

bool Lowering::setUp() {
  L.Name = H.Name;
  L.MangledName = H.MangledName;
  L.Target = H.Target;
  L.Range = H.Range;
  for (ValueId P : H.Parameters)
    L.Parameters.push_back({H.Values[P].Name, H.Values[P].Type.Element});

  // Every op needs its instruction before anything is lowered.
  for (StmtId Id : H.preorder())
    if (analysis::isUndecided(H, Id)) {
      const hir::Stmt &S = H.Stmts[Id];
      fail(S.CallRange.valid() ? S.CallRange : S.Range,
           "undecided site: " + opText(S) +
               " has no instruction chosen (tf candidates lists the "
               "instructions it could use)");
    }
  if (Failed)
    return false;

  if (!Target) {
    fail(H.Range, "no target named; finalize lowers for a target's "
                  "instructions and limits");
    return false;
  }
  std::optional<std::int64_t> Limit =
      analysis::intFact(*Target, "cta.shared_memory.max");
  if (!Limit) {
    fail(H.TargetRange, "target " + H.Target +
                            " has no fact cta.shared_memory.max; finalize "
                            "needs the shared-memory limit");
    return false;
  }
  L.SharedLimit = *Limit;
  if (H.Topologies.size() != 2 || !H.Topologies.back().extent.is_constant()) {
    fail(H.Range, "finalize lowers kernels with two topologies, CTAs and "
                  "a static count of threads");
    return false;
  }
  L.BlockThreads = H.Topologies.back().extent.value;
  return true;
}

void Lowering::collectRoles() {
  const Name ThreadLevel = H.Topologies.back().level;
  for (StmtId Id : H.preorder()) {
    const hir::Stmt &S = H.Stmts[Id];
    if (S.Kind != StmtKind::MeshScope)
      continue;
    Result<std::int64_t> First = S.Mesh.offset.get();
    Result<std::int64_t> Size = S.Mesh.size();
    Result<std::int64_t> Span = cosize(S.Mesh.layout);
    if (!(S.Mesh.level == ThreadLevel) || !First || !Size || !Span ||
        *Size != *Span) {
      fail(S.Range, "mesh scope '" + S.MeshSpelling + "' (" +
                        to_string(S.Mesh) +
                        ") is not a contiguous range of threads; finalize "
                        "lowers a scope as a role over one thread range");
      continue;
    }
    RoleInfo R{S.MeshSpelling, to_string(S.Mesh), *First, *First + *Span};
    int Found = -1;
    for (std::size_t I = 0; I < Roles.size(); ++I) {
      if (Roles[I].Begin == R.Begin && Roles[I].End == R.End)
        Found = static_cast<int>(I);
      else if (Roles[I].Begin < R.End && R.Begin < Roles[I].End)
        fail(S.Range, "mesh scope '" + S.MeshSpelling + "' (threads [" +
                          llvm::Twine(R.Begin) + ", " + llvm::Twine(R.End) +
                          ")) overlaps role '" + Roles[I].Name +
                          "' partly; roles must be disjoint thread ranges");
    }
    if (Found < 0)
      Roles.push_back(R);
  }
  // Roles in thread order, so the output does not depend on which scope
  // comes first in the source.
  std::stable_sort(Roles.begin(), Roles.end(),
                   [](const RoleInfo &A, const RoleInfo &B) {
                     return A.Begin < B.Begin;
                   });
  for (StmtId Id : H.preorder()) {
    const hir::Stmt &S = H.Stmts[Id];
    Result<std::int64_t> First = S.Mesh.offset.get();
    if (S.Kind != StmtKind::MeshScope || !First)
      continue;
    for (std::size_t I = 0; I < Roles.size(); ++I)
      if (Roles[I].Begin == *First)
        ScopeRole[Id] = static_cast<int>(I);
  }
}

void Lowering::collectBacking() {
  for (StmtId Id : H.preorder()) {
    const hir::Stmt &S = H.Stmts[Id];
    if (S.Kind != StmtKind::Op || !S.Sched || S.Operands.size() != 2 ||
        S.Result == hir::None)
      continue;
    const ValueId Dst = S.Operands[1];
    const bool IntoRing = H.Values[Dst].Kind == hir::ValueKind::Ring;
    const bool IntoBuffer = S.Sched->ContractId == "generic.Copy" &&
                            H.Values[Dst].Type.Where == Storage::smem;
    if (!IntoRing && !IntoBuffer)
      continue;
    for (const auto &[Result, Backer] : Backing)
      if (Backer == Dst)
        fail(S.Range, "'" + H.Values[Dst].Name + "' is filled at two "
                      "sites; finalize gives each ring and buffer one "
                      "producer");
    Backing[S.Result] = Dst;
  }
}

int Lowering::roleOf(StmtId Scope) const {
  auto It = ScopeRole.find(Scope);
  return It == ScopeRole.end() ? -1 : It->second;
}

bool Lowering::hasRole(StmtId S, int Role) const {
  const hir::Stmt &X = H.Stmts[S];
  if (X.Kind == StmtKind::MeshScope)
    return roleOf(S) == Role;
  for (StmtId C : X.Body)
    if (hasRole(C, Role))
      return true;
  return false;
}

std::int64_t alignTo(std::int64_t X, std::int64_t A) {
  return (X + A - 1) / A * A;
}

void Lowering::layOutViews() {
  std::int64_t Cursor = 0;
  for (const analysis::SharedAllocation &A : analysis::sharedAllocations(H)) {
    const hir::Value &V = H.Values[A.V];
    if (!A.SlotBytes) {
      fail(V.Range, "'" + A.Name + "' has run-time extents; finalize places "
                    "every shared-memory view at a fixed offset");
      continue;
    }
    const LayoutText &T = V.Type.Layout;
    std::optional<SwizzleMode> Mode =
        swizzleModeOf(T.has_swizzle ? T.swizzle : Swizzle{});
    if (!Mode) {
      fail(V.Range, "'" + A.Name + "' has swizzle " + to_string(T) +
                        ", which is no TMA/WGMMA swizzle mode");
      continue;
    }
    std::vector<std::int64_t> Shape;
    IntTuple S = V.Type.shape();
    for (int I = 0; I < S.rank(); ++I)
      Shape.push_back(product(S.mode(I)).ok() ? *product(S.mode(I)) : -1);
    // A TMA box's alignment (128 bytes, or the swizzle period when larger)
    // also starts every WGMMA operand on its swizzle pattern (base offset 0).
    const std::int64_t Align = atoms::nv::sm90::tma_smem_alignment(*Mode);
    const int Stages = A.Stages > 0 ? A.Stages : 1;
    for (int Stage = 0; Stage < Stages; ++Stage) {
      Region R;
      R.Kind = A.Stages > 0 ? RegionKind::RingStage : RegionKind::Buffer;
      R.Name = A.Stages > 0 ? A.Name + "[" + std::to_string(Stage) + "]"
                            : A.Name;
      R.Align = Align;
      R.AlignReason = *Mode == SwizzleMode::none
                          ? "TMA box"
                          : "TMA box on its swizzle period";
      R.Offset = alignTo(Cursor, Align);
      R.Bytes = *A.SlotBytes;
      R.Value = A.V;
      R.Stage = Stage;
      R.Element = V.Type.Element;
      R.Layout = to_string(T);
      R.Shape = Shape;
      Cursor = R.Offset + R.Bytes;
      L.Regions.push_back(std::move(R));
      if (Stage == 0)
        Views[A.V] = static_cast<RegionId>(L.Regions.size() - 1);
    }
  }
}

/// mbarrier objects are 8 bytes, 8-byte aligned (PTX ISA, "Size and
/// alignment of mbarrier object").
constexpr std::int64_t MbarrierBytes = 8;

void Lowering::layOutBarriers() {
  std::int64_t Cursor = 0;
  for (const Region &R : L.Regions) {
    Cursor = std::max(Cursor, R.Offset + R.Bytes);
    L.SharedAlign = std::max(L.SharedAlign, R.Align);
  }
  for (Barrier &B : L.Barriers)
    for (int I = 0; I < B.Count; ++I) {
      Region R;
      R.Kind = RegionKind::Barrier;
      R.Name = B.Name + "[" + std::to_string(I) + "]";
      R.Align = MbarrierBytes;
      R.AlignReason = "mbarrier";
      R.Offset = alignTo(Cursor, MbarrierBytes);
      R.Bytes = MbarrierBytes;
      Cursor = R.Offset + R.Bytes;
      L.Regions.push_back(std::move(R));
      B.Regions.push_back(static_cast<RegionId>(L.Regions.size() - 1));
    }
  L.SharedBytes = Cursor;
}

BarrierId Lowering::barrier(ValueId Guards, const char *Which, int Count) {
  auto [It, New] = Barriers.try_emplace({Guards, Which}, 0);
  if (New) {
    Barrier B;
    B.Name = H.Values[Guards].Name + "." + Which;
    B.Count = Count;
    B.Guards = Guards;
    L.Barriers.push_back(std::move(B));
    It->second = static_cast<BarrierId>(L.Barriers.size() - 1);
  }
  return It->second;
}

//===- Expressions ---------------------------------------------------------===//

ExprId Lowering::expr(hir::ExprId E, const hir::SourceRange &At) {
  if (E == hir::None || E >= H.Exprs.size()) {
    fail(At, "an index expression is missing");
    return L.constant(0);
  }
  const hir::Expr &X = H.Exprs[E];
  auto Binary = [&](ExprKind K) {
    ExprId A = expr(X.Lhs, At);
    return L.binary(K, A, expr(X.Rhs, At));
  };
  switch (X.Kind) {
  case hir::ExprKind::Constant:
    return L.constant(X.Constant);
  case hir::ExprKind::Ref:
    if (X.Ref != hir::None && X.Ref < H.Values.size() &&
        !H.Values[X.Ref].Name.empty())
      return L.var(H.Values[X.Ref].Name);
    break;
  case hir::ExprKind::Extent:
    if (X.Ref != hir::None && X.Ref < H.Values.size()) {
      Expr Out;
      Out.Kind = ExprKind::Extent;
      Out.Name = H.Values[X.Ref].Name;
      Out.Dim = X.Dim;
      return L.addExpr(std::move(Out));
    }
    break;
  case hir::ExprKind::Add: return Binary(ExprKind::Add);
  case hir::ExprKind::Sub: return Binary(ExprKind::Sub);
  case hir::ExprKind::Mul: return Binary(ExprKind::Mul);
  case hir::ExprKind::Div: return Binary(ExprKind::Div);
  case hir::ExprKind::CeilDiv: return Binary(ExprKind::CeilDiv);
  case hir::ExprKind::Min: return Binary(ExprKind::Min);
  case hir::ExprKind::Max: return Binary(ExprKind::Max);
  case hir::ExprKind::Opaque:
    fail(At, "index expression '" + X.Text +
                 "' is not one tf reads; write it with +, -, *, /, "
                 "ceil_div, min, max of extents and indices");
    return L.constant(0);
  }
  fail(At, "an index expression refers to an unnamed value");
  return L.constant(0);
}

ExprId Lowering::clock(const LoopContext &C, bool PerK) {
  if (PerK && C.KClock != None)
    return C.KClock;
  return C.TileClock == None ? L.constant(0) : C.TileClock;
}

/// The slot and phase of \p Clock in a ring of \p Stages: clock % stages and
/// (clock / stages) & 1; for one stage 0 and clock & 1.
std::pair<ExprId, ExprId> slotAndPhase(Kernel &L, ExprId Clock, int Stages) {
  if (Stages == 1)
    return {L.constant(0), L.binary(ExprKind::And, Clock, L.constant(1))};
  ExprId N = L.constant(Stages);
  return {L.binary(ExprKind::Mod, Clock, N),
          L.binary(ExprKind::And, L.binary(ExprKind::Div, Clock, N),
                   L.constant(1))};
}

//===- Statements ----------------------------------------------------------===//

void Lowering::project(const std::vector<StmtId> &Stmts, int Role,
                       const LoopContext &C, std::vector<InstId> &Out) {
  for (StmtId Id : Stmts) {
    const hir::Stmt &S = H.Stmts[Id];
    switch (S.Kind) {
    case StmtKind::Block:
      project(S.Body, Role, C, Out);
      break;
    case StmtKind::MeshScope:
      if (roleOf(Id) == Role)
        for (StmtId Op : S.Body)
          lowerOp(Op, Role, C, Out);
      break;
    case StmtKind::Loop:
      if (hasRole(Id, Role))
        lowerLoop(S, Role, C, Out);
      break;
    case StmtKind::Let:
      // Kernel-level lets are computed once before the roles (run()).
      if (S.Parent != H.Body)
        add(let(S), Out);
      break;
    case StmtKind::Alloc:
      break;
    case StmtKind::Op:
      // Outside mesh scopes only allocations are lowered (the map).
      if (S.Op != hir::OpKind::Empty && S.Op != hir::OpKind::Zeros &&
          Role == 0)
        fail(S.Range, opText(S) + " runs outside every mesh scope; finalize "
                      "lowers ops inside [[tf::mesh]] scopes of threads");
      break;
    }
  }
}

void Lowering::lowerLoop(const hir::Stmt &S, int Role, const LoopContext &C,
                         std::vector<InstId> &Out) {
  LoopContext Inner = C;
  if (S.Loop == hir::LoopKind::TileOffsets) {
    std::optional<std::int64_t> Step =
        S.Bounds.size() == 2 ? analysis::foldExpr(H, S.Bounds[1]) : std::nullopt;
    if (!Step || *Step <= 0 || S.Indices.size() != 1) {
      fail(S.Range, "tile_offsets needs a compile-time step; finalize "
                    "derives the K loop's trip count from it");
      return;
    }
    Inst I = inst(InstKind::KLoop, S, Role);
    const std::string K = H.Values[S.Indices[0]].Name;
    I.Vars = {K};
    I.Start = L.constant(0);
    I.Bound = expr(S.Bounds[0], S.Range);
    I.Step = *Step;
    // it = tiles_done * ceil_div(extent, step) + k / step (k / step alone
    // when every CTA runs one tile).
    Inst Clock = inst(InstKind::Let, S, Role);
    Clock.Vars = {"it"};
    Clock.Value = L.binary(ExprKind::Div, L.var(K), L.constant(*Step));
    const ExprId Tiles = clock(C, false);
    if (L.Exprs[Tiles].Kind != ExprKind::Constant || L.Exprs[Tiles].Value != 0)
      Clock.Value = L.binary(
          ExprKind::Add,
          L.binary(ExprKind::Mul, Tiles,
                   L.binary(ExprKind::CeilDiv, expr(S.Bounds[0], S.Range),
                            L.constant(*Step))),
          Clock.Value);
    add(std::move(Clock), I.Body);
    Inner.KClock = L.var("it");
    project(S.Body, Role, Inner, I.Body);
    add(std::move(I), Out);
    return;
  }

  // persistent_tiles / grid_tiles over a GM x GN grid of tiles.
  if (C.TileClock != None || S.Indices.size() != 2 || S.Bounds.size() != 2 ||
      S.Cluster != 1) {
    fail(S.Range, "finalize lowers one persistent_tiles or grid_tiles loop "
                  "over (m, n), outermost, without clusters");
    return;
  }
  const bool Persistent = S.Loop == hir::LoopKind::PersistentTiles;
  Inst I = inst(InstKind::TileLoop, S, Role);
  const std::string M = H.Values[S.Indices[0]].Name;
  const std::string N = H.Values[S.Indices[1]].Name;
  I.Vars = {"task", M, N};
  I.Persistent = Persistent;
  I.GroupM = S.GroupM;
  I.Start = L.var("cta.x");
  ExprId GM = expr(S.Bounds[0], S.Range), GN = expr(S.Bounds[1], S.Range);
  I.Bound = L.binary(ExprKind::Mul, GM, GN);
  if (Persistent) {
    Result<std::int64_t> CTAs = S.LoopMesh.size();
    if (!CTAs) {
      fail(S.Range, "persistent_tiles over a CTA mesh of run-time size; "
                    "finalize launches a fixed number of CTAs");
      return;
    }
    I.Stride = L.constant(*CTAs);
  } else {
    I.Stride = I.Bound; // one tile per CTA
    Inner.TileClock = L.constant(0);
  }

  // The order of tf::grouped_tile (tf/scheduler/tile.hpp): bands of
  // group_m rows (columns when column_major), the last band shorter; with
  // group_m = 1 plain row-major (column-major) order.
  ExprId Slow = S.ColumnMajor ? GN : GM, Fast = S.ColumnMajor ? GM : GN;
  auto Let = [&](std::string Name, ExprId Value) {
    Inst X = inst(InstKind::Let, S, Role);
    X.Vars = {Name};
    X.Value = Value;
    add(std::move(X), I.Body);
    return L.var(std::move(Name));
  };
  ExprId A = L.binary(ExprKind::Div, L.var("task"), Fast);
  ExprId B = L.binary(ExprKind::Mod, L.var("task"), Fast);
  if (S.GroupM > 1) {
    ExprId G = L.constant(S.GroupM);
    ExprId Band = Let("band", L.binary(ExprKind::Div, L.var("task"),
                                       L.binary(ExprKind::Mul, G, Fast)));
    ExprId First = Let("band_first", L.binary(ExprKind::Mul, Band, G));
    ExprId Rows = Let("band_rows",
                      L.binary(ExprKind::Min,
                               L.binary(ExprKind::Sub, Slow, First), G));
    ExprId InBand = Let("in_band", L.binary(ExprKind::Mod, L.var("task"),
                                            L.binary(ExprKind::Mul, G, Fast)));
    A = L.binary(ExprKind::Add, First, L.binary(ExprKind::Mod, InBand, Rows));
    B = L.binary(ExprKind::Div, InBand, Rows);
  }
  I.M = Let(M, S.ColumnMajor ? B : A);
  I.N = Let(N, S.ColumnMajor ? A : B);
  if (Persistent)
    Inner.TileClock = Let(
        "tiles_done",
        L.binary(ExprKind::Div,
                 L.binary(ExprKind::Sub, L.var("task"), L.var("cta.x")),
                 I.Stride));

  if (Role == 0) {
    L.Grid = Persistent ? I.Stride : I.Bound;
    L.Persistent = Persistent;
  }
  project(S.Body, Role, Inner, I.Body);
  add(std::move(I), Out);
}

//===- Ops -----------------------------------------------------------------===//

void Lowering::lowerOp(StmtId Id, int Role, const LoopContext &C,
                       std::vector<InstId> &Out) {
  const hir::Stmt &S = H.Stmts[Id];
  if (S.Kind != StmtKind::Op) {
    fail(S.Range, "finalize lowers ops directly inside a mesh scope; this "
                  "scope holds a nested statement");
    return;
  }
  if (!S.Sched) {
    if (S.Op == hir::OpKind::Zeros && S.Result != hir::None &&
        H.Values[S.Result].Type.Where == Storage::rmem) {
      Inst I = inst(InstKind::ZeroAcc, S, Role);
      I.Acc = S.Result;
      add(std::move(I), Out);
      return;
    }
    // An element-wise op done by the scheduled op that reads it (the cast
    // feeding the epilogue's copy): lowered there.
    if (!analysis::isUndecided(H, Id))
      return;
    fail(S.Range, opText(S) + " has no lowering");
    return;
  }
  const std::string &Contract = S.Sched->ContractId;
  if (Contract == "nv.sm90.CopyAsyncTensor" && S.Operands.size() == 2) {
    const hir::Value &Dst = H.Values[S.Operands[1]];
    if (Dst.Kind == hir::ValueKind::Ring)
      return lowerLoad(S, Role, C, Out);
    if (Dst.Type.Where == Storage::gmem)
      return lowerStore(S, Role, C, Out);
  } else if (Contract == "nv.sm90.Wgmma") {
    return lowerMma(Id, Role, C, Out);
  } else if (Contract == "generic.Copy" && S.Operands.size() == 2 &&
             H.Values[S.Operands[1]].Type.Where == Storage::smem) {
    return lowerStaging(S, Role, C, Out);
  }
  fail(S.CallRange.valid() ? S.CallRange : S.Range,
       "finalize has no lowering for " + Contract + " with these operands "
       "(it lowers TMA loads into rings, TMA stores of shared-memory "
       "buffers, WGMMA over ring slots and register-to-shared copies)");
}

unsigned Lowering::tensorMap(ValueId Tensor, const hir::Schedule &Sched,
                             SwizzleMode Mode) {
  for (unsigned I = 0; I < L.Maps.size(); ++I)
    if (L.Maps[I].Value == Tensor && L.Maps[I].Box == Sched.BoxExtents &&
        L.Maps[I].Swizzle == Mode)
      return I;
  TensorMap M;
  M.Tensor = H.Values[Tensor].Name;
  M.Value = Tensor;
  M.Element = H.Values[Tensor].Type.Element;
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

void Lowering::issueBoxes(const hir::Stmt &S, InstKind Kind, ValueId Tile,
                          unsigned Map, const Inst &Proto,
                          std::vector<InstId> &Out) {
  const hir::Schedule &Sched = *S.Sched;
  const hir::Value &T = H.Values[Tile];
  const DType Element = T.Type.Element;
  std::int64_t Boxes = 1, BoxElements = 1;
  for (std::int64_t C : Sched.DerivedRepeat)
    Boxes *= C;
  for (std::int64_t E : Sched.BoxExtents)
    BoxElements *= E;
  for (std::int64_t B = 0; B < Boxes; ++B) {
    std::vector<std::int64_t> At = boxCoord(B, Sched.DerivedRepeat);
    Inst I = Proto;
    I.Kind = Kind;
    I.Map = Map;
    I.Bytes = BoxElements * bytes(Element);
    IntTuple Crd;
    for (std::size_t D = 0; D < At.size(); ++D) {
      Crd.push_back(IntTuple(At[D]));
      ExprId Base = D < T.TileOffsets.size() ? expr(T.TileOffsets[D], S.Range)
                                             : L.constant(0);
      I.Coords.push_back(
          At[D] == 0 ? Base
                     : L.binary(ExprKind::Add, Base,
                                L.constant(At[D] * Sched.BoxExtents[D])));
    }
    Result<std::int64_t> Offset = evaluate(Sched.BoxOffsets, Crd);
    if (!Offset) {
      fail(S.Range, "the boxes' shared-memory offsets are not known");
      return;
    }
    I.ViewOffset = *Offset * bytes(Element);
    add(std::move(I), Out);
  }
}

void Lowering::lowerLoad(const hir::Stmt &S, int Role, const LoopContext &C,
                         std::vector<InstId> &Out) {
  const ValueId Tile = S.Operands[0], RingId = S.Operands[1];
  const hir::Value &Ring = H.Values[RingId];
  const hir::Value &Src = H.Values[Tile];
  if (Src.TileOf == hir::None ||
      H.Values[Src.TileOf].Origin != hir::ValueOrigin::Parameter ||
      S.Sched->BoxExtents.empty()) {
    fail(S.Range, "the TMA load's source is not a tile of a kernel "
                  "parameter; finalize encodes one tensor map per parameter");
    return;
  }
  if (!Views.count(RingId))
    return; // its map entry was refused

  const LayoutText &Slot = Ring.Type.Layout;
  const SwizzleMode Mode =
      swizzleModeOf(Slot.has_swizzle ? Slot.swizzle : Swizzle{})
          .value_or(SwizzleMode::none);
  const unsigned Map = tensorMap(Src.TileOf, *S.Sched, Mode);
  const BarrierId Full = barrier(RingId, "full", Ring.Stages);
  const BarrierId Empty = barrier(RingId, "empty", Ring.Stages);
  L.Barriers[Full].Arrivals = Roles[Role].threads();

  const ExprId Clock = clock(C, true);
  auto [SlotE, Phase] = slotAndPhase(L, Clock, Ring.Stages);

  addWait(Empty, SlotE, Phase, Clock, /*Producer=*/true, S, Role, Out);

  Inst Box = inst(InstKind::TmaLoad, S, Role);
  Box.Bar = Full;
  Box.Slot = SlotE;
  Box.Clock = Clock;
  Box.Ring = RingId;
  Box.View = Views[RingId];
  std::vector<InstId> Loads;
  issueBoxes(S, InstKind::TmaLoad, Tile, Map, Box, Loads);

  Inst Arrive = inst(InstKind::ArriveExpectTx, S, Role);
  Arrive.Bar = Full;
  Arrive.Slot = SlotE;
  Arrive.Clock = Clock;
  for (InstId I : Loads)
    Arrive.Bytes += L.Insts[I].Bytes;
  L.Barriers[Full].TxBytes = Arrive.Bytes;
  // The expected bytes are registered before the copies can complete them.
  add(std::move(Arrive), Out);
  Out.insert(Out.end(), Loads.begin(), Loads.end());
}

void Lowering::lowerMma(StmtId Id, int Role, const LoopContext &C,
                        std::vector<InstId> &Out) {
  const hir::Stmt &S = H.Stmts[Id];
  analysis::HirSite Site;
  MatchReport R;
  if (analysis::buildSite(H, Id, Target, Site))
    R = match(*Site.C, Site.S);
  const OperandFragment *FA = R.fragment("A"), *FB = R.fragment("B");
  if (!R.accepted || !R.repeat.derived || !FA || !FB ||
      S.Operands.size() != 3) {
    fail(S.Range, "internal error: the WGMMA site no longer matches its "
                  "contract; run the checks (tf hir) first");
    return;
  }
  ValueId Rings[2] = {hir::None, hir::None};
  for (int I = 0; I < 2; ++I) {
    auto It = Backing.find(S.Operands[1 + I]);
    if (It == Backing.end() ||
        H.Values[It->second].Kind != hir::ValueKind::Ring) {
      fail(S.Range, std::string("WGMMA operand ") + (I ? "B" : "A") +
                        " is not a slot a TMA load filled; finalize lowers "
                        "WGMMA over ring slots");
      return;
    }
    Rings[I] = It->second;
  }
  const ExprId Clock = clock(C, true);
  ExprId Slots[2];
  for (int I = 0; I < 2; ++I) {
    const hir::Value &Ring = H.Values[Rings[I]];
    auto [SlotE, Phase] = slotAndPhase(L, Clock, Ring.Stages);
    Slots[I] = SlotE;
    if (I == 1 && Rings[1] == Rings[0])
      continue;
    addWait(barrier(Rings[I], "full", Ring.Stages), SlotE, Phase, Clock,
            /*Producer=*/false, S, Role, Out);
  }

  add(inst(InstKind::WgmmaFence, S, Role), Out);
  const DType Element = H.Values[Rings[0]].Type.Element;
  const ParamValue *A = R.param("a_major"), *B = R.param("b_major");
  const std::string Opcode =
      "wgmma.mma_async.sync.aligned.m" + std::to_string(R.repeat.atom[0]) +
      "n" + std::to_string(R.repeat.atom[1]) + "k" +
      std::to_string(R.repeat.atom[2]) + ".f32." + std::string(name(Element)) +
      "." + std::string(name(Element));
  const std::int64_t *Count = R.repeat.count, *Spatial = R.repeat.spatial;
  const std::int64_t PerGroup = Count[0] / Spatial[0];
  for (std::int64_t KK = 0; KK < Count[2]; ++KK)
    for (std::int64_t MI = 0; MI < Count[0]; ++MI)
      for (std::int64_t NJ = 0; NJ < Count[1]; ++NJ) {
        Inst I = inst(InstKind::Wgmma, S, Role);
        I.Opcode = Opcode;
        I.Axis = std::string(R.repeat.spatial_axis[0].view());
        I.AxisValue = MI / PerGroup;
        I.Block = (MI % PerGroup) * Count[1] + NJ;
        I.KStep = KK;
        I.Threads = Roles[Role].threads() / Spatial[0];
        I.RingA = Rings[0];
        I.RingB = Rings[1];
        I.Coords = {Slots[0], Slots[1]};
        I.TransA = A && A->choice == "MN";
        I.TransB = B && B->choice == "MN";
        I.Acc = S.Result;
        llvm::Expected<SmemDescriptor> DA = wgmmaDescriptor(*FA, Element,
                                                            {MI, KK});
        llvm::Expected<SmemDescriptor> DB = wgmmaDescriptor(*FB, Element,
                                                            {KK, NJ});
        if (!DA || !DB) {
          fail(S.Range, "WGMMA descriptor: " +
                            llvm::toString(DA ? DB.takeError()
                                              : DA.takeError()));
          if (DA)
            continue;
          llvm::consumeError(DB.takeError());
          continue;
        }
        I.A = *DA;
        I.B = *DB;
        add(std::move(I), Out);
      }
  add(inst(InstKind::WgmmaCommit, S, Role), Out);
  // The slots are released only once the wgmmas reading them are done.
  Inst Wait = inst(InstKind::WgmmaWait, S, Role);
  Wait.Count = 0;
  add(std::move(Wait), Out);
  for (int I = 0; I < 2; ++I) {
    if (I == 1 && Rings[1] == Rings[0])
      continue;
    const hir::Value &Ring = H.Values[Rings[I]];
    Inst Release = inst(InstKind::Arrive, S, Role);
    Release.Bar = barrier(Rings[I], "empty", Ring.Stages);
    L.Barriers[Release.Bar].Arrivals = Roles[Role].threads();
    Release.Slot = Slots[I];
    Release.Clock = Clock;
    add(std::move(Release), Out);
  }
}

void Lowering::lowerStaging(const hir::Stmt &S, int Role, const LoopContext &C,
                            std::vector<InstId> &Out) {
  // The source: the accumulator, or a cast of it done on the way.
  ValueId Src = S.Operands[0];
  DType CastTo = H.Values[Src].Type.Element;
  const hir::Value &SrcV = H.Values[Src];
  if (SrcV.Def != hir::None && H.Stmts[SrcV.Def].Op == hir::OpKind::Cast &&
      !H.Stmts[SrcV.Def].Operands.empty())
    Src = H.Stmts[SrcV.Def].Operands[0];
  const ValueId Buffer = S.Operands[1];
  if (H.Values[Src].Type.Where != Storage::rmem || !H.Values[Src].Shard ||
      !Views.count(Buffer)) {
    fail(S.Range, "the staging copy's source is not a register tensor "
                  "distributed over the scope's threads");
    return;
  }
  const BarrierId Full = barrier(Buffer, "full", 1);
  const BarrierId Empty = barrier(Buffer, "empty", 1);
  const ExprId Clock = clock(C, false);
  auto [SlotE, Phase] = slotAndPhase(L, Clock, 1);

  // The previous tile's store must have read the buffer.
  addWait(Empty, SlotE, Phase, Clock, /*Producer=*/true, S, Role, Out);

  Inst Store = inst(InstKind::StoreFragment, S, Role);
  Store.Acc = Src;
  Store.Shard = to_string(*H.Values[Src].Shard);
  Store.CastTo = CastTo;
  Store.View = Views[Buffer];
  add(std::move(Store), Out);
  // Generic-proxy writes become visible to the TMA (async proxy), then all
  // writers meet so that one of them can hand the buffer over.
  add(inst(InstKind::FenceProxyAsync, S, Role), Out);
  Inst Sync = inst(InstKind::NamedBarrier, S, Role);
  Sync.BarrierIdNum = NextNamedBarrier++;
  Sync.Count = Roles[Role].threads();
  add(std::move(Sync), Out);
  Inst Arrive = inst(InstKind::Arrive, S, Role);
  Arrive.Bar = Full;
  Arrive.Slot = SlotE;
  Arrive.Clock = Clock;
  Arrive.Threads = 1;
  Arrive.Elected = Roles[Role].Begin;
  L.Barriers[Full].Arrivals = 1;
  add(std::move(Arrive), Out);
}

void Lowering::lowerStore(const hir::Stmt &S, int Role, const LoopContext &C,
                          std::vector<InstId> &Out) {
  const ValueId Staged = S.Operands[0], Tile = S.Operands[1];
  auto It = Backing.find(Staged);
  const hir::Value &Dst = H.Values[Tile];
  if (It == Backing.end() || !Views.count(It->second) ||
      Dst.TileOf == hir::None ||
      H.Values[Dst.TileOf].Origin != hir::ValueOrigin::Parameter) {
    fail(S.Range, "the TMA store does not copy a staged shared-memory "
                  "buffer into a tile of a kernel parameter");
    return;
  }
  const ValueId Buffer = It->second;
  const LayoutText &T = H.Values[Buffer].Type.Layout;
  const SwizzleMode Mode = swizzleModeOf(T.has_swizzle ? T.swizzle : Swizzle{})
                               .value_or(SwizzleMode::none);
  const unsigned Map = tensorMap(Dst.TileOf, *S.Sched, Mode);
  const BarrierId Full = barrier(Buffer, "full", 1);
  const BarrierId Empty = barrier(Buffer, "empty", 1);
  const ExprId Clock = clock(C, false);
  auto [SlotE, Phase] = slotAndPhase(L, Clock, 1);

  addWait(Full, SlotE, Phase, Clock, /*Producer=*/false, S, Role, Out);
  Inst Box = inst(InstKind::TmaStore, S, Role);
  Box.View = Views[Buffer];
  issueBoxes(S, InstKind::TmaStore, Tile, Map, Box, Out);
  add(inst(InstKind::BulkCommit, S, Role), Out);
  // The buffer may be overwritten once the stores have read it (.read:
  // their global writes need not be done).
  add(inst(InstKind::BulkWaitRead, S, Role), Out);
  Inst Release = inst(InstKind::Arrive, S, Role);
  Release.Bar = Empty;
  Release.Slot = SlotE;
  Release.Clock = Clock;
  L.Barriers[Empty].Arrivals = Roles[Role].threads();
  add(std::move(Release), Out);
}

//===- The kernel ----------------------------------------------------------===//

llvm::Expected<Kernel> Lowering::run() {
  if (setUp()) {
    collectRoles();
    collectBacking();
    layOutViews();
  }
  if (!Failed && Roles.empty())
    fail(H.Range, "no mesh scope of threads; finalize lowers each scope "
                  "as a role");
  if (Failed)
    return std::move(Errors);

  // Kernel-level lets (tile counts) first, computed by every thread.
  const hir::Stmt &Body = H.Stmts[H.Body];
  for (StmtId Id : Body.Body) {
    if (H.Stmts[Id].Kind == StmtKind::Let)
      L.Body.push_back(L.addInst(let(H.Stmts[Id])));
  }
  std::vector<InstId> RoleInsts;
  for (int Role = 0; Role < static_cast<int>(Roles.size()); ++Role) {
    Inst I;
    I.Kind = InstKind::Role;
    I.Range = H.Range;
    I.RoleName = Roles[Role].Name;
    I.Mesh = Roles[Role].Mesh;
    I.Begin = Roles[Role].Begin;
    I.End = Roles[Role].End;
    I.Threads = Roles[Role].threads();
    project(Body.Body, Role, LoopContext{}, I.Body);
    RoleInsts.push_back(L.addInst(std::move(I)));
  }
  if (L.Grid == None)
    fail(H.Range, "no persistent_tiles or grid_tiles loop; finalize "
                  "derives the grid from it");
  for (const Barrier &B : L.Barriers)
    if (B.Arrivals == 0)
      fail(H.Values[B.Guards].Range,
           "'" + B.Name + "' has no role arriving on it: '" +
               H.Values[B.Guards].Name +
               "' is filled but never read, or read but never filled");
  if (Failed)
    return std::move(Errors);
  layOutBarriers();

  // Thread 0 initialises every barrier; a CTA-wide barrier publishes them.
  Inst Init;
  Init.Kind = InstKind::Role;
  Init.Range = H.Range;
  Init.RoleName = "init";
  Init.Begin = 0;
  Init.End = 1;
  Init.Threads = 1;
  for (BarrierId B = 0; B < L.Barriers.size(); ++B) {
    Inst I;
    I.Kind = InstKind::BarrierInit;
    I.Range = H.Range;
    I.Bar = B;
    I.Count = L.Barriers[B].Arrivals;
    Init.Body.push_back(L.addInst(std::move(I)));
  }
  L.Body.push_back(L.addInst(std::move(Init)));
  Inst Fence;
  Fence.Kind = InstKind::FenceBarrierInit;
  Fence.Range = H.Range;
  L.Body.push_back(L.addInst(std::move(Fence)));
  L.Body.insert(L.Body.end(), RoleInsts.begin(), RoleInsts.end());
  return std::move(L);
}

} // namespace

llvm::Expected<Kernel> lowerKernel(const hir::Kernel &K,
                                   const targets::MergedTarget *Target) {
  return Lowering(K, Target).run();
}

} // namespace tf::lower
