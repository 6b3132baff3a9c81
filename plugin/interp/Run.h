//===- plugin/interp/Run.h - One interpretation of a kernel ----*- C++ -*-===//
//
// The interpreter's state and its steps (Interpreter.h says what it
// models), shared by the files that implement them, one concept each:
// Interpreter.cpp (set-up, expressions, the dispatch over statements),
// Cluster.cpp (the CTAs of a cluster and the kernel-level statements),
// Schedule.cpp (walkers and the scheduler), Barriers.cpp (mbarriers,
// cluster-wide releases, named barriers), Tma.cpp (TMA copies, multicast,
// bulk groups), Wgmma.cpp (accumulators and WGMMA) and Epilogue.cpp (the
// fragment store).
//
// The state has three lifetimes: per kernel (what the scan of its
// statements found), per cluster (the CTAs run together -- one without
// clusters -- with their walkers, one TMA unit and the scheduler's state)
// and per CTA (CtaState: what the hardware keeps in each CTA).
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_INTERP_RUN_H
#define TF_PLUGIN_INTERP_RUN_H

#include "interp/Interpreter.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/Twine.h"

#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace tf::interp::impl {

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

/// An error with \p Message.
llvm::Error fail(const llvm::Twine &Message);

/// Statement \p S's name in messages: its instruction's PTX name.
std::string stmtName(const Stmt &S);

/// The accumulator operand (C) of WGMMA atom call \p S.
const OperandView &accumulatorOf(const Stmt &S);

/// Threads of a warpgroup, the unit WGMMA and its fragments are defined on.
constexpr std::int64_t WarpgroupThreads = 128;

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

/// The threads of a role (or one warpgroup of it) of one CTA running its
/// body.
struct Walker {
  std::string Name;
  /// Its CTA: the cluster rank, the position in Run::Ctas.
  std::size_t Cta = 0;
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
  /// Named barriers passed: the role's threads pass theirs in the same
  /// order, so equal counts are the same stretch between two meets.
  std::int64_t Meets = 0;
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
  /// The issuing CTA (its rank) and walker.
  std::size_t Cta = 0;
  std::string Walker;
  /// Loads: > 1, a multicast landing (with its completion) in the CTAs of
  /// ranks [0, Multicast); 1, in the issuing CTA only.
  std::int64_t Multicast = 1;
};

/// One partial of a reduction across warps (RegisterShareStmt): the meets
/// its walker had passed when it was last written and last read (-1:
/// never), which show a missing meet as a race.
struct PartialUse {
  std::int64_t WrittenAt = -1, ReadAt = -1;
};

struct NamedBarrierState {
  std::int64_t Count = 0, Arrived = 0, Generation = 0;
};

/// What the hardware keeps per CTA. A cluster's CTAs reach each other's
/// only through multicast loads (Tma.cpp) and the cluster-wide release of
/// a multicast ring's slot (Barriers.cpp).
struct CtaState {
  /// cta.x (-1: none, while the grid is evaluated) and the cluster rank.
  std::int64_t Index = -1;
  std::size_t Rank = 0;
  /// The kernel-level lets, evaluated in this CTA.
  std::vector<std::pair<std::string, std::int64_t>> Scope;
  /// The dynamic shared memory, and the mbarrier objects in it by array
  /// and slot.
  std::vector<std::uint8_t> Smem;
  std::vector<std::vector<Mbarrier>> Barriers;
  std::map<std::int64_t, NamedBarrierState> Named;
  /// The partials of reductions across warps, by shared-memory byte
  /// address.
  std::map<std::int64_t, PartialUse> Partials;
  /// The accumulators' registers by (accumulator, warpgroup, block).
  std::map<std::tuple<hir::ValueId, std::int64_t, std::int64_t>,
           std::vector<float>>
      AccRegs;
  /// The register tiles of register programs by tile: register r of the
  /// CTA's thread t at [t * registers + r]; NaN until written.
  std::map<unsigned, std::vector<float>> TileRegs;
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

/// What the fused ops of one store read beside the accumulator: the float
/// parameters by name, and per load its tensor and the tile's origin in it.
struct EpilogueInputs {
  struct Load {
    const TensorArg *Arg = nullptr;
    llvm::SmallVector<std::int64_t, 2> Origin;
  };
  std::map<std::string, float> Scalars;
  std::map<const lower::EpilogueLoad *, Load> Loads;

