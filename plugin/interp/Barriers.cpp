//===- plugin/interp/Barriers.cpp - mbarriers, named barriers ---------------===//
//
// See Run.h: the sm90 hand-off -- mbarrier objects by array and slot,
// their initialisation and arrivals (a wait is `blocked` until its phase
// completes, Schedule.cpp) -- and bar.sync.
//
//===----------------------------------------------------------------------===//
#include "interp/Run.h"

namespace tf::interp::impl {

llvm::Expected<Mbarrier *> Run::mbarrier(const Walker &W, BarrierId Bar,
                                         ExprId SlotExpr, std::int64_t &Slot) {
  if (Bar >= K.Barriers.size())
    return fail("names no barrier");
  llvm::Expected<std::int64_t> S = eval(&W, SlotExpr);
  if (!S)
    return S.takeError();
  Slot = *S;
  const Barrier &B = K.Barriers[Bar];
  if (Slot < 0 || Slot >= B.Count)
    return fail("slot " + llvm::Twine(Slot) + " of " + B.Name + ", which has " +
                llvm::Twine(B.Count) + " object(s)");
  return &Barriers[Bar][static_cast<std::size_t>(Slot)];
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
  for (std::size_t S = 0; S < Barriers[I.Bar].size(); ++S)
    if (llvm::Error E = Barriers[I.Bar][S].init(I.Count))
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
  return onBarrier(W, I.Elected, I.Threads, I.Bar, I.Slot,
                   [](Mbarrier &M, std::int64_t N) { return M.arrive(N); });
}

llvm::Error Run::namedBarrier(Walker &W, const ext::NamedBarrier &I) {
  NamedBarrierState &S = Named[I.Id];
  if (W.AtNamedBarrier) {
    // Released: the barrier's generation moved on.
    W.AtNamedBarrier = false;
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
