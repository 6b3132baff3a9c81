//===- test/interp/SchedulerTest.cpp - Roles, barriers and deadlocks ------===//
//
// interp::interpret on small hand-built kernels without tensors: two roles
// handing a slot back and forth over a full / empty mbarrier pair in a
// loop, named barriers across roles, and what goes wrong when an arrival,
// a wait or a thread is missing -- a deadlock naming every blocked role,
// its barrier, slot and parity, too many arrivals, a phase left half done.
//
//===----------------------------------------------------------------------===//
#include "interp/Interpreter.h"
#include "lower/sm90/Sm90.h"

#include <gtest/gtest.h>

namespace {

using namespace tf::lower;
namespace ext = tf::lower::sm90;
using tf::interp::InterpOptions;
using tf::interp::SchedulePolicy;

/// A kernel of 64 threads: init [0, 1), a producer [0, 32) and a consumer
/// [32, 64), with barrier arrays `slot.full` and `slot.empty` of one object
/// each, 32 arrivals per phase.
struct Toy {
  Kernel K;
  BarrierId Full = 0, Empty = 1;
  Stmt Producer = role("producer", 0, 32), Consumer = role("consumer", 32, 64);

  Toy() {
    K.Name = "toy";
    K.Grid = K.constant(1);
    K.BlockThreads = 64;
    K.SharedAlign = 16;
    for (const char *Name : {"slot.full", "slot.empty"}) {
      Region R;
      R.Kind = RegionKind::Barrier;
      R.Name = std::string(Name) + "[0]";
      R.Offset = static_cast<std::int64_t>(K.Regions.size()) * 8;
      R.Bytes = R.Align = 8;
      K.Regions.push_back(R);
      Barrier B;
      B.Name = Name;
      B.Regions = {static_cast<RegionId>(K.Regions.size() - 1)};
      B.Arrivals = 32;
      K.Barriers.push_back(B);
    }
    K.SharedBytes = 16;
  }

  static Stmt role(const char *Name, std::int64_t Begin, std::int64_t End) {
    return Stmt(RoleStmt{Name, "", Begin, End});
  }

  /// mbarrier.try_wait.parity Bar[0], Phase.
  Stmt wait(BarrierId Bar, ExprId Phase) {
    auto I = std::make_unique<ext::Wait>();
    I->Bar = Bar;
    I->Slot = K.constant(0);
    I->Phase = Phase;
    I->Threads = 32;
    return Stmt(std::move(I));
  }

  /// mbarrier.arrive Bar[0] by Threads threads (Elected: the one thread).
  Stmt arrive(BarrierId Bar, std::int64_t Threads = 32,
              std::int64_t Elected = -1) {
    auto I = std::make_unique<ext::Arrive>();
    I->Bar = Bar;
    I->Slot = K.constant(0);
    I->Threads = Threads;
    I->Elected = Elected;
    return Stmt(std::move(I));
  }

  /// The parity of iteration `it`, flipped for the producer's wait.
  ExprId parity(bool Producer) {
    ExprId P = K.binary(ExprKind::And, K.var("it"), K.constant(1));
    return Producer ? K.binary(ExprKind::Xor, P, K.constant(1)) : P;
  }

  /// `for it in range(0, Trips, 1) { Body }`.
  Stmt loop(std::int64_t Trips, std::vector<Stmt> Body) {
    Stmt L(KLoopStmt{"it", K.constant(0), K.constant(Trips), 1});
    for (Stmt &I : Body)
      L.Body.push_back(K.addInst(std::move(I)));
    return L;
  }

