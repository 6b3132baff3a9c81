//===- test/cost/CostTest.cpp - analyzeCost on hand-built HIR -------------===//
//
// The cost model of `tf analyze` (plugin/analysis/Cost.h) on the H200 GEMM
// of examples/gemm/optimal.cpp (test/capacity/GemmKernel.h, with the access
// relations BuildHIR gives it) at M, N, K = 8192, 17408, 5120 and
// variants, against the real nvidia.h200_sxm facts: waves, flop, bytes,
// peaks, reuse windows and the roofline, each with its precision.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "RealFacts.h"

#include "analysis/Cost.h"
#include "targets/TargetFacts.h"

#include <gtest/gtest.h>

using namespace tf_test;
using tf::analysis::analyzeCost;
using tf::analysis::Bindings;
using tf::analysis::BufferReport;
using tf::analysis::KernelCost;
using tf::analysis::Precision;
using tf::targets::MergedTarget;

namespace {

constexpr std::int64_t M = 8192, N = 17408, Kd = 5120;
constexpr std::int64_t KiB = 1024, MiB = 1024 * 1024;

Access access(ValueId V, AccessKind Kind, std::vector<unsigned> Map) {
  Access A;
  A.Operand = V;
  A.Kind = Kind;
  A.Map = std::move(Map);
  return A;
}

/// A window access as BuildHIR writes it: the parent with offsets.
Access windowAccess(const Kernel &K, ValueId Window, AccessKind Kind) {
  Access A = access(K.Values[Window].TileOf, Kind, {0, 1});
  A.Offsets = K.Values[Window].TileOffsets;
  A.Extents = K.Values[Window].Type.WindowExtents;
  return A;
}

/// The access relations the AST builder gives optimal.cpp's ops.
void addAccesses(Gemm &G) {
  Kernel &K = G.B.K;
  auto Rel = [&](StmtId S, tf::IntTuple Domain, std::vector<Access> As) {
    K.Stmts[S].Access.Domain = Domain;
    K.Stmts[S].Access.Accesses = std::move(As);
  };
  Rel(K.Values[G.Acc].Def, tf::IntTuple{128, 256},
      {access(G.Acc, AccessKind::Write, {0, 1})});
  StmtId LoadA = K.Values[G.Lhs].Def, LoadB = K.Values[G.Rhs].Def;
  Rel(LoadA, tf::IntTuple{128, 64},
      {windowAccess(K, K.Stmts[LoadA].Operands[0], AccessKind::Read),
       access(G.LhsRing, AccessKind::Write, {0, 1})});
  Rel(LoadB, tf::IntTuple{64, 256},
      {windowAccess(K, K.Stmts[LoadB].Operands[0], AccessKind::Read),
       access(G.RhsRing, AccessKind::Write, {0, 1})});
  Rel(G.MmaOp, tf::IntTuple{128, 256, 64},
      {access(G.Acc, AccessKind::ReadWrite, {0, 1}),
       access(G.Lhs, AccessKind::Read, {0, 2}),
       access(G.Rhs, AccessKind::Read, {2, 1})});
  Rel(G.CastOp, tf::IntTuple{128, 256},
      {access(G.Acc, AccessKind::Read, {0, 1}),
       access(G.Cast, AccessKind::Write, {0, 1})});
  Rel(K.Values[G.Staged].Def, tf::IntTuple{128, 256},
      {access(G.Cast, AccessKind::Read, {0, 1}),
       access(G.StagedTile, AccessKind::Write, {0, 1})});
  std::vector<Access> Store = K.Stmts[G.StoreOp].Access.Accesses;
  for (Access &A : Store)
    A.Map = {0, 1};
  Store.insert(Store.begin(), access(G.Staged, AccessKind::Read, {0, 1}));
  Rel(G.StoreOp, tf::IntTuple{128, 256}, Store);
}

Gemm optimalGemm(std::int64_t GroupM = 8) {
  GemmOptions O;
  O.GroupM = GroupM;
  Gemm G = buildGemm(O);
  addAccesses(G);
  return G;
}

/// The extents of an M x N x K product for optimal.cpp's a, b and out.
Bindings shape(const Gemm &G, std::int64_t Rows, std::int64_t Columns,
               std::int64_t Depth) {
  Bindings B;
  B.Extents[G.A] = {Rows, Depth};
  B.Extents[G.Bm] = {Depth, Columns};
  B.Extents[G.Out] = {Rows, Columns};
  return B;
}

Bindings seedShape(const Gemm &G) { return shape(G, M, N, Kd); }

const BufferReport *buffer(const KernelCost &C, llvm::StringRef Name) {
  for (const BufferReport &B : C.Buffers)
    if (B.Name == Name)
      return &B;
  ADD_FAILURE() << "no buffer " << Name.str();
  return nullptr;
}

TEST(Cost, PrecisionNames) {
  EXPECT_EQ(tf::analysis::precisionName(Precision::Exact), "exact");
  EXPECT_EQ(tf::analysis::precisionName(Precision::UpperBound), "upper_bound");
  EXPECT_EQ(tf::analysis::precisionName(Precision::LowerBound), "lower_bound");
  EXPECT_EQ(tf::analysis::precisionName(Precision::Estimate), "estimate");
  EXPECT_EQ(tf::analysis::precisionName(Precision::Unknown), "unknown");
}

TEST(Cost, OptimalWavesAtTheSeedShape) {
  Gemm G = optimalGemm();
  MergedTarget T = realTarget("nvidia.h200_sxm");
  KernelCost C = analyzeCost(G.B.K, T, seedShape(G));
  EXPECT_TRUE(C.Symbolic.empty());
  ASSERT_TRUE(C.Waves.Grid);
  EXPECT_EQ(C.Waves.Grid->GM, 64);
  EXPECT_EQ(C.Waves.Grid->GN, 68);
  EXPECT_EQ(C.Waves.Grid->tiles(), 4352);
  EXPECT_EQ(C.Waves.TileM, 128);
  EXPECT_EQ(C.Waves.TileN, 256);
  EXPECT_EQ(C.Waves.Units, 132);
  // 132 persistent CTAs, one per SM (208 KiB of shared memory each): one
  // wave, 32 or 33 tiles each.
  EXPECT_EQ(C.Waves.Kernel.What, "persistent");
  EXPECT_EQ(C.Waves.Kernel.CTAs, 132);
  EXPECT_EQ(C.Waves.Kernel.CtasPerSm, 1);
  EXPECT_EQ(C.Waves.Kernel.LimitedBy, "shared memory");
  EXPECT_EQ(C.Waves.Kernel.CtasPerSmP, Precision::Exact);
  EXPECT_EQ(C.Waves.Kernel.Waves, 1);
  EXPECT_EQ(C.Waves.Kernel.WavesP, Precision::Exact);
  EXPECT_EQ(C.Waves.Kernel.MaxTilesPerCta, 33);
  EXPECT_EQ(C.Waves.Kernel.MinTilesPerCta, 32);
  // One CTA per tile with the same resources: 33 waves.
  EXPECT_EQ(C.Waves.Other.What, "one CTA per tile");
  EXPECT_EQ(C.Waves.Other.CTAs, 4352);
  EXPECT_EQ(C.Waves.Other.Waves, 33);
  EXPECT_EQ(C.Waves.Other.WavesP, Precision::Exact);
}

TEST(Cost, OptimalCapacitiesAtTheSeedShape) {
  Gemm G = optimalGemm();
  KernelCost C =
      analyzeCost(G.B.K, realTarget("nvidia.h200_sxm"), seedShape(G));
  // 3 stages x (16 + 32) KiB of A and B + 64 KiB staged output.
  EXPECT_EQ(C.Smem.Peak, 208 * KiB);
  EXPECT_EQ(C.Smem.Capacity, 227 * KiB);
  EXPECT_EQ(C.Smem.Fits, true);
  EXPECT_EQ(C.Smem.P, Precision::Exact);
  ASSERT_EQ(C.Smem.Allocations.size(), 3u);
  EXPECT_EQ(C.Smem.Allocations[0].bytes(), 48 * KiB);
  EXPECT_EQ(C.Smem.Allocations[1].bytes(), 96 * KiB);
  EXPECT_EQ(C.Smem.Allocations[2].bytes(), 64 * KiB);
  // 128 accumulator registers and 64 of its bf16 cast per compute thread.
  EXPECT_TRUE(C.Registers.Distributed);
  EXPECT_EQ(C.Registers.PerThread, 192);
  EXPECT_EQ(C.Registers.MeshSpelling, "compute");
  EXPECT_EQ(C.Registers.PerCta, 256 * 192);
  EXPECT_EQ(C.Registers.Fits, true);
  EXPECT_EQ(C.Registers.P, Precision::LowerBound);
}

TEST(Cost, OptimalFlopAndBytesAtTheSeedShape) {
  Gemm G = optimalGemm();
  KernelCost C =
      analyzeCost(G.B.K, realTarget("nvidia.h200_sxm"), seedShape(G));
  ASSERT_EQ(C.Compute.size(), 1u);
  EXPECT_EQ(C.Compute[0].Domain, (std::vector<std::int64_t>{128, 256, 64}));
  EXPECT_EQ(C.Compute[0].Trips, 4352 * 80);
  ASSERT_TRUE(C.Flop);
  EXPECT_EQ(*C.Flop, 2.0 * M * N * Kd);
  EXPECT_EQ(C.FlopP, Precision::Exact);

  const tf::analysis::MemoryReport &Mem = C.Memory;
  ASSERT_TRUE(Mem.GmemRead && Mem.GmemWrite);
  // Every tile reads K/64 tiles of A (16 KiB) and of B (32 KiB).
  EXPECT_EQ(*Mem.GmemRead, 4352.0 * 80 * (16 + 32) * KiB);
  EXPECT_EQ(*Mem.GmemWrite, 2.0 * M * N);
  // One round: 8 rows x 17 columns of tiles: 10 MiB of A and 42.5 MiB of B.
  EXPECT_EQ(Mem.ReuseWindow, 10 * MiB + 85 * MiB / 2);
  EXPECT_EQ(Mem.CacheCapacity, 60 * MiB);
  EXPECT_EQ(Mem.ReuseFits, true);
  ASSERT_TRUE(Mem.Hbm && Mem.Compulsory);
  EXPECT_EQ(*Mem.Compulsory, 2.0 * (M * Kd + Kd * N + M * N));
  EXPECT_GT(*Mem.Hbm, *Mem.Compulsory);
  EXPECT_LT(*Mem.Hbm, *Mem.GmemRead / 4);
  EXPECT_EQ(Mem.HbmP, Precision::UpperBound);
  // smem: each TMA load writes its slot and the MMA reads it; the staged
  // tile is written and read once per tile.
  ASSERT_TRUE(Mem.SmemRead && Mem.SmemWrite);
  EXPECT_EQ(*Mem.SmemWrite, 4352.0 * (80 * 48 * KiB + 64 * KiB));
  EXPECT_EQ(*Mem.SmemRead, *Mem.SmemWrite);

  // Compute-bound at the dense bf16 peak.
  const tf::analysis::RooflineReport &R = C.Roofline;
  EXPECT_EQ(R.PeakFact, "tensor_core.dense.bf16");
  EXPECT_EQ(R.BandwidthFact, "memory.hbm.bandwidth");
  ASSERT_TRUE(R.Seconds && R.Tflops);
  EXPECT_EQ(R.Bound, "compute");
  EXPECT_DOUBLE_EQ(*R.Seconds, 2.0 * M * N * Kd / 989.5e12);
  EXPECT_DOUBLE_EQ(*R.Tflops, 989.5);
  EXPECT_EQ(R.P, Precision::LowerBound);
}

TEST(Cost, OptimalReuseWindows) {
  Gemm G = optimalGemm();
  KernelCost C =
      analyzeCost(G.B.K, realTarget("nvidia.h200_sxm"), seedShape(G));
  const BufferReport *A = buffer(C, "a");
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->Holds, 10 * MiB);
  EXPECT_EQ(A->Reuse, 10 * MiB + 85 * MiB / 2);
  EXPECT_EQ(A->Time, "none");
  EXPECT_EQ(A->Space, "cta.persistent");
  EXPECT_EQ(A->Level, "l2");
  EXPECT_EQ(A->Fits, true);
  EXPECT_EQ(A->P, Precision::UpperBound);
  const BufferReport *B = buffer(C, "b");
  ASSERT_NE(B, nullptr);
  EXPECT_EQ(B->Holds, 85 * MiB / 2);
  const BufferReport *Out = buffer(C, "out");
  ASSERT_NE(Out, nullptr);
  EXPECT_FALSE(Out->Reused);
  EXPECT_EQ(Out->Holds, 132 * 64 * KiB);
  const BufferReport *Ring = buffer(C, "lhs_ring");
  ASSERT_NE(Ring, nullptr);
  EXPECT_EQ(Ring->Holds, 48 * KiB);
  EXPECT_EQ(Ring->Time, "k");
  EXPECT_EQ(Ring->Reuse, 208 * KiB);
  EXPECT_EQ(Ring->Fits, true);
  EXPECT_EQ(Ring->P, Precision::Exact);
  const BufferReport *Staged = buffer(C, "staged_tile");
  ASSERT_NE(Staged, nullptr);
  EXPECT_EQ(Staged->Time, "m,n");
  const BufferReport *Acc = buffer(C, "acc");
  ASSERT_NE(Acc, nullptr);
  EXPECT_EQ(Acc->HoldsRegisters, 128);
  EXPECT_EQ(Acc->Holds, 128 * KiB);
  EXPECT_EQ(Acc->Time, "k");
  EXPECT_EQ(Acc->Space, "thread.compute");
  EXPECT_EQ(Acc->Reuse, 192);
  EXPECT_EQ(Acc->Capacity, 255);
  EXPECT_EQ(Acc->P, Precision::LowerBound);
}

