//===- plugin/lower/RoleProjection.cpp - Mesh scopes as roles -------------===//
//
// See RoleProjection.h.
//
//===----------------------------------------------------------------------===//
#include "lower/RoleProjection.h"
#include "lower/InstructionSelection.h"
#include "lower/RegisterProgram.h"

#include "tf/layout/mesh_text.hpp"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <set>

namespace tf::lower {

using hir::StmtId;
using plugin::DiagId;

void findRoles(LoweringContext &Ctx) {
  const hir::Kernel &H = Ctx.H;
  const Name ThreadLevel = H.Topologies.back().level;
  // One error per mesh (at its first scope) and per pair of overlapping
  // ranges, however many scopes use them.
  std::map<std::string, hir::SourceRange> FirstScope;
  using Range = std::pair<std::int64_t, std::int64_t>;
  std::set<std::pair<Range, Range>> Overlaps;
  for (StmtId Id : H.preorder()) {
    const hir::Stmt &S = H.Stmts[Id];
    if (S.Kind != hir::StmtKind::MeshScope)
      continue;
    const std::string MeshText = to_string(S.Mesh);
    const hir::SourceRange &At =
        FirstScope.try_emplace(S.MeshSpelling + " " + MeshText, S.Range)
            .first->second;
    Result<std::int64_t> First = S.Mesh.offset.get();
    Result<std::int64_t> Size = S.Mesh.size();
    Result<std::int64_t> Span = cosize(S.Mesh.layout);
    if (!(S.Mesh.level == ThreadLevel) || !First || !Size || !Span ||
        *Size != *Span) {
      Ctx.refuse(DiagId::err_tf_lower_role, At,
                 {"'" + S.MeshSpelling + "'", MeshText,
                  "it is not a contiguous range of threads"});
      continue;
    }
    Role R{S.MeshSpelling, MeshText, *First, *First + *Span};
    int Found = -1;
    for (std::size_t I = 0; I < Ctx.Roles.size(); ++I) {
      const Role &O = Ctx.Roles[I];
      if (O.Begin == R.Begin && O.End == R.End)
        Found = static_cast<int>(I);
      else if (O.Begin < R.End && R.Begin < O.End &&
               Overlaps.insert(std::minmax(Range{O.Begin, O.End}, Range{R.Begin, R.End}))
                   .second)
        Ctx.refuse(DiagId::err_tf_lower_role, At,
                   {"'" + S.MeshSpelling + "'", MeshText,
                    "its threads [" + std::to_string(R.Begin) + ", " +
                        std::to_string(R.End) + ") overlap those of '" +
                        O.Name + "' partly; roles are disjoint thread ranges"});
    }
    if (Found < 0)
      Ctx.Roles.push_back(R);
  }
  // Roles in thread order, so the output does not depend on which scope
  // comes first in the source.
  std::stable_sort(Ctx.Roles.begin(), Ctx.Roles.end(),
                   [](const Role &A, const Role &B) { return A.Begin < B.Begin; });
  for (StmtId Id : H.preorder()) {
    const hir::Stmt &S = H.Stmts[Id];
    Result<std::int64_t> First = S.Mesh.offset.get();
    if (S.Kind != hir::StmtKind::MeshScope || !First)
      continue;
    for (std::size_t I = 0; I < Ctx.Roles.size(); ++I)
      if (Ctx.Roles[I].Begin == *First)
        Ctx.ScopeRole[Id] = static_cast<int>(I);
  }
}

namespace {

class Projection {
public:
  explicit Projection(LoweringContext &Ctx) : Ctx(Ctx), H(Ctx.H), L(Ctx.L) {}

  void statements(const std::vector<StmtId> &Stmts, int R, const LoopClock &C,
                  std::vector<InstId> &Out);

private:
  void loop(const hir::Stmt &S, int R, const LoopClock &C,
            std::vector<InstId> &Out);
  /// The statements \p Stmts of mesh scope \p Scope: its ops, and
  /// tile_offsets loops over register programs (a loop over a row's column
  /// tiles).
  void scopeStatements(const hir::Stmt &Scope,
                       const std::vector<StmtId> &Stmts, int R,
                       const LoopClock &C, std::vector<InstId> &Out);
  void kLoop(const hir::Stmt &S, int R, const LoopClock &C,
             std::vector<InstId> &Out);
  void tileLoop(const hir::Stmt &S, int R, const LoopClock &C,
                std::vector<InstId> &Out);

