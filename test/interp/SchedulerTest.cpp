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

#include <gtest/gtest.h>

namespace {

using namespace tf::lower;
using tf::interp::InterpOptions;
using tf::interp::SchedulePolicy;

/// A kernel of 64 threads: init [0, 1), a producer [0, 32) and a consumer
/// [32, 64), with barrier arrays `slot.full` and `slot.empty` of one object
/// each, 32 arrivals per phase.
struct Toy {
  Kernel K;
  BarrierId Full = 0, Empty = 1;
  Inst Producer, Consumer;

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
    Producer = role("producer", 0, 32);
    Consumer = role("consumer", 32, 64);
  }

  static Inst role(const char *Name, std::int64_t Begin, std::int64_t End) {
    Inst I;
    I.Kind = InstKind::Role;
    I.RoleName = Name;
    I.Begin = Begin;
    I.End = End;
    I.Threads = End - Begin;
    return I;
  }

  Inst barrierOp(InstKind Kind, BarrierId Bar, ExprId Phase = None,
                 std::int64_t Threads = 32) {
    Inst I;
    I.Kind = Kind;
    I.Bar = Bar;
    I.Slot = K.constant(0);
    I.Phase = Phase;
    I.Threads = Threads;
    return I;
  }

  /// The parity of iteration `it`, flipped for the producer's wait.
  ExprId parity(bool Producer) {
    ExprId P = K.binary(ExprKind::And, K.var("it"), K.constant(1));
    return Producer ? K.binary(ExprKind::Xor, P, K.constant(1)) : P;
  }

  /// `for it in range(0, Trips, 1) { Body }`.
  Inst loop(std::int64_t Trips, std::vector<Inst> Body) {
    Inst L;
    L.Kind = InstKind::KLoop;
    L.Vars = {"it"};
    L.Start = K.constant(0);
    L.Bound = K.constant(Trips);
    L.Step = 1;
    for (Inst &I : Body)
      L.Body.push_back(K.addInst(std::move(I)));
    return L;
  }

  /// The kernel with these role bodies: init, fence, the two roles.
  const Kernel &finish(std::vector<Inst> ProducerBody,
                       std::vector<Inst> ConsumerBody) {
    Inst Init = role("init", 0, 1);
    for (BarrierId B : {Full, Empty}) {
      Inst X;
      X.Kind = InstKind::BarrierInit;
      X.Bar = B;
      X.Count = 32;
      X.Threads = 1;
      Init.Body.push_back(K.addInst(X));
    }
    K.Body.push_back(K.addInst(Init));
    Inst Fence;
    Fence.Kind = InstKind::FenceBarrierInit;
    K.Body.push_back(K.addInst(Fence));
    for (Inst &I : ProducerBody)
      Producer.Body.push_back(K.addInst(std::move(I)));
    for (Inst &I : ConsumerBody)
      Consumer.Body.push_back(K.addInst(std::move(I)));
    K.Body.push_back(K.addInst(Producer));
    K.Body.push_back(K.addInst(Consumer));
    return K;
  }

  /// The handshake: the producer fills the slot when empty, the consumer
  /// drains it when full, Trips times.
  const Kernel &handshake(std::int64_t Trips, bool ProducerWaits = true,
                          bool ConsumerArrives = true) {
    std::vector<Inst> P, C;
    if (ProducerWaits)
      P.push_back(barrierOp(InstKind::Wait, Empty, parity(true)));
    P.push_back(barrierOp(InstKind::Arrive, Full));
    C.push_back(barrierOp(InstKind::Wait, Full, parity(false)));
    if (ConsumerArrives)
      C.push_back(barrierOp(InstKind::Arrive, Empty));
    std::vector<Inst> PL, CL;
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
    Inst I;
    I.Kind = InstKind::NamedBarrier;
    I.BarrierIdNum = 1;
    I.Count = Count;
    I.Threads = 32;
    return I;
  };
  {
    Toy T;
    std::vector<Inst> P, C;
    P.push_back(Sync(64));
    C.push_back(Sync(64));
    EXPECT_EQ(run(T.finish(std::move(P), std::move(C)), GetParam()), "");
  }
  {
    Toy T;
    std::vector<Inst> P, C;
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
  std::vector<Inst> P, C;
  P.push_back(T.barrierOp(InstKind::Arrive, T.Full));
  C.push_back(T.barrierOp(InstKind::Arrive, T.Full));
  const Kernel &K = T.finish(std::move(P), std::move(C));
  EXPECT_EQ(run(K, SchedulePolicy::RoundRobin), "");
  Kernel Sixteen = K;
  for (Inst &I : Sixteen.Insts)
    if (I.Kind == InstKind::BarrierInit)
      I.Count = 16;
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
  std::vector<Inst> P;
  P.push_back(T.barrierOp(InstKind::Arrive, T.Full, None, 16));
  std::string Error =
      run(T.finish(std::move(P), {}), SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("it counts 16 threads, but without an elected thread "
                       "all 32 threads of the role perform it"),
            std::string::npos)
      << Error;
  // An elected thread is one arrival.
  Toy U;
  std::vector<Inst> Q;
  Inst One = U.barrierOp(InstKind::Arrive, U.Full, None, 1);
  One.Elected = 3;
  Q.push_back(One);
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
  std::vector<Inst> P;
  P.push_back(T.barrierOp(InstKind::Arrive, T.Full));
  Kernel K = T.finish(std::move(P), {});
  for (Inst &I : K.Insts)
    if (I.Kind == InstKind::BarrierInit)
      I.Count = 64;
  const std::string Error = run(K, SchedulePolicy::ProducerFirst);
  EXPECT_NE(Error.find("the CTA ends with slot.full[0] in the middle of a "
                       "phase: phase 0 (parity 0), 32 of 64 arrivals pending"),
            std::string::npos)
      << Error;
}

TEST(Scheduler, KernelLevelInstructionIsRefused) {
  Toy T;
  T.K.Body.push_back(T.K.addInst(T.barrierOp(InstKind::Arrive, T.Full)));
  const std::string Error = run(T.finish({}, {}), SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("mbarrier.arrive: at kernel level (outside every "
                       "role) is not modeled"),
            std::string::npos)
      << Error;
}

TEST(Scheduler, EndlessLoopIsCaught) {
  Toy T;
  Inst L = T.loop(10, {});
  L.Step = 0;
  std::vector<Inst> P;
  P.push_back(std::move(L));
  const std::string Error =
      run(T.finish(std::move(P), {}), SchedulePolicy::RoundRobin);
  EXPECT_NE(Error.find("a loop with step 0 does not end"), std::string::npos)
      << Error;
}

} // namespace