TEST(Cost, WithoutShapeWhatDependsOnExtentsIsUnknown) {
  Gemm G = optimalGemm();
  KernelCost C = analyzeCost(G.B.K, realTarget("nvidia.h200_sxm"), Bindings{});
  EXPECT_EQ(C.Symbolic, (std::vector<std::string>{"a", "b", "out"}));
  EXPECT_FALSE(C.Waves.Grid);
  // The persistent grid is static: one wave whatever the shape.
  EXPECT_EQ(C.Waves.Kernel.Waves, 1);
  EXPECT_EQ(C.Waves.Kernel.WavesP, Precision::Exact);
  EXPECT_FALSE(C.Waves.Other.CTAs);
  EXPECT_FALSE(C.Waves.Other.Waves);
  EXPECT_FALSE(C.Flop);
  EXPECT_EQ(C.FlopP, Precision::Unknown);
  EXPECT_FALSE(C.Memory.Hbm);
  EXPECT_FALSE(C.Memory.ReuseWindow);
  EXPECT_FALSE(C.Roofline.Seconds);
  EXPECT_EQ(C.Smem.Peak, 208 * KiB);
  const BufferReport *A = buffer(C, "a");
  ASSERT_NE(A, nullptr);
  EXPECT_EQ(A->P, Precision::Unknown);
}

