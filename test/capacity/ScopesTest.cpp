//===- test/capacity/ScopesTest.cpp - checkScopes on hand-built HIR -------===//
//
// Register values used on meshes that do not hold them
// (err_tf_scope_not_held with note_tf_value_defined), and the uses that are
// fine: smem and gmem values anywhere, kernel-scope register values
// anywhere, the same threads arranged differently.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"

#include "analysis/Analysis.h"

#include "tf/layout/mesh_text.hpp"

#include <gtest/gtest.h>

using namespace tf_test;
using tf::analysis::checkScopes;
using tf::analysis::Finding;
using tf::plugin::DiagId;

namespace {

TEST(Scopes, OptimalGemmIsFine) {
  Gemm G = buildGemm();
  EXPECT_TRUE(checkScopes(G.B.K).empty());
}

TEST(Scopes, AccumulatorReadOnTheLoader) {
  // [[tf::mesh(loader)]] tf::schedule<...>(acc, ...) after the k loop.
  Gemm G = buildGemm();
  G.B.op(G.StoreScope, OpKind::Schedule, {G.Acc, G.StagedTile}, 81, "tf.Copy");
  std::vector<Finding> F = checkScopes(G.B.K);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Id, DiagId::err_tf_scope_not_held);
  EXPECT_EQ(F[0].Range.Line, 81u);
  ASSERT_EQ(F[0].Args.size(), 3u);
  EXPECT_EQ(F[0].Args[0], "'acc'");
  EXPECT_EQ(F[0].Args[1], tf::to_string(Compute));
  EXPECT_EQ(F[0].Args[1],
            "Mesh(thread, (2,4,8,4):(128,32,4,1) + 128, group, warp, lane8, "
            "lane4)");
  EXPECT_EQ(F[0].Args[2], tf::to_string(Loader));
  ASSERT_EQ(F[0].Notes.size(), 1u);
  EXPECT_EQ(F[0].Notes[0].Id, DiagId::note_tf_value_defined);
  EXPECT_EQ(F[0].Notes[0].Range.Line, 67u);
  EXPECT_EQ(F[0].Notes[0].Args,
            (std::vector<std::string>{"'acc'", tf::to_string(Compute)}));
}

TEST(Scopes, OwnMeshAttributeIsTheMistake) {
  // [[tf::mesh(loader)]] auto x = tf::schedule<tf::Copy>(acc, ...): the
  // attribute on the op's own statement placed it; the error is there, the
  // use and the definition in notes.
  Gemm G = buildGemm();
  StmtId Scope = G.B.scope(G.Tiles, Loader, "loader", 92, /*OnBlock=*/false);
  G.B.op(Scope, OpKind::Schedule, {G.Acc, G.StagedTile}, 93, "tf.Copy");
  std::vector<StmtId> NotHeld;
  std::vector<Finding> F = checkScopes(G.B.K, &NotHeld);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Range.Line, 92u);
  ASSERT_EQ(F[0].Notes.size(), 2u);
  EXPECT_EQ(F[0].Notes[0].Range.Line, 93u);
  EXPECT_EQ(F[0].Notes[0].Args[0], "'acc' is used here");
  EXPECT_EQ(F[0].Notes[1].Id, DiagId::note_tf_value_defined);
  ASSERT_EQ(NotHeld.size(), 1u);
  EXPECT_EQ(G.B.K.Stmts[NotHeld[0]].Range.Line, 93u);
}

TEST(Scopes, AccumulatorOverwrittenOnTheLoader) {
  // [[tf::mesh(loader)]] acc = tf::zeros<Acc>(); -- a write is a use too.
  Gemm G = buildGemm();
  StmtId S = G.B.op(G.StoreScope, OpKind::Zeros, {}, 82);
  G.B.K.Stmts[S].Result = G.Acc;
  G.B.K.Stmts[S].Assigns = true;
  std::vector<Finding> F = checkScopes(G.B.K);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Range.Line, 82u);
}

TEST(Scopes, UseAtKernelScopeIsOnTheCtaMesh) {
  // An op outside every mesh scope, in the tile loop, runs on one CTA,
  // which holds no thread's registers.
  Gemm G = buildGemm();
  G.B.op(G.Tiles, OpKind::Schedule, {G.Acc, G.StagedTile}, 83, "tf.Copy");
  std::vector<Finding> F = checkScopes(G.B.K);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[2], "Mesh(cta, (1):(1))");
}

TEST(Scopes, TemporaryIsHeldWhereItIsComputed) {
  // tf::cast<bf16>(acc) inside a compute scope is on compute: reading it on
  // the loader is an error naming the temporary.
  Gemm G = buildGemm();
  G.B.makeTemporary(G.Cast);
  G.B.op(G.StoreScope, OpKind::Schedule, {G.Cast, G.StagedTile}, 84, "tf.Copy");
  std::vector<Finding> F = checkScopes(G.B.K);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "the result of tf::cast");
  // The use of a temporary is the temporary's own expression.
  EXPECT_EQ(F[0].Range.Column, 20u);
  EXPECT_EQ(F[0].Notes[0].Range.Line, 78u);

  // Without Value::Scope (a builder that leaves it unset) the defining
  // statement's mesh scope decides.
  G.B.K.Values[G.Cast].Scope = None;
  EXPECT_EQ(checkScopes(G.B.K).size(), 1u);
}

