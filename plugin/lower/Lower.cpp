//===- plugin/lower/Lower.cpp - HIR to LIR, as passes ---------------------===//
//
// See Lower.h: the kernel's preconditions, then the passes in order.
//
//===----------------------------------------------------------------------===//
#include "lower/Lower.h"
#include "lower/Context.h"
#include "lower/Fusion.h"
#include "lower/MemoryPlan.h"
#include "lower/PipelineSynthesis.h"
#include "lower/RoleProjection.h"
#include "lower/Verify.h"

#include "analysis/Candidates.h"
#include "analysis/Capacity.h"
#include "backend/Backend.h"

#include "targets/TargetFacts.h"

namespace tf::lower {

using plugin::DiagId;

namespace {

analysis::Finding at(DiagId Id, const hir::SourceRange &R,
                     std::vector<std::string> Args) {
  return {Id, R, std::move(Args), {}, {}};
}

/// The kernel-level preconditions of lowering with backend \p Chosen (null:
/// the target's); the backend when they hold.
const backend::Backend *preconditions(const hir::Kernel &K,
                                      const targets::MergedTarget *Target,
                                      const backend::Backend *Chosen,
                                      std::vector<analysis::Finding> &Out) {
  // Every op needs its instruction before anything is lowered.
  for (hir::StmtId Id : K.preorder())
    if (analysis::isUndecided(K, Id)) {
      const hir::Stmt &S = K.Stmts[Id];
      Out.push_back(at(DiagId::err_tf_lower_undecided,
                       S.CallRange.valid() ? S.CallRange : S.Range,
                       {"tf." + hir::opName(S.Op).str()}));
    }
  if (!Out.empty())
    return nullptr;
  const hir::SourceRange &TargetAt =
      K.TargetRange.valid() ? K.TargetRange : K.Range;
  if (!Target) {
    Out.push_back(at(DiagId::err_tf_lower_target, K.Range,
                     {K.Name, "it names no target (tf::target(\"...\") in "
                              "[[tf::kernel]]); lowering selects a target's "
                              "instructions within its limits"}));
    return nullptr;
  }
  const backend::Backend *B = Chosen ? Chosen : backend::backendFor(*Target);
  if (!B) {
    Out.push_back(at(DiagId::err_tf_lower_target, TargetAt,
                     {K.Name, "target '" + K.Target +
                                  "' has no backend; backends exist for " +
                                  backend::knownBackends()}));
    return nullptr;
  }
  if (!analysis::intFact(*Target, "cta.shared_memory.max")) {
    Out.push_back(at(DiagId::err_tf_lower_target, TargetAt,
                     {K.Name, "target '" + K.Target +
                                  "' has no fact cta.shared_memory.max, the "
                                  "limit the shared-memory map is checked "
                                  "against"}));
    return nullptr;
  }
  if (K.Topologies.size() != 2 || !K.Topologies.back().extent.is_constant()) {
    Out.push_back(at(DiagId::err_tf_lower_target, K.Range,
                     {K.Name, "it is lowered from two topologies, CTAs and "
                              "a static count of threads per CTA"}));
    return nullptr;
  }
  return B;
}

LoweringResult lowerWith(const hir::Kernel &K,
                         const targets::MergedTarget *Target,
                         const backend::Backend *Chosen) {
  LoweringResult Result;
  const backend::Backend *B = preconditions(K, Target, Chosen, Result.Refusals);
  if (!B)
    return Result;
  Result.Backend = B;

  LoweringContext Ctx(K, *Target, *B);
  Kernel &L = Ctx.L;
  L.Name = K.Name;
  L.MangledName = K.MangledName;
  L.Target = K.Target;
  L.Range = K.Range;
  L.SharedLimit = *analysis::intFact(*Target, "cta.shared_memory.max");
  L.BlockThreads = K.Topologies.back().extent.value;
  L.ResidentCtas = K.ResidentCtas;
  for (hir::ValueId P : K.Parameters) {
    const hir::Value &V = K.Values[P];
    Parameter Out;
    Out.Name = V.Name;
    if (V.Kind == hir::ValueKind::Index) {
      Out.What = Parameter::Kind::Integer;
      Out.ScalarType = V.ScalarType;
    } else if (V.Kind == hir::ValueKind::Scalar) {
      Out.What = Parameter::Kind::Float;
      Out.ScalarType = V.Type.Element == DType::f64 ? "double" : "float";
    } else {
      Out.Element = V.Type.Element;
      const IntTuple Shape = V.Type.shape();
      Out.Rank = Shape.is_leaf() ? 1 : Shape.rank();
    }
    L.Parameters.push_back(std::move(Out));
  }

  findRoles(Ctx);
  planViews(Ctx);
  fuseElementwise(Ctx);
  if (!Ctx.failed() && Ctx.Roles.empty())
    Ctx.refuse(DiagId::err_tf_lower_role, K.Range,
               {"the kernel", "no mesh", "it has no mesh scope of threads, "
                                         "and each scope is lowered as a role"});
  if (Ctx.failed()) {
    Result.Refusals = Ctx.takeRefusals();
    Result.InternalErrors = Ctx.takeInternalErrors();
    return Result;
  }
  std::vector<InstId> Roles;
  projectRoles(Ctx, Roles);
  checkHandoffs(Ctx);
  if (Ctx.failed()) {
    Result.Refusals = Ctx.takeRefusals();
    Result.InternalErrors = Ctx.takeInternalErrors();
    return Result;
  }
  placeBarriers(Ctx);
  if (Ctx.failed()) {
    Result.Refusals = Ctx.takeRefusals();
    Result.InternalErrors = Ctx.takeInternalErrors();
    return Result;
  }
  Ctx.Protocol->initialize(Ctx, L.Body);
  L.Body.insert(L.Body.end(), Roles.begin(), Roles.end());
  Ctx.Protocol->finish(Ctx, L.Body);

  if (llvm::Error E = verify(L)) {
    hir::SourceRange At = K.Range;
    At.End = 0;
    Result.InternalErrors.push_back(
        {At, "the lowered form of '" + K.Name +
                 "' fails verification: " + llvm::toString(std::move(E))});
    return Result;
  }
  Result.Lowered = std::move(L);
  return Result;
}

} // namespace

LoweringResult lowerKernel(const hir::Kernel &K,
                           const targets::MergedTarget *Target) {
  return lowerWith(K, Target, nullptr);
}

LoweringResult lowerKernel(const hir::Kernel &K,
                           const targets::MergedTarget *Target,
                           const backend::Backend &B) {
  return lowerWith(K, Target, &B);
}

} // namespace tf::lower
