//===- plugin/interp/Interpreter.cpp - Running the LIR on the CPU ---------===//
//
// See Interpreter.h. One Run interprets a kernel on its arguments: CTA by
// CTA, the kernel-level statements in order (lets; roles, collected as
// walkers; fence.mbarrier_init, a CTA-wide barrier that runs the walkers
// collected so far to completion), then the scheduler until every walker
// finished and the TMA unit is idle.
//
// A walker's position is a stack of frames over the instruction tree: the
// role's body, then one frame per loop being run. Structure (lets, loop
// entry, iteration and exit) never blocks and touches no shared state, so
// `current` runs it eagerly up to the next instruction; the scheduler asks
// whether that instruction would block and steps one agent -- a walker
// performs one instruction, the TMA unit one queued copy.
//
// Instruction kinds have one function each (the switch in `execute`); a kind
// without one is an error naming it, so new kinds slot in there.
//
//===----------------------------------------------------------------------===//
#include "interp/Interpreter.h"

#include "tf/layout/shard_layout.hpp"
#include "tf/layout/text/parse.hpp"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <tuple>

namespace tf::interp {

using lower::Barrier;
using lower::BarrierId;
using lower::Expr;
using lower::ExprId;
using lower::ExprKind;
using lower::as;
using lower::AtomCallStmt;
using lower::InstId;
using lower::Kernel;
using lower::OperandView;
using lower::Stmt;
using lower::Region;
using lower::RegionId;
using lower::RegionKind;
namespace ext = lower::sm90;

llvm::StringRef policyName(SchedulePolicy P) {
  switch (P) {
  case SchedulePolicy::ProducerFirst:
    return "producer-first";
  case SchedulePolicy::ConsumerFirst:
    return "consumer-first";
  case SchedulePolicy::RoundRobin:
    return "round-robin";
  case SchedulePolicy::Random:
    return "random";
  }
  return "?";
}

namespace {

llvm::Error fail(const llvm::Twine &Message) {
  return llvm::createStringError(Message);
}

/// Statement \p S's name in messages: its instruction's PTX name.
std::string stmtName(const Stmt &S) {
  if (const auto *T = as<ext::Tma>(S))
    return T->Store ? "cp.async.bulk.tensor.store"
                    : "cp.async.bulk.tensor.load";
  if (const auto *I = as<ext::Inst>(S))
    return ext::kindName(I->sm90Kind());
  switch (S.kind()) {
  case lower::StmtKind::Role:
    return "scope";
  case lower::StmtKind::TileLoop:
  case lower::StmtKind::KLoop:
    return "for";
  case lower::StmtKind::Let:
    return "let";
  case lower::StmtKind::ZeroFragment:
    return "zero";
  case lower::StmtKind::StoreFragment:
    return "st.shared";
  case lower::StmtKind::AtomCall:
    return "call " + S.get<AtomCallStmt>().Contract;
  case lower::StmtKind::Extension:
    break;
  }
  return "an extension statement";
}

/// The accumulator operand (C) of WGMMA atom call \p S.
const OperandView &accumulatorOf(const Stmt &S) {
  return *S.get<AtomCallStmt>().operand("C");
}

/// Threads of a warpgroup, the unit WGMMA and its fragments are defined on.
constexpr std::int64_t WarpgroupThreads = 128;

//===- Meshes and shards from their text ----------------------------------===//

/// The mesh printed as `Mesh(level, LAYOUT + OFFSET, name, ...)`
/// (tf/layout/mesh_text.hpp), which the LIR keeps as text.
llvm::Expected<Mesh> parseMeshText(llvm::StringRef Text) {
  llvm::StringRef Inner = Text.trim();
  if (!Inner.consume_front("Mesh(") || !Inner.consume_back(")"))
    return fail("'" + Text + "' is not a Mesh(level, layout, names...)");
  llvm::SmallVector<llvm::StringRef, 8> Parts;
  int Depth = 0;
  std::size_t Start = 0;
  for (std::size_t I = 0; I < Inner.size(); ++I) {
    if (Inner[I] == '(')
      ++Depth;
    else if (Inner[I] == ')')
      --Depth;
    else if (Inner[I] == ',' && Depth == 0) {
      Parts.push_back(Inner.slice(Start, I).trim());
      Start = I + 1;
    }
  }
  Parts.push_back(Inner.drop_front(Start).trim());
  if (Parts.size() < 2)
    return fail("'" + Text + "' names no layout");
  Result<LayoutText> L =
      parse_layout_text(std::string_view(Parts[1].data(), Parts[1].size()));
  if (!L || L->has_axes || L->has_swizzle)
    return fail("the layout of '" + Text + "' does not parse as a mesh's");
  Mesh M;
  M.level = Name(std::string_view(Parts[0].data(), Parts[0].size()));
  M.layout = L->layout;
  M.offset = L->has_offset ? L->offset : Int(0);
  for (std::size_t I = 2; I < Parts.size(); ++I)
    M.axes.push_back(Name(std::string_view(Parts[I].data(), Parts[I].size())));
  if (!M.axes.empty() && static_cast<int>(M.axes.size()) != M.rank())
    return fail("'" + Text + "' names " + llvm::Twine(M.axes.size()) +
                " axes for " + llvm::Twine(M.rank()) + " modes");
  return M;
}

/// The accumulator's shard as the LIR prints it: `LAYOUT over MESH`.
llvm::Expected<ShardLayout> parseShardText(llvm::StringRef Text) {
  auto [LayoutPart, MeshPart] = Text.split(" over ");
  if (MeshPart.empty())
    return fail("shard '" + Text + "' is not 'LAYOUT over Mesh(...)'");
  Result<LayoutText> L =
      parse_layout_text(std::string_view(LayoutPart.data(), LayoutPart.size()));
  if (!L || !L->has_axes)
    return fail("shard layout '" + LayoutPart + "' does not parse");
  llvm::Expected<Mesh> M = parseMeshText(MeshPart);
  if (!M)
    return M.takeError();
  Result<ShardLayout> S = make_shard(L->layout, L->axes, *M);
  if (!S)
    return fail("shard '" + Text + "': " + S.error().message());
  return *S;
}

//===- The run's state ----------------------------------------------------===//

/// One level of a walker's position: a body and, for a loop, its variable.
struct Frame {
  const std::vector<InstId> *Body = nullptr;
  std::size_t Pos = 0;
  /// The walker's scope size when the frame began (its lets end with it).
  std::size_t ScopeMark = 0;
  /// A loop's statement and variable.
  const Stmt *Loop = nullptr;
  std::string Name;
  std::int64_t Var = 0, Bound = 0, Step = 0;
};

/// A WGMMA issued and not yet performed, with its slots as evaluated at
/// issue.
struct PendingWgmma {
  InstId Id = lower::None;
  std::int64_t SlotA = 0, SlotB = 0;
};

/// The threads of a role (or one warpgroup of it) running its body.
struct Walker {
  std::string Name;
  const lower::RoleStmt *Role = nullptr;
  std::int64_t Begin = 0, End = 0;
  /// The warpgroup of the role this walker is (0 for a role of one walker).
  std::int64_t Group = 0;
  /// Whether the role is split into warpgroups (it may issue WGMMA).
  bool Warpgroups = false;
  bool Producer = false;
  bool Done = false;
  /// The next instruction, once `current` found it.
  const Stmt *Next = nullptr;
  std::vector<Frame> Stack;
  std::vector<std::pair<std::string, std::int64_t>> Scope;
  /// bar.sync: arrived, waiting for the generation after NamedGeneration.
  bool AtNamedBarrier = false;
  std::int64_t NamedGeneration = 0;
  /// wgmma.fence since the accumulator's registers were last accessed.
  bool Fenced = false;
  std::vector<PendingWgmma> Uncommitted;
  std::deque<std::vector<PendingWgmma>> InFlight;
  /// Bulk stores: not yet committed, and committed groups.
  std::vector<std::uint64_t> UncommittedStores;
  std::deque<std::vector<std::uint64_t>> StoreGroups;
  std::int64_t TileIterations = 0;