  /// The element of \p L at tile position (Row, Col) as f32; 0 outside the
  /// tensor's extents (as a window reads past its tensor's edge).
  float load(const lower::EpilogueLoad &L, std::int64_t Row,
             std::int64_t Col) const;
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

  // One cluster (Cluster.cpp).
  /// Runs the cluster whose first CTA is \p First: its CTAs take the
  /// kernel-level statements in lockstep.
  llvm::Error runCluster(std::int64_t First);
  /// The walkers of role \p Role in the CTA of rank \p Cta.
  void addWalkers(const Stmt &Role, std::size_t Cta);
  /// A barrier of every thread of the cluster (fence.mbarrier_init's CTA
  /// barrier, barrier.cluster): the walkers collected so far run to the
  /// end.
  llvm::Error meet();
  llvm::Error checkPhasesAtExit(const CtaState &C);
  /// "CTA 4" without clusters, else "cluster 2 (CTAs 4 to 5)".
  std::string clusterName() const;
  /// "CTA 5, " where a message names one of several CTAs; "" without
  /// clusters (the message's prefix names the CTA).
  std::string ctaOfCluster(std::size_t Cta) const;
  CtaState &cta(const Walker &W) { return Ctas[W.Cta]; }

  // The scheduler (Schedule.cpp).
  llvm::Error schedule();
  std::size_t choose(llvm::ArrayRef<std::size_t> Runnable, bool TmaReady);
  llvm::Error deadlock();

  // Walkers.
  llvm::Expected<const Stmt *> current(Walker &W);
  llvm::Expected<bool> blocked(Walker &W, const Stmt &S);
  std::string waitsFor(Walker &W, const Stmt &S);
  llvm::Error step(Walker &W);
  llvm::Error stepTma();
  llvm::Error finish(Walker &W);

  // Expressions and operands.
  /// The value of \p E in CTA \p C for walker \p W (null: at kernel
  /// level): the walker's lets, the CTA's, cta.x, the integer parameters.
  llvm::Expected<std::int64_t> eval(const CtaState &C, const Walker *W,
                                    ExprId E);
  llvm::Expected<std::int64_t> eval(const Walker &W, ExprId E) {
    return eval(Ctas[W.Cta], &W, E);
  }
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
  /// \p E prefixed with where: the CTA, the walker (if any), the
  /// instruction (if any, with its source position).
  llvm::Error at(const CtaState &C, const Walker *W, const Stmt *S,
                 llvm::Error E) const;
  llvm::Error at(const Walker &W, const Stmt *S, llvm::Error E) const {
    return at(Ctas[W.Cta], &W, S, std::move(E));
  }

