//===- plugin/analysis/Launch.cpp - The launch against the target's limits ===//
//
// checkLaunch (Analysis.h): what a kernel asks of a launch and the target
// has a hard limit for, against the target's facts. Unlike the capacities
// (Capacity.cpp, warnings: a kernel over them may still run, slowly or after
// an opt-in), a launch over one of these limits never starts, so each is an
// error at the decision that asks for it:
//
//   threads per CTA   the innermost of two or more topologies
//                     (tf::topology("thread", N)) against cta.threads.max;
//   CTAs per cluster  a tile loop's `.cluster` against
//                     cluster.ctas.portable_max (tf's launchers do not opt in
//                     to non-portable cluster sizes);
//   resident CTAs     tf::resident_ctas(n): n CTAs on one SM at once, so n
//                     against sm.ctas.max, n x threads per CTA against
//                     sm.threads.max, n x the CTA's shared memory (when known)
//                     against sm.shared_memory.capacity. The backend caps
//                     registers per thread to fit n; an n no SM can hold
//                     would be a cap that buys nothing.
//
// A fact the target does not give checks nothing.
//
// One launch shape starts but runs slower than it reads, a warning
// (warn_tf_capacity_clusters): persistent CTAs in clusters that the device
// cannot keep resident all at once. A cluster runs on one GPC, and the SMs
// of a GPC left over after its whole clusters stay idle, so with one CTA per
// SM (its shared memory over half the SM's, `sm.shared_memory.capacity`)
// only `cluster.resident_ctas.<c>` CTAs in clusters of c run at a time
// (measured); a persistent grid of more waits for a second wave.
//
//===----------------------------------------------------------------------===//

#include "analysis/Analysis.h"
#include "analysis/Capacity.h"

#include "targets/TargetFacts.h"

namespace tf::analysis {
namespace {

Finding limitFinding(hir::SourceRange Range, std::string Asker,
                     std::string Asked, const targets::MergedTarget &T,
                     std::int64_t Limit, llvm::StringRef Fact) {
  Finding F;
  F.Id = plugin::DiagId::err_tf_launch_limit;
  F.Range = Range;
  F.Args = {std::move(Asker), std::move(Asked),
            T.Doc ? T.Doc->Id : std::string("the target"),
            std::to_string(Limit), Fact.str()};
  return F;
}

/// The shared memory one CTA of \p K takes, when every allocation's size
/// is known at compile time.
std::optional<std::int64_t> sharedBytes(const hir::Kernel &K) {
  std::int64_t Total = 0;
  for (const SharedAllocation &A : sharedAllocations(K)) {
    if (!A.SlotBytes)
      return std::nullopt;
    Total += *A.bytes();
  }
  return Total;
}

void checkResidentCtas(const hir::Kernel &K,
                       const targets::MergedTarget &Target,
                       std::vector<Finding> &Out) {
  if (!K.ResidentCtasRange.valid() || K.Topologies.size() < 2 ||
      !K.Topologies.back().extent.is_constant())
    return;
  const std::int64_t N = K.ResidentCtas;
  const std::int64_t Threads = K.Topologies.back().extent.value;
  const std::string Asker = "kernel '" + K.Name + "'";
  const std::string CTAs =
      std::to_string(N) + " resident CTA" + (N == 1 ? "" : "s") + " per SM";
  auto Check = [&](llvm::StringRef Fact, std::int64_t Asked,
                   const std::string &What) {
    std::optional<std::int64_t> Limit = intFact(Target, Fact);
    if (Limit && Asked > *Limit)
      Out.push_back(limitFinding(K.ResidentCtasRange, Asker, What, Target,
                                 *Limit, Fact));
  };
  Check("sm.ctas.max", N, CTAs);
  Check("sm.threads.max", N * Threads,
        CTAs + " of " + std::to_string(Threads) + " threads (" +
            std::to_string(N * Threads) + " threads)");
  if (std::optional<std::int64_t> Shared = sharedBytes(K); Shared && *Shared)
    Check("sm.shared_memory.capacity", N * *Shared,
          CTAs + " of " + std::to_string(*Shared) +
              " bytes of shared memory (" + std::to_string(N * *Shared) +
              " bytes)");
}

void checkResidentClusters(const hir::Kernel &K,
                           const targets::MergedTarget &Target,
                           std::vector<Finding> &Out) {
  std::optional<std::int64_t> PerSm =
      intFact(Target, "sm.shared_memory.capacity");
  std::optional<std::int64_t> Shared = sharedBytes(K);
  // The facts are measured with one CTA per SM.
  if (!PerSm || !Shared || *Shared * 2 <= *PerSm)
    return;
  for (const hir::Stmt &S : K.Stmts) {
    if (S.Kind != hir::StmtKind::Loop ||
        S.Loop != hir::LoopKind::PersistentTiles || S.Cluster <= 1)
      continue;
    Result<std::int64_t> CTAs = S.LoopMesh.size();
    const std::string Fact =
        "cluster.resident_ctas." + std::to_string(S.Cluster);
    std::optional<std::int64_t> Resident = intFact(Target, Fact);
    if (!CTAs || !Resident || *CTAs <= *Resident)
      continue;
    Finding F;
    F.Id = plugin::DiagId::warn_tf_capacity_clusters;
    F.Range = S.ClusterRange.valid() ? S.ClusterRange : S.Range;
    F.Args = {std::to_string(*CTAs), std::to_string(S.Cluster),
              std::to_string(*Resident),
              Target.Doc ? Target.Doc->Id : std::string("the target"), Fact};
    Out.push_back(std::move(F));
  }
}

} // namespace

std::vector<Finding> checkLaunch(const hir::Kernel &K,
                                 const targets::MergedTarget &Target) {
  std::vector<Finding> Out;
  if (K.Topologies.size() >= 2 && K.Topologies.back().extent.is_constant()) {
    const tf::Topology &Threads = K.Topologies.back();
    std::optional<std::int64_t> Max = intFact(Target, "cta.threads.max");
    if (Max && Threads.extent.value > *Max) {
      std::size_t I = K.Topologies.size() - 1;
      Out.push_back(limitFinding(
          I < K.TopologyRanges.size() ? K.TopologyRanges[I] : K.Range,
          "kernel '" + K.Name + "'",
          std::to_string(Threads.extent.value) + " " +
              std::string(Threads.level.view()) + " units per CTA",
          Target, *Max, "cta.threads.max"));
    }
  }
  std::optional<std::int64_t> ClusterMax =
      intFact(Target, "cluster.ctas.portable_max");
  for (const hir::Stmt &S : K.Stmts)
    if (ClusterMax && S.Kind == hir::StmtKind::Loop &&
        S.Cluster > *ClusterMax)
      Out.push_back(limitFinding(
          S.ClusterRange.valid() ? S.ClusterRange : S.Range, "the tile loop",
          "clusters of " + std::to_string(S.Cluster) + " CTAs", Target,
          *ClusterMax, "cluster.ctas.portable_max"));
  checkResidentCtas(K, Target, Out);
  checkResidentClusters(K, Target, Out);
  return Out;
}

} // namespace tf::analysis