TEST(Cost, UngroupedTilesOverflowTheL2) {
  // Row-major, one row of tiles after another: the first 132 tiles span all
  // 68 columns, i.e. the whole of B (170 MiB).
  Gemm G = optimalGemm(/*GroupM=*/1);
  KernelCost C =
      analyzeCost(G.B.K, realTarget("nvidia.h200_sxm"), seedShape(G));
  EXPECT_EQ(C.Memory.ReuseFits, false);
  EXPECT_EQ(buffer(C, "b")->Holds, 170 * MiB);
  EXPECT_EQ(buffer(C, "b")->Fits, false);
  // The window is 172.5 MiB (A's two tile rows and all of B): the L2 holds
  // 60 / 172.5 of it, and the reads it would have served go to HBM in the
  // rest -- a curve, not a switch at the capacity.
  const tf::analysis::MemoryReport &Mem = C.Memory;
  ASSERT_TRUE(Mem.Hbm && Mem.GmemRead && Mem.GmemWrite && Mem.HbmReadIfFits &&
              Mem.CacheHeld);
  EXPECT_EQ(Mem.ReuseWindow, 5 * MiB / 2 + 170 * MiB);
  EXPECT_DOUBLE_EQ(*Mem.CacheHeld, 60.0 / 172.5);
  EXPECT_DOUBLE_EQ(*Mem.Hbm, *Mem.HbmReadIfFits +
                                 (1 - 60.0 / 172.5) *
                                     (*Mem.GmemRead - *Mem.HbmReadIfFits) +
                                 *Mem.GmemWrite);
  EXPECT_LT(*Mem.Hbm, *Mem.GmemRead + *Mem.GmemWrite);
  EXPECT_GT(*Mem.Hbm, *Mem.HbmReadIfFits + *Mem.GmemWrite);
  // Memory-bound in the estimate; the roofline moves each tensor once.
  EXPECT_EQ(C.Estimate.Bound, "memory");
  EXPECT_EQ(C.Roofline.Bound, "compute");
}

