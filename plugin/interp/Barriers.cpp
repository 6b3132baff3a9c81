//===- plugin/interp/Barriers.cpp - mbarriers, named barriers ---------------===//
//
// See Run.h: the sm90 hand-off -- mbarrier objects by array and slot in
// each CTA, their initialisation and arrivals, a release of a multicast
// ring's slot arriving on the same object of every CTA of the cluster (a
// wait is `blocked` until its phase completes, Schedule.cpp) -- and
// bar.sync.
//
//===----------------------------------------------------------------------===//
#include "interp/Run.h"

namespace tf::interp::impl {

llvm::Expected<Mbarrier *> Run::mbarrier(const Walker &W, BarrierId Bar,
                                         ExprId SlotExpr, std::int64_t &Slot) {
  if (Bar >= K.Barriers.size())
    return fail("names no barrier");
  llvm::Expected<std::int64_t> S = eval(W, SlotExpr);
  if (!S)
    return S.takeError();
  Slot = *S;
  const Barrier &B = K.Barriers[Bar];
  if (Slot < 0 || Slot >= B.Count)
    return fail("slot " + llvm::Twine(Slot) + " of " + B.Name + ", which has " +
                llvm::Twine(B.Count) + " object(s)");
  return &Ctas[W.Cta].Barriers[Bar][static_cast<std::size_t>(Slot)];
}

llvm::Error Run::barrierInit(Walker &W, const ext::BarrierInit &I) {
  llvm::Expected<std::int64_t> N = share(W, -1, 0);
  if (!N)
    return N.takeError();
  if (*N == 0)
    return llvm::Error::success();
  if (I.Bar >= K.Barriers.size())
    return fail("names no barrier");
  if (*N != 1)
    return fail(llvm::Twine(*N) + " threads initialize " +
                K.Barriers[I.Bar].Name + " at once");
  std::vector<Mbarrier> &Objects = cta(W).Barriers[I.Bar];
  for (std::size_t S = 0; S < Objects.size(); ++S)
    if (llvm::Error E = Objects[S].init(I.Count))
      return fail(K.Barriers[I.Bar].Name + "[" + llvm::Twine(S) +
                  "]: " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Error Run::onBarrier(
    Walker &W, std::int64_t Elected, std::int64_t Threads, BarrierId Bar,
    ExprId SlotExpr,
    llvm::function_ref<llvm::Error(Mbarrier &, std::int64_t)> Operation) {
  llvm::Expected<std::int64_t> N = share(W, Elected, Threads);
  if (!N)
    return N.takeError();
  std::int64_t Slot = 0;
  llvm::Expected<Mbarrier *> M = mbarrier(W, Bar, SlotExpr, Slot);
  if (!M)
    return M.takeError();
  if (*N == 0)
    return llvm::Error::success();
  if (llvm::Error E = Operation(**M, *N))
    return fail(K.Barriers[Bar].Name + "[" + llvm::Twine(Slot) +
                "]: " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Error Run::arriveExpectTx(Walker &W, const ext::ArriveExpectTx &I) {
  // Each thread expects its bytes, then arrives.
  return onBarrier(W, I.Elected, I.Threads, I.Bar, I.Slot,
                   [&](Mbarrier &M, std::int64_t N) -> llvm::Error {
                     for (std::int64_t T = 0; T < N; ++T) {
                       if (llvm::Error E = M.expectTx(I.Bytes))
                         return E;
                       if (llvm::Error E = M.arrive(1))
                         return E;
                     }
                     return llvm::Error::success();
                   });
}

llvm::Error Run::arrive(Walker &W, const ext::Arrive &I) {
  if (I.Cluster)
    return clusterArrive(W, I);
  return onBarrier(W, I.Elected, I.Threads, I.Bar, I.Slot,
                   [](Mbarrier &M, std::int64_t N) { return M.arrive(N); });
}

llvm::Error Run::clusterArrive(Walker &W, const ext::Arrive &I) {
  // The release of a slot that multicast loads fill in every CTA of the
  // cluster (Sm90.h): thread r of each warpgroup of the role arrives
  // (mbarrier.arrive.shared::cluster) on the object at the same offset in
  // the CTA of rank r, once its warpgroup's WGMMAs read the slot -- one
  // arrival per warpgroup on each CTA's object; Threads counts the role's
  // warpgroups. This walker is one warpgroup.
  const lower::RoleStmt &Role = *W.Role;
  if (!W.Warpgroups || I.Elected >= 0)
    return fail("a release in every CTA of the cluster is made by each "
                "warpgroup of its role; " +
                (I.Elected >= 0
                     ? "it elects thread " + std::to_string(I.Elected)
                     : std::string("the role is not made of whole "
                                   "warpgroups")));
  const std::int64_t Groups = (Role.End - Role.Begin) / WarpgroupThreads;
  if (I.Threads != Groups)
    return fail("it counts " + llvm::Twine(I.Threads) +
                " arrivals per CTA, but each of the role's " +
                llvm::Twine(Groups) + " warpgroups arrives once");
  if (K.ClusterCtas > WarpgroupThreads)
    return fail("clusters of " + llvm::Twine(K.ClusterCtas) +
                " CTAs: a warpgroup's threads do not reach every rank");
  std::int64_t Slot = 0;
  llvm::Expected<Mbarrier *> Own = mbarrier(W, I.Bar, I.Slot, Slot);
  if (!Own)
    return Own.takeError();
  // The peers are named in an error; the own CTA is the message's prefix.
  for (CtaState &C : Ctas)
    if (llvm::Error E =
            C.Barriers[I.Bar][static_cast<std::size_t>(Slot)].arrive(1))
      return fail((C.Rank == W.Cta ? std::string()
                                   : "CTA " + std::to_string(C.Index) + "'s ") +
                  K.Barriers[I.Bar].Name + "[" + llvm::Twine(Slot) +
                  "]: " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Error Run::namedBarrier(Walker &W, const ext::NamedBarrier &I) {
  NamedBarrierState &S = cta(W).Named[I.Id];
  if (W.AtNamedBarrier) {
    // Released: the barrier's generation moved on.
    W.AtNamedBarrier = false;
    ++W.Meets;
    return llvm::Error::success();
  }
  llvm::Expected<std::int64_t> N = share(W, -1, 0);
  if (!N)
    return N.takeError();
  if (*N == 0)
    return llvm::Error::success();
  if (I.Count <= 0)
    return fail("bar.sync " + llvm::Twine(I.Id) + " with count " +
                llvm::Twine(I.Count));
  if (S.Arrived > 0 && S.Count != I.Count)
    return fail("bar.sync " + llvm::Twine(I.Id) + " with count " +
                llvm::Twine(I.Count) + " while " + llvm::Twine(S.Arrived) +
                " threads wait on it with count " + llvm::Twine(S.Count));
  S.Count = I.Count;
  S.Arrived += *N;
  if (S.Arrived > S.Count)
    return fail("bar.sync " + llvm::Twine(I.Id) + ": " +
                llvm::Twine(S.Arrived) + " threads arrived for a count of " +
                llvm::Twine(S.Count));
  W.AtNamedBarrier = true;
  W.NamedGeneration = S.Generation;
  if (S.Arrived == S.Count) {
    ++S.Generation;
    S.Arrived = 0;
  }
  Stay = true;
  return llvm::Error::success();
}

} // namespace tf::interp::impl
