//===- test/capacity/CapacityTest.cpp - checkCapacity on hand-built HIR ---===//
//
// Shared memory per CTA, registers per thread and L2 reuse windows of the
// H200 GEMM (examples/gemm/optimal.cpp) and variants, against the real
// nvidia.h200_sxm facts: the numbers of the model in Capacity.cpp's file
// comment, and that everything found is a warning.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "RealFacts.h"

#include "analysis/Analysis.h"
#include "targets/TargetFacts.h"

#include "tf/layout/mesh_text.hpp"

#include <gtest/gtest.h>

#include <memory>

using namespace tf_test;
using tf::analysis::checkCapacity;
using tf::analysis::Finding;
using tf::plugin::DiagId;
using tf::targets::MergedTarget;

namespace {

MergedTarget h200() { return realTarget("nvidia.h200_sxm"); }

/// \p T with the integer fact \p Key set to \p Value (the Fact lives in
/// \p Storage).
MergedTarget withFact(MergedTarget T, llvm::StringRef Key, std::int64_t Value,
                      tf::targets::Fact &Storage) {
  for (tf::targets::MergedFact &F : T.Facts)
    if (F.F && F.F->Key == Key) {
      Storage = *F.F;
      Storage.Int = Value;
      F.F = &Storage;
    }
  return T;
}

std::vector<Finding> only(const std::vector<Finding> &All, DiagId Id) {
  std::vector<Finding> Out;
  for (const Finding &F : All)
    if (F.Id == Id)
      Out.push_back(F);
  return Out;
}

std::vector<std::string> noteTexts(const Finding &F) {
  std::vector<std::string> Out;
  for (const Finding &N : F.Notes) {
    EXPECT_EQ(N.Args.size(), 1u);
    Out.push_back(N.Args.empty() ? "" : N.Args[0]);
  }
  return Out;
}

GemmOptions staticShape(std::int64_t M, std::int64_t N, std::int64_t K) {
  // The texts must outlive the kernel: keep them in static storage.
  static std::vector<std::unique_ptr<std::string>> Texts;
  auto Text = [](std::int64_t R, std::int64_t C) {
    Texts.push_back(std::make_unique<std::string>(
        "(" + std::to_string(R) + "," + std::to_string(C) + ")"));
    return Texts.back()->c_str();
  };
  GemmOptions O;
  O.A = Text(M, K);
  O.B = Text(K, N);
  O.Out = Text(M, N);
  return O;
}

TEST(Capacity, TheH200Facts) {
  MergedTarget T = h200();
  ASSERT_NE(T.fact("cta.shared_memory.max"), nullptr);
  EXPECT_EQ(T.fact("cta.shared_memory.max")->F->Int, 232448);
  EXPECT_EQ(T.fact("thread.registers.max")->F->Int, 255);
  EXPECT_EQ(T.fact("memory.l2.capacity")->F->Int, 62914560);
}

TEST(Capacity, OptimalGemmFits) {
  // 3 x (16 + 32) KiB + 64 KiB = 208 KiB <= 227 KiB; 128 + 64 registers at
  // the epilogue's cast; run-time M, N, K: no L2 window.
  Gemm G = buildGemm();
  EXPECT_TRUE(checkCapacity(G.B.K, h200()).empty());
}

//===- Shared memory ------------------------------------------------------===//

TEST(Capacity, FiveStagesOverflowSharedMemory) {
  GemmOptions O;
  O.Stages = 5;
  Gemm G = buildGemm(O);
  std::vector<Finding> F = checkCapacity(G.B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Id, DiagId::warn_tf_capacity_smem);
  // At the largest allocation, B's ring; the others in notes.
  EXPECT_EQ(F[0].Range.Line, 62u);
  EXPECT_EQ(F[0].Args,
            (std::vector<std::string>{"gemm::gemm", "304 KiB", "227 KiB",
                                      "nvidia.h200_sxm",
                                      "rhs_ring: 5 x 32 KiB = 160 KiB"}));
  EXPECT_EQ(noteTexts(F[0]),
            (std::vector<std::string>{"lhs_ring: 5 x 16 KiB = 80 KiB",
                                      "staged_tile: 64 KiB"}));
  EXPECT_EQ(F[0].Notes[0].Id, DiagId::note_tf_derived);
  EXPECT_EQ(F[0].Notes[0].Range.Line, 61u);
  EXPECT_EQ(F[0].Notes[1].Range.Line, 63u);
}

TEST(Capacity, FourStagesFitExactlyAtTheBoundary) {
  // 4 x 48 + 64 = 256 KiB: over. The limit itself is not over: a staged
  // tile of 227 - 3 x 48 = 83 KiB fits, one element more does not.
  GemmOptions O;
  O.Stages = 4;
  EXPECT_EQ(only(checkCapacity(buildGemm(O).B.K, h200()),
                 DiagId::warn_tf_capacity_smem)
                .size(),
            1u);
  Gemm G = buildGemm();
  G.B.K.Values[G.StagedTile].Type =
      tensorType(tf::DType::bf16, "(83,512)", tf::Storage::smem);
  EXPECT_TRUE(checkCapacity(G.B.K, h200()).empty());
  G.B.K.Values[G.StagedTile].Type =
      tensorType(tf::DType::bf16, "(42497)", tf::Storage::smem);
  std::vector<Finding> F = checkCapacity(G.B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[1], "232450 bytes");
}

TEST(Capacity, SwizzleSpanRoundsUpTheSlot) {
  // 8 x 8 bf16 = 128 bytes, but Swizzle(3,4,3) permutes 1 KiB blocks.
  Gemm G = buildGemm();
  G.B.K.Values[G.StagedTile].Type = tensorType(
      tf::DType::bf16, "(8,8):(8,1) | Swizzle(3,4,3)", tf::Storage::smem);
  tf::targets::Fact Small;
  MergedTarget T = withFact(h200(), "cta.shared_memory.max", 1, Small);
  std::vector<Finding> F = checkCapacity(G.B.K, T);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(noteTexts(F[0])[1], "staged_tile: 1 KiB");
  EXPECT_EQ(F[0].Args[1], "145 KiB");
  EXPECT_EQ(F[0].Args[2], "1 byte");
}

TEST(Capacity, ViewsAndRegisterBuffersAreNotAllocations) {
  // The ring slots (lhs, rhs) and the copy's result (staged) are views; an
  // rmem buffer is not shared memory.
  Gemm G = buildGemm();
  tf::targets::Fact Small;
  MergedTarget T = withFact(h200(), "cta.shared_memory.max", 1024, Small);
  std::vector<Finding> F = only(checkCapacity(G.B.K, T),
                                DiagId::warn_tf_capacity_smem);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Notes.size(), 2u); // and the largest, rhs_ring, in the text
  EXPECT_EQ(F[0].Args[1], "208 KiB");
}

