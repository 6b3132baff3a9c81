//===- plugin/analysis/Shapes.cpp - Extents where operands meet -----------===//
//
// checkShapes (Analysis.h): where an op relates the modes of its operands
// other than one for one, the static extents must agree. Today that is
// tf::broadcast<Mode>(t, like): t's modes are like's without Mode, so a row
// statistic broadcast over the wrong mode -- tf::broadcast<0>(rowmax, x)
// for tf::broadcast<1> -- is reported here at the call, with both extents
// and the mode that would fit, where the header stops only at run time (a
// static_assert there would stop the compile before this finding). A
// tensor computed from a window cut narrower than its loop advances is the
// coverage check's one error, at the window. Element-wise ops of one rank
// and reductions are checked by the headers' static_asserts; dynamic
// extents are checked when the kernel runs.
//
//===----------------------------------------------------------------------===//

#include "analysis/Analysis.h"

#include <string>

namespace tf::analysis {

using namespace hir;

namespace {

std::string nameOf(const Value &V, llvm::StringRef Unnamed) {
  return V.Name.empty() ? Unnamed.str() : "'" + V.Name + "'";
}

/// The modes of \p Like without \p Mode.
std::vector<std::int64_t> without(const std::vector<std::int64_t> &Like,
                                  unsigned Mode) {
  std::vector<std::int64_t> Out;
  for (unsigned I = 0; I < Like.size(); ++I)
    if (I != Mode)
      Out.push_back(Like[I]);
  return Out;
}

bool agree(const std::vector<std::int64_t> &A, const std::vector<std::int64_t> &B) {
  if (A.size() != B.size())
    return false;
  for (std::size_t I = 0; I < A.size(); ++I)
    if (A[I] >= 0 && B[I] >= 0 && A[I] != B[I])
      return false;
  return true;
}

/// The tile window \p V was computed from element by element (through
/// casts and unary ops), or None.
ValueId windowUnder(const Kernel &K, ValueId V) {
  for (unsigned Depth = 0; Depth < 64 && V < K.Values.size(); ++Depth) {
    const Value &X = K.Values[V];
    if (X.TileOf != None)
      return V;
    if (X.Def == None || K.Stmts[X.Def].Kind != StmtKind::Op)
      return None;
    const Stmt &Op = K.Stmts[X.Def];
    if (opInfo(Op.Op).Access != AccessShape::Elementwise ||
        Op.Operands.size() != 1)
      return None;
    V = Op.Operands[0];
  }
  return None;
}

void checkBroadcast(const Kernel &K, const Stmt &Op,
                    std::vector<Finding> &Findings) {
  if (Op.Operands.size() < 2 || Op.Result == None)
    return;
  const unsigned Mode = Op.BroadcastMode;
  const Value &T = K.Values[Op.Operands[0]];
  const Value &Like = K.Values[Op.Operands[1]];
  const std::vector<std::int64_t> Have = T.Type.extents();
  const std::vector<std::int64_t> Want = Like.Type.extents();
  if (Have.size() + 1 != Want.size() || Mode >= Want.size())
    return; // the header's static_assert reports ranks and modes
  const std::vector<std::int64_t> Need = without(Want, Mode);
  if (agree(Have, Need))
    return;
  // A window cut narrower than its loop advances (the bias cut BM long for
  // a BN-wide tile) is the coverage check's error, at the window: that is
  // the mistake, not the broadcast's mode.
  if (ValueId W = windowUnder(K, Op.Operands[0]);
      W != None && !windowFitsItsLoops(K, W))
    return;
  std::size_t Bad = 0;
  while (Bad < Have.size() &&
         (Have[Bad] < 0 || Need[Bad] < 0 || Have[Bad] == Need[Bad]))
    ++Bad;
  std::string Hint;
  for (unsigned Other = 0; Other < Want.size(); ++Other)
    if (Other != Mode && agree(Have, without(Want, Other))) {
      Hint = "; tf::broadcast<" + std::to_string(Other) + "> fits";
      break;
    }
  const std::size_t LikeMode = Bad < Mode ? Bad : Bad + 1;
  Finding F{plugin::DiagId::err_tf_op_extents, Op.CallRange, {}, {}, {}};
  F.Args = {"broadcast<" + std::to_string(Mode) + ">",
            nameOf(T, "the tensor") + " " + shapeText(Have),
            std::to_string(Bad),
            std::to_string(Have[Bad]),
            nameOf(Like, "`like`") + " " + shapeText(Want),
            std::to_string(LikeMode),
            std::to_string(Want[LikeMode]) + Hint};
  Findings.push_back(std::move(F));
}

} // namespace

std::vector<Finding> checkShapes(const Kernel &K) {
  std::vector<Finding> Findings;
  for (StmtId S : K.preorder()) {
    const Stmt &Op = K.Stmts[S];
    if (Op.Kind == StmtKind::Op && opInfo(Op.Op).Access == AccessShape::Broadcast)
      checkBroadcast(K, Op, Findings);
  }
  return Findings;
}

} // namespace tf::analysis
