//===- test/analysis/GemmKernel.cpp - The optimal GEMM as hand-built HIR --===//
//
// Lines (GemmKernel.h): 15 the Wgmma alias, 20-21 the rings, 22 the staged
// tile, 25 persistent_tiles, 26 acc, 27 tile_offsets, 28-29 the TMA loads,
// 30 the MMA, 31 the cast, 32 the Copy, 33 the TMA store.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"

namespace tf::test {

using namespace hir;

namespace {

class Builder {
public:
  explicit Builder(Kernel &K) : K(K) {}

  StmtId add(StmtId Parent, Stmt S) {
    S.Parent = Parent;
    StmtId Id = K.addStmt(std::move(S));
    if (Parent != None)
      K.Stmts[Parent].Body.push_back(Id);
    return Id;
  }

  StmtId scope(StmtId Parent, const Mesh &M, const std::string &Spelling,
               unsigned Line) {
    Stmt S;
    S.Kind = StmtKind::MeshScope;
    S.Mesh = M;
    S.MeshSpelling = Spelling;
    S.Range = at(Line, 5, 90);
    return add(Parent, std::move(S));
  }

  ExprId constant(std::int64_t V) {
    Expr E;
    E.Kind = ExprKind::Constant;
    E.Constant = V;
    return K.addExpr(E);
  }
  ExprId ref(ValueId V) {
    Expr E;
    E.Kind = ExprKind::Ref;
    E.Ref = V;
    return K.addExpr(E);
  }
  ExprId binary(ExprKind Kind, ExprId L, ExprId R) {
    Expr E;
    E.Kind = Kind;
    E.Lhs = L;
    E.Rhs = R;
    return K.addExpr(E);
  }
  ExprId extent(ValueId V, unsigned Dim) {
    Expr E;
    E.Kind = ExprKind::Extent;
    E.Ref = V;
    E.Dim = Dim;
    return K.addExpr(E);
  }

  ValueId value(ValueKind Kind, ValueOrigin Origin, const std::string &Name,
                TensorType T, SourceRange R) {
    Value V;
    V.Kind = Kind;
    V.Origin = Origin;
    V.Name = Name;
    V.Type = std::move(T);
    V.Range = R;
    return K.addValue(std::move(V));
  }

  /// A tile window t.tile<E0, E1>(O0, O1) of \p Of, written on \p R.
  ValueId tile(ValueId Of, std::vector<std::int64_t> Extents,
               std::vector<ExprId> Offsets, StmtId Scope, SourceRange R) {
    TensorType T = K.Values[Of].Type;
    T.WindowExtents = Extents;
    ValueId V = value(ValueKind::Tensor, ValueOrigin::Temporary, "", T, R);
    K.Values[V].TileOf = Of;
    K.Values[V].TileOffsets = std::move(Offsets);
    K.Values[V].Scope = Scope;
    return V;
  }

  StmtId op(StmtId Parent, OpKind Kind, unsigned Line,
            std::vector<ValueId> Operands, ValueId Result) {
    Stmt S;
    S.Kind = StmtKind::Op;
    S.Op = Kind;
    S.Range = at(Line, 5, 95);
    S.CallRange = at(Line, 30, 95);
    S.Operands = std::move(Operands);
    S.Result = Result;
    StmtId Id = add(Parent, std::move(S));
    if (Result != None && !K.Stmts[Id].Assigns) {
      K.Values[Result].Def = Id;
      K.Values[Result].Scope = K.meshScopeOf(Id);
    }
    return Id;
  }

