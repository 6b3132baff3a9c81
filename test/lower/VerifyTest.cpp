//===- test/lower/VerifyTest.cpp - The LIR verifier ------------------------===//
//
// verify (plugin/lower/Verify.h, with the sm90 extension's checks of
// plugin/lower/sm90/Verify.h) on a hand-built two-stage pipeline: one TMA
// thread fills ring `r` in a persistent tile loop, 128 threads read it. The
// kernel as built verifies; each test breaks one thing and expects the error
// that names it.
//
//===----------------------------------------------------------------------===//
#include "lower/Printer.h"
#include "lower/Verify.h"
#include "lower/sm90/Sm90.h"

#include <gtest/gtest.h>

namespace {

using namespace tf::lower;
namespace ext = tf::lower::sm90;

/// The pipeline and the ids a test changes.
struct Pipeline {
  Kernel K;
  BarrierId Full = 0, Empty = 1;
  InstId ExpectTx = None, ConsumerWait = None, Release = None,
         ConsumerClock = None;
};

/// One role's loops: for task ... { tiles_done; for k ... { it; Body } }.
InstId role(Kernel &K, const char *Name, std::int64_t Begin,
            std::int64_t End, std::vector<InstId> Body, ExprId Clock,
            InstId *ClockLet = nullptr) {
  InstId L = K.addInst(Stmt(LetStmt{"it", Clock}));
  if (ClockLet)
    *ClockLet = L;
  Stmt KLoop(KLoopStmt{"k", K.constant(0), K.constant(512), 64});
  KLoop.Body = {L};
  KLoop.Body.insert(KLoop.Body.end(), Body.begin(), Body.end());
  Stmt Done(LetStmt{
      "tiles_done",
      K.binary(ExprKind::Div,
               K.binary(ExprKind::Sub, K.var("task"), K.var("cta.x")),
               K.constant(132))});
  TileLoopStmt Loop;
  Loop.Persistent = true;
  Stmt Tiles(Loop);
  Tiles.Body = {K.addInst(Done), K.addInst(KLoop)};
  Stmt R(RoleStmt{Name, "", Begin, End});
  R.Body = {K.addInst(Tiles)};
  return K.addInst(R);
}

/// it = tiles_done * 8 + k / 64.
ExprId clock(Kernel &K) {
  return K.binary(ExprKind::Add,
                  K.binary(ExprKind::Mul, K.var("tiles_done"), K.constant(8)),
                  K.binary(ExprKind::Div, K.var("k"), K.constant(64)));
}

/// A \p T (a barrier use) on slot it % 2 of \p B, by \p Threads threads;
/// a wait's parity flipped for a \p Producer.
template <class T>
std::unique_ptr<T> onBarrier(Kernel &K, BarrierId B, std::int64_t Threads,
                             bool Producer = false) {
  auto I = std::make_unique<T>();
  I->Bar = B;
  I->Clock = K.var("it");
  I->Slot = K.binary(ExprKind::Mod, I->Clock, K.constant(2));
  if constexpr (std::is_same_v<T, ext::Wait>) {
    ExprId Parity = K.binary(
        ExprKind::And, K.binary(ExprKind::Div, I->Clock, K.constant(2)),
        K.constant(1));
    I->Phase =
        Producer ? K.binary(ExprKind::Xor, Parity, K.constant(1)) : Parity;
    I->ProducerParity = Producer;
  }
  I->Threads = Threads;
  return I;
}

/// Statement \p Id of \p K as a \p T of the sm90 extension.
template <class T> T &stmtAs(Kernel &K, InstId Id) {
  return *as<T>(K.Insts[Id]);
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
  Map.Order = {0, 1};
  Map.Swizzle = tf::SwizzleMode::bytes128;
  K.Maps.push_back(Map);

  Stmt Init(RoleStmt{"init", "", 0, 1});
  for (BarrierId B : {P.Full, P.Empty}) {
    auto I = std::make_unique<ext::BarrierInit>();
    I->Bar = B;
    I->Count = K.Barriers[B].Arrivals;
    Init.Body.push_back(K.addInst(Stmt(std::move(I))));
  }
  K.Body.push_back(K.addInst(Init));

  InstId Wait =
      K.addInst(Stmt(onBarrier<ext::Wait>(K, P.Empty, 1, /*Producer=*/true)));
  auto ExpectTx = onBarrier<ext::ArriveExpectTx>(K, P.Full, 1);
  ExpectTx->Bytes = 16384;
  P.ExpectTx = K.addInst(Stmt(std::move(ExpectTx)));
  auto Load = std::make_unique<ext::Tma>();
  Load->Bar = P.Full;
  Load->Clock = K.var("it");
  Load->Slot = K.binary(ExprKind::Mod, Load->Clock, K.constant(2));
  Load->Bytes = 16384;
  AtomCallStmt Call;
  Call.Contract = "nv.sm90.CopyAsyncTensor";
  Call.Threads = 1;
  OperandView Global, Shared;
  Global.Name = "src";
  Global.Place = OperandPlace::Global;
  Global.Map = 0;
  Global.Coords = {K.constant(0), K.constant(0)}; // one per box dimension
  Shared.Name = "dst";
  Shared.View = 0;
  Shared.Ring = 0;
  Shared.Slot = Load->Slot;
  Call.Operands = {Global, Shared};
  Call.Target = ExtensionPtr(std::move(Load));
  InstId L = K.addInst(Stmt(std::move(Call)));
  K.Body.push_back(role(K, "loader", 0, 1, {Wait, P.ExpectTx, L}, clock(K)));

  P.ConsumerWait =
      K.addInst(Stmt(onBarrier<ext::Wait>(K, P.Full, 128)));
  P.Release = K.addInst(Stmt(onBarrier<ext::Arrive>(K, P.Empty, 128)));
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
  stmtAs<ext::Arrive>(P.K, P.Release).Threads = 64;
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
  stmtAs<ext::ArriveExpectTx>(P.K, P.ExpectTx).Bytes = 8192;
  EXPECT_EQ(errors(P.K),
            "kernel k: mbarrier.arrive.expect_tx on r.full expects 8192 bytes "
            "(barrier table: 16384) but the TMA copies issued on it move "
            "16384\n");
}

TEST(Verify, ClockWithoutPersistentTiles) {
  // The consumer forgets the tiles done: its phases repeat every tile.
  Pipeline P = build();
  Kernel &K = P.K;
  K.Insts[P.ConsumerClock].get<LetStmt>().Value =
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
  ext::Wait &W = stmtAs<ext::Wait>(K, P.ConsumerWait);
  W.Phase = K.binary(ExprKind::And, W.Clock, K.constant(1));
  EXPECT_EQ(errors(K), "kernel k: the wait on r.full uses parity it & 1, not "
                       "(clock / 2) & 1\n");
}

TEST(Verify, Slot) {
  Pipeline P = build();
  Kernel &K = P.K;
  stmtAs<ext::Arrive>(K, P.Release).Slot =
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

TEST(Verify, BoxOrder) {
  // A box order that is no permutation of the box's dimensions.
  Pipeline P = build();
  P.K.Maps[0].Order = {1, 1};
  EXPECT_EQ(errors(P.K),
            "kernel k: tensor map of 'a': its box order is not a permutation "
            "of the box's 2 dimensions, or the copy names 2 coordinates\n");
}

TEST(Verify, NeverWaited) {
  // The consumer arrives on r.full instead of waiting on it.
  Pipeline P = build();
  P.K.Insts[P.ConsumerWait] =
      Stmt(onBarrier<ext::Arrive>(P.K, P.Full, /*Threads=*/0));
  EXPECT_EQ(errors(P.K), "kernel k: barrier r.full is never waited on by a "
                         "role that does not arrive on it\n");
}

TEST(Verify, TransactionCount) {
  Pipeline P = build();
  P.K.Barriers[P.Full].TxBytes =
      stmtAs<ext::ArriveExpectTx>(P.K, P.ExpectTx).Bytes = 1 << 20;
  for (Stmt &I : P.K.Insts)
    if (auto *Load = as<ext::Tma>(I))
      Load->Bytes = 1 << 20;
  std::string E = errors(P.K);
  EXPECT_NE(E.find("barrier r.full expects 1048576 bytes per phase; an "
                   "mbarrier's transaction count holds less than 1048576"),
            std::string::npos)
      << E;
}

TEST(Verify, NamedBarrier) {
  Pipeline P = build();
  auto Sync = std::make_unique<ext::NamedBarrier>();
  Sync->Id = 1;
  Sync->Count = 100;
  InstId Id = P.K.addInst(Stmt(std::move(Sync)));
  P.K.Insts[P.K.Body.back()].Body.push_back(Id);
  EXPECT_EQ(errors(P.K), "kernel k: bar.sync 1, 100 needs an id in [1, 16) "
                         "and a multiple of 32 threads within the CTA\n");
}

TEST(Verify, RoleOutsideCta) {
  Pipeline P = build();
  for (Stmt &I : P.K.Insts)
    if (auto *R = I.getIf<RoleStmt>(); R && R->Name == "compute")
      R->End = 384;
  EXPECT_EQ(errors(P.K), "kernel k: role compute runs threads [128, 384), "
                         "outside the CTA's 256\n");
}

} // namespace
