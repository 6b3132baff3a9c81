//===- plugin/backend/Backend.cpp - The backends by architecture ----------===//
//
// See Backend.h. The table below is the one place that ties an
// architecture to its backend.
//
//===----------------------------------------------------------------------===//
#include "backend/Backend.h"
#include "backend/cuda_sm90/CudaSm90.h"

#include "targets/TargetFacts.h"

#include "tf/atoms/registry.hpp"

#include <algorithm>

namespace tf::backend {

Backend::~Backend() = default;

namespace {

struct Entry {
  llvm::StringLiteral Architecture;
  const Backend &(*Get)();
};

constexpr Entry Backends[] = {
    {"nvidia.sm90", cudaSm90},
};

} // namespace

const Backend *backendFor(const targets::MergedTarget &T) {
  std::vector<std::string> Closure = T.ArchitectureClosure;
  if (T.Doc && T.Doc->Kind == targets::DocumentKind::Architecture)
    Closure.insert(Closure.begin(), T.Doc->Id);
  for (const std::string &Arch : Closure)
    for (const Entry &E : Backends)
      if (E.Architecture == Arch)
        return &E.Get();
  return nullptr;
}

void rankCandidates(const hir::Kernel &K, const targets::MergedTarget *Target,
                    std::vector<analysis::CandidateSite> &Sites) {
  const Backend *B = Target ? backendFor(*Target) : nullptr;
  if (!B)
    return;
  for (analysis::CandidateSite &S : Sites) {
    for (analysis::Candidate &C : S.Candidates) {
      C.Backend = B->name().str();
      const Contract *Contract = find_contract(C.ContractId);
      if (!C.Accepted || !Contract)
        continue;
      const Support Sup = B->supports(K, S.Op, *Contract);
      C.Lowerable = Sup.Lowerable;
      C.NotLowered = Sup.Why;
      C.Rank = Sup.Rank;
    }
    auto Group = [](const analysis::Candidate &C) {
      return C.Lowerable ? 0 : C.Accepted ? 1 : 2;
    };
    std::stable_sort(S.Candidates.begin(), S.Candidates.end(),
                     [&](const analysis::Candidate &A,
                         const analysis::Candidate &B) {
                       if (Group(A) != Group(B))
                         return Group(A) < Group(B);
                       return A.Rank > B.Rank;
                     });
  }
}

std::string knownBackends() {
  std::string Out;
  for (const Entry &E : Backends)
    Out += (Out.empty() ? "" : ", ") + E.Architecture.str() + " (" +
           E.Get().name().str() + ")";
  return Out;
}

} // namespace tf::backend