TEST(Capacity, DynamicBufferIsNotCounted) {
  GemmOptions O;
  O.Stages = 5;
  Gemm G = buildGemm(O);
  G.B.K.Values[G.StagedTile].Type =
      tensorType(tf::DType::bf16, "(?,64)", tf::Storage::smem);
  std::vector<Finding> F = checkCapacity(G.B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[1], "240 KiB");
  EXPECT_EQ(noteTexts(F[0])[1],
            "staged_tile: extents known at run time only, not counted");
}

//===- Registers ----------------------------------------------------------===//

TEST(Capacity, AccumulatorPerThread) {
  // 128 x 256 f32 over the 256 compute threads: 128 per thread. Doubling N
  // (the local 32 -> 64) needs 256 registers: over 255.
  Gemm G = buildGemm();
  G.B.K.Values[G.Acc].Type = tensorType(
      tf::DType::f32,
      "((2@group,4@warp,2,8@lane8),(64,4@lane4,2))"
      ":((32768,16,8,1),(512,128,64))",
      tf::Storage::rmem);
  std::vector<Finding> F = checkCapacity(G.B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Id, DiagId::warn_tf_capacity_registers);
  // The peak is at the epilogue's cast, which reads acc while it writes
  // its bf16 copy: 256 + 64.
  EXPECT_EQ(F[0].Args,
            (std::vector<std::string>{"320", tf::to_string(Compute), "255",
                                      "nvidia.h200_sxm"}));
  EXPECT_EQ(noteTexts(F[0]),
            (std::vector<std::string>{"'acc' holds 256 f32 per thread: 256 "
                                      "registers",
                                      "'bf16_acc' holds 128 bf16 per thread: "
                                      "64 registers"}));
  EXPECT_EQ(F[0].Range.Line, 78u);
  EXPECT_EQ(F[0].Notes[0].Range.Line, 67u);
  // The optimal accumulator alone: 128 registers, below the limit.
  tf::targets::Fact Limit;
  MergedTarget T = withFact(h200(), "thread.registers.max", 127, Limit);
  F = checkCapacity(buildGemm().B.K, T);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "192");
  EXPECT_EQ(noteTexts(F[0])[0], "'acc' holds 128 f32 per thread: 128 registers");
}

