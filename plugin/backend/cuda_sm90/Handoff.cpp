//===- plugin/backend/cuda_sm90/Handoff.cpp - The mbarrier hand-off -------===//
//
// The hand-off protocol of sm_90 (lower/HandoffProtocol.h) in the LIR's
// Hopper extension (lower/sm90/Sm90.h):
//
//   - a wait is mbarrier.try_wait.parity on the slot's object;
//   - a ring filled by TMA: the producer's mbarrier.arrive.expect_tx on
//     `full` with the bytes of the boxes it issues, which complete it;
//   - a buffer written from registers and stored by TMA: a fence of the
//     async proxy (the TMA reads through it), a named barrier of the
//     writers, then one elected thread's mbarrier.arrive on `full`;
//   - a release is mbarrier.arrive;
//   - a role's threads meet (a reduction's partials in shared memory) at a
//     named barrier of the role's own, bar.sync with its thread count;
//   - a release of a slot that multicast loads fill (HandoffPoint::Ctas >
//     1) arrives on the slot's `empty` barrier of every CTA of the cluster,
//     once per reading warpgroup (its WGMMAs completed);
//   - set-up: thread 0 initialises every barrier with its arrival count,
//     then fence.mbarrier_init and a CTA-wide barrier publish them -- in
//     clusters a cluster-wide barrier too, which the kernel's end repeats.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/CudaSm90.h"

#include "lower/Context.h"
#include "lower/sm90/Sm90.h"

#include <map>

namespace tf::backend::sm90 {

namespace {

using namespace lower;
using lower::sm90::Arrive;
using lower::sm90::ArriveExpectTx;
using lower::sm90::BarrierInit;
using lower::sm90::ClusterBarrier;
using lower::sm90::FenceBarrierInit;
using lower::sm90::FenceProxyAsync;
using lower::sm90::NamedBarrier;
using lower::sm90::Tma;
using lower::sm90::Wait;

/// mbarrier objects are 8 bytes, 8-byte aligned (PTX ISA, "Size and
/// alignment of mbarrier object").
constexpr std::int64_t MbarrierBytes = 8;
/// Threads of a warpgroup, the unit that issues and completes WGMMA.
constexpr std::int64_t WarpgroupThreads = 128;

template <class T> std::unique_ptr<T> barrierUse(const HandoffPoint &At) {
  auto I = std::make_unique<T>();
  I->Bar = At.Bar;
  I->Slot = At.Slot;
  I->Clock = At.Clock;
  I->Threads = At.Threads;
  I->Elected = At.Elected;
  return I;
}

class MbarrierProtocol final : public HandoffProtocol {
public:
  void wait(LoweringContext &Ctx, const HandoffPoint &At, ExprId Phase,
            WaitFor Why, const hir::Stmt &S,
            std::vector<InstId> &Out) override {
    auto W = barrierUse<Wait>(At);
    W->Phase = Phase;
    W->ProducerParity = Why == WaitFor::Free;
    Ctx.add(std::move(W), S, Out);
  }

  std::int64_t arriveForAsyncFill(LoweringContext &Ctx, const HandoffPoint &At,
                                  llvm::ArrayRef<InstId> Fill,
                                  const hir::Stmt &S,
                                  std::vector<InstId> &Out) override {
    // The bytes are registered before the copies can complete them.
    auto A = barrierUse<ArriveExpectTx>(At);
    for (InstId I : Fill)
      if (const auto *Copy = as<Tma>(Ctx.L.Insts[I]);
          Copy && !Copy->Store && Copy->Bar == At.Bar)
        A->Bytes += Copy->Bytes;
    const std::int64_t Bytes = A->Bytes;
    Ctx.add(std::move(A), S, Out);
    return Bytes;
  }

  void publishWrites(LoweringContext &Ctx, const Role &Writers,
                     const hir::Stmt &S, std::vector<InstId> &Out) override {
    // Generic-proxy writes become visible to the TMA (async proxy), then
    // all writers meet at a barrier of their own.
    Ctx.add(std::make_unique<FenceProxyAsync>(), S, Out);
    auto Sync = std::make_unique<NamedBarrier>();
    Sync->Id = NextNamedBarrier++;
    Sync->Count = Writers.threads();
    Ctx.add(std::move(Sync), S, Out);
  }

