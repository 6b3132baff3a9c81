//===- test/interp/ClusterTest.cpp - Clusters of CTAs ---------------------===//
//
// interp::interpret on small hand-built kernels in clusters of two CTAs:
// a handshake whose consumer warpgroup releases the slot in both CTAs of
// the cluster (and the deadlock, naming each CTA, when it releases it in
// its own only), a multicast TMA load shared out between the two ranks
// that must land in the shared memory of both CTAs -- also when a peer's
// box completes its bytes before the CTA's own arrive.expect_tx announced
// them -- and the deadlock when one rank's box is missing; then what the
// interpreter refuses of clusters.
//
//===----------------------------------------------------------------------===//
#include "interp/Interpreter.h"
#include "lower/sm90/Sm90.h"

#include <gtest/gtest.h>

#include <tuple>
#include <vector>

namespace {

using namespace tf::lower;
namespace ext = tf::lower::sm90;
using tf::DType;
using tf::interp::InterpOptions;
using tf::interp::InterpStats;
using tf::interp::SchedulePolicy;
using tf::interp::TensorArg;

std::string run(const Kernel &K, llvm::ArrayRef<TensorArg> Args,
                SchedulePolicy Policy, InterpStats *Stats = nullptr) {
  InterpOptions Opts;
  Opts.Policy = Policy;
  llvm::Error E = tf::interp::interpret(K, Args, Opts, Stats);
  return E ? llvm::toString(std::move(E)) : std::string();
}

Stmt role(const char *Name, std::int64_t Begin, std::int64_t End) {
  return Stmt(RoleStmt{Name, "", Begin, End});
}

/// A kernel of Grid CTAs in clusters of two, 256 threads each, with the
/// barrier arrays \p Names of one object each (their regions first in
/// shared memory, then \p BufferBytes of a buffer).
struct Clustered {
  Kernel K;

  Clustered(std::int64_t Grid, std::vector<const char *> Names,
            std::int64_t BufferBytes) {
    K.Name = "clustered";
    K.Grid = K.constant(Grid);
    K.ClusterCtas = 2;
    K.BlockThreads = 256;
    K.SharedAlign = 128;
    for (const char *Name : Names) {
      Region R;
      R.Kind = RegionKind::Barrier;
      R.Name = std::string(Name) + "[0]";
      R.Offset = static_cast<std::int64_t>(K.Regions.size()) * 8;
      R.Bytes = R.Align = 8;
      K.Regions.push_back(R);
      Barrier B;
      B.Name = Name;
      B.Regions = {static_cast<RegionId>(K.Regions.size() - 1)};
      K.Barriers.push_back(B);
    }
    K.SharedBytes = 128 + BufferBytes;
  }

  /// The set-up: thread 0 initialises every barrier array with its count,
  /// fence.mbarrier_init, barrier.cluster.
  void setUp(std::vector<std::int64_t> Counts) {
    Stmt Init = role("init", 0, 1);
    for (BarrierId B = 0; B < Counts.size(); ++B) {
      auto X = std::make_unique<ext::BarrierInit>();
      X->Bar = B;
      X->Count = Counts[B];
      Init.Body.push_back(K.addInst(Stmt(std::move(X))));
    }
    K.Body.push_back(K.addInst(Init));
    K.Body.push_back(
        K.addInst(Stmt(std::make_unique<ext::FenceBarrierInit>())));
    K.Body.push_back(K.addInst(Stmt(std::make_unique<ext::ClusterBarrier>())));
  }

  /// A role of \p Body, then (the last) barrier.cluster.
  void addRole(Stmt Role, std::vector<Stmt> Body) {
    for (Stmt &I : Body)
      Role.Body.push_back(K.addInst(std::move(I)));
    K.Body.push_back(K.addInst(std::move(Role)));
  }
  void end() {
    K.Body.push_back(K.addInst(Stmt(std::make_unique<ext::ClusterBarrier>())));
  }

  Stmt wait(BarrierId Bar, ExprId Phase, std::int64_t Threads) {
    auto I = std::make_unique<ext::Wait>();
    I->Bar = Bar;
    I->Slot = K.constant(0);
    I->Phase = Phase;
    I->Threads = Threads;
    return Stmt(std::move(I));
  }

