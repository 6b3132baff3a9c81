//===- plugin/interp/Cluster.cpp - The CTAs of a cluster ----------------===//
//
// See Run.h. The grid runs one cluster after another (without clusters a
// cluster is one CTA). The CTAs of a cluster run together, since they fill
// each other's shared memory (multicast loads) and arrive on each other's
// barriers: each gets its own shared memory, barriers and registers
// (CtaState), and they take the kernel-level statements in lockstep --
// a let is evaluated in each CTA, a role becomes walkers in each CTA, and a
// barrier (fence.mbarrier_init's CTA barrier, barrier.cluster) runs every
// walker of the cluster collected so far to the end. Then the scheduler
// (Schedule.cpp) interleaves all of the cluster's walkers and its one TMA
// unit until every walker finished, and each CTA must end between phases.
//
//===----------------------------------------------------------------------===//
#include "interp/Run.h"

namespace tf::interp::impl {

llvm::Error Run::runCluster(std::int64_t First) {
  const std::size_t Size = static_cast<std::size_t>(K.ClusterCtas);
  Ctas.assign(Size, {});
  for (std::size_t R = 0; R < Size; ++R) {
    CtaState &C = Ctas[R];
    C.Index = First + static_cast<std::int64_t>(R);
    C.Rank = R;
    C.Smem.assign(static_cast<std::size_t>(K.SharedBytes), Opts.SharedPoison);
    C.Barriers.resize(K.Barriers.size());
    for (std::size_t B = 0; B < K.Barriers.size(); ++B)
      C.Barriers[B].assign(static_cast<std::size_t>(K.Barriers[B].Count), {});
    ++Stats.Ctas;
  }
  Walkers.clear();
  Tma.clear();
  PendingStores.clear();
  Steps = 0;
  RoundRobinNext = 0;
  Rng.seed(Opts.Seed * 0x9E3779B97F4A7C15ull +
           static_cast<std::uint64_t>(First));

  for (InstId Id : K.Body) {
    const Stmt &S = K.Insts[Id];
    if (const auto *L = S.getIf<lower::LetStmt>()) {
      for (CtaState &C : Ctas) {
        llvm::Expected<std::int64_t> V = eval(C, nullptr, L->Value);
        if (!V)
          return at(C, nullptr, &S, V.takeError());
        C.Scope.push_back({L->Var, *V});
      }
    } else if (S.is<lower::RoleStmt>()) {
      for (std::size_t R = 0; R < Size; ++R)
        addWalkers(S, R);
    } else if (as<ext::FenceBarrierInit>(S) || as<ext::ClusterBarrier>(S)) {
      // fence.mbarrier_init, then a barrier of the whole CTA; barrier.cluster,
      // one of the whole cluster. The CTAs reach both in lockstep, so
      // fence.mbarrier_init waits for the peers' walkers as well: stricter
      // than the hardware only for a set-up role that waits on a peer's
      // work after the peer's fence, which the LIR has none of (its set-up
      // initialises barriers, and barrier.cluster follows the fence).
      if (llvm::Error E = meet())
        return E;
    } else {
      return at(Ctas.front(), nullptr, &S,
                fail("at kernel level (outside every role) is not modeled"));
    }
  }
  if (llvm::Error E = schedule())
    return E;
  for (const CtaState &C : Ctas)
    if (llvm::Error E = checkPhasesAtExit(C))
      return E;
  return llvm::Error::success();
}

void Run::addWalkers(const Stmt &RoleStmt, std::size_t Cta) {
  const lower::RoleStmt &Role = RoleStmt.get<lower::RoleStmt>();
  const std::int64_t Threads = Role.End - Role.Begin;
  const bool Split = Threads > 0 && Threads % WarpgroupThreads == 0 &&
                     Role.Begin % WarpgroupThreads == 0;
  const std::int64_t Count = Split ? Threads / WarpgroupThreads : 1;
  for (std::int64_t G = 0; G < Count; ++G) {
    Walker W;
    W.Cta = Cta;
    W.Role = &Role;
    W.Warpgroups = Split;
    W.Group = G;
    W.Begin = Split ? Role.Begin + G * WarpgroupThreads : Role.Begin;
    W.End = Split ? W.Begin + WarpgroupThreads : Role.End;
    W.Producer = Producers[&RoleStmt];
    W.Name = "role '" + Role.Name + "'" +
             (Count > 1 ? " warpgroup " + std::to_string(G) : "") +
             " (threads [" + std::to_string(W.Begin) + ", " +
             std::to_string(W.End) + "))";
    Frame F;
    F.Body = &RoleStmt.Body;
    W.Stack.push_back(F);
    Walkers.push_back(std::move(W));
  }
}

llvm::Error Run::meet() {
  if (llvm::Error E = schedule())
    return E;
  Walkers.clear();
  return llvm::Error::success();
}

llvm::Error Run::checkPhasesAtExit(const CtaState &C) {
  for (std::size_t B = 0; B < C.Barriers.size(); ++B)
    for (std::size_t S = 0; S < C.Barriers[B].size(); ++S) {
      const Mbarrier &M = C.Barriers[B][S];
      if (M.initialized() &&
          (M.pendingArrivals() != M.expectedArrivals() || M.pendingTx() != 0))
        return fail("CTA " + llvm::Twine(C.Index) + ": the CTA ends with " +
                    K.Barriers[B].Name + "[" + llvm::Twine(S) +
                    "] in the middle of a phase: " + M.describe());
    }
  return llvm::Error::success();
}

std::string Run::clusterName() const {
  const std::int64_t First = Ctas.front().Index;
  if (Ctas.size() == 1)
    return "CTA " + std::to_string(First);
  return "cluster " + std::to_string(First / K.ClusterCtas) + " (CTAs " +
         std::to_string(First) + " to " + std::to_string(Ctas.back().Index) +
         ")";
}

std::string Run::ctaOfCluster(std::size_t Cta) const {
  if (Ctas.size() == 1)
    return "";
  return "CTA " + std::to_string(Ctas[Cta].Index) + ", ";
}

} // namespace tf::interp::impl