  /// The kernel with these role bodies: init, fence, the two roles.
  const Kernel &finish(std::vector<Stmt> ProducerBody,
                       std::vector<Stmt> ConsumerBody) {
    Stmt Init = role("init", 0, 1);
    for (BarrierId B : {Full, Empty}) {
      auto X = std::make_unique<ext::BarrierInit>();
      X->Bar = B;
      X->Count = 32;
      Init.Body.push_back(K.addInst(Stmt(std::move(X))));
    }
    K.Body.push_back(K.addInst(Init));
    K.Body.push_back(
        K.addInst(Stmt(std::make_unique<ext::FenceBarrierInit>())));
    for (Stmt &I : ProducerBody)
      Producer.Body.push_back(K.addInst(std::move(I)));
    for (Stmt &I : ConsumerBody)
      Consumer.Body.push_back(K.addInst(std::move(I)));
    K.Body.push_back(K.addInst(Producer));
    K.Body.push_back(K.addInst(Consumer));
    return K;
  }

  /// The handshake: the producer fills the slot when empty, the consumer
  /// drains it when full, Trips times.
  const Kernel &handshake(std::int64_t Trips, bool ProducerWaits = true,
                          bool ConsumerArrives = true) {
    std::vector<Stmt> P, C;
    if (ProducerWaits)
      P.push_back(wait(Empty, parity(true)));
    P.push_back(arrive(Full));
    C.push_back(wait(Full, parity(false)));
    if (ConsumerArrives)
      C.push_back(arrive(Empty));
    std::vector<Stmt> PL, CL;
    PL.push_back(loop(Trips, std::move(P)));
    CL.push_back(loop(Trips, std::move(C)));
    return finish(std::move(PL), std::move(CL));
  }
};

std::string run(const Kernel &K, SchedulePolicy Policy) {
  InterpOptions Opts;
  Opts.Policy = Policy;
  llvm::Error E = tf::interp::interpret(K, {}, Opts);
  return E ? llvm::toString(std::move(E)) : std::string();
}

class Scheduler : public ::testing::TestWithParam<SchedulePolicy> {};

TEST_P(Scheduler, HandshakeRunsToTheEnd) {
  Toy T;
  EXPECT_EQ(run(T.handshake(5), GetParam()), "");
}

TEST_P(Scheduler, MissingArrivalDeadlocks) {
  // The consumer never frees the slot: the producer's second wait blocks,
  // then the consumer's.
  Toy T;
  const std::string Error = run(T.handshake(3, true, false), GetParam());
  EXPECT_NE(Error.find("CTA 0: deadlock:"), std::string::npos) << Error;
  EXPECT_NE(Error.find("role 'producer' (threads [0, 32)) waits at "
                       "mbarrier.try_wait.parity slot.empty[0] for the phase "
                       "of parity 0"),
            std::string::npos)
      << Error;
  EXPECT_NE(Error.find("role 'consumer' (threads [32, 64)) waits at "
                       "mbarrier.try_wait.parity slot.full[0] for the phase "
                       "of parity 1"),
            std::string::npos)
      << Error;
}

TEST_P(Scheduler, NamedBarrierAcrossRoles) {
  auto Sync = [](std::int64_t Count) {
    auto I = std::make_unique<ext::NamedBarrier>();
    I->Id = 1;
    I->Count = Count;
    return Stmt(std::move(I));
  };
  {
    Toy T;
    std::vector<Stmt> P, C;
    P.push_back(Sync(64));
    C.push_back(Sync(64));
    EXPECT_EQ(run(T.finish(std::move(P), std::move(C)), GetParam()), "");
  }
  {
    Toy T;
    std::vector<Stmt> P, C;
    P.push_back(Sync(96));
    C.push_back(Sync(96));
    const std::string Error =
        run(T.finish(std::move(P), std::move(C)), GetParam());
    EXPECT_NE(Error.find("waits at bar.sync 1 (64 of 96 threads arrived)"),
              std::string::npos)
        << Error;
  }
}

INSTANTIATE_TEST_SUITE_P(Policies, Scheduler,
                         ::testing::ValuesIn(tf::interp::AllPolicies),
                         [](const ::testing::TestParamInfo<SchedulePolicy> &P) {
                           std::string Name =
                               tf::interp::policyName(P.param).str();
                           std::erase(Name, '-');
                           return Name;
                         });

TEST(Scheduler, MissingWaitShowsUnderProducerFirst) {
  // Without its wait on `empty` the producer completes every phase of
  // `full` before the consumer looks: the consumer then waits for a parity
  // the barrier has already passed twice.
  Toy T;
  const Kernel &K = T.handshake(4, /*ProducerWaits=*/false);
  const std::string Error = run(K, SchedulePolicy::ProducerFirst);
  EXPECT_NE(Error.find("deadlock"), std::string::npos) << Error;
  EXPECT_NE(Error.find("slot.full[0] for the phase of parity 0 (the barrier: "
                       "phase 4 (parity 0)"),
            std::string::npos)
      << Error;
}

TEST(Scheduler, TooManyArrivals) {
  // Each role arrives with its 32 threads: phases of 32 arrivals complete
  // one each; on a barrier initialized with 16 the first 32 are too many.
  Toy T;
  std::vector<Stmt> P, C;
  P.push_back(T.arrive(T.Full));
  C.push_back(T.arrive(T.Full));
  const Kernel &K = T.finish(std::move(P), std::move(C));
  EXPECT_EQ(run(K, SchedulePolicy::RoundRobin), "");
  Kernel Sixteen = K;
  for (Stmt &I : Sixteen.Insts)
    if (auto *Init = as<ext::BarrierInit>(I))
      Init->Count = 16;
  const std::string Error = run(Sixteen, SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("mbarrier.arrive: slot.full[0]: 32 arrival(s) in "
                       "phase 0, which has only 16 of its 16 pending: too "
                       "many arrivals"),
            std::string::npos)
      << Error;
}

TEST(Scheduler, ThreadCountsMustMatchWhoPerformsIt) {
  // Without an elected thread every thread of the role performs an
  // instruction: one that claims 16 of the producer's 32 is refused.
  Toy T;
  std::vector<Stmt> P;
  P.push_back(T.arrive(T.Full, 16));
  std::string Error =
      run(T.finish(std::move(P), {}), SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("it counts 16 threads, but without an elected thread "
                       "all 32 threads of the role perform it"),
            std::string::npos)
      << Error;
  // An elected thread is one arrival.
  Toy U;
  std::vector<Stmt> Q;
  Q.push_back(U.arrive(U.Full, 1, 3));
  Error = run(U.finish(std::move(Q), {}), SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("slot.full[0] in the middle of a phase: phase 0 "
                       "(parity 0), 31 of 32 arrivals pending"),
            std::string::npos)
      << Error;
}

TEST(Scheduler, PhaseLeftHalfDone) {
  // 32 arrivals on a barrier initialized with 64: nobody waits, but the CTA
  // ends with arrivals counted in a phase that never completes.
  Toy T;
  std::vector<Stmt> P;
  P.push_back(T.arrive(T.Full));
  Kernel K = T.finish(std::move(P), {});
  for (Stmt &I : K.Insts)
    if (auto *Init = as<ext::BarrierInit>(I))
      Init->Count = 64;
  const std::string Error = run(K, SchedulePolicy::ProducerFirst);
  EXPECT_NE(Error.find("the CTA ends with slot.full[0] in the middle of a "
                       "phase: phase 0 (parity 0), 32 of 64 arrivals pending"),
            std::string::npos)
      << Error;
}

TEST(Scheduler, KernelLevelInstructionIsRefused) {
  Toy T;
  T.K.Body.push_back(T.K.addInst(T.arrive(T.Full)));
  const std::string Error = run(T.finish({}, {}), SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("mbarrier.arrive: at kernel level (outside every "
                       "role) is not modeled"),
            std::string::npos)
      << Error;
}

TEST(Scheduler, EndlessLoopIsCaught) {
  Toy T;
  Stmt L = T.loop(10, {});
  L.get<KLoopStmt>().Step = 0;
  std::vector<Stmt> P;
  P.push_back(std::move(L));
  const std::string Error =
      run(T.finish(std::move(P), {}), SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("a loop with step 0 does not end"), std::string::npos)
      << Error;
}

} // namespace
