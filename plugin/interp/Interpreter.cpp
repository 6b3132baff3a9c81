//===- plugin/interp/Interpreter.cpp - Running the LIR on the CPU ---------===//
//
// See Interpreter.h and Run.h. This file: the run's set-up (arguments,
// tensor maps, what each role and accumulator is), its expressions, and the
// dispatch over statements -- one function per kind, in the file of its
// concept; a kind without one is an error naming it, so new kinds slot in
// there.
//
//===----------------------------------------------------------------------===//
#include "interp/Run.h"

#include "llvm/ADT/StringExtras.h"

#include <algorithm>

namespace tf::interp {

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

llvm::Error interpret(const lower::Kernel &K, llvm::ArrayRef<TensorArg> Args,
                      const InterpOptions &Opts, InterpStats *Stats) {
  InterpStats Local;
  impl::Run R(K, Args, Opts, Stats ? *Stats : Local);
  return R.run();
}

namespace impl {

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
  case lower::StmtKind::RegisterLoad:
    return "ld.global";
  case lower::StmtKind::RegisterMath:
    return lower::registerOpName(S.get<lower::RegisterMathStmt>().Op);
  case lower::StmtKind::RegisterReduce:
    return "reduce";
  case lower::StmtKind::RegisterStore:
    return "st.global";
  case lower::StmtKind::RegisterShare:
    return "st.shared";
  case lower::StmtKind::RegisterGather:
    return "gather";
  case lower::StmtKind::Extension:
    break;
  }
  return "an extension statement";
}

/// The accumulator operand (C) of WGMMA atom call \p S.
const OperandView &accumulatorOf(const Stmt &S) {
  return *S.get<AtomCallStmt>().operand("C");
}

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
    if (K.Parameters[I].What == lower::Parameter::Kind::Float)
      continue; // its value is Args[I].Float
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
    CtaState Launch;
    for (InstId Id : K.Body) {
      const auto *L = K.Insts[Id].getIf<lower::LetStmt>();
      if (!L)
        continue;
      llvm::Expected<std::int64_t> V = eval(Launch, nullptr, L->Value);
      if (!V) {
        llvm::consumeError(V.takeError());
        break;
      }
      Launch.Scope.push_back({L->Var, *V});
    }
    llvm::Expected<std::int64_t> G = eval(Launch, nullptr, K.Grid);
    if (!G)
      return fail("the grid of " + K.Name + ": " +
                  llvm::toString(G.takeError()));
    Grid = *G;
  }
  // Clusters of consecutive CTAs run one after another, the CTAs of one
  // together (Cluster.cpp).
  if (K.ClusterCtas < 1 || Grid % K.ClusterCtas != 0)
    return fail("the grid of " + K.Name + ": " + llvm::Twine(Grid) +
                " CTAs do not form clusters of " + llvm::Twine(K.ClusterCtas));
  for (std::int64_t C = 0; C < Grid; C += K.ClusterCtas)
    if (llvm::Error E = runCluster(C))
      return E;
  return llvm::Error::success();
}

//===- Expressions and operands -------------------------------------------===//

llvm::Expected<std::int64_t> Run::eval(const CtaState &C, const Walker *W,
                                       ExprId Id) {
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
    for (auto It = C.Scope.rbegin(); It != C.Scope.rend(); ++It)
      if (It->first == X.Name)
        return It->second;
    if (X.Name == "cta.x" && C.Index >= 0)
      return C.Index;
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
  llvm::Expected<std::int64_t> L = eval(C, W, X.Lhs);
  if (!L)
    return L.takeError();
  llvm::Expected<std::int64_t> R = eval(C, W, X.Rhs);
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

//===- Instructions -------------------------------------------------------===//

llvm::Error Run::execute(Walker &W, const Stmt &S) {
  if (const auto *I = as<ext::Inst>(S))
    return executeExtension(W, S, *I);
  switch (S.kind()) {
  case lower::StmtKind::ZeroFragment:
    return zeroAcc(W, S.get<lower::ZeroFragmentStmt>());
  case lower::StmtKind::StoreFragment:
    return storeFragment(W, S);
  case lower::StmtKind::RegisterLoad:
    return registerLoad(W, S.get<lower::RegisterLoadStmt>());
  case lower::StmtKind::RegisterMath:
    return registerMath(W, S.get<lower::RegisterMathStmt>());
  case lower::StmtKind::RegisterReduce:
    return registerReduce(W, S.get<lower::RegisterReduceStmt>());
  case lower::StmtKind::RegisterStore:
    return registerStore(W, S.get<lower::RegisterStoreStmt>());
  case lower::StmtKind::RegisterShare:
    return registerShare(W, S.get<lower::RegisterShareStmt>());
  case lower::StmtKind::RegisterGather:
    return registerGather(W, S.get<lower::RegisterGatherStmt>());
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
  case ext::Kind::Tma:
    return tma(W, S, llvm::cast<ext::Tma>(I));
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
  case ext::Kind::ClusterBarrier:
    return fail("inside a role is not modeled (it is a cluster-wide "
                "barrier)");
  }
  return fail("the interpreter does not implement this instruction");
}

} // namespace impl
} // namespace tf::interp
