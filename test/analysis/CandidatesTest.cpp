//===- test/analysis/CandidatesTest.cpp - findCandidates on hand-built kernels -===//
//
// The optimal GEMM (GemmKernel.h) with its MMA undecided (a tf::matmul): on
// the compute mesh WGMMA is accepted with the parameters the operands
// decide and the derived repeat; on the CTA mesh every MMA is refused at the
// mesh. Which contracts implement which op comes from the contract data.
//
//===----------------------------------------------------------------------===//

#include "GemmKernel.h"
#include "Render.h"

#include "analysis/Analysis.h"
#include "analysis/Candidates.h"

#include <algorithm>

namespace tf::test {
namespace {

using namespace hir;
using analysis::Candidate;
using analysis::CandidateSite;

std::vector<std::string> ids(const std::vector<const Contract *> &Cs) {
  std::vector<std::string> Out;
  for (const Contract *C : Cs)
    Out.emplace_back(C->id.view());
  return Out;
}

/// The GEMM of \p O with its MMA written as tf::matmul, inferred.
GemmKernel undecidedMma(GemmOptions O = {}) {
  GemmKernel G = buildGemm(O);
  Stmt &Mma = G.K.Stmts[G.Mma];
  Mma.Sched.reset();
  Mma.Op = OpKind::Matmul;
  analysis::infer(G.K);
  return G;
}

std::string params(const Candidate &C) {
  std::string Out;
  for (const analysis::CandidateParam &P : C.Params)
    Out += (Out.empty() ? "" : " ") + P.Name + "=" + P.Value;
  return Out;
}

const Candidate *find(const CandidateSite &S, const std::string &Id) {
  for (const Candidate &C : S.Candidates)
    if (C.ContractId == Id)
      return &C;
  return nullptr;
}

TEST(Candidates, ContractsForEachOpComeFromTheContractData) {
  EXPECT_EQ(ids(analysis::contractsFor(OpKind::Matmul)),
            (std::vector<std::string>{"intel.amx.Tdpbf16ps", "nv.sm80.Mma",
                                      "nv.sm89.Mma", "nv.sm90.Wgmma"}));
  std::vector<std::string> Copies = ids(analysis::contractsFor(OpKind::Copy));
  EXPECT_EQ(Copies, ids(analysis::contractsFor(OpKind::InsertSlice)));
  for (const char *Id : {"generic.Copy", "nv.sm80.CpAsync", "nv.sm80.Ldmatrix",
                         "nv.sm90.CopyAsyncTensor", "nv.sm90.Stmatrix",
                         "intel.amx.TileLoad", "intel.amx.TileStore"})
    EXPECT_NE(std::find(Copies.begin(), Copies.end(), Id), Copies.end()) << Id;
  EXPECT_EQ(ids(analysis::contractsFor(OpKind::Cast)),
            (std::vector<std::string>{"generic.Cast"}));
  for (OpKind Op : {OpKind::Add, OpKind::Sub, OpKind::Mul, OpKind::Maximum,
                    OpKind::Minimum})
    EXPECT_EQ(ids(analysis::contractsFor(Op)),
              (std::vector<std::string>{"generic.Binary", "nv.sm90.PackedBf16"}))
        << opName(Op).str();
  // The row kernels' pieces: reductions across a warp or a CTA, and the
  // special-function unit's ex2 and rsqrt (not e^x: no contract computes it).
  for (OpKind Op : {OpKind::ReduceSum, OpKind::ReduceMax})
    EXPECT_EQ(ids(analysis::contractsFor(Op)),
              (std::vector<std::string>{"nv.sm90.CtaReduce", "nv.sm90.WarpReduce"}))
        << opName(Op).str();
  for (OpKind Op : {OpKind::Exp2, OpKind::Rsqrt})
    EXPECT_EQ(ids(analysis::contractsFor(Op)),
              (std::vector<std::string>{"nv.sm90.FastMath"}))
        << opName(Op).str();
  for (const char *Id : {"nv.sm90.VectorLoad", "nv.sm90.VectorStore"})
    EXPECT_NE(std::find(Copies.begin(), Copies.end(), Id), Copies.end()) << Id;
  EXPECT_TRUE(analysis::contractsFor(OpKind::Exp).empty());
  EXPECT_TRUE(analysis::contractsFor(OpKind::Broadcast).empty());
  EXPECT_TRUE(analysis::contractsFor(OpKind::Zeros).empty());
}

TEST(Candidates, ScheduledOpsAndTheirFusedCastAreDecided) {
  GemmKernel G = buildGemm();
  analysis::infer(G.K);
  for (StmtId S = 0; S < G.K.Stmts.size(); ++S)
    EXPECT_FALSE(analysis::isUndecided(G.K, S)) << "statement " << S;
  EXPECT_TRUE(
      analysis::findCandidates(G.K, &target("nvidia.h200_sxm")).empty());
}

TEST(Candidates, WgmmaIsAcceptedOnTheComputeMesh) {
  GemmKernel G = undecidedMma();
  EXPECT_TRUE(analysis::isUndecided(G.K, G.Mma));
  std::vector<CandidateSite> Sites =
      analysis::findCandidates(G.K, &target("nvidia.h200_sxm"));
  ASSERT_EQ(Sites.size(), 1u);
  const CandidateSite &S = Sites[0];
  EXPECT_EQ(S.Op, G.Mma);
  EXPECT_EQ(S.Kind, OpKind::Matmul);
  EXPECT_EQ(S.MeshSpelling, "compute");
  ASSERT_EQ(S.Operands.size(), 3u);
  EXPECT_EQ(S.Operands[0].Access, "read-write");
  const Candidate *W = find(S, "nv.sm90.Wgmma");
  ASSERT_NE(W, nullptr);
  EXPECT_TRUE(W->Accepted) << W->Reasons.size() << " reasons, first "
                           << (W->Reasons.empty() ? "" : W->Reasons[0].Text);
  EXPECT_EQ(params(*W), "n=256 dtype=bf16 form=SS a_major=K b_major=MN k=16");
  EXPECT_EQ(W->Repeat, (std::vector<std::int64_t>{2, 1, 4}));
  for (const analysis::CandidateParam &P : W->Params)
    EXPECT_EQ(P.Source, P.Name == "k" ? "derived" : "operands") << P.Name;
  // The warp-level MMAs need register operands: refused, with reasons.
  const Candidate *M = find(S, "nv.sm80.Mma");
  ASSERT_NE(M, nullptr);
  EXPECT_FALSE(M->Accepted);
  EXPECT_FALSE(M->Reasons.empty());
  // AMX needs its capability, which the H200 lacks.
  const Candidate *Amx = find(S, "intel.amx.Tdpbf16ps");
  ASSERT_NE(Amx, nullptr);
  EXPECT_FALSE(Amx->Accepted);
  EXPECT_TRUE(std::any_of(Amx->Reasons.begin(), Amx->Reasons.end(),
                          [](const analysis::CandidateReason &R) {
                            return R.Kind == ReasonKind::capability;
                          }));
}

TEST(Candidates, EveryMmaIsRefusedOnTheCtaMesh) {
  GemmOptions O;
  O.ComputeScopeOnMma = false;
  GemmKernel G = undecidedMma(O);
  std::vector<CandidateSite> Sites =
      analysis::findCandidates(G.K, &target("nvidia.h200_sxm"));
  ASSERT_EQ(Sites.size(), 1u);
  EXPECT_EQ(Sites[0].MeshSpelling, "");
  EXPECT_EQ(Sites[0].Mesh, "Mesh(cta, (1):(1))");
  EXPECT_EQ(Sites[0].UnscopedMesh, "one unit of the tile loop's mesh");
  for (const char *Id : {"nv.sm90.Wgmma", "nv.sm80.Mma", "nv.sm89.Mma"}) {
    const Candidate *C = find(Sites[0], Id);
    ASSERT_NE(C, nullptr) << Id;
    EXPECT_FALSE(C->Accepted) << Id;
    ASSERT_FALSE(C->Reasons.empty()) << Id;
    EXPECT_EQ(C->Reasons[0].Kind, ReasonKind::mesh) << Id;
    EXPECT_NE(C->Reasons[0].Text.find("Mesh(cta, (1):(1)) does not match "
                                      "Mesh(thread, "),
              std::string::npos)
        << C->Reasons[0].Text;
  }
}

/// A row reduction: tf::reduce_<Op><1> of a 4 x 1024 f32 register tile on
/// \p M (one row per warp of a 4 x 32 thread mesh, or the CTA mesh).
Kernel rowReduction(OpKind Op, const Mesh &M, std::string Spelling) {
  Kernel K;
  K.Name = "rows";
  K.Target = "nvidia.h200_sxm";
  K.Topologies = {topology("cta", 8), topology("thread", 128)};
  Stmt Body;
  Body.Kind = StmtKind::Block;
  K.Body = K.addStmt(Body);
  Stmt Scope;
  Scope.Kind = StmtKind::MeshScope;
  Scope.Mesh = M;
  Scope.MeshSpelling = std::move(Spelling);
  Scope.Parent = K.Body;
  StmtId ScopeId = K.addStmt(Scope);
  K.Stmts[K.Body].Body.push_back(ScopeId);
  auto Reg = [&](const std::string &Name, const std::string &Text) {
    Value V;
    V.Kind = ValueKind::Tensor;
    V.Name = Name;
    V.Type = tensorType(DType::f32, Storage::rmem, Text);
    V.Scope = ScopeId;
    return K.addValue(V);
  };
  ValueId Row = Reg("row", "(4@warp,(4,32@lane,8)):(1024,(256,8,1))");
  ValueId Sum = Reg("sum", "(4)");
  Stmt Reduce;
  Reduce.Kind = StmtKind::Op;
  Reduce.Op = Op;
  Reduce.Range = at(30);
  Reduce.CallRange = at(30, 20);
  Reduce.Operands = {Row};
  Reduce.Result = Sum;
  Reduce.Parent = ScopeId;
  Reduce.Access.DimNames = {"d0", "d1"};
  Reduce.Access.Domain = IntTuple{4, 1024};
  Reduce.Access.Accesses = {{Row, AccessKind::Read, {0, 1}, {}, {}, at(30)},
                            {Sum, AccessKind::Write, {0}, {}, {}, at(30)}};
  StmtId ReduceId = K.addStmt(Reduce);
  K.Stmts[ScopeId].Body.push_back(ReduceId);
  K.Values[Row].Def = ReduceId; // defined before, as far as the site goes
  K.Values[Sum].Def = ReduceId;
  analysis::infer(K);
  return K;
}

/// The site of \p K's reduction (a register op: decided by its layout, so
/// not among findCandidates' sites) with its contracts matched.
CandidateSite reductionSite(const Kernel &K) {
  for (StmtId Id : K.preorder())
    if (K.Stmts[Id].Kind == StmtKind::Op)
      return analysis::candidateSite(K, Id, &target("nvidia.h200_sxm"));
  return {};
}

TEST(Candidates, RowReductionsTakeWarpOrCtaReductions) {
  const Mesh Warps = mesh("thread", IntTuple{4, 32}, "warp", "lane");
  for (OpKind Op : {OpKind::ReduceSum, OpKind::ReduceMax}) {
    Kernel K = rowReduction(Op, Warps, "threads");
    // A register op: no undecided site, its instructions follow from the
    // layout; its contracts still match.
    EXPECT_TRUE(analysis::findCandidates(K, &target("nvidia.h200_sxm")).empty());
    const CandidateSite Site = reductionSite(K);
    EXPECT_EQ(Site.Kind, Op);
    for (const char *Id : {"nv.sm90.WarpReduce", "nv.sm90.CtaReduce"}) {
      const Candidate *C = find(Site, Id);
      ASSERT_NE(C, nullptr) << Id;
      EXPECT_TRUE(C->Accepted)
          << Id << ": " << (C->Reasons.empty() ? "" : C->Reasons[0].Text);
      EXPECT_EQ(params(*C), std::string("op=") +
                                (Op == OpKind::ReduceSum ? "add" : "max") +
                                " dtype=f32")
          << Id;
    }
  }
  // A warp's butterfly needs whole warps: 16 threads are refused at the mesh.
  Kernel Half = rowReduction(OpKind::ReduceSum,
                             mesh("thread", IntTuple{16}, "lane"), "half");
  const CandidateSite Site = reductionSite(Half);
  const Candidate *W = find(Site, "nv.sm90.WarpReduce");
  ASSERT_NE(W, nullptr);
  EXPECT_FALSE(W->Accepted);
  ASSERT_FALSE(W->Reasons.empty());
  EXPECT_EQ(W->Reasons[0].Kind, ReasonKind::mesh);
}

TEST(Candidates, SameKernelGivesTheSameCandidates) {
  GemmKernel A = undecidedMma(), B = undecidedMma();
  std::vector<CandidateSite> X =
      analysis::findCandidates(A.K, &target("nvidia.h200_sxm"));
  std::vector<CandidateSite> Y =
      analysis::findCandidates(B.K, &target("nvidia.h200_sxm"));
  ASSERT_EQ(X.size(), Y.size());
  ASSERT_EQ(X[0].Candidates.size(), Y[0].Candidates.size());
  for (std::size_t I = 0; I < X[0].Candidates.size(); ++I) {
    EXPECT_EQ(X[0].Candidates[I].ContractId, Y[0].Candidates[I].ContractId);
    EXPECT_EQ(params(X[0].Candidates[I]), params(Y[0].Candidates[I]));
    EXPECT_EQ(X[0].Candidates[I].Reasons.size(),
              Y[0].Candidates[I].Reasons.size());
  }
}

} // namespace
} // namespace tf::test