TEST(Capacity, FusedCastHoldsNoRegisters) {
  // The epilogue as examples/gemm/optimal.cpp writes it, the cast a
  // temporary that only the staging copy reads: the copy's instruction
  // converts each register pair on the way, so only acc is live -- 128.
  Gemm G = buildGemm();
  G.B.makeTemporary(G.Cast);
  tf::targets::Fact Limit;
  MergedTarget T = withFact(h200(), "thread.registers.max", 127, Limit);
  std::vector<Finding> F = checkCapacity(G.B.K, T);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "128");
  EXPECT_EQ(noteTexts(F[0]),
            (std::vector<std::string>{
                "'acc' holds 128 f32 per thread: 128 registers"}));
}

TEST(Capacity, UnboundLayoutIsReplicated) {
  // No axis bindings: every thread holds all 256 elements.
  Gemm G = buildGemm();
  G.B.K.Values[G.Acc].Type =
      tensorType(tf::DType::f32, "(16,16)", tf::Storage::rmem);
  G.B.K.Values[G.Cast].Type =
      tensorType(tf::DType::bf16, "(16,16)", tf::Storage::rmem);
  std::vector<Finding> F = checkCapacity(G.B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "384"); // 256 + 128 at the cast
}

TEST(Capacity, NarrowElementsShareRegisters) {
  // 508 bf16 per thread: 254 registers, fits; 512: 256, over.
  Gemm G = buildGemm();
  G.B.K.Values[G.Cast].Type =
      tensorType(tf::DType::bf16, "(2@group,4@warp,8@lane8,4@lane4,508)",
                 tf::Storage::rmem);
  // The cast reads acc, so both are live at the cast: make acc one
  // register to isolate the cast.
  G.B.K.Values[G.Acc].Type =
      tensorType(tf::DType::f32, "(2@group,4@warp,8@lane8,4@lane4,1)",
                 tf::Storage::rmem);
  EXPECT_TRUE(checkCapacity(G.B.K, h200()).empty()); // 254 + 1
  G.B.K.Values[G.Cast].Type =
      tensorType(tf::DType::bf16, "(2@group,4@warp,8@lane8,4@lane4,510)",
                 tf::Storage::rmem);
  std::vector<Finding> F = checkCapacity(G.B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "256"); // 255 + 1
}

