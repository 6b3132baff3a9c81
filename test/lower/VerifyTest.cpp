//===- test/lower/VerifyTest.cpp - The LIR verifier ------------------------===//
//
// verify (plugin/lower/Verify.h) on a hand-built two-stage pipeline: one TMA
// thread fills ring `r` in a persistent tile loop, 128 threads read it. The
// kernel as built verifies; each test breaks one thing and expects the error
// that names it.
//
//===----------------------------------------------------------------------===//
#include "lower/Printer.h"
#include "lower/Verify.h"

#include <gtest/gtest.h>

namespace {

using namespace tf::lower;

/// The pipeline and the ids a test changes.
struct Pipeline {
  Kernel K;
  BarrierId Full = 0, Empty = 1;
  InstId ExpectTx = None, ConsumerWait = None, Release = None,
         ConsumerClock = None;
};

Inst make(InstKind Kind) {
  Inst I;
  I.Kind = Kind;
  return I;
}

/// One role's loops: for task ... { tiles_done; for k ... { it; Body } }.
InstId role(Kernel &K, const char *Name, std::int64_t Begin,
            std::int64_t End, std::vector<InstId> Body, ExprId Clock,
            InstId *ClockLet = nullptr) {
  Inst Let = make(InstKind::Let);
  Let.Vars = {"it"};
  Let.Value = Clock;
  InstId L = K.addInst(Let);
  if (ClockLet)
    *ClockLet = L;
  Inst KLoop = make(InstKind::KLoop);
  KLoop.Vars = {"k"};
  KLoop.Start = K.constant(0);
  KLoop.Bound = K.constant(512);
  KLoop.Step = 64;
  KLoop.Body = {L};
  KLoop.Body.insert(KLoop.Body.end(), Body.begin(), Body.end());
  Inst Done = make(InstKind::Let);
  Done.Vars = {"tiles_done"};
  Done.Value = K.binary(ExprKind::Div,
                        K.binary(ExprKind::Sub, K.var("task"), K.var("cta.x")),
                        K.constant(132));
  Inst Tiles = make(InstKind::TileLoop);
  Tiles.Persistent = true;
  Tiles.Body = {K.addInst(Done), K.addInst(KLoop)};
  Inst R = make(InstKind::Role);
  R.RoleName = Name;
  R.Begin = Begin;
  R.End = End;
  R.Body = {K.addInst(Tiles)};
  return K.addInst(R);
}

/// it = tiles_done * 8 + k / 64.
ExprId clock(Kernel &K) {
  return K.binary(ExprKind::Add,
                  K.binary(ExprKind::Mul, K.var("tiles_done"), K.constant(8)),
                  K.binary(ExprKind::Div, K.var("k"), K.constant(64)));
}

Inst onBarrier(Kernel &K, InstKind Kind, BarrierId B, std::int64_t Threads,
               bool Producer = false) {
  Inst I = make(Kind);
  I.Bar = B;
  I.Clock = K.var("it");
  I.Slot = K.binary(ExprKind::Mod, I.Clock, K.constant(2));
  ExprId Parity =
      K.binary(ExprKind::And,
               K.binary(ExprKind::Div, I.Clock, K.constant(2)), K.constant(1));
  I.Phase = Producer ? K.binary(ExprKind::Xor, Parity, K.constant(1)) : Parity;
  I.ProducerParity = Producer && Kind == InstKind::Wait;
  I.Threads = Threads;
  return I;
}

Pipeline build() {
  Pipeline P;
  Kernel &K = P.K;
  K.Name = "k";
  K.Target = "nvidia.h200_sxm";
  K.BlockThreads = 256;
  K.SharedLimit = 232448;
  for (int S = 0; S < 2; ++S) {
    Region R;
    R.Kind = RegionKind::RingStage;
    R.Name = "r[" + std::to_string(S) + "]";
    R.Offset = S * 16384;
    R.Bytes = 16384;
    R.Align = 1024;
    R.Value = 0;
    R.Stage = S;
    K.Regions.push_back(R);
  }
  for (const char *Name : {"r.full", "r.empty"}) {
    Barrier B;
    B.Name = Name;
    B.Count = 2;
    for (int S = 0; S < 2; ++S) {
      Region R;
      R.Kind = RegionKind::Barrier;
      R.Name = B.Name + "[" + std::to_string(S) + "]";
      R.Offset = 32768 + 8 * static_cast<std::int64_t>(K.Regions.size() - 2);
      R.Bytes = R.Align = 8;
      B.Regions.push_back(static_cast<RegionId>(K.Regions.size()));
      K.Regions.push_back(R);
    }
    K.Barriers.push_back(B);
  }
  K.Barriers[P.Full].Arrivals = 1;
  K.Barriers[P.Full].TxBytes = 16384;
  K.Barriers[P.Empty].Arrivals = 128;
  K.SharedBytes = 32768 + 32;
  K.SharedAlign = 1024;
  TensorMap Map;
  Map.Tensor = "a";
  Map.Box = {128, 64};
  Map.Swizzle = tf::SwizzleMode::bytes128;
  K.Maps.push_back(Map);

  Inst Init = make(InstKind::Role);
  Init.RoleName = "init";
  Init.End = 1;
  for (BarrierId B : {P.Full, P.Empty}) {
    Inst I = make(InstKind::BarrierInit);
    I.Bar = B;
    I.Count = K.Barriers[B].Arrivals;
    Init.Body.push_back(K.addInst(I));
  }
  K.Body.push_back(K.addInst(Init));

  InstId Wait = K.addInst(onBarrier(K, InstKind::Wait, P.Empty, 1, true));
  P.ExpectTx = K.addInst(onBarrier(K, InstKind::ArriveExpectTx, P.Full, 1));
  K.Insts[P.ExpectTx].Bytes = 16384;
  Inst Load = onBarrier(K, InstKind::TmaLoad, P.Full, 1);
  Load.Map = 0;
  Load.Ring = 0;
  Load.View = 0;
  Load.Bytes = 16384;
  InstId L = K.addInst(Load);
  K.Body.push_back(role(K, "loader", 0, 1, {Wait, P.ExpectTx, L}, clock(K)));

  P.ConsumerWait = K.addInst(onBarrier(K, InstKind::Wait, P.Full, 128));
  P.Release = K.addInst(onBarrier(K, InstKind::Arrive, P.Empty, 128));
  K.Body.push_back(role(K, "compute", 128, 256, {P.ConsumerWait, P.Release},
                        clock(K), &P.ConsumerClock));
  return P;
}

/// The verifier's messages, one per line.
std::string errors(const Kernel &K) {
  std::string Out;
  llvm::handleAllErrors(verify(K), [&](const llvm::ErrorInfoBase &E) {
    Out += E.message() + "\n";
  });
  return Out;
}

TEST(Verify, PipelineAsBuilt) { EXPECT_EQ(errors(build().K), ""); }

TEST(Verify, ArrivalCount) {
  Pipeline P = build();
  P.K.Insts[P.Release].Threads = 64;
  EXPECT_EQ(errors(P.K), "kernel k: barrier r.empty expects 128 arrivals per "
                         "phase but the roles perform 64\n");
}

TEST(Verify, InitCount) {
  Pipeline P = build();
  P.K.Barriers[P.Empty].Arrivals = 256;
  EXPECT_NE(errors(P.K).find("barrier r.empty is initialised with 128 "
                             "arrivals, the table says 256"),
            std::string::npos);
}

TEST(Verify, ExpectTxBytes) {
  Pipeline P = build();
  P.K.Insts[P.ExpectTx].Bytes = 8192;
  EXPECT_EQ(errors(P.K),
            "kernel k: mbarrier.arrive.expect_tx on r.full expects 8192 bytes "
            "(barrier table: 16384) but the TMA copies issued on it move "
            "16384\n");
}

TEST(Verify, ClockWithoutPersistentTiles) {
  // The consumer forgets the tiles done: its phases repeat every tile.
  Pipeline P = build();
  Kernel &K = P.K;
  K.Insts[P.ConsumerClock].Value =
      K.binary(ExprKind::Div, K.var("k"), K.constant(64));
  std::string E = errors(K);
  EXPECT_NE(E.find("the clock of r.full (k / 64) does not count the "
                   "persistent tiles"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("producer and consumer of r.full use different clocks: "
                   "(task - cta.x) / 132 * 8 + k / 64 and k / 64"),
            std::string::npos)
      << E;
}

TEST(Verify, Parity) {
  Pipeline P = build();
  Kernel &K = P.K;
  Inst &W = K.Insts[P.ConsumerWait];
  W.Phase = K.binary(ExprKind::And, W.Clock, K.constant(1));
  EXPECT_EQ(errors(K), "kernel k: the wait on r.full uses parity it & 1, not "
                       "(clock / 2) & 1\n");
}

TEST(Verify, Slot) {
  Pipeline P = build();
  Kernel &K = P.K;
  K.Insts[P.Release].Slot =
      K.binary(ExprKind::Mod, K.var("k"), K.constant(2));
  EXPECT_EQ(errors(K), "kernel k: mbarrier.arrive on r.empty indexes slot "
                       "k % 2, not its clock it modulo 2\n");
}

TEST(Verify, OverlapAndAlignment) {
  Pipeline P = build();
  P.K.Regions[1].Offset = 8320;
  std::string E = errors(P.K);
  EXPECT_NE(E.find("shared-memory region r[1] at byte 8320 is not aligned to "
                   "1024 bytes"),
            std::string::npos)
      << E;
  EXPECT_NE(E.find("shared-memory regions r[0] [0, 16384) and r[1] [8320, "
                   "24704) overlap"),
            std::string::npos)
      << E;
}

TEST(Verify, SharedMemoryLimit) {
  Pipeline P = build();
  P.K.SharedLimit = 32 * 1024;
  EXPECT_EQ(errors(P.K),
            "kernel k: the shared-memory map takes 32800 bytes, more than the "
            "32768 of cta.shared_memory.max on nvidia.h200_sxm; use fewer "
            "stages or smaller tiles\n");
}

TEST(Verify, NeverWaited) {
  // The consumer arrives on r.full instead of waiting on it.
  Pipeline P = build();
  Inst &W = P.K.Insts[P.ConsumerWait];
  W.Kind = InstKind::Arrive;
  W.Threads = 0;
  EXPECT_EQ(errors(P.K), "kernel k: barrier r.full is never waited on by a "
                         "role that does not arrive on it\n");
}

TEST(Verify, TransactionCount) {
  Pipeline P = build();
  P.K.Barriers[P.Full].TxBytes = P.K.Insts[P.ExpectTx].Bytes = 1 << 20;
  for (Inst &I : P.K.Insts)
    if (I.Kind == InstKind::TmaLoad)
      I.Bytes = 1 << 20;
  std::string E = errors(P.K);
  EXPECT_NE(E.find("barrier r.full expects 1048576 bytes per phase; an "
                   "mbarrier's transaction count holds less than 1048576"),
            std::string::npos)
      << E;
}

TEST(Verify, NamedBarrier) {
  Pipeline P = build();
  Inst Sync = make(InstKind::NamedBarrier);
  Sync.BarrierIdNum = 1;
  Sync.Count = 100;
  InstId Id = P.K.addInst(Sync);
  P.K.Insts[P.K.Body.back()].Body.push_back(Id);
  EXPECT_EQ(errors(P.K), "kernel k: bar.sync 1, 100 needs an id in [1, 16) "
                         "and a multiple of 32 threads within the CTA\n");
}

TEST(Verify, RoleOutsideCta) {
  Pipeline P = build();
  for (Inst &I : P.K.Insts)
    if (I.Kind == InstKind::Role && I.RoleName == "compute")
      I.End = 384;
  EXPECT_EQ(errors(P.K), "kernel k: role compute runs threads [128, 384), "
                         "outside the CTA's 256\n");
}

} // namespace
