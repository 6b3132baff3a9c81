//===- test/capacity/GemmKernel.h - Hand-built HIR kernels ----*- C++ -*-===//
//
// A small builder of HIR kernels for the scope and capacity tests, and the
// H200 GEMM of examples/gemm/optimal.cpp built with it (the HIR the AST
// builder gives for that source), with knobs for the variants the tests
// need: stages, matrix shapes (static or run time), group_m.
//
//===----------------------------------------------------------------------===//
#ifndef TF_TEST_CAPACITY_GEMMKERNEL_H
#define TF_TEST_CAPACITY_GEMMKERNEL_H

#include "hir/HIR.h"

#include "tf/layout/mesh.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace tf_test {

using namespace tf::hir;

inline const tf::Mesh Cta = tf::mesh("cta", tf::IntTuple{132}, "persistent");
inline const tf::Mesh Threads =
    tf::mesh("thread", tf::IntTuple{3, 128}, "warpgroup", "participant");
inline const tf::Mesh Loader = Threads.sub(0, tf::range(0, 1));
inline const tf::Mesh Compute = Threads.sub(tf::range(1, 3), tf::_).reshape(
    tf::IntTuple{2, 4, 8, 4}, "group", "warp", "lane8", "lane4");

/// The range of line \p Line of "k.cpp" (raw encodings are fake but valid).
inline SourceRange at(unsigned Line, unsigned Column = 1) {
  return {Line * 1000 + Column, Line * 1000 + Column + 1, "k.cpp", Line,
          Column};
}

inline TensorType tensorType(tf::DType E, const char *Text, tf::Storage S,
                             std::vector<std::int64_t> Window = {}) {
  TensorType T;
  T.Element = E;
  T.Where = S;
  tf::Result<tf::LayoutText> L = tf::parse_layout_text(Text);
  EXPECT_TRUE(L.ok()) << Text;
  if (L.ok())
    T.Layout = *L;
  T.Spelling = Text;
  T.WindowExtents = std::move(Window);
  return T;
}

/// Adds statements and values to a kernel, keeping Parent/Body in sync.
struct Builder {
  Kernel K;

  explicit Builder(std::string Name = "gemm::gemm") {
    K.Name = std::move(Name);
    K.Range = at(50);
    K.Target = "nvidia.h200_sxm";
    K.Topologies = {tf::Topology{tf::Name("cta"), tf::Int(132)},
                    tf::Topology{tf::Name("thread"), tf::Int(384)}};
    Stmt B;
    B.Kind = StmtKind::Block;
    B.Range = at(50);
    K.Body = K.addStmt(B);
  }