  /// mbarrier.arrive Bar[0] by Threads threads (Elected: the one thread);
  /// Cluster: a warpgroup's release in every CTA of the cluster, Threads
  /// its role's warpgroups.
  Stmt arrive(BarrierId Bar, std::int64_t Threads, std::int64_t Elected,
              bool Cluster) {
    auto I = std::make_unique<ext::Arrive>();
    I->Bar = Bar;
    I->Slot = K.constant(0);
    I->Threads = Threads;
    I->Elected = Elected;
    I->Cluster = Cluster;
    return Stmt(std::move(I));
  }
};

//===- Cluster-wide arrivals ----------------------------------------------===//

/// Each CTA's producer (32 threads) fills its slot when the consumers (one
/// warpgroup) of both CTAs released it: `slot.empty` counts one arrival
/// per CTA, made by thread r of the warpgroup on rank r's object -- or,
/// without \p ClusterRelease, by its thread 0 on its own CTA's only.
Kernel handshake(std::int64_t Trips, bool ClusterRelease) {
  Clustered C(2, {"slot.full", "slot.empty"}, 0);
  C.setUp({32, 2});
  Kernel &K = C.K;
  auto Parity = [&](bool Producer) {
    ExprId P = K.binary(ExprKind::And, K.var("it"), K.constant(1));
    return Producer ? K.binary(ExprKind::Xor, P, K.constant(1)) : P;
  };
  auto Loop = [&](std::vector<Stmt> Body) {
    Stmt L(KLoopStmt{"it", K.constant(0), K.constant(Trips), 1});
    for (Stmt &I : Body)
      L.Body.push_back(K.addInst(std::move(I)));
    return L;
  };
  std::vector<Stmt> P, Cn;
  P.push_back(C.wait(1, Parity(true), 32));
  P.push_back(C.arrive(0, 32, -1, false));
  Cn.push_back(C.wait(0, Parity(false), 128));
  Cn.push_back(ClusterRelease ? C.arrive(1, 1, -1, true)
                              : C.arrive(1, 1, 128, false));
  std::vector<Stmt> PL, CL;
  PL.push_back(Loop(std::move(P)));
  CL.push_back(Loop(std::move(Cn)));
  C.addRole(role("producer", 0, 32), std::move(PL));
  C.addRole(role("consumer", 128, 256), std::move(CL));
  C.end();
  return std::move(C.K);
}

class Cluster : public ::testing::TestWithParam<SchedulePolicy> {};

TEST_P(Cluster, ClusterWideReleaseRunsToTheEnd) {
  InterpStats Stats;
  EXPECT_EQ(run(handshake(5, true), {}, GetParam(), &Stats), "");
  EXPECT_EQ(Stats.Ctas, 2);
}

TEST_P(Cluster, LocalReleaseDeadlocksNamingEachCta) {
  // 1 of the 2 arrivals per phase: the producers' second waits block.
  const std::string Error = run(handshake(3, false), {}, GetParam());
  EXPECT_NE(Error.find("cluster 0 (CTAs 0 to 1): deadlock:"), std::string::npos)
      << Error;
  for (const char *Cta : {"CTA 0", "CTA 1"})
    EXPECT_NE(Error.find(std::string("\n  ") + Cta +
                         ", role 'producer' (threads [0, 32)) waits at "
                         "mbarrier.try_wait.parity slot.empty[0] for the "
                         "phase of parity 0 (the barrier: phase 0 (parity "
                         "0), 1 of 2 arrivals pending)"),
              std::string::npos)
        << Error;
}

//===- Multicast ----------------------------------------------------------===//

/// Clusters of two CTAs; cluster c multicasts rows 2c and 2c + 1 of `in`
/// (4 x 32 f32) into a 2 x 32 buffer of both its CTAs -- row j by rank j --
/// and CTA i stores its buffer to rows 2i and 2i + 1 of `out` (8 x 32).
struct Multicast {
  static constexpr std::int64_t Rows = 4, Cols = 32, Box = Cols * 4;
  Clustered C{4, {"buf.full"}, 2 * Box};
  std::vector<float> In, Out;
  std::vector<TensorArg> Args;

