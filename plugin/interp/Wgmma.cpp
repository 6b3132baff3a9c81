//===- plugin/interp/Wgmma.cpp - accumulators and WGMMA ---------------------===//
//
// See Run.h: WGMMA atom calls are issued into groups and performed when a
// wgmma.wait_group (or the role's end) retires their group, reading their
// operands through the descriptors' meaning then; accumulators are per
// warpgroup and block, zeroed by ZeroFragment, poisoned when never zeroed.
//
//===----------------------------------------------------------------------===//
#include "interp/Run.h"

#include <limits>

namespace tf::interp::impl {

bool Run::accumulatorInFlight(const Walker &W, hir::ValueId Acc) const {
  auto Reads = [&](const std::vector<PendingWgmma> &Group) {
    return llvm::any_of(
        Group, [&](const PendingWgmma &P) {
          return accumulatorOf(K.Insts[P.Id]).Fragment == Acc;
        });
  };
  return Reads(W.Uncommitted) || llvm::any_of(W.InFlight, Reads);
}

llvm::Error Run::zeroAcc(Walker &W, const lower::ZeroFragmentStmt &I) {
  if (accumulatorInFlight(W, I.Acc))
    return fail("writes the accumulator's registers while a WGMMA on them "
                "is in flight (no wgmma.wait_group before)");
  auto It = Accs.find(I.Acc);
  if (It == Accs.end())
    return llvm::Error::success(); // no WGMMA computes it: nothing to zero
  const std::int64_t Size = It->second.Op.M * It->second.Op.N;
  for (std::int64_t B = 0; B < It->second.Blocks; ++B)
    cta(W).AccRegs[{I.Acc, W.Group, B}].assign(static_cast<std::size_t>(Size),
                                               0.0f);
  W.Fenced = false; // a register access: the next WGMMA needs a fence
  return llvm::Error::success();
}

llvm::Error Run::wgmmaFence(Walker &W) {
  W.Fenced = true;
  return llvm::Error::success();
}

llvm::Error Run::wgmma(Walker &W, const Stmt &S, const ext::Wgmma &I) {
  if (!W.Warpgroups)
    return fail("WGMMA in a role that is not made of whole warpgroups");
  const AtomCallStmt &Call = S.get<AtomCallStmt>();
  const std::int64_t Groups = (W.Role->End - W.Role->Begin) / WarpgroupThreads;
  if (I.AxisValue < 0 || I.AxisValue >= Groups)
    return fail("issued by warpgroup " + llvm::Twine(I.AxisValue) +
                " of a role of " + llvm::Twine(Groups));
  if (I.AxisValue != W.Group)
    return llvm::Error::success(); // another warpgroup's
  if (!W.Fenced)
    return fail("no wgmma.fence since the accumulator's registers were "
                "last accessed");
  const OperandView *OA = Call.operand("A"), *OB = Call.operand("B");
  if (!OA || !OB)
    return fail("WGMMA needs the slots of both operands");
  PendingWgmma P;
  P.Id = static_cast<InstId>(&S - K.Insts.data());
  llvm::Expected<std::int64_t> A = eval(W, OA->Slot);
  if (!A)
    return A.takeError();
  llvm::Expected<std::int64_t> B = eval(W, OB->Slot);
  if (!B)
    return B.takeError();
  P.SlotA = *A;
  P.SlotB = *B;
  W.Uncommitted.push_back(P);
  ++Stats.Wgmmas;
  return llvm::Error::success();
}

llvm::Error Run::wgmmaCommit(Walker &W) {
  W.InFlight.push_back(std::move(W.Uncommitted));
  W.Uncommitted.clear();
  return llvm::Error::success();
}

llvm::Error Run::wgmmaWait(Walker &W, const ext::WgmmaWait &I) {
  const std::size_t Keep =
      static_cast<std::size_t>(std::max<std::int64_t>(I.Count, 0));
  while (W.InFlight.size() > Keep) {
    for (const PendingWgmma &P : W.InFlight.front())
      if (llvm::Error E = performWgmma(W, P)) {
        const Stmt &XS = K.Insts[P.Id];
        const auto &X = *as<ext::Wgmma>(XS);
        return fail("the WGMMA of warpgroup " + llvm::Twine(X.AxisValue) +
                    ", k-step " + llvm::Twine(X.KStep) + ", block " +
                    llvm::Twine(accumulatorOf(XS).Block) + " (" +
                    XS.Range.File + ":" + llvm::Twine(XS.Range.Line) +
                    "): " + llvm::toString(std::move(E)));
      }
    W.InFlight.pop_front();
  }
  return llvm::Error::success();
}

/// D(64 x N) += A(64 x K) * B(K x N) of one warpgroup, the operands read
/// from shared memory through their descriptors now. Products and sums in
/// f32, k ascending: each element is d = d + a_k * b_k for k = 0, 1, ...
/// (the order of tf::matmul's header-only execution).
llvm::Error Run::performWgmma(Walker &W, const PendingWgmma &P) {
  const Stmt &S = K.Insts[P.Id];
  const auto &I = *as<ext::Wgmma>(S);
  const AtomCallStmt &Call = S.get<AtomCallStmt>();
  const OperandView &C = accumulatorOf(S);
  const AccInfo &Acc = Accs.at(C.Fragment);
  const lower::MmaAtom &Op = Acc.Op;
  CtaState &Cta = cta(W);
  if (Op.D != DType::f32)
    return fail("accumulates in " + llvm::Twine(name(Op.D).data()) +
                "; the model accumulates f32");
  if (!isModeledFloat(Op.A) || !isModeledFloat(Op.B))
    return fail("inputs of " + llvm::Twine(name(Op.A).data()) +
                " are not modeled");
  struct Operand {
    const char *Name;
    hir::ValueId Ring;
    std::int64_t Slot;
    const ext::SmemDescriptor *D;
    bool MNMajor;
    DType T;
    std::int64_t Rows; // M of A, N of B
    std::vector<float> *Out;
  } Operands[] = {
      {"A", Call.operand("A")->Ring, P.SlotA, &I.A, I.TransA, Op.A, Op.M,
       &OperandA},
      {"B", Call.operand("B")->Ring, P.SlotB, &I.B, I.TransB, Op.B, Op.N,
       &OperandB},
  };
  for (Operand &X : Operands) {
    llvm::Expected<const Region *> R = stage(X.Ring, X.Slot);
    if (!R)
      return fail(llvm::Twine("operand ") + X.Name + ": " +
                  llvm::toString(R.takeError()));
    if ((*R)->Element != X.T)
      return fail(llvm::Twine("operand ") + X.Name + " reads " + (*R)->Name +
                  " of " + name((*R)->Element).data() + " as " +
                  name(X.T).data());
    llvm::Expected<std::uint64_t> Bits =
        encodeDescriptor(*X.D, (*R)->Offset + X.D->Start);
    if (!Bits)
      return fail(llvm::Twine("operand ") + X.Name + ": " +
                  llvm::toString(Bits.takeError()));
    const MatrixDescriptor D = decodeDescriptor(*Bits);
    if (D.BaseOffset != 0)
      return fail(llvm::Twine("operand ") + X.Name + ": base offset " +
                  llvm::Twine(D.BaseOffset) +
                  " is not modeled (views start on their swizzle pattern)");
    const int E = bytes(X.T);
    X.Out->resize(static_cast<std::size_t>(X.Rows * Op.K));
    for (std::int64_t Row = 0; Row < X.Rows; ++Row)
      for (std::int64_t Kk = 0; Kk < Op.K; ++Kk) {
        const std::int64_t Address = operandAddress(D, X.MNMajor, E, Row, Kk);
        if (Address < (*R)->Offset || Address + E > (*R)->Offset + (*R)->Bytes)
          return fail(llvm::Twine("operand ") + X.Name + " element (" +
                      llvm::Twine(Row) + ", " + llvm::Twine(Kk) +
                      ") reads shared-memory byte " + llvm::Twine(Address) +
                      ", outside its slot " + (*R)->Name + " [" +
                      llvm::Twine((*R)->Offset) + ", " +
                      llvm::Twine((*R)->Offset + (*R)->Bytes) + ")");
        (*X.Out)[static_cast<std::size_t>(Row * Op.K + Kk)] =
            loadAsFloat(&Cta.Smem[static_cast<std::size_t>(Address)], X.T);
      }
  }
  auto It = Cta.AccRegs.find({C.Fragment, W.Group, C.Block});
  if (It == Cta.AccRegs.end()) // never zeroed: what the registers held
    It = Cta.AccRegs
             .insert(
                 {{C.Fragment, W.Group, C.Block},
                  std::vector<float>(static_cast<std::size_t>(Op.M * Op.N),
                                     std::numeric_limits<float>::quiet_NaN())})
             .first;
  float *D = It->second.data();
  const std::int64_t N = Op.N;
  for (std::int64_t M = 0; M < Op.M; ++M)
    for (std::int64_t Kk = 0; Kk < Op.K; ++Kk) {
      const float A = OperandA[static_cast<std::size_t>(M * Op.K + Kk)];
      float *Row = D + M * N;
      for (std::int64_t C = 0; C < N; ++C)
        Row[C] = Row[C] + A * OperandB[static_cast<std::size_t>(C * Op.K + Kk)];
    }
  return llvm::Error::success();
}

} // namespace tf::interp::impl