  StmtId add(StmtId Parent, Stmt S) {
    S.Parent = Parent;
    StmtId Id = K.addStmt(std::move(S));
    K.Stmts[Parent].Body.push_back(Id);
    return Id;
  }
  /// A mesh scope on a block (`[[tf::mesh(m)]] { ... }`), so the tests
  /// may put ops of any line in it; \p OnBlock false: on one statement.
  StmtId scope(StmtId Parent, const tf::Mesh &M, const char *Spelling,
               unsigned Line, bool OnBlock = true) {
    Stmt S;
    S.Kind = StmtKind::MeshScope;
    S.Mesh = M;
    S.MeshSpelling = Spelling;
    S.MeshOnBlock = OnBlock;
    S.Range = at(Line);
    return add(Parent, S);
  }
  ExprId constant(std::int64_t C) {
    Expr E;
    E.Kind = ExprKind::Constant;
    E.Constant = C;
    return K.addExpr(E);
  }
  ExprId ref(ValueId V) {
    Expr E;
    E.Kind = ExprKind::Ref;
    E.Ref = V;
    return K.addExpr(E);
  }
  ExprId extent(ValueId V, unsigned Dim) {
    Expr E;
    E.Kind = ExprKind::Extent;
    E.Ref = V;
    E.Dim = Dim;
    return K.addExpr(E);
  }
  ExprId binary(ExprKind Kind, ExprId L, ExprId R) {
    Expr E;
    E.Kind = Kind;
    E.Lhs = L;
    E.Rhs = R;
    return K.addExpr(E);
  }
  ValueId parameter(const char *Name, TensorType T, unsigned Line) {
    Value V;
    V.Origin = ValueOrigin::Parameter;
    V.Name = Name;
    V.Type = std::move(T);
    V.Range = at(Line);
    ValueId Id = K.addValue(V);
    K.Parameters.push_back(Id);
    return Id;
  }
  /// A named local defined by \p Def.
  ValueId local(const char *Name, ValueKind Kind, TensorType T, StmtId Def,
                unsigned Line, int Stages = 0) {
    Value V;
    V.Kind = Kind;
    V.Origin = Name[0] ? ValueOrigin::Local : ValueOrigin::Temporary;
    V.Name = Name;
    V.Type = std::move(T);
    V.Stages = Stages;
    V.Def = Def;
    V.Scope = K.meshScopeOf(Def);
    V.Range = at(Line, Name[0] ? 1 : 20);
    return K.addValue(V);
  }
  /// Makes local \p V an unnamed temporary (`op(...)` used as an operand,
  /// its range the expression's), as local() makes one without a name.
  void makeTemporary(ValueId V) {
    Value &X = K.Values[V];
    X.Origin = ValueOrigin::Temporary;
    X.Name.clear();
    X.Range.Column = 20;
  }
  /// A ring declared with no op: `tf::Ring<Slot, Stages> name;`.
  ValueId ring(StmtId Parent, const char *Name, TensorType Slot, int Stages,
               unsigned Line) {
    Stmt S;
    S.Kind = StmtKind::Alloc;
    S.Range = at(Line);
    StmtId Id = add(Parent, S);
    ValueId V = local(Name, ValueKind::Ring, std::move(Slot), Id, Line, Stages);
    K.Stmts[Id].Result = V;
    return V;
  }
  /// An index value `const auto name = expr;`.
  ValueId let(StmtId Parent, const char *Name, ExprId Init, unsigned Line) {
    Stmt S;
    S.Kind = StmtKind::Let;
    S.Range = at(Line);
    S.Init = Init;
    StmtId Id = add(Parent, S);
    Value V;
    V.Kind = ValueKind::Index;
    V.Name = Name;
    V.Def = Id;
    V.Init = Init;
    V.Range = at(Line);
    ValueId VId = K.addValue(V);
    K.Stmts[Id].Defines = VId;
    return VId;
  }
  /// An op statement; \p Result is filled by the caller (or Assigns).
  StmtId op(StmtId Parent, OpKind Kind, std::vector<ValueId> Operands,
            unsigned Line, const char *Atom = "") {
    Stmt S;
    S.Kind = StmtKind::Op;
    S.Op = Kind;
    S.Operands = std::move(Operands);
    S.Range = at(Line);
    S.CallRange = at(Line, 10);
    if (Atom[0]) {
      Schedule Sc;
      Sc.AtomSpelling = Atom;
      Sc.ContractId = Atom;
      S.Sched = Sc;
    }
    return add(Parent, S);
  }
  /// `name = op(...)` declaring a new value of type \p T.
  ValueId define(StmtId Parent, const char *Name, TensorType T,
                 OpKind Kind, std::vector<ValueId> Operands,
                 unsigned Line, const char *Atom = "") {
    StmtId S = op(Parent, Kind, std::move(Operands), Line, Atom);
    ValueId V = local(Name, ValueKind::Tensor, std::move(T), S, Line);
    K.Stmts[S].Result = V;
    return V;
  }
  /// `tensor.tile<E...>(offsets...)`, a window value used on line Line.
  ValueId tile(ValueId Of, std::vector<std::int64_t> Extents,
               std::vector<ExprId> Offsets, unsigned Line) {
    Value V;
    V.Origin = ValueOrigin::Temporary;
    V.Type = K.Values[Of].Type;
    V.Type.WindowExtents = std::move(Extents);
    V.TileOf = Of;
    V.TileOffsets = std::move(Offsets);
    V.Range = at(Line, 40);
    return K.addValue(V);
  }
  StmtId loop(StmtId Parent, LoopKind Kind, std::vector<ValueId> &Indices,
              std::vector<const char *> Names, std::vector<ExprId> Bounds,
              unsigned Line) {
    Stmt S;
    S.Kind = StmtKind::Loop;
    S.Loop = Kind;
    S.Bounds = std::move(Bounds);
    S.Range = at(Line);
    StmtId Id = add(Parent, S);
    for (const char *N : Names) {
      Value V;
      V.Kind = ValueKind::Index;
      V.Origin = ValueOrigin::LoopIndex;
      V.Name = N;
      V.Def = Id;
      V.Range = at(Line);
      Indices.push_back(K.addValue(V));
    }
    K.Stmts[Id].Indices = Indices;
    return Id;
  }
};