TEST(Capacity, ValuesLiveAtDifferentTimesDoNotAdd) {
  // A second 128-register value defined after acc's last use (the cast):
  // 128 + 64 at the cast, then 64 + 128 -- never 256.
  Gemm G = buildGemm();
  G.B.define(G.EpilogueScope, "acc2",
             tensorType(tf::DType::f32, AccText, tf::Storage::rmem), OpKind::Zeros,
             {}, 79);
  EXPECT_TRUE(checkCapacity(G.B.K, h200()).empty());
  // Defined before the k loop and used after it, it is live through the
  // loop together with acc: 256.
  Gemm H = buildGemm();
  ValueId Acc2 = H.B.define(H.B.K.Stmts[H.B.K.Values[H.Acc].Def].Parent,
                            "acc2",
                            tensorType(tf::DType::f32, AccText,
                                       tf::Storage::rmem),
                            OpKind::Zeros, {}, 67);
  H.B.op(H.EpilogueScope, OpKind::Schedule, {Acc2, H.StagedTile}, 79, "tf.Copy");
  std::vector<Finding> F = checkCapacity(H.B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "320"); // at the cast: 128 + 128 + 64
  EXPECT_EQ(noteTexts(F[0]).size(), 3u);
}

TEST(Capacity, UseInsideALoopKeepsTheValueLiveToTheLoopsEnd) {
  // x is defined before the k loop and last used by the loop's first op;
  // y is defined and used at the loop's end. The next iteration reads x
  // again, so both are live at y: 128 + 128 (+ acc 128).
  Gemm G = buildGemm();
  StmtId Pre = G.B.scope(G.Tiles, Compute, "compute", 68);
  // Move the scope before the k loop.
  auto &Body = G.B.K.Stmts[G.Tiles].Body;
  Body.pop_back();
  Body.insert(Body.begin() + 1, Pre);
  tf::hir::TensorType Small = tensorType(
      tf::DType::f32, "(2@group,4@warp,8@lane8,4@lane4,60)",
      tf::Storage::rmem);
  ValueId X = G.B.define(Pre, "x", Small, OpKind::Zeros, {}, 68);
  StmtId First = G.B.scope(G.KLoop, Compute, "compute", 69);
  auto &KBody = G.B.K.Stmts[G.KLoop].Body;
  KBody.pop_back();
  KBody.insert(KBody.begin(), First);
  G.B.op(First, OpKind::Schedule, {X, G.StagedTile}, 69, "tf.Copy");
  ValueId Y = G.B.define(G.MmaScope, "y", Small, OpKind::Zeros, {}, 75);
  G.B.op(G.MmaScope, OpKind::Schedule, {Y, G.StagedTile}, 76, "tf.Copy");
  // With a limit of 200: x kept live through the loop makes 248 at y;
  // without the extension it would be 188 and nothing would be reported.
  tf::targets::Fact Limit;
  MergedTarget T = withFact(h200(), "thread.registers.max", 200, Limit);
  std::vector<Finding> F = checkCapacity(G.B.K, T);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "248");
  EXPECT_EQ(F[0].Range.Line, 75u);
  EXPECT_EQ(noteTexts(F[0]).size(), 3u);
}

TEST(Capacity, CtaMeshRegistersAreUndecided) {
  // A register tensor defined outside every mesh scope sits on the CTA mesh:
  // how its elements spread over the threads is not decided yet, so it is
  // not counted (`tf analyze` reports it as undecided). Used after the
  // epilogue's cast, it would have made 128 + 64 + 100 = 292 registers.
  Gemm G = buildGemm();
  ValueId Table =
      G.B.define(G.B.K.Body, "table",
                 tensorType(tf::DType::f32, "(100)", tf::Storage::rmem),
                 OpKind::Zeros, {}, 60);
  auto &Body = G.B.K.Stmts[G.B.K.Body].Body;
  Body.insert(Body.begin(), Body.back());
  Body.pop_back();
  G.B.op(G.StoreScope, OpKind::Schedule, {Table, G.StagedTile}, 80, "tf.Copy");
  EXPECT_TRUE(checkCapacity(G.B.K, h200()).empty());
  // Even when it alone would exceed the limit.
  G.B.K.Values[Table].Type =
      tensorType(tf::DType::f32, "(128,256)", tf::Storage::rmem);
  EXPECT_TRUE(checkCapacity(G.B.K, h200()).empty());
  // With an explicit ShardLayout over the compute threads it is theirs:
  // 100 f32 replicated on each, 128 + 64 + 100 at the cast.
  G.B.K.Values[Table].Type =
      tensorType(tf::DType::f32, "(100)", tf::Storage::rmem);
  G.B.K.Values[Table].Shard = tf::ShardLayout{
      G.B.K.Values[Table].Type.Layout.layout, {}, Compute};
  std::vector<Finding> F = checkCapacity(G.B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "292");
  EXPECT_EQ(F[0].Args[1], tf::to_string(Compute));
}