  void meet(LoweringContext &Ctx, const Role &R, const hir::Stmt &S,
            std::vector<InstId> &Out) override {
    // One named barrier per role, numbered with the writers' barriers.
    auto [It, New] = MeetBarriers.try_emplace(R.Begin, NextNamedBarrier);
    if (New)
      ++NextNamedBarrier;
    auto Sync = std::make_unique<NamedBarrier>();
    Sync->Id = It->second;
    Sync->Count = R.threads();
    Ctx.add(std::move(Sync), S, Out);
  }

  std::int64_t arrive(LoweringContext &Ctx, const HandoffPoint &At,
                      const hir::Stmt &S, std::vector<InstId> &Out) override {
    auto A = barrierUse<Arrive>(At);
    if (At.Ctas > 1) {
      // The readers of a multicast ring are WGMMA warpgroups, whose reads
      // complete per warpgroup (wgmma.wait_group): one arrival per
      // warpgroup and CTA, thread r of each warpgroup on rank r's object.
      if (At.Elected >= 0 || At.Threads % WarpgroupThreads != 0) {
        Ctx.refuse(plugin::DiagId::err_tf_lower_op, LoweringContext::at(S),
                   {Ctx.opText(S), "cuda_sm90",
                    "a ring that multicast loads fill is released by whole "
                    "warpgroups (WGMMA), one arrival each per CTA of the "
                    "cluster; its readers here are " +
                        std::to_string(At.Threads) + " threads"});
        return 0;
      }
      A->Cluster = true;
      A->Threads = At.Threads / WarpgroupThreads;
      Ctx.add(std::move(A), S, Out);
      return At.Threads / WarpgroupThreads * At.Ctas;
    }
    const std::int64_t Arrivals = At.Elected >= 0 ? 1 : At.Threads;
    Ctx.add(std::move(A), S, Out);
    return Arrivals;
  }

  void initialize(LoweringContext &Ctx, std::vector<InstId> &Out) override {
    Kernel &L = Ctx.L;
    if (L.Barriers.empty() && L.ClusterCtas == 1)
      return; // nothing to initialise, nobody to wait for it
    Stmt Init(RoleStmt{"init", "", 0, 1}, Ctx.H.Range);
    for (BarrierId B = 0; B < L.Barriers.size(); ++B) {
      auto I = std::make_unique<BarrierInit>();
      I->Bar = B;
      I->Count = L.Barriers[B].Arrivals;
      Init.Body.push_back(L.addInst(Stmt(std::move(I), Ctx.H.Range)));
    }
    Out.push_back(L.addInst(std::move(Init)));
    Out.push_back(
        L.addInst(Stmt(std::make_unique<FenceBarrierInit>(), Ctx.H.Range)));
    if (L.ClusterCtas > 1)
      Out.push_back(
          L.addInst(Stmt(std::make_unique<ClusterBarrier>(), Ctx.H.Range)));
  }

  void finish(LoweringContext &Ctx, std::vector<InstId> &Out) override {
    Kernel &L = Ctx.L;
    if (L.ClusterCtas > 1)
      Out.push_back(
          L.addInst(Stmt(std::make_unique<ClusterBarrier>(), Ctx.H.Range)));
  }

  BarrierObject barrierObject() const override {
    return {"mbarrier", MbarrierBytes, MbarrierBytes, "mbarrier"};
  }

private:
  /// Named barrier 0 is __syncthreads'; the writers' barriers take the
  /// next ones.
  unsigned NextNamedBarrier = 1;
  /// The barrier of each role's meets, by the role's first thread.
  std::map<std::int64_t, unsigned> MeetBarriers;
};

} // namespace

std::unique_ptr<HandoffProtocol> handoffProtocol() {
  return std::make_unique<MbarrierProtocol>();
}

} // namespace tf::backend::sm90
