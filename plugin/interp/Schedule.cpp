//===- plugin/interp/Schedule.cpp - Walkers and the scheduler -----------===//
//
// See Run.h. The scheduler runs the walkers of a cluster's CTAs
// (Cluster.cpp collects them) until every one finished and the cluster's
// TMA unit is idle. A walker's position is a stack of frames over the
// statement tree: the role's body, then one frame per loop being run.
// Structure never blocks and touches no shared state, so `current` runs it
// eagerly up to the next instruction; the scheduler asks whether that
// instruction would block and steps one agent -- a walker performs one
// instruction, the TMA unit one queued copy. The policies pick among every
// agent of the cluster, whichever CTA a walker is of.
//
//===----------------------------------------------------------------------===//
#include "interp/Run.h"

#include <algorithm>
#include <limits>
#include <optional>

namespace tf::interp::impl {

//===- The scheduler ------------------------------------------------------===//

llvm::Error Run::schedule() {
  // MaxStepsPerCta for each CTA of the cluster (saturating).
  constexpr std::uint64_t Most = std::numeric_limits<std::uint64_t>::max();
  const std::uint64_t CtaCount = Ctas.size();
  const std::uint64_t Limit = Opts.MaxStepsPerCta > Most / CtaCount
                                  ? Most
                                  : Opts.MaxStepsPerCta * CtaCount;
  llvm::SmallVector<std::size_t, 8> Runnable;
  while (true) {
    Runnable.clear();
    for (std::size_t I = 0; I < Walkers.size(); ++I) {
      Walker &W = Walkers[I];
      if (W.Done)
        continue;
      llvm::Expected<const Stmt *> Next = current(W);
      if (!Next)
        return at(W, nullptr, Next.takeError());
      if (!*Next)
        continue;
      llvm::Expected<bool> Blocked = blocked(W, **Next);
      if (!Blocked)
        return at(W, *Next, Blocked.takeError());
      if (!*Blocked)
        Runnable.push_back(I);
    }
    const bool TmaReady = !Tma.empty();
    if (Runnable.empty() && !TmaReady) {
      if (llvm::all_of(Walkers, [](const Walker &W) { return W.Done; }))
        return llvm::Error::success();
      return deadlock();
    }
    if (++Steps > Limit)
      return fail(clusterName() + ": more than " + llvm::Twine(Limit) +
                  " steps; a loop does not end");
    ++Stats.Steps;
    const std::size_t Pick = choose(Runnable, TmaReady);
    if (llvm::Error E =
            Pick == Walkers.size() ? stepTma() : step(Walkers[Pick]))
      return E;
  }
}

std::size_t Run::choose(llvm::ArrayRef<std::size_t> Runnable, bool TmaReady) {
  const std::size_t TmaAgent = Walkers.size();
  auto First = [&](auto &&Accept) -> std::optional<std::size_t> {
    for (std::size_t I : Runnable)
      if (Accept(Walkers[I]))
        return I;
    return std::nullopt;
  };
  auto Producer = [](const Walker &W) { return W.Producer; };
  auto Other = [](const Walker &W) { return !W.Producer; };
  switch (Opts.Policy) {
  case SchedulePolicy::ProducerFirst:
    if (auto P = First(Producer))
      return *P;
    if (TmaReady)
      return TmaAgent;
    return *First(Other);
  case SchedulePolicy::ConsumerFirst:
    if (auto C = First(Other))
      return *C;
    if (auto P = First(Producer))
      return *P;
    return TmaAgent;
  case SchedulePolicy::RoundRobin: {
    const std::size_t Agents = Walkers.size() + 1;
    for (std::size_t K = 0; K < Agents; ++K) {
      const std::size_t A = (RoundRobinNext + K) % Agents;
      if ((A == TmaAgent && TmaReady) || llvm::is_contained(Runnable, A)) {
        RoundRobinNext = (A + 1) % Agents;
        return A;
      }
    }
    break;
  }
  case SchedulePolicy::Random: {
    const std::size_t Choices = Runnable.size() + (TmaReady ? 1 : 0);
    const std::size_t C = static_cast<std::size_t>(Rng() % Choices);
    return C < Runnable.size() ? Runnable[C] : TmaAgent;
  }
  }
  return TmaReady ? TmaAgent : Runnable.front();
}

llvm::Error Run::deadlock() {
  std::string Message = clusterName() + ": deadlock:";
  for (Walker &W : Walkers) {
    if (W.Done || !W.Next)
      continue;
    Message +=
        "\n  " + ctaOfCluster(W.Cta) + W.Name + " " + waitsFor(W, *W.Next);
  }
  return fail(Message);
}

//===- Walkers ------------------------------------------------------------===//

llvm::Expected<const Stmt *> Run::current(Walker &W) {
  W.Next = nullptr;
  while (!W.Stack.empty()) {
    const std::size_t Top = W.Stack.size() - 1;
    if (W.Stack[Top].Pos == W.Stack[Top].Body->size()) {
      Frame &F = W.Stack[Top];
      if (F.Loop) {
        F.Var += F.Step;
        if (F.Var < F.Bound) {
          W.Scope.resize(F.ScopeMark);
          W.Scope.push_back({F.Name, F.Var});
          F.Pos = 0;
          if (F.Loop->is<lower::TileLoopStmt>()) {
            ++W.TileIterations;
            Stats.MaxTilesPerWalker =
                std::max(Stats.MaxTilesPerWalker, W.TileIterations);
          }
          continue;
        }
      }
      W.Scope.resize(F.ScopeMark);
      W.Stack.pop_back();
      if (!W.Stack.empty())
        ++W.Stack.back().Pos;
      continue;
    }
    const Stmt &S = K.Insts[(*W.Stack[Top].Body)[W.Stack[Top].Pos]];
    if (const auto *L = S.getIf<lower::LetStmt>()) {
      llvm::Expected<std::int64_t> V = eval(W, L->Value);
      if (!V)
        return lower::problemAt(S.Range, "let " + L->Var + ": " +
                                             llvm::toString(V.takeError()));
      W.Scope.push_back({L->Var, *V});
      ++W.Stack[Top].Pos;
      continue;
    }
    const auto *Tiles = S.getIf<lower::TileLoopStmt>();
    const auto *KLoop = S.getIf<lower::KLoopStmt>();
    if (Tiles || KLoop) {
      llvm::Expected<std::int64_t> Start =
          eval(W, Tiles ? Tiles->Start : KLoop->Start);
      llvm::Expected<std::int64_t> Bound =
          eval(W, Tiles ? Tiles->Bound : KLoop->Bound);
      llvm::Expected<std::int64_t> Step =
          Tiles ? eval(W, Tiles->Stride)
                : llvm::Expected<std::int64_t>(KLoop->Step);
      for (llvm::Expected<std::int64_t> *V : {&Start, &Bound, &Step})
        if (!*V) {
          llvm::consumeError(Start.takeError());
          llvm::consumeError(Bound.takeError());
          llvm::consumeError(Step.takeError());
          return lower::problemAt(S.Range,
                                  "the loop's range does not evaluate");
        }
      if (*Step <= 0)
        return lower::problemAt(S.Range, "a loop with step " +
                                             llvm::Twine(*Step) +
                                             " does not end");
      const std::string Name = Tiles ? "task" : KLoop->Var;
      if (Name.empty())
        return lower::problemAt(S.Range, "a loop without a variable");
      if (*Start >= *Bound) {
        ++W.Stack[Top].Pos;
        continue;
      }
      Frame F;
      F.Body = &S.Body;
      F.ScopeMark = W.Scope.size();
      F.Loop = &S;
      F.Name = Name;
      F.Var = *Start;
      F.Bound = *Bound;
      F.Step = *Step;
      W.Scope.push_back({Name, F.Var});
      W.Stack.push_back(F);
      if (Tiles) {
        ++W.TileIterations;
        Stats.MaxTilesPerWalker =
            std::max(Stats.MaxTilesPerWalker, W.TileIterations);
      }
      continue;
    }
    if (S.is<lower::RoleStmt>())
      return lower::problemAt(S.Range, "a role inside a role is not modeled");
    W.Next = &S;
    return &S;
  }
  if (llvm::Error E = finish(W))
    return E;
  W.Done = true;
  return nullptr;
}

llvm::Error Run::finish(Walker &W) {
  // WGMMAs still in flight when the role ends read shared memory then.
  if (!W.Uncommitted.empty())
    W.InFlight.push_back(std::move(W.Uncommitted));
  W.Uncommitted.clear();
  while (!W.InFlight.empty()) {
    for (const PendingWgmma &P : W.InFlight.front())
      if (llvm::Error E = performWgmma(W, P))
        return at(W, &K.Insts[P.Id], std::move(E));
    W.InFlight.pop_front();
  }
  return llvm::Error::success();
}

llvm::Expected<bool> Run::blocked(Walker &W, const Stmt &S) {
  if (const auto *X = as<ext::Wait>(S)) {
    std::int64_t Slot = 0;
    llvm::Expected<Mbarrier *> M = mbarrier(W, X->Bar, X->Slot, Slot);
    if (!M)
      return M.takeError();
    if (!(*M)->initialized())
      return fail("waits on " + K.Barriers[X->Bar].Name + "[" +
                  llvm::Twine(Slot) + "], which was never initialized");
    llvm::Expected<std::int64_t> Parity = eval(W, X->Phase);
    if (!Parity)
      return Parity.takeError();
    return !(*M)->parityCompleted(*Parity);
  }
  if (const auto *X = as<ext::NamedBarrier>(S))
    return W.AtNamedBarrier &&
           cta(W).Named[X->Id].Generation == W.NamedGeneration;
  if (as<ext::BulkWaitRead>(S)) {
    // wait_group.read 0: every committed group has read shared memory.
    for (const std::vector<std::uint64_t> &Group : W.StoreGroups)
      for (std::uint64_t Id : Group)
        if (PendingStores.count(Id))
          return true;
    return false;
  }
  return false;
}

std::string Run::waitsFor(Walker &W, const Stmt &S) {
  std::string Where;
  if (!S.Range.File.empty())
    Where = S.Range.File + ":" + std::to_string(S.Range.Line) + ":" +
            std::to_string(S.Range.Column) + " ";
  if (const auto *X = as<ext::Wait>(S)) {
    std::int64_t Slot = 0;
    llvm::Expected<Mbarrier *> M = mbarrier(W, X->Bar, X->Slot, Slot);
    llvm::Expected<std::int64_t> Parity = eval(W, X->Phase);
    if (!M || !Parity) {
      llvm::consumeError(M.takeError());
      llvm::consumeError(Parity.takeError());
      return "waits at " + Where + "on " + K.Barriers[X->Bar].Name;
    }
    return "waits at " + Where + "mbarrier.try_wait.parity " +
           K.Barriers[X->Bar].Name + "[" + std::to_string(Slot) +
           "] for the phase of parity " + std::to_string(*Parity) +
           " (the barrier: " + (*M)->describe() + ")";
  }
  if (const auto *X = as<ext::NamedBarrier>(S)) {
    const NamedBarrierState &St = cta(W).Named[X->Id];
    return "waits at " + Where + "bar.sync " + std::to_string(X->Id) + " (" +
           std::to_string(St.Arrived) + " of " + std::to_string(St.Count) +
           " threads arrived)";
  }
  return "waits at " + Where + stmtName(S);
}

llvm::Error Run::step(Walker &W) {
  const Stmt &S = *W.Next;
  Stay = false;
  if (llvm::Error E = execute(W, S))
    return at(W, &S, std::move(E));
  if (!Stay)
    ++W.Stack.back().Pos;
  return llvm::Error::success();
}

llvm::Error Run::stepTma() {
  // The oldest copy; consumer-first holds stores back behind every load (a
  // store then reads its buffer as late as possible); random picks any.
  std::size_t Pick = 0;
  if (Opts.Policy == SchedulePolicy::Random)
    Pick = static_cast<std::size_t>(Rng() % Tma.size());
  else if (Opts.Policy == SchedulePolicy::ConsumerFirst)
    for (std::size_t I = 0; I < Tma.size(); ++I)
      if (!Tma[I].Store) {
        Pick = I;
        break;
      }
  TmaOp Op = std::move(Tma[Pick]);
  Tma.erase(Tma.begin() + static_cast<std::ptrdiff_t>(Pick));
  if (llvm::Error E = performTma(Op))
    return lower::problemAt(
        Op.I->Range, "CTA " + std::to_string(Ctas[Op.Cta].Index) +
                         ", the TMA unit (" + stmtName(*Op.I) + " issued by " +
                         Op.Walker + "): " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Error Run::at(const CtaState &C, const Walker *W, const Stmt *I,
                    llvm::Error E) const {
  if (!E)
    return E;
  std::string Prefix = "CTA " + std::to_string(C.Index);
  if (W)
    Prefix += ", " + W->Name;
  Prefix += ": ";
  if (I)
    Prefix += stmtName(*I) + ": ";
  std::string Message = llvm::toString(std::move(E));
  if (I)
    return lower::problemAt(I->Range, Prefix + Message);
  return fail(Prefix + Message);
}

llvm::Expected<std::int64_t> Run::share(const Walker &W, std::int64_t Elected,
                                        std::int64_t Threads) {
  // Inside a role every thread performs an instruction (the backend emits
  // it in the role's branch), unless one thread is elected; Threads, when
  // set, must say so.
  const lower::RoleStmt &Role = *W.Role;
  const std::int64_t RoleThreads = Role.End - Role.Begin;
  if (Elected >= 0) {
    if (Elected < Role.Begin || Elected >= Role.End)
      return fail("elects thread " + llvm::Twine(Elected) +
                  ", which is not in the role's threads [" +
                  llvm::Twine(Role.Begin) + ", " + llvm::Twine(Role.End) + ")");
    if (Threads > 1)
      return fail("one elected thread performs it, but it counts " +
                  llvm::Twine(Threads) + " threads");
    return Elected >= W.Begin && Elected < W.End ? 1 : 0;
  }
  if (Threads != 0 && Threads != RoleThreads)
    return fail("it counts " + llvm::Twine(Threads) +
                " threads, but without an elected thread all " +
                llvm::Twine(RoleThreads) + " threads of the role perform it");
  return W.threads();
}

} // namespace tf::interp::impl