  /// \p ExpectFirst: arrive.expect_tx before the loads (else after them,
  /// so that a box may complete its bytes before they are expected);
  /// \p Boxes: the rows loaded (0 and 1: both ranks' boxes).
  Multicast(bool ExpectFirst = true, std::vector<int> Boxes = {0, 1}) {
    Kernel &K = C.K;
    K.Parameters = {{"in", Parameter::Kind::Tensor, DType::f32, 2, ""},
                    {"out", Parameter::Kind::Tensor, DType::f32, 2, ""}};
    for (const char *T : {"in", "out"})
      K.Maps.push_back({T, tf::hir::None, DType::f32, {1, Cols}, {0, 1},
                        tf::SwizzleMode::none});
    Region Buf;
    Buf.Kind = RegionKind::Buffer;
    Buf.Name = "buf";
    Buf.Offset = 128;
    Buf.Bytes = 2 * Box;
    Buf.Align = 128;
    Buf.Shape = {2, Cols};
    K.Regions.push_back(Buf);
    K.Barriers[0].TxBytes = 2 * Box;
    C.setUp({1});

    std::vector<Stmt> Body;
    auto Expect = [&] {
      auto X = std::make_unique<ext::ArriveExpectTx>();
      X->Bar = 0;
      X->Slot = K.constant(0);
      X->Threads = 1;
      X->Elected = 0;
      X->Bytes = 2 * Box;
      Body.push_back(Stmt(std::move(X)));
    };
    ExprId Cluster = K.binary(ExprKind::Div, K.var("cta.x"), K.constant(2));
    if (ExpectFirst)
      Expect();
    for (int J : Boxes)
      Body.push_back(
          copy(false, 0,
               K.binary(ExprKind::Add,
                        K.binary(ExprKind::Mul, Cluster, K.constant(2)),
                        K.constant(J)),
               J));
    if (!ExpectFirst)
      Expect();
    Body.push_back(C.wait(0, K.constant(0), 1));
    for (int J : {0, 1})
      Body.push_back(
          copy(true, 1,
               K.binary(ExprKind::Add,
                        K.binary(ExprKind::Mul, K.var("cta.x"), K.constant(2)),
                        K.constant(J)),
               J));
    Body.push_back(Stmt(std::make_unique<ext::BulkCommit>()));
    Body.push_back(Stmt(std::make_unique<ext::BulkWaitRead>()));
    C.addRole(role("producer", 0, 32), std::move(Body));
    C.end();

    for (std::int64_t I = 0; I < Rows * Cols; ++I)
      In.push_back(static_cast<float>(I) + 0.5f);
    Out.assign(2 * Rows * Cols, -1.0f);
    Args = {{"in", In.data(), DType::f32, {Rows, Cols}, {Cols, 1}},
            {"out", Out.data(), DType::f32, {2 * Rows, Cols}, {Cols, 1}}};
  }

  /// Row \p J of the buffer to or from row \p Row of map \p Map's tensor:
  /// a load multicast to both CTAs by rank J, a store by each CTA.
  Stmt copy(bool Store, unsigned Map, ExprId Row, int J) {
    Kernel &K = C.K;
    AtomCallStmt Call;
    Call.Contract = "nv.sm90.CopyAsyncTensor";
    Call.Threads = 1;
    Call.Elected = 0;
    OperandView Global;
    Global.Name = Store ? "dst" : "src";
    Global.Place = OperandPlace::Global;
    Global.Map = Map;
    Global.Coords = {Row, K.constant(0)};
    OperandView Shared;
    Shared.Name = Store ? "src" : "dst";
    Shared.Place = OperandPlace::Shared;
    Shared.View = 1; // buf, after the barrier's region
    Shared.Offset = J * Box;
    Call.Operands = {Store ? Shared : Global, Store ? Global : Shared};
    auto T = std::make_unique<ext::Tma>();
    T->Store = Store;
    T->Bytes = Box;
    if (!Store) {
      T->Bar = 0;
      T->Slot = K.constant(0);
      T->Multicast = 2;
      T->Issuer = J;
    }
    Call.Target = ExtensionPtr(std::move(T));
    return Stmt(std::move(Call));
  }