TEST(Scopes, CastOnTheLoaderReadsAcc) {
  // [[tf::mesh(loader)]] tf::cast<bf16>(acc): the cast runs on the loader.
  Gemm G = buildGemm();
  G.B.define(G.StoreScope, "", G.B.K.Values[G.Cast].Type, OpKind::Cast, {G.Acc},
             85);
  std::vector<Finding> F = checkScopes(G.B.K);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "'acc'");
  EXPECT_EQ(F[0].Range.Line, 85u);
}

TEST(Scopes, WindowOfARegisterValueIsHeldByItsRoot) {
  Gemm G = buildGemm();
  ValueId T = G.B.tile(G.Acc, {64, 256}, {G.B.constant(0), G.B.constant(0)},
                       86);
  G.B.op(G.StoreScope, OpKind::Schedule, {T, G.StagedTile}, 86, "tf.Copy");
  std::vector<Finding> F = checkScopes(G.B.K);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "a window of 'acc'");
  EXPECT_EQ(F[0].Notes[0].Args[0], "'acc'");
}

TEST(Scopes, SharedAndGlobalValuesAreVisibleEverywhere) {
  // lhs (a ring slot, smem) read on compute, staged (smem) on the loader,
  // and a gmem window read on compute.
  Gemm G = buildGemm();
  ValueId T = G.B.tile(G.A, {128, 64}, {G.B.constant(0), G.B.constant(0)},
                       87);
  G.B.op(G.EpilogueScope, OpKind::Schedule, {T, G.Lhs}, 87, "tf.Copy");
  EXPECT_TRUE(checkScopes(G.B.K).empty());
}

TEST(Scopes, KernelScopeRegistersAreHeldByEveryThread) {
  Gemm G = buildGemm();
  ValueId X = G.B.define(G.B.K.Body, "bias",
                         tensorType(tf::DType::f32, "(8)", tf::Storage::rmem),
                         OpKind::Zeros, {}, 88);
  G.B.op(G.StoreScope, OpKind::Schedule, {X, G.StagedTile}, 89, "tf.Copy");
  G.B.op(G.EpilogueScope, OpKind::Schedule, {X, G.StagedTile}, 90, "tf.Copy");
  EXPECT_TRUE(checkScopes(G.B.K).empty());
}

TEST(Scopes, SameThreadsArrangedDifferently) {
  // The 256 compute threads as one flat mode are the same units.
  Gemm G = buildGemm();
  tf::Mesh Flat = Threads.sub(tf::range(1, 3), tf::_).reshape(
      tf::IntTuple{256}, "t");
  StmtId S = G.B.scope(G.Tiles, Flat, "flat", 91);
  G.B.op(S, OpKind::Schedule, {G.Acc, G.StagedTile}, 91, "tf.Copy");
  EXPECT_TRUE(checkScopes(G.B.K).empty());

  // One consumer warpgroup alone is not.
  tf::Mesh Group0 = Threads.sub(1, tf::_);
  StmtId S2 = G.B.scope(G.Tiles, Group0, "group0", 92);
  G.B.op(S2, OpKind::Schedule, {G.Acc, G.StagedTile}, 92, "tf.Copy");
  std::vector<Finding> F = checkScopes(G.B.K);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Range.Line, 92u);
}

TEST(Scopes, ValueDefinedOnTheLoaderUsedOnCompute) {
  Gemm G = buildGemm();
  StmtId L = G.B.scope(G.Tiles, Loader, "loader", 93);
  ValueId X = G.B.define(L, "flag",
                         tensorType(tf::DType::i32, "(1)", tf::Storage::rmem),
                         OpKind::Zeros, {}, 93);
  G.B.op(G.EpilogueScope, OpKind::Schedule, {X, G.StagedTile}, 94, "tf.Copy");
  std::vector<Finding> F = checkScopes(G.B.K);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "'flag'");
  EXPECT_EQ(F[0].Args[1], tf::to_string(Loader));
  EXPECT_EQ(F[0].Args[2], tf::to_string(Compute));
  // Used on compute at a second statement too, and nowhere on the loader:
  // the definition put it on the wrong mesh -- one error at the definition,
  // the uses as notes in program order.
  G.B.op(G.MmaScope, OpKind::Schedule, {X, G.StagedTile}, 75, "tf.Copy");
  F = checkScopes(G.B.K);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Id, DiagId::err_tf_scope_not_held);
  EXPECT_EQ(F[0].Range.Line, 93u);
  ASSERT_EQ(F[0].Notes.size(), 2u);
  EXPECT_EQ(F[0].Notes[0].Range.Line, 75u);
  EXPECT_EQ(F[0].Notes[1].Range.Line, 94u);
  EXPECT_EQ(F[0].Notes[0].Args[0], "'flag' is used here");
}

} // namespace