TEST(Cost, EstimateAtTheSeedShape) {
  Gemm G = optimalGemm();
  KernelCost C =
      analyzeCost(G.B.K, realTarget("nvidia.h200_sxm"), seedShape(G));
  const tf::analysis::EstimateReport &E = C.Estimate;
  EXPECT_EQ(E.RateFact, "tensor_core.sustained.bf16");
  EXPECT_EQ(E.Rate, 719e12);
  EXPECT_EQ(E.Units, 132);
  EXPECT_EQ(E.Tiles, 4352);
  EXPECT_EQ(E.TileFlop, 2.0 * 128 * 256 * Kd);
  // 4352 tiles on 132 CTAs: the busiest takes 33.
  EXPECT_EQ(E.BusiestTiles, 33);
  EXPECT_EQ(E.BusyUnits, 132);
  ASSERT_TRUE(E.ComputeSeconds && E.Seconds && E.Tflops);
  // Each of its tiles takes K / 64 main-loop steps, each at the step
  // overhead on top of the flop.
  EXPECT_EQ(E.StepOverhead, 65e-9);
  EXPECT_EQ(E.BusiestSteps, 33 * Kd / 64);
  ASSERT_TRUE(E.StepSeconds);
  EXPECT_DOUBLE_EQ(*E.StepSeconds, 33 * (Kd / 64) * 65e-9);
  EXPECT_DOUBLE_EQ(*E.ComputeSeconds,
                   33 * 2.0 * 128 * 256 * Kd / (719e12 / 132) + *E.StepSeconds);
  EXPECT_EQ(E.Bound, "compute");
  EXPECT_DOUBLE_EQ(*E.Tflops, 2.0 * M * N * Kd / *E.Seconds / 1e12);
  // The roofline: each tensor once.
  ASSERT_TRUE(C.Roofline.HbmBytes && C.Memory.Compulsory);
  EXPECT_EQ(*C.Roofline.HbmBytes, *C.Memory.Compulsory);
}