  /// Whether `out` row 2i + j holds `in` row 2 (i / 2) + j, for every CTA i.
  bool delivered() const {
    for (std::int64_t Row = 0; Row < 2 * Rows; ++Row) {
      const std::int64_t From = (Row / 2) / 2 * 2 + Row % 2;
      for (std::int64_t Col = 0; Col < Cols; ++Col)
        if (Out[Row * Cols + Col] != In[From * Cols + Col])
          return false;
    }
    return true;
  }
};

TEST_P(Cluster, MulticastLandsInEveryCtaOfTheCluster) {
  for (bool ExpectFirst : {true, false}) {
    Multicast M(ExpectFirst);
    InterpStats Stats;
    EXPECT_EQ(run(M.C.K, M.Args, GetParam(), &Stats), "");
    EXPECT_TRUE(M.delivered()) << "expect_tx first: " << ExpectFirst;
    // One box per CTA issued (its rank's), two stores per CTA.
    EXPECT_EQ(Stats.Ctas, 4);
    EXPECT_EQ(Stats.TmaLoads, 4);
    EXPECT_EQ(Stats.TmaStores, 8);
  }
}

TEST_P(Cluster, MissingRankBoxDeadlocksInBothCtas) {
  // Rank 1's box is gone: each CTA of cluster 0 waits with its 128 bytes
  // pending.
  Multicast M(true, {0});
  const std::string Error = run(M.C.K, M.Args, GetParam());
  EXPECT_NE(Error.find("cluster 0 (CTAs 0 to 1): deadlock:"), std::string::npos)
      << Error;
  for (const char *Cta : {"CTA 0", "CTA 1"})
    EXPECT_NE(Error.find(std::string(Cta) +
                         ", role 'producer' (threads [0, 32)) waits at "
                         "mbarrier.try_wait.parity buf.full[0] for the phase "
                         "of parity 0 (the barrier: phase 0 (parity 0), 0 of "
                         "1 arrivals and 128 transaction bytes pending)"),
              std::string::npos)
        << Error;
}

INSTANTIATE_TEST_SUITE_P(Policies, Cluster,
                         ::testing::ValuesIn(tf::interp::AllPolicies),
                         [](const ::testing::TestParamInfo<SchedulePolicy> &P) {
                           std::string Name =
                               tf::interp::policyName(P.param).str();
                           std::erase(Name, '-');
                           return Name;
                         });

TEST(ClusterChecks, MulticastBeyondTheCluster) {
  // Verify.cpp refuses it; the interpreter, which relies on it, too.
  Multicast M;
  for (Stmt &S : M.C.K.Insts)
    if (auto *T = as<ext::Tma>(S); T && !T->Store)
      T->Multicast = 4;
  const std::string Error = run(M.C.K, M.Args, SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("a multicast to 4 CTAs by rank 0 in clusters of 2 "
                       "CTAs"),
            std::string::npos)
      << Error;
}

TEST(ClusterChecks, GridOfWholeClusters) {
  Multicast M;
  M.C.K.Grid = M.C.K.constant(3);
  const std::string Error = run(M.C.K, M.Args, SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("the grid of clustered: 3 CTAs do not form clusters "
                       "of 2"),
            std::string::npos)
      << Error;
}

TEST(ClusterChecks, ClusterReleaseByWarpgroups) {
  // A cluster-wide release counts the role's warpgroups, one arrival each
  // per CTA; one that counts the role's threads, or elects one, is not
  // what the LIR means by it.
  for (auto [Threads, Elected, Want] :
       {std::tuple<std::int64_t, std::int64_t, const char *>{
            128, -1, "it counts 128 arrivals per CTA, but each of the role's "
                     "1 warpgroups arrives once"},
        {1, 128, "is made by each warpgroup of its role; it elects thread "
                 "128"}}) {
    Kernel K = handshake(1, true);
    for (Stmt &S : K.Insts)
      if (auto *A = as<ext::Arrive>(S); A && A->Cluster) {
        A->Threads = Threads;
        A->Elected = Elected;
      }
    const std::string Error = run(K, {}, SchedulePolicy::RoundRobin);
    EXPECT_NE(Error.find(Want), std::string::npos) << Error;
  }
}

TEST(ClusterChecks, ClusterBarrierInsideARoleIsRefused) {
  Clustered C(2, {"slot.full"}, 0);
  C.setUp({1});
  std::vector<Stmt> Body;
  Body.push_back(Stmt(std::make_unique<ext::ClusterBarrier>()));
  C.addRole(role("worker", 0, 32), std::move(Body));
  const std::string Error = run(C.K, {}, SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("CTA 0, role 'worker' (threads [0, 32)): "
                       "barrier.cluster: inside a role is not modeled (it "
                       "is a cluster-wide barrier)"),
            std::string::npos)
      << Error;
}

} // namespace