  // Statements, one function per kind.
  llvm::Error execute(Walker &W, const Stmt &S);
  llvm::Error executeExtension(Walker &W, const Stmt &S, const ext::Inst &I);
  llvm::Error barrierInit(Walker &W, const ext::BarrierInit &I);
  /// \p Operation on the barrier object (\p Bar, \p SlotExpr) of the
  /// walker's CTA by the walker's threads that issue it (skipped when none
  /// do); its error named after the object.
  llvm::Error
  onBarrier(Walker &W, std::int64_t Elected, std::int64_t Threads,
            BarrierId Bar, ExprId SlotExpr,
            llvm::function_ref<llvm::Error(Mbarrier &, std::int64_t)> Operation);
  llvm::Error arriveExpectTx(Walker &W, const ext::ArriveExpectTx &I);
  llvm::Error arrive(Walker &W, const ext::Arrive &I);
  /// An arrival with Arrive::Cluster: the walker's warpgroup arrives once
  /// on the object of every CTA of the cluster.
  llvm::Error clusterArrive(Walker &W, const ext::Arrive &I);
  /// What a TMA atom call copies: how many of the walker's threads issue
  /// it (0: none; the rest is then unset), its global and shared operands,
  /// the shared-memory region the view is in, and the box's bytes.
  struct TmaBox {
    std::int64_t Issuers = 0;
    const OperandView *Global = nullptr, *Shared = nullptr;
    const Region *View = nullptr;
    std::int64_t Bytes = 0;
  };
  llvm::Expected<TmaBox> tmaBox(Walker &W, const AtomCallStmt &Call);
  /// The checks of a box's shared-memory side: a 128-byte aligned address,
  /// inside the view's region.
  llvm::Error tmaBoxAligned(const TmaBox &B);
  llvm::Error tmaBoxInside(const TmaBox &B);
  /// The copy of a box (a load or a \p Store) to queue, checked, its
  /// coordinates evaluated.
  llvm::Expected<TmaOp> tmaOp(Walker &W, const Stmt &S, const TmaBox &B,
                              bool Store);
  /// A TMA atom call: its box queued once per issuing thread (a multicast
  /// load by the threads of the issuing rank's CTA only).
  llvm::Error tma(Walker &W, const Stmt &S, const ext::Tma &T);
  llvm::Error tmaLoad(Walker &W, const Stmt &S, const ext::Tma &T,
                      const TmaBox &B);
  llvm::Error tmaStore(Walker &W, const Stmt &S, const TmaBox &B);
  llvm::Error bulkCommit(Walker &W);
  llvm::Error bulkWaitRead(Walker &W);
  llvm::Error zeroAcc(Walker &W, const lower::ZeroFragmentStmt &I);
  llvm::Error wgmmaFence(Walker &W);
  llvm::Error wgmma(Walker &W, const Stmt &S, const ext::Wgmma &I);
  llvm::Error wgmmaCommit(Walker &W);
  llvm::Error wgmmaWait(Walker &W, const ext::WgmmaWait &I);
  llvm::Error storeFragment(Walker &W, const Stmt &S);
  llvm::Expected<EpilogueInputs>
  epilogueInputs(const Walker &W, llvm::ArrayRef<lower::FragmentOp> Ops);
  llvm::Error namedBarrier(Walker &W, const ext::NamedBarrier &I);
  // Register programs (Registers.cpp).
  llvm::Error registerLoad(Walker &W, const lower::RegisterLoadStmt &I);
  llvm::Error registerStore(Walker &W, const lower::RegisterStoreStmt &I);
  llvm::Error registerMath(Walker &W, const lower::RegisterMathStmt &I);
  llvm::Error registerReduce(Walker &W, const lower::RegisterReduceStmt &I);
  llvm::Error registerShare(Walker &W, const lower::RegisterShareStmt &I);
  llvm::Error registerGather(Walker &W, const lower::RegisterGatherStmt &I);
  /// The shared-memory byte address of partial \p Reg of the slot \p Slot
  /// of thread \p Thread's index in the role plus \p Offset.
  llvm::Expected<std::int64_t>
  partialAddress(const Walker &W, lower::RegionId Scratch, std::int64_t Slots,
                 llvm::ArrayRef<lower::ThreadTerm> Slot, std::int64_t Thread,
                 std::int64_t Offset, std::int64_t Reg) const;
  /// The registers of tile \p Tile in the walker's CTA.
  std::vector<float> &tileRegisters(Walker &W, unsigned Tile);
  /// Coordinate \p D of register \p Reg of thread \p Thread (of the CTA)
  /// of tile \p Tile for walker \p W's role.
  std::int64_t tileCoord(const Walker &W, unsigned Tile, std::size_t D,
                         std::int64_t Thread, std::int64_t Reg) const;
  /// Calls \p Visit for every register of tile \p Tile of every thread of
  /// \p W with where it meets global tile \p G (its tensor's indices, and
  /// whether they are inside it); checks that each run of \p Vector
  /// registers holds consecutive elements of the last dimension.
  llvm::Error forEachGlobalElement(
      Walker &W, unsigned Tile, const lower::EpilogueLoad &G,
      std::int64_t Vector,
      llvm::function_ref<void(std::size_t Register, const TensorArg &,
                              llvm::ArrayRef<std::int64_t> Coord, bool Inside)>
          Visit);
  /// The kernel argument of parameter \p Name.
  llvm::Expected<const TensorArg *> tensorArgument(llvm::StringRef Name) const;
  llvm::Expected<float> scalarValue(const Walker &W, const lower::ScalarExpr &E);

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

  // Per cluster: its CTAs by rank (one without clusters), the walkers of
  // all of them, the one TMA unit they share (its queue, the stores not yet
  // performed), the scheduler's state. The policies pick among all of the
  // cluster's agents; the step limit is MaxStepsPerCta per CTA.
  std::vector<CtaState> Ctas;
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

} // namespace tf::interp::impl

#endif // TF_PLUGIN_INTERP_RUN_H