TEST(Cost, FewTilesLeaveSMsIdle) {
  // 128 x 4096 x 4096: 16 tiles on 132 persistent CTAs. The roofline (the
  // whole device's peak) says 578 TFLOP/s; 116 SMs have nothing to do.
  Gemm G = optimalGemm();
  KernelCost C = analyzeCost(G.B.K, realTarget("nvidia.h200_sxm"),
                             shape(G, 128, 4096, 4096));
  const tf::analysis::EstimateReport &E = C.Estimate;
  EXPECT_EQ(E.Tiles, 16);
  EXPECT_EQ(E.BusiestTiles, 1);
  EXPECT_EQ(E.BusyUnits, 16);
  ASSERT_TRUE(E.Tflops);
  // One tile's time for 16 tiles' flop: 16 SMs at 719 / 132 TFLOP/s, each
  // tile's 64 steps at 65 ns on top.
  const double TileSeconds = 2.0 * 128 * 256 * 4096 / (719e12 / 132) + 64 * 65e-9;
  EXPECT_NEAR(*E.Tflops, 2.0 * 128 * 4096 * 4096 / TileSeconds / 1e12, 1e-9);
}

TEST(Cost, TilePaddingIsNoUsefulFlop) {
  // 1000 x 4672 x 4544: 8 x 19 tiles of 128 x 256 cover 1024 x 4864; K is
  // 71 steps of 64 exactly.
  Gemm G = optimalGemm();
  KernelCost C = analyzeCost(G.B.K, realTarget("nvidia.h200_sxm"),
                             shape(G, 1000, 4672, 4544));
  ASSERT_EQ(C.Compute.size(), 1u);
  const tf::analysis::ComputeOp &Op = C.Compute[0];
  ASSERT_TRUE(Op.Flop && Op.UsefulFlop);
  EXPECT_EQ(*Op.Flop, 8.0 * 19 * 71 * 2 * 128 * 256 * 64);
  EXPECT_NEAR(*Op.UsefulFlop / (2.0 * 1000 * 4672 * 4544), 1.0, 1e-12);
  ASSERT_TRUE(C.Roofline.Flop && C.Estimate.UsefulFlop);
  EXPECT_EQ(*C.Roofline.Flop, *Op.UsefulFlop);
  EXPECT_EQ(C.Estimate.BusiestTiles, 2);
}

TEST(Cost, OneCtaPerTileTakes33Waves) {
  Gemm G = optimalGemm();
  Stmt &Loop = G.B.K.Stmts[G.Tiles];
  Loop.Loop = LoopKind::GridTiles;
  Loop.LoopMesh = tf::mesh("cta", tf::IntTuple{tf::Int::dynamic()}, "tile");
  G.B.K.Topologies[0].extent = tf::Int::dynamic();
  KernelCost C =
      analyzeCost(G.B.K, realTarget("nvidia.h200_sxm"), seedShape(G));
  EXPECT_EQ(C.Waves.Kernel.What, "one CTA per tile");
  EXPECT_EQ(C.Waves.Kernel.CTAs, 4352);
  EXPECT_EQ(C.Waves.Kernel.Waves, 33);
  EXPECT_EQ(C.Waves.Kernel.WavesP, Precision::Exact);
  EXPECT_EQ(C.Waves.Other.What, "persistent");
  EXPECT_EQ(C.Waves.Other.CTAs, 132);
  EXPECT_EQ(C.Waves.Other.Waves, 1);
  EXPECT_EQ(C.Waves.Other.MaxTilesPerCta, 33);
  // The same flop, whichever CTA computes a tile.
  ASSERT_TRUE(C.Flop);
  EXPECT_EQ(*C.Flop, 2.0 * M * N * Kd);
}

} // namespace
