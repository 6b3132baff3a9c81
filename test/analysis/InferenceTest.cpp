//===- test/analysis/InferenceTest.cpp - infer on hand-built kernels ------===//
//
// What infer derives for the optimal GEMM (GemmKernel.h): the result types
// the builder leaves unset, the ShardLayouts of register tensors, the
// derived Repeat of the tiled MMA and the constant index expressions.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "Render.h"

#include "analysis/Analysis.h"
#include "analysis/Site.h"

#include "tf/layout/mesh_text.hpp"

#include <random>

namespace tf::test {
namespace {

using namespace hir;

TEST(Inference, OptimalGemmDerivesEverything) {
  GemmKernel G = buildGemm();
  std::vector<analysis::Finding> Fs = analysis::infer(G.K);
  EXPECT_TRUE(Fs.empty()) << render(Fs);
  const Kernel &K = G.K;

  // (6) The repeat: tile 128 x 256 x 64 over atoms 64 x 256 x 16.
  EXPECT_EQ(K.Stmts[G.Mma].Sched->DerivedRepeat,
            (std::vector<std::int64_t>{2, 1, 4}));
  // (5) A's TMA load is one box; the generic Copy has no repeat (the
  // boxes of B and of the store: CheckTest, TmaCopiesAreSplitIntoBoxes).
  EXPECT_EQ(K.Stmts[G.LoadA].Sched->DerivedRepeat,
            (std::vector<std::int64_t>{1, 1}));
  EXPECT_EQ(K.Stmts[G.LoadA].Sched->BoxExtents,
            (std::vector<std::int64_t>{128, 64}));
  EXPECT_TRUE(K.Stmts[G.CopyOp].Sched->DerivedRepeat.empty());
  EXPECT_TRUE(K.Stmts[G.CopyOp].Sched->BoxExtents.empty());

  // (5) A ring load yields the slot's type.
  for (auto [Result, Ring] : {std::pair{G.Lhs, G.LhsRing}, std::pair{G.Rhs, G.RhsRing}}) {
    const Value &V = K.Values[Result];
    EXPECT_TRUE(V.TypeDerived) << V.Name;
    EXPECT_EQ(V.Type.Layout, K.Values[Ring].Type.Layout) << V.Name;
    EXPECT_EQ(V.Type.Where, Storage::smem);
    EXPECT_EQ(V.Type.Element, DType::bf16);
  }
  // (7) The cast keeps acc's layout (and so its ShardLayout) with bf16;
  // the Copy yields the staged tile's view.
  const Value &Cast = K.Values[G.Cast];
  EXPECT_TRUE(Cast.TypeDerived);
  EXPECT_EQ(Cast.Type.Element, DType::bf16);
  EXPECT_EQ(Cast.Type.Where, Storage::rmem);
  EXPECT_EQ(Cast.Type.Layout, K.Values[G.Acc].Type.Layout);
  EXPECT_EQ(K.Values[G.Staged].Type.Layout, K.Values[G.StagedTile].Type.Layout);
  EXPECT_EQ(K.Values[G.Staged].Type.Element, DType::bf16);

  // (3) The accumulator is distributed over the compute mesh of its scope.
  const Value &Acc = K.Values[G.Acc];
  ASSERT_TRUE(Acc.Shard.has_value());
  EXPECT_EQ(to_string(*Acc.Shard),
            "((2@group,4@warp,2,8@lane8),(32,4@lane4,2)):((16384,16,8,1),(512,"
            "128,64)) over Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, "
            "warp, lane8, lane4)");
  EXPECT_TRUE(check_shard(*Acc.Shard).ok());
  ASSERT_TRUE(Cast.Shard.has_value());
  EXPECT_EQ(Cast.Shard->mesh, Acc.Shard->mesh);
  // Shared and global tensors have none.
  EXPECT_FALSE(K.Values[G.LhsRing].Shard.has_value());
  EXPECT_FALSE(K.Values[G.A].Shard.has_value());
}

TEST(Inference, BuilderTypesAreKept) {
  GemmOptions O;
  O.LeaveResultTypes = false;
  GemmKernel G = buildGemm(O);
  analysis::infer(G.K);
  EXPECT_FALSE(G.K.Values[G.Lhs].TypeDerived);
  EXPECT_FALSE(G.K.Values[G.Cast].TypeDerived);
  EXPECT_EQ(G.K.Stmts[G.Mma].Sched->DerivedRepeat,
            (std::vector<std::int64_t>{2, 1, 4}));
  // A second run derives the same.
  GemmKernel H = buildGemm();
  analysis::infer(H.K);
  analysis::infer(H.K);
  EXPECT_EQ(H.K.Stmts[H.Mma].Sched->DerivedRepeat,
            (std::vector<std::int64_t>{2, 1, 4}));
  EXPECT_TRUE(H.K.Values[H.Lhs].TypeDerived);
}

TEST(Inference, StaticExtentsFoldThroughIndexExpressions) {
  GemmKernel G = buildGemm();
  analysis::infer(G.K);
  const Kernel &K = G.K;
  // ceil_div(slot extent 64, 16) = 4.
  EXPECT_EQ(K.Exprs[G.TilesK].Static, 4);
  // a's extents are run-time values: GM = ceil_div(a.extent(0), 128) is not
  // static, nor are the tile offsets m * 128 (m is a loop index).
  for (const Value &V : K.Values)
    if (V.Name == "GM" || V.Name == "GN") {
      ASSERT_NE(V.Init, None);
      EXPECT_FALSE(K.Exprs[V.Init].Static.has_value()) << V.Name;
    }
  for (ExprId E : K.Values[G.K.Stmts[G.LoadA].Operands[0]].TileOffsets)
    EXPECT_FALSE(K.Exprs[E].Static.has_value());

  // With a 4096 x 4096 A, GM = 32 folds, through the Let to a Ref of GM.
  GemmKernel S = buildGemm();
  for (ValueId V : {S.A, S.B, S.Out})
    S.K.Values[V].Type = tensorType(DType::bf16, Storage::gmem, "(4096,4096)");
  ValueId GM = None;
  for (ValueId V = 0; V < S.K.Values.size(); ++V)
    if (S.K.Values[V].Name == "GM")
      GM = V;
  ASSERT_NE(GM, None);
  Expr Ref;
  Ref.Kind = ExprKind::Ref;
  Ref.Ref = GM;
  ExprId R = S.K.addExpr(Ref);
  Expr Twice;
  Twice.Kind = ExprKind::Mul;
  Twice.Lhs = R;
  Twice.Rhs = R;
  ExprId T = S.K.addExpr(Twice);
  analysis::infer(S.K);
  EXPECT_EQ(S.K.Exprs[S.K.Values[GM].Init].Static, 32);
  EXPECT_EQ(S.K.Exprs[T].Static, 1024);
}

TEST(Inference, RepeatFollowsTheAtomsN) {
  // Random atoms Wgmma<n> with n dividing the 256 columns of the tile: the
  // repeat along N is 256 / n; the others stay (2, _, 4).
  std::mt19937 Rng(20261129);
  const std::int64_t Ns[] = {8, 16, 32, 64, 128, 256};
  for (int Trial = 0; Trial < 8; ++Trial) {
    GemmOptions O;
    O.N = Ns[Rng() % std::size(Ns)];
    GemmKernel G = buildGemm(O);
    analysis::infer(G.K);
    EXPECT_EQ(G.K.Stmts[G.Mma].Sched->DerivedRepeat,
              (std::vector<std::int64_t>{2, 256 / O.N, 4}))
        << "n = " << O.N;
  }
  // A tile that does not decompose derives nothing.
  GemmOptions O;
  O.N = 96;
  GemmKernel G = buildGemm(O);
  analysis::infer(G.K);
  EXPECT_TRUE(G.K.Stmts[G.Mma].Sched->DerivedRepeat.empty());
}

TEST(Inference, OperandWithoutDerivableTypeIsReported) {
  GemmKernel G = buildGemm();
  // The B operand comes from an op inference cannot type.
  Kernel &K = G.K;
  Value Mystery;
  Mystery.Name = "rhs2";
  Mystery.Range = at(29, 35, 39);
  ValueId V = K.addValue(Mystery);
  Stmt Op;
  Op.Kind = StmtKind::Op;
  Op.Op = OpKind::ReduceSum;
  Op.Range = Op.CallRange = at(29);
  Op.Operands = {G.Rhs};
  Op.Result = V;
  Op.Parent = K.Stmts[G.LoadB].Parent;
  StmtId Id = K.addStmt(Op);
  K.Stmts[Op.Parent].Body.push_back(Id);
  K.Values[V].Def = Id;
  K.Stmts[G.Mma].Operands[2] = V;
  K.Stmts[G.Mma].Access.Accesses[2].Operand = V;
  std::vector<analysis::Finding> Fs = analysis::infer(K);
  ASSERT_EQ(Fs.size(), 1u) << render(Fs);
  EXPECT_EQ(Fs[0].Id, plugin::DiagId::err_tf_contract_operand);
  EXPECT_EQ(message(Fs[0]),
            "operand B ('rhs2') does not fit nv.sm90.Wgmma: its type cannot be "
            "derived from the result of tf::reduce_sum");
  EXPECT_EQ(Fs[0].Range.Line, 30u);
  // check does not report it again as missing.
  std::vector<analysis::Finding> Cs = analysis::check(K, nullptr);
  EXPECT_TRUE(withId(Cs, plugin::DiagId::err_tf_contract_operand).empty())
      << render(Cs);
}

TEST(Inference, SitesOfTheOptimalGemm) {
  GemmKernel G = buildGemm();
  analysis::infer(G.K);
  // The TMA load: a gmem window of a's layout, the ring's slot; direction,
  // dtype and swizzle decided by the operands.
  analysis::HirSite S;
  ASSERT_TRUE(analysis::buildSite(G.K, G.LoadA, nullptr, S));
  EXPECT_EQ(S.DecidedParams,
            (std::vector<std::string>{"dtype", "direction", "swizzle"}));
  ASSERT_EQ(S.S.operands.size(), 2u);
  EXPECT_EQ(to_string(S.S.operands[0].shape), "(128,64)");
  EXPECT_EQ(S.S.operands[0].storage, Storage::gmem);
  EXPECT_EQ(to_string(S.S.operands[1].layout),
            "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)");
  EXPECT_EQ(to_string(S.S.mesh), "Mesh(thread, (1):(1), participant)");
  // The store decides direction = store and no swizzle... the staged tile is
  // 128-byte swizzled: bytes128.
  analysis::HirSite St;
  ASSERT_TRUE(analysis::buildSite(G.K, G.Store, nullptr, St));
  bool Store = false, Sw = false;
  for (const ParamArg &P : St.S.params) {
    Store = Store || (P.name == "direction" && P.value.choice == "store");
    Sw = Sw || (P.name == "swizzle" && P.value.choice == "bytes128");
  }
  EXPECT_TRUE(Store);
  EXPECT_TRUE(Sw);
  // The MMA: C the accumulator's ShardLayout, A and B the slots.
  analysis::HirSite M;
  ASSERT_TRUE(analysis::buildSite(G.K, G.Mma, nullptr, M));
  ASSERT_EQ(M.S.operands.size(), 3u);
  EXPECT_EQ(M.S.operands[0].name, "C");
  EXPECT_EQ(M.S.operands[0].kind, OperandLayoutKind::shard);
  EXPECT_EQ(to_string(M.S.operands[0].shape), "(128,256)");
  EXPECT_EQ(M.S.operands[1].name, "A");
  EXPECT_EQ(M.S.operands[2].name, "B");
  EXPECT_EQ(M.MeshSpelling, "compute");
  EXPECT_EQ(M.S.repeat.size(), 3u);
}

} // namespace
} // namespace tf::test