  std::int64_t threads() const { return End - Begin; }
};

/// A TMA copy issued and not yet performed.
struct TmaOp {
  std::uint64_t Id = 0;
  bool Store = false;
  const Stmt *I = nullptr;
  /// The box's tensor map; loads: the barrier completing the bytes.
  unsigned Map = lower::None;
  BarrierId Bar = lower::None;
  /// The shared-memory byte address of the box.
  std::int64_t Smem = 0;
  llvm::SmallVector<std::int64_t, 5> Coords;
  /// Loads: the barrier object completing the transaction bytes.
  std::int64_t Slot = 0;
  std::string Walker;
};

struct NamedBarrierState {
  std::int64_t Count = 0, Arrived = 0, Generation = 0;
};

/// What the WGMMAs computing an accumulator say about it.
struct AccInfo {
  lower::MmaAtom Op;
  std::int64_t Blocks = 0;
};

/// Where StoreFragment puts the accumulator tile: per element (m, n) of the
/// (64 * groups) x N tile, the swizzled byte offset in the view.
struct StorePlan {
  std::int64_t N = 0, Groups = 0;
  std::vector<std::int64_t> Offset;
};

class Run {
public:
  Run(const Kernel &K, llvm::ArrayRef<TensorArg> Args,
      const InterpOptions &Opts, InterpStats &Stats)
      : K(K), Args(Args), Opts(Opts), Stats(Stats) {}

  llvm::Error run();

private:
  // Set-up.
  llvm::Error checkArguments();
  llvm::Error scanKernel();
  bool issuesLoads(const std::vector<InstId> &Body) const;

  // One CTA.
  llvm::Error runCta(std::int64_t Index);
  void addWalkers(const Stmt &Role);
  llvm::Error schedule();
  std::size_t choose(llvm::ArrayRef<std::size_t> Runnable, bool TmaReady);
  llvm::Error deadlock();
  llvm::Error checkPhasesAtExit();

  // Walkers.
  llvm::Expected<const Stmt *> current(Walker &W);
  llvm::Expected<bool> blocked(Walker &W, const Stmt &S);
  std::string waitsFor(Walker &W, const Stmt &S);
  llvm::Error step(Walker &W);
  llvm::Error stepTma();
  llvm::Error finish(Walker &W);

  // Expressions and operands.
  llvm::Expected<std::int64_t> eval(const Walker *W, ExprId E);
  /// The threads of \p W that perform an instruction of \p Threads
  /// threads issued by thread \p Elected (-1: every thread of the role).
  llvm::Expected<std::int64_t> share(const Walker &W, std::int64_t Elected,
                                     std::int64_t Threads);
  llvm::Expected<Mbarrier *> mbarrier(const Walker &W, BarrierId Bar,
                                      ExprId SlotExpr, std::int64_t &Slot);
  llvm::Expected<const Region *> stage(hir::ValueId Ring, std::int64_t Slot);
  llvm::Expected<const Region *> view(const Walker &W, const OperandView &V,
                                      std::int64_t &Slot);
  const TensorArg &argumentOf(unsigned Map) const {
    return Args[MapArgument[Map]];
  }
  llvm::Error at(const Walker *W, const Stmt *S, llvm::Error E) const;

  // Statements, one function per kind.
  llvm::Error execute(Walker &W, const Stmt &S);
  llvm::Error executeExtension(Walker &W, const Stmt &S, const ext::Inst &I);
  llvm::Error barrierInit(Walker &W, const ext::BarrierInit &I);
  llvm::Error arriveExpectTx(Walker &W, const ext::ArriveExpectTx &I);
  llvm::Error arrive(Walker &W, const ext::Arrive &I);
  llvm::Error tmaLoad(Walker &W, const Stmt &S, const ext::Tma &T);
  llvm::Error tmaStore(Walker &W, const Stmt &S, const ext::Tma &T);
  llvm::Error bulkCommit(Walker &W);
  llvm::Error bulkWaitRead(Walker &W);
  llvm::Error zeroAcc(Walker &W, const lower::ZeroFragmentStmt &I);
  llvm::Error wgmmaFence(Walker &W);
  llvm::Error wgmma(Walker &W, const Stmt &S, const ext::Wgmma &I);
  llvm::Error wgmmaCommit(Walker &W);
  llvm::Error wgmmaWait(Walker &W, const ext::WgmmaWait &I);
  llvm::Error storeFragment(Walker &W, const Stmt &S);
  llvm::Error namedBarrier(Walker &W, const ext::NamedBarrier &I);

  // What the instructions share.
  llvm::Error performWgmma(Walker &W, const PendingWgmma &P);
  llvm::Error performTma(const TmaOp &Op);
  bool accumulatorInFlight(const Walker &W, hir::ValueId Acc) const;
  llvm::Expected<const StorePlan *> storePlan(const Stmt &S, const Walker &W);

  const Kernel &K;
  llvm::ArrayRef<TensorArg> Args;
  const InterpOptions &Opts;
  InterpStats &Stats;

  // Per kernel.
  std::vector<unsigned> MapArgument;
  std::map<hir::ValueId, std::vector<RegionId>> RingStages;
  std::map<hir::ValueId, AccInfo> Accs;
  std::map<const Stmt *, bool> Producers;
  std::map<const Stmt *, StorePlan> Plans;