  LoweringContext &Ctx;
  const hir::Kernel &H;
  Kernel &L;
};

/// The Let of HIR let \p S.
Stmt let(LoweringContext &Ctx, const hir::Stmt &S) {
  LetStmt I;
  if (S.Defines == hir::None || S.Defines >= Ctx.H.Values.size() ||
      Ctx.H.Values[S.Defines].Name.empty()) {
    Ctx.refuse(DiagId::err_tf_lower_index, S.Range,
               {"<let>", "it defines no named value"});
    return Stmt(I, S.Range);
  }
  I.Var = Ctx.H.Values[S.Defines].Name;
  I.Value = Ctx.expr(S.Init, S.Range);
  return Stmt(I, S.Range);
}

void Projection::statements(const std::vector<StmtId> &Stmts, int R,
                            const LoopClock &C, std::vector<InstId> &Out) {
  for (StmtId Id : Stmts) {
    const hir::Stmt &S = H.Stmts[Id];
    switch (S.Kind) {
    case hir::StmtKind::Block:
      statements(S.Body, R, C, Out);
      break;
    case hir::StmtKind::MeshScope:
      if (Ctx.roleOf(Id) != R)
        break;
      scopeStatements(S, S.Body, R, C, Out);
      break;
    case hir::StmtKind::Loop:
      if (Ctx.hasRole(Id, R))
        loop(S, R, C, Out);
      break;
    case hir::StmtKind::Let:
      // Kernel-level lets (tile counts) are computed once before the roles.
      if (S.Parent != H.Body)
        Ctx.add(let(Ctx, S), Out);
      break;
    case hir::StmtKind::Alloc:
      break;
    case hir::StmtKind::Op:
      // Outside mesh scopes only allocations are lowered (the map).
      if (hir::opInfo(S.Op).Class != hir::OpClass::Allocate && R == 0)
        Ctx.refuse(DiagId::err_tf_lower_statement, LoweringContext::at(S),
                   {Ctx.opText(S) + " outside every mesh scope",
                    "ops run inside [[tf::mesh]] scopes of threads"});
      break;
    }
  }
}

void Projection::scopeStatements(const hir::Stmt &Scope,
                                 const std::vector<StmtId> &Stmts, int R,
                                 const LoopClock &C,
                                 std::vector<InstId> &Out) {
  for (StmtId Id : Stmts) {
    const hir::Stmt &S = H.Stmts[Id];
    if (S.Kind == hir::StmtKind::Op) {
      selectInstructions(Ctx, Id, R, C, Out);
      continue;
    }
    auto Within = [&](StmtId X) {
      for (StmtId P = H.Stmts[X].Parent; P != hir::None; P = H.Stmts[P].Parent)
        if (P == Id)
          return true;
      return false;
    };
    const bool RegisterLoop =
        S.Kind == hir::StmtKind::Loop && S.Loop == hir::LoopKind::TileOffsets &&
        llvm::all_of(H.preorder(), [&](StmtId X) {
          const hir::Stmt &O = H.Stmts[X];
          return O.Kind != hir::StmtKind::Op || !Within(X) ||
                 hir::isRegisterOp(H, O);
        });
    if (!RegisterLoop) {
      Ctx.refuse(DiagId::err_tf_lower_statement, S.Range,
                 {"a nested statement inside mesh scope '" +
                      Scope.MeshSpelling + "'",
                  "a scope holds tf ops and tile_offsets loops over "
                  "register ops"});
      continue;
    }
    std::optional<std::int64_t> Step =
        S.Bounds.size() == 2 ? H.Exprs[S.Bounds[1]].Static : std::nullopt;
    if (!Step || *Step <= 0 || S.Indices.size() != 1) {
      Ctx.refuse(DiagId::err_tf_lower_loop, S.Range,
                 {"tile_offsets", "its step is not a positive compile-time "
                                  "constant"});
      continue;
    }
    KLoopStmt Loop;
    Loop.Var = H.Values[S.Indices[0]].Name;
    Loop.Start = L.constant(0);
    Loop.Bound = Ctx.expr(S.Bounds[0], S.Range);
    Loop.Step = *Step;
    Stmt I(Loop, S.Range);
    scopeStatements(Scope, S.Body, R, C, I.Body);
    Ctx.add(std::move(I), Out);
  }
  closeReductions(Ctx, Out);
}

void Projection::loop(const hir::Stmt &S, int R, const LoopClock &C,
                      std::vector<InstId> &Out) {
  if (S.Loop == hir::LoopKind::TileOffsets)
    kLoop(S, R, C, Out);
  else
    tileLoop(S, R, C, Out);
}

void Projection::kLoop(const hir::Stmt &S, int R, const LoopClock &C,
                       std::vector<InstId> &Out) {
  std::optional<std::int64_t> Step =
      S.Bounds.size() == 2 ? H.Exprs[S.Bounds[1]].Static : std::nullopt;
  if (!Step || *Step <= 0 || S.Indices.size() != 1) {
    Ctx.refuse(DiagId::err_tf_lower_loop, S.Range,
               {"tile_offsets", "its step is not a positive compile-time "
                                "constant; the K loop's trip count and the "
                                "ring clock derive from it"});
    return;
  }
  KLoopStmt Loop;
  const std::string K = H.Values[S.Indices[0]].Name;
  Loop.Var = K;
  Loop.Start = L.constant(0);
  Loop.Bound = Ctx.expr(S.Bounds[0], S.Range);
  Loop.Step = *Step;
  Stmt I(Loop, S.Range);
  // it = tiles_done * ceil_div(extent, step) + k / step (k / step alone
  // when every CTA runs one tile).
  LetStmt Clock;
  Clock.Var = "it";
  Clock.Value = L.binary(ExprKind::Div, L.var(K), L.constant(*Step));
  const ExprId Tiles = C.Tiles == None ? L.constant(0) : C.Tiles;
  if (L.Exprs[Tiles].Kind != ExprKind::Constant || L.Exprs[Tiles].Value != 0)
    Clock.Value = L.binary(
        ExprKind::Add,
        L.binary(ExprKind::Mul, Tiles,
                 L.binary(ExprKind::CeilDiv, Ctx.expr(S.Bounds[0], S.Range),
                          L.constant(*Step))),
        Clock.Value);
  Ctx.add(Clock, S, I.Body);
  LoopClock Inner = C;
  Inner.Iterations = L.var("it");
  statements(S.Body, R, Inner, I.Body);
  Ctx.add(std::move(I), Out);
}

void Projection::tileLoop(const hir::Stmt &S, int R, const LoopClock &C,
                          std::vector<InstId> &Out) {
  // persistent_tiles / grid_tiles over a GM x GN grid of tiles.
  if (C.Tiles != None || S.Indices.size() != 2 || S.Bounds.size() != 2) {
    Ctx.refuse(DiagId::err_tf_lower_loop, S.Range,
               {S.Loop == hir::LoopKind::PersistentTiles ? "persistent_tiles"
                                                         : "grid_tiles",
                "one tile loop over (m, n) is lowered, outermost"});
    return;
  }
  const bool Persistent = S.Loop == hir::LoopKind::PersistentTiles;
  // Clusters are an option of persistent_tiles only (grid_tiles has none).
  const std::int64_t Cluster = S.Cluster;
  LoopClock Inner = C;
  TileLoopStmt I;
  std::vector<InstId> Body;
  const std::string M = H.Values[S.Indices[0]].Name;
  const std::string N = H.Values[S.Indices[1]].Name;
  I.Persistent = Persistent;
  I.GroupM = S.GroupM;
  I.Cluster = Cluster;
  ExprId GM = Ctx.expr(S.Bounds[0], S.Range), GN = Ctx.expr(S.Bounds[1], S.Range);
  // In clusters the loop walks super-tiles: ceil(GM / c) rows of them, one
  // per cluster at a time (tf/scheduler/persistent_tiles.hpp).
  ExprId Rows = Cluster == 1
                    ? GM
                    : L.binary(ExprKind::CeilDiv, GM, L.constant(Cluster));
  I.Start = Cluster == 1 ? L.var("cta.x")
                         : L.binary(ExprKind::Div, L.var("cta.x"),
                                    L.constant(Cluster));
  I.Bound = L.binary(ExprKind::Mul, Rows, GN);
  if (Persistent) {
    Result<std::int64_t> CTAs = S.LoopMesh.size();
    if (!CTAs) {
      Ctx.refuse(DiagId::err_tf_lower_loop, S.Range,
                 {"persistent_tiles", "its CTA mesh has a run-time size; a "
                                      "fixed number of CTAs is launched"});
      return;
    }
    if (*CTAs % Cluster != 0) {
      Ctx.refuse(DiagId::err_tf_lower_loop,
                 S.ClusterRange.valid() ? S.ClusterRange : S.Range,
                 {"persistent_tiles",
                  std::to_string(*CTAs) + " CTAs do not form clusters of " +
                      std::to_string(Cluster) +
                      "; the number of CTAs must be a multiple of the "
                      "cluster size"});
      return;
    }
    I.Stride = L.constant(*CTAs / Cluster);
  } else {
    I.Stride = I.Bound; // one tile per CTA
    Inner.Tiles = L.constant(0);
  }

  // The order of tf::grouped_tile (tf/scheduler/tile.hpp): bands of
  // group_m rows (columns when column_major), the last band shorter; with
  // group_m = 1 plain row-major (column-major) order.
  ExprId Slow = S.ColumnMajor ? GN : Rows, Fast = S.ColumnMajor ? Rows : GN;
  auto Let = [&](std::string Name, ExprId Value) {
    Ctx.add(LetStmt{Name, Value}, S, Body);
    return L.var(std::move(Name));
  };
  ExprId A = L.binary(ExprKind::Div, L.var("task"), Fast);
  ExprId B = L.binary(ExprKind::Mod, L.var("task"), Fast);
  if (S.GroupM > 1) {
    ExprId G = L.constant(S.GroupM);
    ExprId Band = Let("band", L.binary(ExprKind::Div, L.var("task"),
                                       L.binary(ExprKind::Mul, G, Fast)));
    ExprId First = Let("band_first", L.binary(ExprKind::Mul, Band, G));
    ExprId BandRows = Let("band_rows",
                          L.binary(ExprKind::Min,
                                   L.binary(ExprKind::Sub, Slow, First), G));
    ExprId InBand = Let("in_band", L.binary(ExprKind::Mod, L.var("task"),
                                            L.binary(ExprKind::Mul, G, Fast)));
    A = L.binary(ExprKind::Add, First,
                 L.binary(ExprKind::Mod, InBand, BandRows));
    B = L.binary(ExprKind::Div, InBand, BandRows);
  }
  ExprId Row = S.ColumnMajor ? B : A;
  if (Cluster > 1) // the CTA's row of the super-tile: its cluster rank
    Row = L.binary(ExprKind::Add,
                   L.binary(ExprKind::Mul, Row, L.constant(Cluster)),
                   L.binary(ExprKind::Mod, L.var("cta.x"),
                            L.constant(Cluster)));
  I.M = Let(M, Row);
  I.N = Let(N, S.ColumnMajor ? A : B);
  if (Persistent)
    Inner.Tiles = Let(
        "tiles_done",
        L.binary(ExprKind::Div, L.binary(ExprKind::Sub, L.var("task"), I.Start),
                 I.Stride));

  if (R == 0) {
    L.Grid = Persistent ? L.constant(*S.LoopMesh.size()) : I.Bound;
    L.Persistent = Persistent;
    L.ClusterCtas = Cluster;
  }
  statements(S.Body, R, Inner, Body);
  Stmt Loop(I, S.Range);
  Loop.Body = std::move(Body);
  Ctx.add(std::move(Loop), Out);
}

} // namespace

void projectRoles(LoweringContext &Ctx, std::vector<InstId> &Roles) {
  const hir::Kernel &H = Ctx.H;
  const hir::Stmt &Body = H.Stmts[H.Body];
  // Kernel-level lets (tile counts) first, computed by every thread.
  for (StmtId Id : Body.Body)
    if (H.Stmts[Id].Kind == hir::StmtKind::Let)
      Ctx.L.Body.push_back(Ctx.L.addInst(let(Ctx, H.Stmts[Id])));
  Projection P(Ctx);
  for (int R = 0; R < static_cast<int>(Ctx.Roles.size()); ++R) {
    Stmt I(RoleStmt{Ctx.Roles[R].Name, Ctx.Roles[R].Mesh,
                    Ctx.Roles[R].Begin, Ctx.Roles[R].End},
           H.Range);
    P.statements(Body.Body, R, LoopClock{}, I.Body);
    Roles.push_back(Ctx.L.addInst(std::move(I)));
  }
  // A tile loop refused at its line leaves no grid either: that is its
  // error, not a second one.
  const bool HasTileLoop = llvm::any_of(H.Stmts, [](const hir::Stmt &S) {
    return S.Kind == hir::StmtKind::Loop && S.Loop != hir::LoopKind::TileOffsets;
  });
  if (Ctx.L.Grid == None && !HasTileLoop)
    Ctx.refuse(DiagId::err_tf_lower_loop, H.Range,
               {"the kernel", "it has no persistent_tiles or grid_tiles "
                              "loop, from which the grid is derived"});
}

} // namespace tf::lower
