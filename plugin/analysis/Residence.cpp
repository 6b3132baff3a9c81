//===- plugin/analysis/Residence.cpp - Where a kernel's values live -------===//
//
// See Residence.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/Residence.h"

#include "tf/contract/match.hpp"
#include "tf/layout/algebra/coalesce.hpp"

namespace tf::analysis {

hir::ValueId rootOf(const hir::Kernel &K, hir::ValueId V) {
  // A window chain is short; the bound guards against a malformed cycle.
  for (unsigned Steps = 0; V != hir::None && Steps < K.Values.size(); ++Steps) {
    hir::ValueId Up = K.Values[V].TileOf;
    if (Up == hir::None || Up >= K.Values.size())
      return V;
    V = Up;
  }
  return V;
}

hir::StmtId holderScope(const hir::Kernel &K, hir::ValueId V) {
  const hir::Value &Root = K.Values[rootOf(K, V)];
  if (Root.Scope != hir::None)
    return Root.Scope;
  if (Root.Def != hir::None)
    return K.meshScopeOf(Root.Def);
  return hir::None;
}

bool inRegisters(const hir::Kernel &K, hir::ValueId V) {
  const hir::Value &Root = K.Values[rootOf(K, V)];
  return Root.Kind == hir::ValueKind::Tensor &&
         Root.Type.Where == Storage::rmem;
}

bool sameUnits(const tf::Mesh &A, const tf::Mesh &B) {
  if (detail::same_units(A, B))
    return true;
  if (!(A.level == B.level) || !(A.offset == B.offset))
    return false;
  Result<Layout> X = coalesce(A.layout);
  Result<Layout> Y = coalesce(B.layout);
  return X.ok() && Y.ok() && *X == *Y;
}

std::string describeValue(const hir::Kernel &K, hir::ValueId V) {
  const hir::Value &Val = K.Values[V];
  if (!Val.Name.empty())
    return "'" + Val.Name + "'";
  if (Val.TileOf != hir::None && Val.TileOf < K.Values.size())
    return "a window of " + describeValue(K, Val.TileOf);
  if (Val.Def != hir::None && K.Stmts[Val.Def].Kind == hir::StmtKind::Op)
    return "the result of tf::" + hir::opName(K.Stmts[Val.Def].Op).str();
  return "a temporary";
}

hir::SourceRange definitionRange(const hir::Kernel &K, hir::ValueId V) {
  const hir::Value &Val = K.Values[V];
  if (Val.Range.valid() || Val.Def == hir::None)
    return Val.Range;
  return K.Stmts[Val.Def].Range;
}

std::string formatBytes(std::int64_t Bytes) {
  constexpr std::int64_t KiB = 1024, MiB = 1024 * 1024;
  if (Bytes >= MiB && (Bytes * 100) % MiB == 0) {
    std::int64_t Hundredths = Bytes * 100 / MiB;
    std::string Out = std::to_string(Hundredths / 100);
    if (std::int64_t Frac = Hundredths % 100; Frac != 0) {
      Out += '.';
      Out += static_cast<char>('0' + Frac / 10);
      if (Frac % 10 != 0)
        Out += static_cast<char>('0' + Frac % 10);
    }
    return Out + " MiB";
  }
  if (Bytes != 0 && Bytes % KiB == 0)
    return std::to_string(Bytes / KiB) + " KiB";
  return std::to_string(Bytes) + (Bytes == 1 ? " byte" : " bytes");
}

} // namespace tf::analysis