TEST(Capacity, OneLevelKernelHasNoThreadRegisters) {
  // A kernel of CTAs only (examples/gemm/grid.cpp): its accumulator has no
  // thread mesh at all, whatever its size.
  Gemm G = buildGemm();
  G.B.K.Topologies.pop_back();
  G.B.K.Values[G.Acc].Type = tensorType(
      tf::DType::f32,
      "((2@group,4@warp,2,8@lane8),(64,4@lane4,2))"
      ":((32768,16,8,1),(512,128,64))",
      tf::Storage::rmem);
  EXPECT_TRUE(only(checkCapacity(G.B.K, h200()),
                   DiagId::warn_tf_capacity_registers)
                  .empty());
}

//===- L2 reuse windows ---------------------------------------------------===//

TEST(Capacity, SeedShapeFitsL2) {
  // M = 8192, N = 17408, K = 5120, 128 x 256 tiles, 132 CTAs, group_m 8:
  // 8 A panels (10 MiB) + 17 B panels (42.5 MiB) = 52.5 MiB < 60 MiB.
  Gemm G = buildGemm(staticShape(8192, 17408, 5120));
  EXPECT_TRUE(checkCapacity(G.B.K, h200()).empty());
  // The window itself, with a smaller L2.
  tf::targets::Fact L2;
  MergedTarget T = withFact(h200(), "memory.l2.capacity", 50 << 20, L2);
  std::vector<Finding> F = checkCapacity(G.B.K, T);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Id, DiagId::warn_tf_capacity_l2);
  EXPECT_EQ(F[0].Range.Line, 66u);
  EXPECT_EQ(F[0].Args,
            (std::vector<std::string>{"one wave of 132 tiles", "52.5 MiB",
                                      "50 MiB", "nvidia.h200_sxm"}));
  EXPECT_EQ(noteTexts(F[0]),
            (std::vector<std::string>{
                "132 CTAs run the first tiles of the 64 x 68 grid at once: 8 "
                "tile rows and 17 tile columns (group_m = 8)",
                "'a': 8 panels of 128 x 5120 bf16 (one per tile row) = 10 MiB",
                "'b': 17 panels of 5120 x 256 bf16 (one per tile column) = "
                "42.5 MiB"}));
  EXPECT_EQ(F[0].Notes[1].Range.Line, 70u);
  EXPECT_EQ(F[0].Notes[2].Range.Line, 72u);
}

TEST(Capacity, LongerKOverflowsL2) {
  // K = 6144: 8 x 128 x 6144 x 2 = 12 MiB + 17 x 256 x 6144 x 2 = 51 MiB.
  Gemm G = buildGemm(staticShape(8192, 17408, 6144));
  std::vector<Finding> F = checkCapacity(G.B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Id, DiagId::warn_tf_capacity_l2);
  EXPECT_EQ(F[0].Args[1], "63 MiB");
  EXPECT_EQ(F[0].Args[2], "60 MiB");
}