  /// Accesses of \p Op: operand I is written at columns 60 + 5 I.
  void accesses(StmtId Op, std::vector<AccessKind> Kinds) {
    Stmt &S = K.Stmts[Op];
    for (std::size_t I = 0; I < S.Operands.size() && I < Kinds.size(); ++I) {
      hir::Access A;
      A.Operand = S.Operands[I];
      A.Kind = Kinds[I];
      unsigned Col = 60 + 5 * static_cast<unsigned>(I);
      A.Range = at(S.Range.Line, Col, Col + 3);
      S.Access.Accesses.push_back(A);
    }
  }

private:
  Kernel &K;
};

Schedule copySchedule(const char *Spelling, const char *Id) {
  Schedule S;
  S.AtomSpelling = Spelling;
  S.ContractId = Id;
  return S;
}

} // namespace

GemmKernel buildGemm(const GemmOptions &O) {
  GemmKernel G;
  Kernel &K = G.K;
  Builder B(K);
  K.Name = "gemm::gemm";
  K.MangledName = "_ZN4gemm4gemmEN2tf6TensorINS0_4bf16E";
  K.Range = at(10, 1, 90);
  K.Target = "nvidia.h200_sxm";
  K.Topologies = {topology("cta", 132), topology("thread", 384)};

  const Mesh Threads = threadsMesh();
  const Mesh Cta = mesh("cta", IntTuple{132}, "persistent");
  const Mesh Loader = Threads.sub(0, range(0, O.LoaderThreads));
  const Mesh Compute = Threads.sub(range(1, 3), _).reshape(
      IntTuple{2, 4, 8, 4}, "group", "warp", "lane8", "lane4");

  // Parameters: three run-time-sized row-major bf16 matrices.
  const TensorType Matrix = tensorType(DType::bf16, Storage::gmem, "(?,?)");
  G.A = B.value(ValueKind::Tensor, ValueOrigin::Parameter, "a", Matrix, at(11, 11, 18));
  G.B = B.value(ValueKind::Tensor, ValueOrigin::Parameter, "b", Matrix, at(11, 21, 28));
  G.Out = B.value(ValueKind::Tensor, ValueOrigin::Parameter, "out", Matrix, at(11, 31, 40));
  K.Parameters = {G.A, G.B, G.Out};

  Stmt Body;
  Body.Kind = StmtKind::Block;
  Body.Range = at(12, 1, 99);
  K.Body = B.add(None, Body);

  // The rings and the staged tile.
  auto alloc = [&](ValueId V, unsigned Line) {
    Stmt S;
    S.Kind = StmtKind::Alloc;
    S.Range = at(Line);
    S.Defines = V;
    StmtId Id = B.add(K.Body, S);
    K.Values[V].Def = Id;
  };
  G.LhsRing = B.value(ValueKind::Ring, ValueOrigin::Local, "lhs_ring",
                      tensorType(DType::bf16, Storage::smem, O.LhsSlot), at(20));
  K.Values[G.LhsRing].Stages = 3;
  alloc(G.LhsRing, 20);
  G.RhsRing = B.value(ValueKind::Ring, ValueOrigin::Local, "rhs_ring",
                      tensorType(DType::bf16, Storage::smem, O.RhsSlot), at(21));
  K.Values[G.RhsRing].Stages = 3;
  alloc(G.RhsRing, 21);
  G.StagedTile = B.value(ValueKind::Tensor, ValueOrigin::Local, "staged_tile",
                         tensorType(O.StagedDType, Storage::smem, O.Staged), at(22));
  B.op(K.Body, OpKind::Empty, 22, {}, G.StagedTile);

  // GM = ceil_div(a.extent(0), 128), GN = ceil_div(b.extent(1), 256).
  auto let = [&](const std::string &Name, ExprId Init, unsigned Line) {
    ValueId V = B.value(ValueKind::Index, ValueOrigin::Local, Name, {}, at(Line));
    K.Values[V].Init = Init;
    Stmt S;
    S.Kind = StmtKind::Let;
    S.Range = at(Line);
    S.Defines = V;
    S.Init = Init;
    K.Values[V].Def = B.add(K.Body, S);
    return V;
  };
  ValueId GM = let("GM", B.binary(ExprKind::CeilDiv, B.extent(G.A, 0), B.constant(128)), 23);
  ValueId GN = let("GN", B.binary(ExprKind::CeilDiv, B.extent(G.B, 1), B.constant(256)), 24);

  // for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, {.group_m = 8}))
  ValueId M = B.value(ValueKind::Index, ValueOrigin::LoopIndex, "m", {}, at(25, 14, 14));
  ValueId N = B.value(ValueKind::Index, ValueOrigin::LoopIndex, "n", {}, at(25, 17, 17));
  Stmt Tiles;
  Tiles.Kind = StmtKind::Loop;
  Tiles.Loop = LoopKind::PersistentTiles;
  Tiles.Range = at(25, 3, 99);
  Tiles.Indices = {M, N};
  Tiles.Bounds = {B.ref(GM), B.ref(GN)};
  Tiles.LoopMesh = Cta;
  Tiles.GroupM = 8;
  StmtId TileLoop = B.add(K.Body, Tiles);
  K.Values[M].Def = K.Values[N].Def = TileLoop;

  // [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
  StmtId AccScope = B.scope(TileLoop, Compute, "compute", 26);
  G.Acc = B.value(ValueKind::Tensor, ValueOrigin::Local, "acc",
                  tensorType(DType::f32, Storage::rmem, O.Acc), at(26, 35, 38));
  B.op(AccScope, OpKind::Zeros, 26, {}, G.Acc);

  // for (std::int64_t k : tf::tile_offsets(a.extent(1), BK))
  ValueId Kx = B.value(ValueKind::Index, ValueOrigin::LoopIndex, "k", {}, at(27, 23, 23));
  Stmt Ks;
  Ks.Kind = StmtKind::Loop;
  Ks.Loop = LoopKind::TileOffsets;
  Ks.Range = at(27, 5, 99);
  Ks.Indices = {Kx};
  Ks.Bounds = {B.extent(G.A, 1), B.constant(64)};
  StmtId KLoop = B.add(TileLoop, Ks);
  K.Values[Kx].Def = KLoop;

  // (5) the TMA loads into the rings.
  auto load = [&](ValueId Of, std::vector<std::int64_t> Extents,
                  std::vector<ExprId> Offsets, ValueId Ring,
                  const std::string &Name, unsigned Line, ValueId &Result) {
    StmtId Scope = B.scope(KLoop, Loader, "loader", Line);
    ValueId Tile = B.tile(Of, Extents, Offsets, Scope, at(Line, 68, 90));
    TensorType T;
    if (!O.LeaveResultTypes)
      T = K.Values[Ring].Type;
    Result = B.value(ValueKind::Tensor, ValueOrigin::Local, Name, T, at(Line, 35, 38));
    StmtId Op = B.op(Scope, OpKind::Schedule, Line, {Tile, Ring}, Result);
    K.Stmts[Op].Sched = copySchedule("tf::nv::CopyAsyncTensor", "nv.sm90.CopyAsyncTensor");
    B.accesses(Op, {AccessKind::Read, AccessKind::Write});
    K.Stmts[Op].Access.Accesses[0].Range = K.Values[Tile].Range;
    return Op;
  };
  G.LoadA = load(G.A, {128, 64},
                 {B.binary(ExprKind::Mul, B.ref(M), B.constant(128)), B.ref(Kx)},
                 G.LhsRing, "lhs", 28, G.Lhs);
  G.LoadB = load(G.B, {64, 256},
                 {B.ref(Kx), B.binary(ExprKind::Mul, B.ref(N), B.constant(256))},
                 G.RhsRing, "rhs", 29, G.Rhs);

  // (6) [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>,
  //                                             tf::Repeat<2, 1, 4>>(acc, lhs, rhs);
  StmtId MmaParent = O.ComputeScopeOnMma ? B.scope(KLoop, Compute, "compute", 30) : KLoop;
  G.Mma = B.op(MmaParent, OpKind::Schedule, 30, {G.Acc, G.Lhs, G.Rhs}, G.Acc);
  {
    Stmt &S = K.Stmts[G.Mma];
    S.Assigns = true;
    Schedule Sched;
    Sched.AtomSpelling = "tf::TiledMma<Wgmma>";
    Sched.ContractId = O.MmaContract;
    const Contract &W = atoms::nv::sm90::wgmma;
    Sched.Params = detail::with_derived(
        W, detail::AtomParams{{"n", ParamValue::of(O.N)},
                              {"dtype", ParamValue::of(O.AtomDType)},
                              {"form", ParamValue::choose("SS")},
                              {"a_major", ParamValue::choose("K")},
                              {"b_major", ParamValue::choose("MN")}});
    // Wgmma<256, tf::bf16, tf::Form::SS, tf::Major::K> on line 15; b_major
    // and k are not written.
    Sched.ParamRanges = {at(15, 40, 42), at(15, 45, 52), at(15, 55, 66),
                         at(15, 69, 80), {}, {}};
    Sched.Repeat = O.Repeat;
    if (!O.Repeat.empty())
      Sched.RepeatRange = at(30, 40, 56);
    S.Sched = Sched;
    S.Access.DimNames = {"m", "n", "k"};
  }
  B.accesses(G.Mma, {AccessKind::ReadWrite, AccessKind::Read, AccessKind::Read});

  // (7) [[tf::mesh(compute)]] auto staged =
  //         tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
  StmtId Epilogue = B.scope(TileLoop, Compute, "compute", 31);
  TensorType CastT, StagedT;
  if (!O.LeaveResultTypes) {
    CastT = K.Values[G.Acc].Type;
    CastT.Element = DType::bf16;
    StagedT = K.Values[G.StagedTile].Type;
  }
  G.Cast = B.value(ValueKind::Tensor, ValueOrigin::Temporary, "", CastT, at(31, 60, 80));
  G.CastOp = B.op(Epilogue, OpKind::Cast, 31, {G.Acc}, G.Cast);
  K.Stmts[G.CastOp].CastTo = DType::bf16;
  G.Staged = B.value(ValueKind::Tensor, ValueOrigin::Local, "staged", StagedT, at(32, 35, 41));
  G.CopyOp = B.op(Epilogue, OpKind::Schedule, 32, {G.Cast, G.StagedTile}, G.Staged);
  K.Stmts[G.CopyOp].Sched = copySchedule("tf::Copy", "generic.Copy");
  B.accesses(G.CopyOp, {AccessKind::Read, AccessKind::Write});
  K.Stmts[G.CopyOp].Access.Accesses[0].Range = K.Values[G.Cast].Range;

  // [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(
  //     staged, out.tile<BM, BN>(m * BM, n * BN));
  StmtId StoreScope = B.scope(TileLoop, Loader, "loader", 33);
  ValueId OutTile = B.tile(G.Out, {128, 256},
                           {B.binary(ExprKind::Mul, B.ref(M), B.constant(128)),
                            B.binary(ExprKind::Mul, B.ref(N), B.constant(256))},
                           StoreScope, at(33, 70, 95));
  G.Store = B.op(StoreScope, OpKind::Schedule, 33, {G.Staged, OutTile}, None);
  K.Stmts[G.Store].Sched = copySchedule("tf::nv::CopyAsyncTensor", "nv.sm90.CopyAsyncTensor");
  B.accesses(G.Store, {AccessKind::Read, AccessKind::Write});
  K.Stmts[G.Store].Access.Accesses[1].Range = K.Values[OutTile].Range;

  // 4 = ceil_div(the ring slot's K extent, WGMMA's k): static.
  G.TilesK = B.binary(ExprKind::CeilDiv, B.extent(G.LhsRing, 1), B.constant(16));
  return G;
}

} // namespace tf::test