inline const char *const AccText =
    "((2@group,4@warp,2,8@lane8),(32,4@lane4,2)):((16384,16,8,1),(512,128,64))";
inline const char *const LhsText =
    "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)";
inline const char *const RhsText =
    "((4,2,8),(4,64)):((4096,512,64),(1024,1)) | Swizzle(3,4,3)";
inline const char *const StagedText =
    "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)";

struct GemmOptions {
  int Stages = 3;
  /// Layout texts of a (M x K), b (K x N), out (M x N).
  const char *A = "(?,?)";
  const char *B = "(?,?)";
  const char *Out = "(?,?)";
  std::int64_t GroupM = 8;
};

/// The values and statements of the GEMM a test wants to change or check.
struct Gemm {
  Builder B;
  ValueId A, Bm, Out, LhsRing, RhsRing, StagedTile, Acc, Lhs, Rhs, Cast,
      Staged, M, N, Kx;
  StmtId Tiles, KLoop, MmaScope, MmaOp, EpilogueScope, CastOp, StoreScope,
      StoreOp;
};

/// examples/gemm/optimal.cpp's gemm, line numbers as in that file.
inline Gemm buildGemm(const GemmOptions &O = {}) {
  Gemm G;
  Builder &B = G.B;
  using tf::DType;
  using tf::Storage;
  G.A = B.parameter("a", tensorType(DType::bf16, O.A, Storage::gmem), 60);
  G.Bm = B.parameter("b", tensorType(DType::bf16, O.B, Storage::gmem), 60);
  G.Out = B.parameter("out", tensorType(DType::bf16, O.Out, Storage::gmem), 60);
  StmtId Body = B.K.Body;
  G.LhsRing = B.ring(Body, "lhs_ring",
                     tensorType(DType::bf16, LhsText, Storage::smem), O.Stages,
                     61);
  G.RhsRing = B.ring(Body, "rhs_ring",
                     tensorType(DType::bf16, RhsText, Storage::smem), O.Stages,
                     62);
  G.StagedTile =
      B.define(Body, "staged_tile",
               tensorType(DType::bf16, StagedText, Storage::smem), OpKind::Empty, {},
               63);
  ValueId GM = B.let(Body, "GM",
                     B.binary(ExprKind::CeilDiv, B.extent(G.A, 0),
                              B.constant(128)),
                     64);
  ValueId GN = B.let(Body, "GN",
                     B.binary(ExprKind::CeilDiv, B.extent(G.Bm, 1),
                              B.constant(256)),
                     65);
  std::vector<ValueId> MN;
  G.Tiles = B.loop(Body, LoopKind::PersistentTiles, MN, {"m", "n"},
                   {B.ref(GM), B.ref(GN)}, 66);
  B.K.Stmts[G.Tiles].LoopMesh = Cta;
  B.K.Stmts[G.Tiles].GroupM = O.GroupM;
  G.M = MN[0];
  G.N = MN[1];

  StmtId AccScope = B.scope(G.Tiles, Compute, "compute", 67);
  G.Acc = B.define(AccScope, "acc",
                   tensorType(DType::f32, AccText, Storage::rmem), OpKind::Zeros, {},
                   67);
  std::vector<ValueId> K1;
  G.KLoop = B.loop(G.Tiles, LoopKind::TileOffsets, K1, {"k"},
                   {B.extent(G.A, 1), B.constant(64)}, 68);
  G.Kx = K1[0];
  StmtId L1 = B.scope(G.KLoop, Loader, "loader", 69);
  ValueId TA = B.tile(G.A, {128, 64},
                      {B.binary(ExprKind::Mul, B.ref(G.M), B.constant(128)),
                       B.ref(G.Kx)},
                      70);
  G.Lhs = B.define(L1, "lhs", tensorType(DType::bf16, LhsText, Storage::smem),
                   OpKind::Schedule, {TA, G.LhsRing}, 70, "nv.CopyAsyncTensor");
  StmtId L2 = B.scope(G.KLoop, Loader, "loader", 71);
  ValueId TB = B.tile(G.Bm, {64, 256},
                      {B.ref(G.Kx),
                       B.binary(ExprKind::Mul, B.ref(G.N), B.constant(256))},
                      72);
  G.Rhs = B.define(L2, "rhs", tensorType(DType::bf16, RhsText, Storage::smem),
                   OpKind::Schedule, {TB, G.RhsRing}, 72, "nv.CopyAsyncTensor");
  G.MmaScope = B.scope(G.KLoop, Compute, "compute", 73);
  G.MmaOp = B.op(G.MmaScope, OpKind::Schedule, {G.Acc, G.Lhs, G.Rhs}, 74,
                 "nv.sm90.Wgmma");
  B.K.Stmts[G.MmaOp].Result = G.Acc;
  B.K.Stmts[G.MmaOp].Assigns = true;

  G.EpilogueScope = B.scope(G.Tiles, Compute, "compute", 77);
  // The cast is kept as a value of its own (`auto bf16_acc =
  // tf::cast<tf::bf16>(acc);`), so it holds registers: a temporary cast that
  // only feeds the copy would be fused into it and hold none
  // (Capacity.FusedCastHoldsNoRegisters).
  G.Cast = B.define(G.EpilogueScope, "bf16_acc",
                    tensorType(DType::bf16, AccText, Storage::rmem), OpKind::Cast,
                    {G.Acc}, 78);
  G.CastOp = B.K.Values[G.Cast].Def;
  G.Staged = B.define(G.EpilogueScope, "staged",
                      tensorType(DType::bf16, StagedText, Storage::smem),
                      OpKind::Schedule, {G.Cast, G.StagedTile}, 78, "tf.Copy");
  G.StoreScope = B.scope(G.Tiles, Loader, "loader", 79);
  ValueId TO = B.tile(G.Out, {128, 256},
                      {B.binary(ExprKind::Mul, B.ref(G.M), B.constant(128)),
                       B.binary(ExprKind::Mul, B.ref(G.N), B.constant(256))},
                      80);
  G.StoreOp = B.op(G.StoreScope, OpKind::Schedule, {G.Staged, TO}, 80,
                   "nv.CopyAsyncTensor");
  // As BuildHIR writes it: a window's access names its parent and offsets.
  Access W;
  W.Operand = G.Out;
  W.Offsets = B.K.Values[TO].TileOffsets;
  W.Extents = {128, 256};
  W.Kind = AccessKind::Write;
  B.K.Stmts[G.StoreOp].Access.Accesses.push_back(W);
  return G;
}

} // namespace tf_test

#endif // TF_TEST_CAPACITY_GEMMKERNEL_H