  // Per CTA.
  std::int64_t Cta = -1;
  std::vector<std::pair<std::string, std::int64_t>> CtaScope;
  std::vector<std::uint8_t> Smem;
  std::vector<std::vector<Mbarrier>> Barriers;
  std::map<std::int64_t, NamedBarrierState> Named;
  std::map<std::tuple<hir::ValueId, std::int64_t, std::int64_t>,
           std::vector<float>>
      AccRegs;
  std::vector<Walker> Walkers;
  std::deque<TmaOp> Tma;
  std::set<std::uint64_t> PendingStores;
  std::uint64_t NextOp = 0;
  std::uint64_t Steps = 0;
  std::size_t RoundRobinNext = 0;
  std::mt19937_64 Rng;
  /// Set by an instruction that stays where it is (a bar.sync arrival).
  bool Stay = false;
  // Scratch operands of one WGMMA.
  std::vector<float> OperandA, OperandB;
};

//===- Set-up -------------------------------------------------------------===//

llvm::Error Run::checkArguments() {
  if (Args.size() != K.Parameters.size())
    return fail("kernel " + K.Name + " has " +
                llvm::Twine(K.Parameters.size()) + " parameters; " +
                llvm::Twine(Args.size()) + " arguments given");
  for (std::size_t I = 0; I < Args.size(); ++I) {
    const std::string &Name = K.Parameters[I].Name;
    const DType Type = K.Parameters[I].Element;
    if (!Args[I].Name.empty() && Args[I].Name != Name)
      return fail("argument " + llvm::Twine(I) + " is named '" + Args[I].Name +
                  "'; parameter " + llvm::Twine(I) + " of " + K.Name + " is '" +
                  Name + "'");
    if (K.Parameters[I].What == lower::Parameter::Kind::Integer)
      continue; // its value is Args[I].Integer
    if (Args[I].Element != Type)
      return fail("argument '" + Name + "' holds " +
                  std::string(name(Args[I].Element)) + "; the parameter is " +
                  std::string(name(Type)));
    if (!Args[I].Data)
      return fail("argument '" + Name + "' has no data");
    if (Args[I].Extents.size() != Args[I].Strides.size())
      return fail("argument '" + Name + "' has " +
                  llvm::Twine(Args[I].Extents.size()) + " extents and " +
                  llvm::Twine(Args[I].Strides.size()) + " strides");
  }
  for (const lower::TensorMap &M : K.Maps) {
    auto It = llvm::find_if(K.Parameters, [&](const lower::Parameter &P) {
      return P.Name == M.Tensor;
    });
    if (It == K.Parameters.end())
      return fail("tensor map of '" + M.Tensor + "', which is no parameter");
    MapArgument.push_back(static_cast<unsigned>(It - K.Parameters.begin()));
    if (llvm::Error E =
            checkTensorMap(M, Args[MapArgument.back()], Opts.StrictTensorMaps))
      return E;
  }
  return llvm::Error::success();
}

bool Run::issuesLoads(const std::vector<InstId> &Body) const {
  for (InstId Id : Body) {
    const Stmt &S = K.Insts[Id];
    const auto *T = as<ext::Tma>(S);
    if ((T && !T->Store) || issuesLoads(S.Body))
      return true;
  }
  return false;
}

llvm::Error Run::scanKernel() {
  for (RegionId R = 0; R < K.Regions.size(); ++R) {
    const Region &X = K.Regions[R];
    if (X.Kind != RegionKind::RingStage)
      continue;
    std::vector<RegionId> &Stages = RingStages[X.Value];
    if (Stages.size() <= static_cast<std::size_t>(X.Stage))
      Stages.resize(X.Stage + 1, lower::None);
    Stages[X.Stage] = R;
  }
  for (const Stmt &S : K.Insts) {
    if (S.is<lower::RoleStmt>())
      Producers[&S] = issuesLoads(S.Body);
    const auto *W = as<ext::Wgmma>(S);
    if (!W)
      continue;
    if (llvm::Error E = checkWgmmaAtom(W->Atom))
      return lower::problemAt(S.Range, llvm::toString(std::move(E)));
    const lower::MmaAtom *Op = &W->Atom;
    const OperandView &C = accumulatorOf(S);
    AccInfo &A = Accs[C.Fragment];
    if (A.Blocks && (A.Op.N != Op->N || A.Op.M != Op->M))
      return lower::problemAt(S.Range,
                              "the WGMMAs of one accumulator differ in shape");
    A.Op = *Op;
    A.Blocks = std::max(A.Blocks, C.Block + 1);
  }
  return llvm::Error::success();
}

llvm::Error Run::run() {
  if (K.Grid == lower::None)
    return fail("kernel " + K.Name + " has no grid");
  // The model swizzles offsets from the shared memory's base as the
  // hardware swizzles addresses: the base must be aligned as every region.
  for (const Region &R : K.Regions)
    if (R.Align > K.SharedAlign)
      return fail("kernel " + K.Name + ": " + R.Name + " needs " +
                  llvm::Twine(R.Align) +
                  "-byte alignment; the shared "
                  "memory's base is aligned to " +
                  llvm::Twine(K.SharedAlign));
  if (llvm::Error E = checkArguments())
    return E;
  if (llvm::Error E = scanKernel())
    return E;

  // The grid: the kernel-level lets it may use (tile counts), without a CTA.
  std::int64_t Grid = 0;
  {
    Cta = -1;
    CtaScope.clear();
    for (InstId Id : K.Body) {
      const auto *L = K.Insts[Id].getIf<lower::LetStmt>();
      if (!L)
        continue;
      llvm::Expected<std::int64_t> V = eval(nullptr, L->Value);
      if (!V) {
        llvm::consumeError(V.takeError());
        break;
      }
      CtaScope.push_back({L->Var, *V});
    }
    llvm::Expected<std::int64_t> G = eval(nullptr, K.Grid);
    if (!G)
      return fail("the grid of " + K.Name + ": " +
                  llvm::toString(G.takeError()));
    Grid = *G;
  }
  for (std::int64_t C = 0; C < Grid; ++C)
    if (llvm::Error E = runCta(C))
      return E;
  return llvm::Error::success();
}

//===- One CTA ------------------------------------------------------------===//

llvm::Error Run::runCta(std::int64_t Index) {
  Cta = Index;
  ++Stats.Ctas;
  CtaScope.clear();
  Smem.assign(static_cast<std::size_t>(K.SharedBytes), Opts.SharedPoison);
  Barriers.assign(K.Barriers.size(), {});
  for (std::size_t B = 0; B < K.Barriers.size(); ++B)
    Barriers[B].assign(static_cast<std::size_t>(K.Barriers[B].Count), {});
  Named.clear();
  AccRegs.clear();
  Walkers.clear();
  Tma.clear();
  PendingStores.clear();
  Steps = 0;
  RoundRobinNext = 0;
  Rng.seed(Opts.Seed * 0x9E3779B97F4A7C15ull +
           static_cast<std::uint64_t>(Index));

  for (InstId Id : K.Body) {
    const Stmt &S = K.Insts[Id];
    if (const auto *L = S.getIf<lower::LetStmt>()) {
      llvm::Expected<std::int64_t> V = eval(nullptr, L->Value);
      if (!V)
        return at(nullptr, &S, V.takeError());
      CtaScope.push_back({L->Var, *V});
    } else if (S.is<lower::RoleStmt>()) {
      addWalkers(S);
    } else if (as<ext::FenceBarrierInit>(S)) {
      // fence.mbarrier_init, then a barrier of the whole CTA: everything
      // before it has run.
      if (llvm::Error E = schedule())
        return E;
      Walkers.clear();
    } else {
      return at(nullptr, &S,
                fail("at kernel level (outside every role) is not modeled"));
    }
  }
  if (llvm::Error E = schedule())
    return E;
  return checkPhasesAtExit();
}

void Run::addWalkers(const Stmt &RoleStmt) {
  const lower::RoleStmt &Role = RoleStmt.get<lower::RoleStmt>();
  const std::int64_t Threads = Role.End - Role.Begin;
  const bool Split = Threads > 0 && Threads % WarpgroupThreads == 0 &&
                     Role.Begin % WarpgroupThreads == 0;
  const std::int64_t Count = Split ? Threads / WarpgroupThreads : 1;
  for (std::int64_t G = 0; G < Count; ++G) {
    Walker W;
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

llvm::Error Run::schedule() {
  llvm::SmallVector<std::size_t, 8> Runnable;
  while (true) {
    Runnable.clear();
    for (std::size_t I = 0; I < Walkers.size(); ++I) {
      Walker &W = Walkers[I];
      if (W.Done)
        continue;
      llvm::Expected<const Stmt *> Next = current(W);
      if (!Next)
        return at(&W, nullptr, Next.takeError());
      if (!*Next)
        continue;
      llvm::Expected<bool> Blocked = blocked(W, **Next);
      if (!Blocked)
        return at(&W, *Next, Blocked.takeError());
      if (!*Blocked)
        Runnable.push_back(I);
    }
    const bool TmaReady = !Tma.empty();
    if (Runnable.empty() && !TmaReady) {
      if (llvm::all_of(Walkers, [](const Walker &W) { return W.Done; }))
        return llvm::Error::success();
      return deadlock();
    }
    if (++Steps > Opts.MaxStepsPerCta)
      return fail("CTA " + llvm::Twine(Cta) + ": more than " +
                  llvm::Twine(Opts.MaxStepsPerCta) +
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
  std::string Message = "CTA " + std::to_string(Cta) + ": deadlock:";
  for (Walker &W : Walkers) {
    if (W.Done || !W.Next)
      continue;
    Message += "\n  " + W.Name + " " + waitsFor(W, *W.Next);
  }
  return fail(Message);
}

llvm::Error Run::checkPhasesAtExit() {
  for (std::size_t B = 0; B < Barriers.size(); ++B)
    for (std::size_t S = 0; S < Barriers[B].size(); ++S) {
      const Mbarrier &M = Barriers[B][S];
      if (M.initialized() &&
          (M.pendingArrivals() != M.expectedArrivals() || M.pendingTx() != 0))
        return fail("CTA " + llvm::Twine(Cta) + ": the CTA ends with " +
                    K.Barriers[B].Name + "[" + llvm::Twine(S) +
                    "] in the middle of a phase: " + M.describe());
    }
  return llvm::Error::success();
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
      llvm::Expected<std::int64_t> V = eval(&W, L->Value);
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
          eval(&W, Tiles ? Tiles->Start : KLoop->Start);
      llvm::Expected<std::int64_t> Bound =
          eval(&W, Tiles ? Tiles->Bound : KLoop->Bound);
      llvm::Expected<std::int64_t> Step =
          Tiles ? eval(&W, Tiles->Stride)
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
        return at(&W, &K.Insts[P.Id], std::move(E));
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
    llvm::Expected<std::int64_t> Parity = eval(&W, X->Phase);
    if (!Parity)
      return Parity.takeError();
    return !(*M)->parityCompleted(*Parity);
  }
  if (const auto *X = as<ext::NamedBarrier>(S))
    return W.AtNamedBarrier && Named[X->Id].Generation == W.NamedGeneration;
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
    llvm::Expected<std::int64_t> Parity = eval(&W, X->Phase);
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
    const NamedBarrierState &St = Named[X->Id];
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
    return at(&W, &S, std::move(E));
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
        Op.I->Range, "CTA " + std::to_string(Cta) + ", the TMA unit (" +
                         stmtName(*Op.I) + " issued by " +
                         Op.Walker + "): " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Error Run::at(const Walker *W, const Stmt *I, llvm::Error E) const {
  if (!E)
    return E;
  std::string Prefix = "CTA " + std::to_string(Cta);
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

//===- Expressions and operands -------------------------------------------===//

llvm::Expected<std::int64_t> Run::eval(const Walker *W, ExprId Id) {
  if (Id == lower::None || Id >= K.Exprs.size())
    return fail("a missing expression");
  const Expr &X = K.Exprs[Id];
  switch (X.Kind) {
  case ExprKind::Constant:
    return X.Value;
  case ExprKind::Var: {
    if (W)
      for (auto It = W->Scope.rbegin(); It != W->Scope.rend(); ++It)
        if (It->first == X.Name)
          return It->second;
    for (auto It = CtaScope.rbegin(); It != CtaScope.rend(); ++It)
      if (It->first == X.Name)
        return It->second;
    if (X.Name == "cta.x" && Cta >= 0)
      return Cta;
    for (std::size_t P = 0; P < K.Parameters.size(); ++P)
      if (K.Parameters[P].What == lower::Parameter::Kind::Integer &&
          K.Parameters[P].Name == X.Name)
        return Args[P].Integer;
    return fail("'" + X.Name + "' is not defined here");
  }
  case ExprKind::Extent: {
    auto It = llvm::find_if(K.Parameters, [&](const lower::Parameter &P) {
      return P.Name == X.Name;
    });
    if (It == K.Parameters.end())
      return fail("the extent of '" + X.Name + "', which is no parameter");
    const TensorArg &A =
        Args[static_cast<std::size_t>(It - K.Parameters.begin())];
    if (X.Dim >= A.Extents.size())
      return fail("extent " + llvm::Twine(X.Dim) + " of '" + X.Name +
                  "', which has " + llvm::Twine(A.Extents.size()));
    return A.Extents[X.Dim];
  }
  default:
    break;
  }
  llvm::Expected<std::int64_t> L = eval(W, X.Lhs);
  if (!L)
    return L.takeError();
  llvm::Expected<std::int64_t> R = eval(W, X.Rhs);
  if (!R)
    return R.takeError();
  const std::int64_t A = *L, B = *R;
  auto NonNegative = [&](const char *Op) -> llvm::Error {
    if (A < 0 || B <= 0)
      return fail(llvm::Twine(A) + " " + Op + " " + llvm::Twine(B) +
                  ": the LIR divides non-negative values by positive ones");
    return llvm::Error::success();
  };
  switch (X.Kind) {
  case ExprKind::Add:
    return A + B;
  case ExprKind::Sub:
    return A - B;
  case ExprKind::Mul:
    return A * B;
  case ExprKind::Div:
    if (llvm::Error E = NonNegative("/"))
      return E;
    return A / B;
  case ExprKind::CeilDiv:
    if (llvm::Error E = NonNegative("ceil_div"))
      return E;
    return (A + B - 1) / B;
  case ExprKind::Mod:
    if (llvm::Error E = NonNegative("%"))
      return E;
    return A % B;
  case ExprKind::Min:
    return std::min(A, B);
  case ExprKind::Max:
    return std::max(A, B);
  case ExprKind::Xor:
    return A ^ B;
  case ExprKind::And:
    return A & B;
  default:
    break;
  }
  return fail("an expression of an unknown kind");
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

llvm::Expected<const Region *> Run::stage(hir::ValueId Ring,
                                          std::int64_t Slot) {
  auto It = RingStages.find(Ring);
  if (It == RingStages.end())
    return fail("names a ring without stages");
  if (Slot < 0 || Slot >= static_cast<std::int64_t>(It->second.size()) ||
      It->second[static_cast<std::size_t>(Slot)] == lower::None)
    return fail("stage " + llvm::Twine(Slot) + " of a ring of " +
                llvm::Twine(It->second.size()) + " stages");
  return &K.Regions[It->second[static_cast<std::size_t>(Slot)]];
}

llvm::Expected<const Region *> Run::view(const Walker &W, const OperandView &V,
                                         std::int64_t &Slot) {
  Slot = 0;
  if (V.Ring != hir::None) {
    llvm::Expected<std::int64_t> S = eval(&W, V.Slot);
    if (!S)
      return S.takeError();
    Slot = *S;
    return stage(V.Ring, Slot);
  }
  if (V.View >= K.Regions.size())
    return fail("names no shared-memory view");
  return &K.Regions[V.View];
}

//===- Instructions -------------------------------------------------------===//

llvm::Error Run::execute(Walker &W, const Stmt &S) {
  if (const auto *I = as<ext::Inst>(S))
    return executeExtension(W, S, *I);
  switch (S.kind()) {
  case lower::StmtKind::ZeroFragment:
    return zeroAcc(W, S.get<lower::ZeroFragmentStmt>());
  case lower::StmtKind::StoreFragment:
    return storeFragment(W, S);
  case lower::StmtKind::Role:
  case lower::StmtKind::TileLoop:
  case lower::StmtKind::KLoop:
  case lower::StmtKind::Let:
    break; // structure: `current` runs it
  case lower::StmtKind::AtomCall:
  case lower::StmtKind::Extension:
    return fail("the interpreter models the sm90 extension only");
  }
  return fail("the interpreter does not implement this instruction");
}

llvm::Error Run::executeExtension(Walker &W, const Stmt &S,
                                  const ext::Inst &I) {
  switch (I.sm90Kind()) {
  case ext::Kind::BarrierInit:
    return barrierInit(W, llvm::cast<ext::BarrierInit>(I));
  case ext::Kind::Wait:
    // `blocked` let the walker through: the phase has completed.
    return llvm::Error::success();
  case ext::Kind::ArriveExpectTx:
    return arriveExpectTx(W, llvm::cast<ext::ArriveExpectTx>(I));
  case ext::Kind::Arrive:
    return arrive(W, llvm::cast<ext::Arrive>(I));
  case ext::Kind::Tma: {
    const auto &T = llvm::cast<ext::Tma>(I);
    return T.Store ? tmaStore(W, S, T) : tmaLoad(W, S, T);
  }
  case ext::Kind::BulkCommit:
    return bulkCommit(W);
  case ext::Kind::BulkWaitRead:
    return bulkWaitRead(W);
  case ext::Kind::WgmmaFence:
    return wgmmaFence(W);
  case ext::Kind::Wgmma:
    return wgmma(W, S, llvm::cast<ext::Wgmma>(I));
  case ext::Kind::WgmmaCommit:
    return wgmmaCommit(W);
  case ext::Kind::WgmmaWait:
    return wgmmaWait(W, llvm::cast<ext::WgmmaWait>(I));
  case ext::Kind::FenceProxyAsync:
    // The model has one view of shared memory; the fence orders nothing
    // more.
    return llvm::Error::success();
  case ext::Kind::NamedBarrier:
    return namedBarrier(W, llvm::cast<ext::NamedBarrier>(I));
  case ext::Kind::FenceBarrierInit:
    return fail("inside a role is not modeled (it is a CTA-wide barrier)");
  }
  return fail("the interpreter does not implement this instruction");
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

llvm::Error Run::arriveExpectTx(Walker &W, const ext::ArriveExpectTx &I) {
  llvm::Expected<std::int64_t> N = share(W, I.Elected, I.Threads);
  if (!N)
    return N.takeError();
  std::int64_t Slot = 0;
  llvm::Expected<Mbarrier *> M = mbarrier(W, I.Bar, I.Slot, Slot);
  if (!M)
    return M.takeError();
  for (std::int64_t T = 0; T < *N; ++T) {
    llvm::Error E = (*M)->expectTx(I.Bytes);
    if (!E)
      E = (*M)->arrive(1);
    if (E)
      return fail(K.Barriers[I.Bar].Name + "[" + llvm::Twine(Slot) +
                  "]: " + llvm::toString(std::move(E)));
  }
  return llvm::Error::success();
}

llvm::Error Run::arrive(Walker &W, const ext::Arrive &I) {
  llvm::Expected<std::int64_t> N = share(W, I.Elected, I.Threads);
  if (!N)
    return N.takeError();
  std::int64_t Slot = 0;
  llvm::Expected<Mbarrier *> M = mbarrier(W, I.Bar, I.Slot, Slot);
  if (!M)
    return M.takeError();
  if (*N == 0)
    return llvm::Error::success();
  if (llvm::Error E = (*M)->arrive(*N))
    return fail(K.Barriers[I.Bar].Name + "[" + llvm::Twine(Slot) +
                "]: " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

/// The global box and the shared-memory view of TMA atom call \p Call.
std::pair<const OperandView *, const OperandView *>
tmaOperands(const AtomCallStmt &Call) {
  const OperandView *Global = nullptr, *Shared = nullptr;
  for (const OperandView &O : Call.Operands)
    (O.Place == lower::OperandPlace::Global ? Global : Shared) = &O;
  return {Global, Shared};
}

llvm::Error Run::tmaLoad(Walker &W, const Stmt &S, const ext::Tma &T) {
  const AtomCallStmt &Call = S.get<AtomCallStmt>();
  llvm::Expected<std::int64_t> N = share(W, Call.Elected, Call.Threads);
  if (!N)
    return N.takeError();
  if (*N == 0)
    return llvm::Error::success();
  const auto [Global, Shared] = tmaOperands(Call);
  if (!Global || !Shared || Global->Map >= K.Maps.size())
    return fail("names no tensor map");
  std::int64_t Slot = 0;
  llvm::Expected<const Region *> R = view(W, *Shared, Slot);
  if (!R)
    return R.takeError();
  std::int64_t BarSlot = 0;
  llvm::Expected<Mbarrier *> M = mbarrier(W, T.Bar, T.Slot, BarSlot);
  if (!M)
    return M.takeError();
  const lower::TensorMap &Map = K.Maps[Global->Map];
  std::int64_t BoxBytes = bytes(Map.Element);
  for (std::int64_t B : Map.Box)
    BoxBytes *= B;
  const std::int64_t Dst = (*R)->Offset + Shared->Offset;
  if (Dst % 128 != 0)
    return fail("the box's shared-memory address " + llvm::Twine(Dst) +
                " is not 128-byte aligned");
  if (Shared->Offset < 0 || Shared->Offset + BoxBytes > (*R)->Bytes)
    return fail("the box's " + llvm::Twine(BoxBytes) + " bytes at offset " +
                llvm::Twine(Shared->Offset) + " of " + (*R)->Name +
                " reach outside its " + llvm::Twine((*R)->Bytes) + " bytes");
  TmaOp Op;
  Op.I = &S;
  Op.Map = Global->Map;
  Op.Bar = T.Bar;
  Op.Smem = Dst;
  Op.Slot = BarSlot;
  Op.Walker = W.Name;
  for (ExprId C : Global->Coords) {
    llvm::Expected<std::int64_t> V = eval(&W, C);
    if (!V)
      return V.takeError();
    Op.Coords.push_back(*V);
  }
  for (std::int64_t I = 0; I < *N; ++I) {
    Op.Id = NextOp++;
    Tma.push_back(Op);
    ++Stats.TmaLoads;
  }
  return llvm::Error::success();
}

llvm::Error Run::tmaStore(Walker &W, const Stmt &S, const ext::Tma &) {
  const AtomCallStmt &Call = S.get<AtomCallStmt>();
  llvm::Expected<std::int64_t> N = share(W, Call.Elected, Call.Threads);
  if (!N)
    return N.takeError();
  if (*N == 0)
    return llvm::Error::success();
  const auto [Global, Shared] = tmaOperands(Call);
  if (!Global || !Shared || Global->Map >= K.Maps.size())
    return fail("names no tensor map");
  std::int64_t Slot = 0;
  llvm::Expected<const Region *> R = view(W, *Shared, Slot);
  if (!R)
    return R.takeError();
  const lower::TensorMap &Map = K.Maps[Global->Map];
  std::int64_t BoxBytes = bytes(Map.Element);
  for (std::int64_t B : Map.Box)
    BoxBytes *= B;
  if (Shared->Offset < 0 || Shared->Offset + BoxBytes > (*R)->Bytes)
    return fail("the box's " + llvm::Twine(BoxBytes) + " bytes at offset " +
                llvm::Twine(Shared->Offset) + " of " + (*R)->Name +
                " reach outside its " + llvm::Twine((*R)->Bytes) + " bytes");
  TmaOp Op;
  Op.Store = true;
  Op.I = &S;
  Op.Map = Global->Map;
  Op.Smem = (*R)->Offset + Shared->Offset;
  if (Op.Smem % 128 != 0)
    return fail("the box's shared-memory address " + llvm::Twine(Op.Smem) +
                " is not 128-byte aligned");
  Op.Walker = W.Name;
  for (ExprId C : Global->Coords) {
    llvm::Expected<std::int64_t> V = eval(&W, C);
    if (!V)
      return V.takeError();
    Op.Coords.push_back(*V);
  }
  for (std::int64_t I = 0; I < *N; ++I) {
    Op.Id = NextOp++;
    PendingStores.insert(Op.Id);
    W.UncommittedStores.push_back(Op.Id);
    Tma.push_back(Op);
    ++Stats.TmaStores;
  }
  return llvm::Error::success();
}

llvm::Error Run::performTma(const TmaOp &Op) {
  const lower::TensorMap &Map = K.Maps[Op.Map];
  const TensorArg &Global = argumentOf(Op.Map);
  if (Op.Store) {
    PendingStores.erase(Op.Id);
    return interp::tmaStore(Map, Global, Op.Coords, Smem, Op.Smem);
  }
  llvm::Expected<std::int64_t> Written =
      interp::tmaLoad(Map, Global, Op.Coords, Smem, Op.Smem);
  if (!Written)
    return Written.takeError();
  Mbarrier &M = Barriers[Op.Bar][static_cast<std::size_t>(Op.Slot)];
  if (llvm::Error E = M.completeTx(*Written))
    return fail(K.Barriers[Op.Bar].Name + "[" + llvm::Twine(Op.Slot) +
                "]: " + llvm::toString(std::move(E)));
  return llvm::Error::success();
}

llvm::Error Run::bulkCommit(Walker &W) {
  W.StoreGroups.push_back(std::move(W.UncommittedStores));
  W.UncommittedStores.clear();
  return llvm::Error::success();
}

llvm::Error Run::bulkWaitRead(Walker &W) {
  // `blocked` let the walker through: every committed group has read its
  // shared memory.
  W.StoreGroups.clear();
  return llvm::Error::success();
}

bool Run::accumulatorInFlight(const Walker &W, hir::ValueId Acc) const {
  auto Reads = [&](const std::vector<PendingWgmma> &Group) {
    return llvm::any_of(
        Group, [&](const PendingWgmma &P) {
          return accumulatorOf(K.Insts[P.Id]).Fragment == Acc;
        });
  };
  return Reads(W.Uncommitted) || llvm::any_of(W.InFlight, Reads);
}

llvm::Error Run::zeroAcc(Walker &W, const lower::ZeroFragmentStmt &I) {
  if (accumulatorInFlight(W, I.Acc))
    return fail("writes the accumulator's registers while a WGMMA on them "
                "is in flight (no wgmma.wait_group before)");
  auto It = Accs.find(I.Acc);
  if (It == Accs.end())
    return llvm::Error::success(); // no WGMMA computes it: nothing to zero
  const std::int64_t Size = It->second.Op.M * It->second.Op.N;
  for (std::int64_t B = 0; B < It->second.Blocks; ++B)
    AccRegs[{I.Acc, W.Group, B}].assign(static_cast<std::size_t>(Size), 0.0f);
  W.Fenced = false; // a register access: the next WGMMA needs a fence
  return llvm::Error::success();
}

llvm::Error Run::wgmmaFence(Walker &W) {
  W.Fenced = true;
  return llvm::Error::success();
}

llvm::Error Run::wgmma(Walker &W, const Stmt &S, const ext::Wgmma &I) {
  if (!W.Warpgroups)
    return fail("WGMMA in a role that is not made of whole warpgroups");
  const AtomCallStmt &Call = S.get<AtomCallStmt>();
  const std::int64_t Groups = (W.Role->End - W.Role->Begin) / WarpgroupThreads;
  if (I.AxisValue < 0 || I.AxisValue >= Groups)
    return fail("issued by warpgroup " + llvm::Twine(I.AxisValue) +
                " of a role of " + llvm::Twine(Groups));
  if (I.AxisValue != W.Group)
    return llvm::Error::success(); // another warpgroup's
  if (!W.Fenced)
    return fail("no wgmma.fence since the accumulator's registers were "
                "last accessed");
  const OperandView *OA = Call.operand("A"), *OB = Call.operand("B");
  if (!OA || !OB)
    return fail("WGMMA needs the slots of both operands");
  PendingWgmma P;
  P.Id = static_cast<InstId>(&S - K.Insts.data());
  llvm::Expected<std::int64_t> A = eval(&W, OA->Slot);
  if (!A)
    return A.takeError();
  llvm::Expected<std::int64_t> B = eval(&W, OB->Slot);
  if (!B)
    return B.takeError();
  P.SlotA = *A;
  P.SlotB = *B;
  W.Uncommitted.push_back(P);
  ++Stats.Wgmmas;
  return llvm::Error::success();
}

llvm::Error Run::wgmmaCommit(Walker &W) {
  W.InFlight.push_back(std::move(W.Uncommitted));
  W.Uncommitted.clear();
  return llvm::Error::success();
}

llvm::Error Run::wgmmaWait(Walker &W, const ext::WgmmaWait &I) {
  const std::size_t Keep =
      static_cast<std::size_t>(std::max<std::int64_t>(I.Count, 0));
  while (W.InFlight.size() > Keep) {
    for (const PendingWgmma &P : W.InFlight.front())
      if (llvm::Error E = performWgmma(W, P)) {
        const Stmt &XS = K.Insts[P.Id];
        const auto &X = *as<ext::Wgmma>(XS);
        return fail("the WGMMA of warpgroup " + llvm::Twine(X.AxisValue) +
                    ", k-step " + llvm::Twine(X.KStep) + ", block " +
                    llvm::Twine(accumulatorOf(XS).Block) + " (" +
                    XS.Range.File + ":" + llvm::Twine(XS.Range.Line) +
                    "): " + llvm::toString(std::move(E)));
      }
    W.InFlight.pop_front();
  }
  return llvm::Error::success();
}

/// D(64 x N) += A(64 x K) * B(K x N) of one warpgroup, the operands read
/// from shared memory through their descriptors now. Products and sums in
/// f32, k ascending: each element is d = d + a_k * b_k for k = 0, 1, ...
/// (the order of tf::matmul's header-only execution).
llvm::Error Run::performWgmma(Walker &W, const PendingWgmma &P) {
  const Stmt &S = K.Insts[P.Id];
  const auto &I = *as<ext::Wgmma>(S);
  const AtomCallStmt &Call = S.get<AtomCallStmt>();
  const OperandView &C = accumulatorOf(S);
  const AccInfo &Acc = Accs.at(C.Fragment);
  const lower::MmaAtom &Op = Acc.Op;
  if (Op.D != DType::f32)
    return fail("accumulates in " + llvm::Twine(name(Op.D).data()) +
                "; the model accumulates f32");
  if (!isModeledFloat(Op.A) || !isModeledFloat(Op.B))
    return fail("inputs of " + llvm::Twine(name(Op.A).data()) +
                " are not modeled");
  struct Operand {
    const char *Name;
    hir::ValueId Ring;
    std::int64_t Slot;
    const ext::SmemDescriptor *D;
    bool MNMajor;
    DType T;
    std::int64_t Rows; // M of A, N of B
    std::vector<float> *Out;
  } Operands[] = {
      {"A", Call.operand("A")->Ring, P.SlotA, &I.A, I.TransA, Op.A, Op.M,
       &OperandA},
      {"B", Call.operand("B")->Ring, P.SlotB, &I.B, I.TransB, Op.B, Op.N,
       &OperandB},
  };
  for (Operand &X : Operands) {
    llvm::Expected<const Region *> R = stage(X.Ring, X.Slot);
    if (!R)
      return fail(llvm::Twine("operand ") + X.Name + ": " +
                  llvm::toString(R.takeError()));
    if ((*R)->Element != X.T)
      return fail(llvm::Twine("operand ") + X.Name + " reads " + (*R)->Name +
                  " of " + name((*R)->Element).data() + " as " +
                  name(X.T).data());
    llvm::Expected<std::uint64_t> Bits =
        encodeDescriptor(*X.D, (*R)->Offset + X.D->Start);
    if (!Bits)
      return fail(llvm::Twine("operand ") + X.Name + ": " +
                  llvm::toString(Bits.takeError()));
    const MatrixDescriptor D = decodeDescriptor(*Bits);
    if (D.BaseOffset != 0)
      return fail(llvm::Twine("operand ") + X.Name + ": base offset " +
                  llvm::Twine(D.BaseOffset) +
                  " is not modeled (views start on their swizzle pattern)");
    const int E = bytes(X.T);
    X.Out->resize(static_cast<std::size_t>(X.Rows * Op.K));
    for (std::int64_t Row = 0; Row < X.Rows; ++Row)
      for (std::int64_t Kk = 0; Kk < Op.K; ++Kk) {
        const std::int64_t Address = operandAddress(D, X.MNMajor, E, Row, Kk);
        if (Address < (*R)->Offset || Address + E > (*R)->Offset + (*R)->Bytes)
          return fail(llvm::Twine("operand ") + X.Name + " element (" +
                      llvm::Twine(Row) + ", " + llvm::Twine(Kk) +
                      ") reads shared-memory byte " + llvm::Twine(Address) +
                      ", outside its slot " + (*R)->Name + " [" +
                      llvm::Twine((*R)->Offset) + ", " +
                      llvm::Twine((*R)->Offset + (*R)->Bytes) + ")");
        (*X.Out)[static_cast<std::size_t>(Row * Op.K + Kk)] =
            loadAsFloat(&Smem[static_cast<std::size_t>(Address)], X.T);
      }
  }
  auto It = AccRegs.find({C.Fragment, W.Group, C.Block});
  if (It == AccRegs.end()) // never zeroed: what the registers held
    It = AccRegs
             .insert(
                 {{C.Fragment, W.Group, C.Block},
                  std::vector<float>(static_cast<std::size_t>(Op.M * Op.N),
                                     std::numeric_limits<float>::quiet_NaN())})
             .first;
  float *D = It->second.data();
  const std::int64_t N = Op.N;
  for (std::int64_t M = 0; M < Op.M; ++M)
    for (std::int64_t Kk = 0; Kk < Op.K; ++Kk) {
      const float A = OperandA[static_cast<std::size_t>(M * Op.K + Kk)];
      float *Row = D + M * N;
      for (std::int64_t C = 0; C < N; ++C)
        Row[C] = Row[C] + A * OperandB[static_cast<std::size_t>(C * Op.K + Kk)];
    }
  return llvm::Error::success();
}

llvm::Expected<const StorePlan *> Run::storePlan(const Stmt &S,
                                                 const Walker &W) {
  const auto &I = S.get<lower::StoreFragmentStmt>();
  auto Cached = Plans.find(&S);
  if (Cached != Plans.end())
    return &Cached->second;
  auto AccIt = Accs.find(I.Acc);
  if (AccIt == Accs.end())
    return fail("stores an accumulator no WGMMA computes");
  const AccInfo &Acc = AccIt->second;
  if (Acc.Blocks != 1)
    return fail("an accumulator of " + llvm::Twine(Acc.Blocks) +
                " blocks per warpgroup is not modeled");
  const lower::RoleStmt &Role = *W.Role;
  StorePlan Plan;
  Plan.N = Acc.Op.N;
  Plan.Groups = (Role.End - Role.Begin) / WarpgroupThreads;
  const std::int64_t Rows = Acc.Op.M * Plan.Groups, N = Plan.N;

  // The view: (m, n) -> element offset through its layout (a linear index
  // of the (rows, columns) shape, read lexicographically), in bytes, then
  // its swizzle.
  if (I.View >= K.Regions.size())
    return fail("names no shared-memory view");
  const Region &View = K.Regions[I.View];
  Result<LayoutText> Text = parse_layout_text(View.Layout);
  if (!Text)
    return fail("the layout '" + View.Layout + "' of " + View.Name +
                " does not parse: " + Text.error().message());
  if (Text->has_offset || Text->has_axes)
    return fail("the layout '" + View.Layout + "' of " + View.Name +
                " is not a plain view");
  if (View.Shape.size() != 2 || View.Shape[0] != Rows || View.Shape[1] != N)
    return fail(View.Name + " is not the " + llvm::Twine(Rows) + " x " +
                llvm::Twine(N) + " accumulator tile");
  const Swizzle Sw = Text->has_swizzle ? Text->swizzle : Swizzle{};
  const std::int64_t E = bytes(View.Element);
  Plan.Offset.resize(static_cast<std::size_t>(Rows * N));
  for (std::int64_t L = 0; L < Rows * N; ++L) {
    Result<std::int64_t> At = evaluate(Text->layout, L);
    if (!At || *At < 0)
      return fail("the layout of " + View.Name + " does not map element " +
                  llvm::Twine(L));
    Plan.Offset[static_cast<std::size_t>(L)] = Sw(*At * E);
  }

  // The shard must put each element where the WGMMA fragment holds it:
  // register 4j + 2h + e of thread (warp, lane8, lane4) of warpgroup g
  // holds row 64 g + 16 warp + 8 h + lane8, column 8 j + 2 lane4 + e
  // (PTX ISA, wgmma .m64nNk16 D fragment).
  llvm::Expected<ShardLayout> Shard = parseShardText(I.Shard);
  if (!Shard)
    return Shard.takeError();
  if (Shard->layout.rank() != 2)
    return fail("the accumulator's shard is not a matrix");
  Result<detail::ShardTable> Table = detail::shard_table(*Shard);
  if (!Table)
    return fail("the accumulator's shard: " + Table.error().message());
  // Leaf extents of the two modes, for the lexicographic split of m and n.
  llvm::SmallVector<std::int64_t, 8> Leaves[2];
  for (int Mode = 0; Mode < 2; ++Mode) {
    IntTuple S = Shard->layout.shape.mode(Mode);
    for (int J = 0; J < S.leaf_count(); ++J)
      Leaves[Mode].push_back(S.leaf_at(J).value);
  }
  std::int64_t Coord[max_int_tuple_nodes] = {};
  for (std::int64_t T = Role.Begin; T < Role.End; ++T) {
    const std::int64_t G = (T - Role.Begin) / WarpgroupThreads;
    const std::int64_t Warp = (T - Role.Begin) % WarpgroupThreads / 32;
    const std::int64_t Lane8 = T % 32 / 4, Lane4 = T % 4;
    for (std::int64_t Reg = 0; Reg < N / 2; ++Reg) {
      const std::int64_t J = Reg / 4, H = Reg / 2 % 2, Ev = Reg % 2;
      const std::int64_t Mn[2] = {Acc.Op.M * G + 16 * Warp + 8 * H + Lane8,
                                  8 * J + 2 * Lane4 + Ev};
      int Leaf = 0;
      for (int Mode = 0; Mode < 2; ++Mode) {
        std::int64_t C = Mn[Mode];
        const int First = Leaf;
        Leaf += static_cast<int>(Leaves[Mode].size());
        for (int L = Leaf - 1; L >= First; --L) {
          const std::int64_t Extent = Leaves[Mode][L - First];
          Coord[L] = C % Extent;
          C /= Extent;
        }
      }
      bool Held = false;
      std::int64_t Other = -1;
      detail::for_each_replica(*Table, Coord,
                               [&](std::int64_t Unit, std::int64_t) {
                                 Held |= Unit == T;
                                 Other = Unit;
                                 return !Held;
                               });
      if (!Held)
        return fail(
            "the accumulator's shard puts element (" + llvm::Twine(Mn[0]) +
            ", " + llvm::Twine(Mn[1]) + ") on thread " + llvm::Twine(Other) +
            "; the WGMMA fragment holds it in thread " + llvm::Twine(T));
    }
  }
  return &Plans.emplace(&S, std::move(Plan)).first->second;
}

/// \p X after the fused elementwise ops of a fragment store, in order, in
/// f32 (a cast rounds to its type and continues with the rounded value).
float applyEpilogue(llvm::ArrayRef<lower::FragmentOp> Ops, float X) {
  for (const lower::FragmentOp &F : Ops)
    switch (F.Op) {
    case lower::ElementwiseOp::Relu:
      X = X > 0.0f ? X : 0.0f;
      break;
    case lower::ElementwiseOp::Neg:
      X = -X;
      break;
    case lower::ElementwiseOp::Exp:
      X = std::exp(X);
      break;
    case lower::ElementwiseOp::Cast: {
      std::uint8_t Bytes[4];
      storeFromFloat(Bytes, F.To, X);
      X = loadAsFloat(Bytes, F.To);
      break;
    }
    }
  return X;
}

llvm::Error Run::storeFragment(Walker &W, const Stmt &S) {
  const auto &I = S.get<lower::StoreFragmentStmt>();
  if (!W.Warpgroups)
    return fail("stores an accumulator from a role that is not made of "
                "whole warpgroups");
  if (accumulatorInFlight(W, I.Acc))
    return fail("reads the accumulator while a WGMMA on it is in flight "
                "(no wgmma.wait_group before)");
  llvm::Expected<const StorePlan *> Plan = storePlan(S, W);
  if (!Plan)
    return Plan.takeError();
  const Region &View = K.Regions[I.View];
  if (I.CastTo != View.Element)
    return fail("casts to " + llvm::Twine(name(I.CastTo).data()) + " but " +
                View.Name + " holds " + name(View.Element).data());
  if (!isModeledFloat(View.Element))
    return fail("a cast to " + llvm::Twine(name(View.Element).data()) +
                " is not modeled");
  for (const lower::FragmentOp &F : I.Epilogue)
    if (F.Op == lower::ElementwiseOp::Cast && !isModeledFloat(F.To))
      return fail("an epilogue cast to " + llvm::Twine(name(F.To).data()) +
                  " is not modeled");
  auto It = AccRegs.find({I.Acc, W.Group, 0});
  const std::int64_t N = (*Plan)->N, M = Accs.at(I.Acc).Op.M;
  const std::vector<float> Poison(static_cast<std::size_t>(M * N),
                                  std::numeric_limits<float>::quiet_NaN());
  const std::vector<float> &D = It == AccRegs.end() ? Poison : It->second;
  const std::int64_t E = bytes(View.Element);
  for (std::int64_t T = W.Begin; T < W.End; ++T) {
    const std::int64_t Warp = (T - W.Begin) / 32;
    const std::int64_t Lane8 = T % 32 / 4, Lane4 = T % 4;
    for (std::int64_t Reg = 0; Reg < N / 2; ++Reg) {
      const std::int64_t J = Reg / 4, H = Reg / 2 % 2, Ev = Reg % 2;
      const std::int64_t Row = 16 * Warp + 8 * H + Lane8;
      const std::int64_t Col = 8 * J + 2 * Lane4 + Ev;
      const std::int64_t Tile = (M * W.Group + Row) * N + Col;
      const std::int64_t Address =
          View.Offset + (*Plan)->Offset[static_cast<std::size_t>(Tile)];
      if (Address < View.Offset || Address + E > View.Offset + View.Bytes)
        return fail("element (" + llvm::Twine(M * W.Group + Row) + ", " +
                    llvm::Twine(Col) + ") lands outside " + View.Name);
      storeFromFloat(&Smem[static_cast<std::size_t>(Address)], View.Element,
                     applyEpilogue(I.Epilogue,
                                   D[static_cast<std::size_t>(Row * N + Col)]));
    }
  }
  W.Fenced = false; // a register access: the next WGMMA needs a fence
  return llvm::Error::success();
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

} // namespace

llvm::Error interpret(const Kernel &K, llvm::ArrayRef<TensorArg> Args,
                      const InterpOptions &Opts, InterpStats *Stats) {
  InterpStats Local;
  Run R(K, Args, Opts, Stats ? *Stats : Local);
  return R.run();
}

} // namespace tf::interp
