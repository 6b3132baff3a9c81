//===- plugin/backend/Backend.cpp - The backends by architecture ----------===//
//
// See Backend.h. The table below is the one place that ties an
// architecture to its backend.
//
//===----------------------------------------------------------------------===//
#include "backend/Backend.h"
#include "backend/cuda_sm90/CudaSm90.h"

#include "targets/TargetFacts.h"

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

std::string knownBackends() {
  std::string Out;
  for (const Entry &E : Backends)
    Out += (Out.empty() ? "" : ", ") + E.Architecture.str() + " (" +
           E.Get().name().str() + ")";
  return Out;
}

} // namespace tf::backend
