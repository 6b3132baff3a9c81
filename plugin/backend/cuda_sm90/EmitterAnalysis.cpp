//===- plugin/backend/cuda_sm90/EmitterAnalysis.cpp - What to write ---------===//
//
// What the CUDA backend collects from a kernel's LIR before writing it:
// tensor-map names, the run-time extents the device code reads, ring stage
// spacing, accumulators and their descriptor templates, the staged stores'
// address decompositions, and which variables the statements read.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/KernelEmitter.h"
#include "backend/cuda_sm90/Forms.h"

#include "llvm/ADT/STLExtras.h"

#include <functional>

namespace tf::backend::sm90 {

using namespace lower;
using lower::sm90::SmemDescriptor;
namespace ext = lower::sm90;

/// The issuing warpgroups of a WGMMA run execute one sequence: warpgroup
/// g's instructions are warpgroup 0's with the operand starts moved by g
/// times a fixed number of bytes (its M block of A, its N block of B). The
/// emitted code then has no branch around the WGMMAs, which ptxas would
/// otherwise serialise (warning C7520).
llvm::Expected<std::pair<std::int64_t, std::int64_t>>
KernelEmitter::groupStrides(llvm::ArrayRef<InstId> Run) const {
  std::map<std::int64_t, std::vector<InstId>> ByGroup;
  for (InstId Id : Run)
    ByGroup[as<ext::Wgmma>(K.Insts[Id])->AxisValue].push_back(Id);
  const std::vector<InstId> &First = ByGroup.begin()->second;
  std::pair<std::int64_t, std::int64_t> Strides{0, 0};
  for (const auto &[G, Insts] : ByGroup) {
    if (G == 0)
      continue;
    bool Same = Insts.size() == First.size();
    for (std::size_t J = 0; Same && J < Insts.size(); ++J) {
      const auto &A = *as<ext::Wgmma>(K.Insts[First[J]]),
                 &B = *as<ext::Wgmma>(K.Insts[Insts[J]]);
      const std::int64_t BlockA =
          K.Insts[First[J]].get<AtomCallStmt>().operand("C")->Block;
      const std::int64_t BlockB =
          K.Insts[Insts[J]].get<AtomCallStmt>().operand("C")->Block;
      const std::int64_t DA = (B.A.Start - A.A.Start) / G,
                         DB = (B.B.Start - A.B.Start) / G;
      if (G == 1 && J == 0)
        Strides = {DA, DB};
      SmemDescriptor AA = A.A, BA = B.A, AB = A.B, BB = B.B;
      AA.Start = BA.Start = AB.Start = BB.Start = 0;
      Same = A.Atom == B.Atom && BlockA == BlockB && A.KStep == B.KStep &&
             A.TransA == B.TransA && A.TransB == B.TransB && AA == BA &&
             AB == BB && B.A.Start - A.A.Start == G * Strides.first &&
             B.B.Start - A.B.Start == G * Strides.second;
    }
    if (!Same || ByGroup.begin()->first != 0)
      return problemAt(K.Insts[First.front()].Range,
                       "kernel " + K.Name +
                           ": the CUDA backend needs the warpgroups' WGMMA "
                           "sequences to differ only by a per-warpgroup "
                           "operand offset");
  }
  return Strides;
}

void KernelEmitter::collectUses(const std::vector<InstId> &Body, InstId Role,
                                llvm::Error &Err) {
  for (std::size_t At = 0; At < Body.size(); ++At) {
    const InstId Id = Body[At];
    const Stmt &S = K.Insts[Id];
    const auto *W = as<ext::Wgmma>(S);
    if (W && (At == 0 || !isWgmma(Body[At - 1]))) {
      std::size_t End = At;
      while (End < Body.size() && isWgmma(Body[End]))
        ++End;
      llvm::Expected<std::pair<std::int64_t, std::int64_t>> Strides =
          groupStrides(llvm::ArrayRef(Body).slice(At, End - At));
      if (Strides)
        GroupStrides[Id] = *Strides;
      else
        Err = llvm::joinErrors(std::move(Err), Strides.takeError());
    }
    if (S.is<RoleStmt>())
      Role = Id;
    if (S.is<TileLoopStmt>() && TileLoop == None)
      TileLoop = Id;
    if (W) {
      if (!wgmmaType(W->Atom.A) || !wgmmaType(W->Atom.B) ||
          W->Atom.D != WgmmaAccumulator) {
        Err = llvm::joinErrors(
            std::move(Err),
            problem(S.Range, "has no runtime wrapper for '" +
                                 ext::wgmmaOpcode(W->Atom) + "'"));
        continue;
      }
      const AtomCallStmt &Call = S.get<AtomCallStmt>();
      const OperandView &C = *Call.operand("C");
      AccInfo &A = Accumulators[C.Fragment];
      A.N = W->Atom.N;
      A.Blocks = std::max(A.Blocks, C.Block + 1);
      A.Groups = std::max(A.Groups, W->AxisValue + 1);
      RoleNeedsGroups.insert(Role);
      RoleAxis[Role] = W->Axis;
      for (auto [Ring, D] : {std::pair{Call.operand("A")->Ring, W->A},
                             std::pair{Call.operand("B")->Ring, W->B}}) {
        D.Start = 0;
        std::vector<SmemDescriptor> &List = Descriptors[Ring];
        if (!llvm::is_contained(List, D))
          List.push_back(D);
      }
    }
    if (S.is<StoreFragmentStmt>())
      RoleNeedsGroups.insert(Role);
    collectUses(S.Body, Role, Err);
  }
}

llvm::Error KernelEmitter::collect() {
  // Tensor maps: `<param>_map`, numbered when one parameter has several.
  for (const TensorMap &M : K.Maps) {
    const auto Same = llvm::count_if(
        K.Maps, [&](const TensorMap &O) { return O.Tensor == M.Tensor; });
    std::string Name = identifier(M.Tensor) + "_map";
    if (Same > 1)
      Name += std::to_string(MapNames.size());
    MapNames.push_back(Name);
  }
  for (const Expr &E : K.Exprs)
    if (E.Kind == ExprKind::Extent) {
      auto It = llvm::find_if(
          K.Parameters, [&](const Parameter &P) { return P.Name == E.Name; });
      if (It == K.Parameters.end())
        return problem(K.Range, "found the extent of '" + E.Name +
                                    "', which is no parameter");
      Extents.insert({unsigned(It - K.Parameters.begin()), E.Dim});
    }
  // Ring stages must be evenly spaced: the slot's address is then one
  // multiply-add of the clock's slot.
  for (const Region &R : K.Regions) {
    if (R.Kind != RegionKind::RingStage)
      continue;
    const Region &First = firstStage(R.Value);
    if (R.Stage == 1)
      StageBytes[R.Value] = R.Offset - First.Offset;
    else if (R.Stage > 1 &&
             R.Offset != First.Offset + R.Stage * StageBytes[R.Value])
      return problem(K.Range, "needs evenly spaced ring stages; '" + R.Name +
                                  "' is not");
    else if (R.Stage == 0)
      StageBytes.try_emplace(R.Value, R.Bytes);
  }
  llvm::Error Err = llvm::Error::success();
  collectUses(K.Body, None, Err);
  if (Err)
    return Err;
  for (const Stmt &St : K.Insts)
    collectRegisterStmt(St);
  for (const Stmt &St : K.Insts)
    if (const auto *Store = St.getIf<StoreFragmentStmt>()) {
      const StoreFragmentStmt &I = *Store;
      auto A = Accumulators.find(I.Acc);
      if (A == Accumulators.end())
        return problem(St.Range, "stores an accumulator no WGMMA computes");
      if (I.Registers.columns() != A->second.N ||
          I.Registers.registers() != A->second.N / 2)
        return problem(St.Range, "stores the accumulator as a fragment of " +
                                     llvm::Twine(I.Registers.columns()) +
                                     " columns; its WGMMAs compute " +
                                     llvm::Twine(A->second.N));
      if (I.Blocks.count() != A->second.Blocks)
        return problem(St.Range, "stores " + llvm::Twine(I.Blocks.count()) +
                                     " accumulator blocks per warpgroup; its "
                                     "WGMMAs compute " +
                                     llvm::Twine(A->second.Blocks));
      llvm::Expected<AccumulatorStore> S = accumulatorStore(
          K.Regions[I.View], I.Registers, I.Blocks, A->second.Groups);
      if (!S)
        return problem(St.Range, llvm::toString(S.takeError()));
      if (!pairConversion(K.Regions[I.View].Element))
        return problem(St.Range,
                       "cannot convert f32 to " +
                           llvm::Twine(name(K.Regions[I.View].Element)));
      for (const FragmentOp &F : I.Epilogue)
        if (F.Op == ElementwiseOp::Cast && !pairConversion(F.To))
          return problem(St.Range, "cannot round f32 to " +
                                      llvm::Twine(name(F.To)) +
                                      " in an epilogue");
      // The tensors the epilogue reads: their data, strides and extents
      // are kernel parameters.
      llvm::Error LoadErr = llvm::Error::success();
      forEachLoad(I.Epilogue, [&](const EpilogueLoad &L) {
        auto It = llvm::find_if(K.Parameters, [&](const Parameter &P) {
          return P.Name == L.Tensor && P.What == Parameter::Kind::Tensor;
        });
        if (It == K.Parameters.end() || !loadedType(L.Element) ||
            It->Element != L.Element ||
            It->Rank != static_cast<int>(L.Dims.size())) {
          if (!LoadErr)
            LoadErr = problem(St.Range, "cannot read '" + L.Tensor +
                                            "' in an epilogue");
          return;
        }
        const unsigned P = unsigned(It - K.Parameters.begin());
        LoadedTensors.insert(P);
        for (unsigned D = 0; D < L.Dims.size(); ++D)
          Extents.insert({P, D});
      });
      if (LoadErr)
        return LoadErr;
      Stores.emplace(InstId(&St - K.Insts.data()), *S);
    }
  return llvm::Error::success();
}

std::set<std::string>
KernelEmitter::usedVariables(const std::vector<InstId> &Body) const {
  std::vector<InstId> Order;
  std::function<void(const std::vector<InstId> &)> Flatten =
      [&](const std::vector<InstId> &B) {
        for (InstId Id : B) {
          Order.push_back(Id);
          Flatten(K.Insts[Id].Body);
        }
      };
  Flatten(Body);
  std::set<std::string> Vars;
  std::function<void(ExprId)> Read = [&](ExprId E) {
    if (E == None)
      return;
    const Expr &X = K.Exprs[E];
    if (X.Kind == ExprKind::Var)
      Vars.insert(X.Name);
    Read(X.Lhs);
    Read(X.Rhs);
  };
  // Lets last to first: a let is read if a later statement reads it.
  for (InstId Id : llvm::reverse(Order)) {
    const Stmt &S = K.Insts[Id];
    if (const auto *L = S.getIf<LetStmt>()) {
      if (Vars.count(L->Var))
        Read(L->Value);
      continue;
    }
    if (const auto *L = S.getIf<TileLoopStmt>())
      for (ExprId E : {L->Start, L->Bound, L->Stride})
        Read(E);
    if (const auto *L = S.getIf<KLoopStmt>())
      for (ExprId E : {L->Start, L->Bound})
        Read(E);
    if (const auto *Call = S.getIf<AtomCallStmt>())
      for (const OperandView &O : Call->Operands) {
        Read(O.Slot);
        for (ExprId E : O.Coords)
          Read(E);
      }
    if (const auto *U = as<ext::BarrierUse>(S))
      Read(U->Slot);
    if (const auto *W = as<ext::Wait>(S))
      Read(W->Phase);
    if (const auto *T = as<ext::Tma>(S))
      Read(T->Slot);
    if (const auto *F = S.getIf<StoreFragmentStmt>())
      forEachLoad(F->Epilogue, [&](const EpilogueLoad &L) {
        for (ExprId E : L.Origin)
          Read(E);
      });
    auto ReadGlobal = [&](const EpilogueLoad &G) {
      for (ExprId E : G.Origin)
        Read(E);
    };
    std::function<void(const ScalarExpr &)> ReadScalar =
        [&](const ScalarExpr &X) {
          Read(X.Index);
          for (const ScalarExpr &A : X.Args)
            ReadScalar(A);
        };
    if (const auto *I = S.getIf<RegisterLoadStmt>())
      ReadGlobal(I->Src);
    if (const auto *I = S.getIf<RegisterStoreStmt>())
      ReadGlobal(I->Dst);
    if (const auto *I = S.getIf<RegisterMathStmt>())
      for (const RegisterOperand &O : I->Operands) {
        ReadGlobal(O.Bounds);
        ReadScalar(O.Scalar);
      }
  }
  return Vars;
}

} // namespace tf::backend::sm90