TEST(Capacity, GroupingDecidesTheWindow) {
  // Plain row-major order (group_m = 1): the first wave is 132 tiles of row
  // 0 and 64 of row 1 -- 2 A panels and all 68 B panels: 170 MiB + 2.5.
  GemmOptions O = staticShape(8192, 17408, 5120);
  O.GroupM = 1;
  std::vector<Finding> F = checkCapacity(buildGemm(O).B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[1], "172.5 MiB");
  // column-major with group_m = 8 swaps the roles: 8 column panels of B
  // (20 MiB), 17 row panels of A (21.25 MiB).
  O.GroupM = 8;
  Gemm G = buildGemm(O);
  G.B.K.Stmts[G.Tiles].ColumnMajor = true;
  tf::targets::Fact L2;
  MergedTarget T = withFact(h200(), "memory.l2.capacity", 1, L2);
  F = checkCapacity(G.B.K, T);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[1], "41.25 MiB");
}

TEST(Capacity, FewTilesMakeASmallWave) {
  // 2 x 2 tiles: a wave of 4, both panels of each: a 256 x K and K x 512.
  Gemm G = buildGemm(staticShape(256, 512, 1 << 20));
  std::vector<Finding> F = checkCapacity(G.B.K, h200());
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Args[0], "one wave of 4 tiles");
  EXPECT_EQ(F[0].Args[1], "1536 MiB"); // 512 MiB + 1 GiB
}

TEST(Capacity, RunTimeExtentsReportNothing) {
  // Run-time M, N, K: the window is unknown at compile time (tf analyze
  // reports it with the run-time shape).
  GemmOptions O;
  O.A = "(8192,?)";
  O.B = "(?,17408)";
  Gemm G = buildGemm(O);
  tf::targets::Fact L2;
  MergedTarget T = withFact(h200(), "memory.l2.capacity", 1, L2);
  EXPECT_TRUE(checkCapacity(G.B.K, T).empty());
}

TEST(Capacity, WritesAreNotPartOfTheWindow) {
  // out is written, not read: with a small L2 only a and b are listed. The
  // store's access says so (without the copy's schedule to guess from).
  Gemm G = buildGemm(staticShape(8192, 17408, 5120));
  G.B.K.Stmts[G.StoreOp].Sched.reset();
  tf::targets::Fact L2;
  MergedTarget T = withFact(h200(), "memory.l2.capacity", 1, L2);
  std::vector<Finding> F = checkCapacity(G.B.K, T);
  ASSERT_EQ(F.size(), 1u);
  EXPECT_EQ(F[0].Notes.size(), 3u);
  // Read instead, its 8 x 17 tiles of 128 x 256 join the window.
  G.B.K.Stmts[G.StoreOp].Access.Accesses[0].Kind = AccessKind::Read;
  F = checkCapacity(G.B.K, T);
  ASSERT_EQ(F.size(), 1u);
  ASSERT_EQ(F[0].Notes.size(), 4u);
  EXPECT_EQ(F[0].Notes[3].Args[0],
            "'out': 132 panels of 128 x 256 bf16 (one per tile) = 8.25 MiB");
}

TEST(Capacity, EveryFindingIsAWarning) {
  GemmOptions O = staticShape(8192, 17408, 8192);
  O.Stages = 6;
  Gemm G = buildGemm(O);
  G.B.K.Values[G.Acc].Type = tensorType(
      tf::DType::f32,
      "((2@group,4@warp,2,8@lane8),(64,4@lane4,2))"
      ":((32768,16,8,1),(512,128,64))",
      tf::Storage::rmem);
  std::vector<Finding> F = checkCapacity(G.B.K, h200());
  ASSERT_EQ(F.size(), 3u);
  // In source order: B's ring (62), the loop (66), the cast (78).
  EXPECT_EQ(F[0].Id, DiagId::warn_tf_capacity_smem);
  EXPECT_EQ(F[1].Id, DiagId::warn_tf_capacity_l2);
  EXPECT_EQ(F[2].Id, DiagId::warn_tf_capacity_registers);
}

TEST(Capacity, MissingFactsCheckNothing) {
  GemmOptions O = staticShape(8192, 17408, 8192);
  O.Stages = 6;
  Gemm G = buildGemm(O);
  EXPECT_TRUE(checkCapacity(G.B.K, MergedTarget{}).empty());
}

} // namespace
