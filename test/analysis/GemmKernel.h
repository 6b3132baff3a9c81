//===- test/analysis/GemmKernel.h - The optimal GEMM as hand-built HIR ----===//
//
// examples/gemm/optimal.cpp as the AST -> HIR builder gives it (hir/HIR.h),
// built by hand so that inference and the contract checks can be tested
// without Clang. Each knob changes one decision, as a test's variant; every
// op sits on its own source line (Line = the op's number, Begin = 100 *
// Line + column), so findings can be checked by line.
//
//===----------------------------------------------------------------------===//
#ifndef TF_TEST_ANALYSIS_GEMMKERNEL_H
#define TF_TEST_ANALYSIS_GEMMKERNEL_H

#include "hir/HIR.h"

#include "tf/atoms/nv/sm90/wgmma_atom.hpp"
#include "tf/layout/text.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace tf::test {

/// The decisions of the optimal GEMM; the defaults are the example's.
struct GemmOptions {
  std::int64_t N = 256;      ///< Wgmma<N, ...>
  DType AtomDType = DType::bf16;
  std::vector<std::int64_t> Repeat = {2, 1, 4}; ///< empty: not written
  bool ComputeScopeOnMma = true; ///< [[tf::mesh(compute)]] on the MMA
  int LoaderThreads = 1;         ///< the loader mesh: threads[0, 0:k]
  std::string LhsSlot = "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)";
  std::string RhsSlot = "((4,2,8),(4,64)):((4096,512,64),(1024,1)) | Swizzle(3,4,3)";
  std::string Acc = "((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"
                    ":((16384,16,8,1),(512,128,64))";
  std::string Staged = "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)";
  DType StagedDType = DType::bf16;
  std::string MmaContract = "nv.sm90.Wgmma";
  /// Leave op result types unset (inference derives them).
  bool LeaveResultTypes = true;
};

/// The kernel and the ids the tests look at.
struct GemmKernel {
  hir::Kernel K;
  hir::ValueId A = hir::None, B = hir::None, Out = hir::None;
  hir::ValueId LhsRing = hir::None, RhsRing = hir::None, StagedTile = hir::None;
  hir::ValueId Acc = hir::None, Lhs = hir::None, Rhs = hir::None;
  hir::ValueId Cast = hir::None, Staged = hir::None;
  hir::StmtId LoadA = hir::None, LoadB = hir::None, Mma = hir::None;
  hir::StmtId CastOp = hir::None, CopyOp = hir::None, Store = hir::None;
  hir::ExprId TilesK = hir::None; ///< ceil_div(extent(lhs_ring slot, 1), 16)
};

/// The source range of line \p Line from column \p Col to \p EndCol.
inline hir::SourceRange at(unsigned Line, unsigned Col = 5,
                           unsigned EndCol = 60) {
  return {100 * Line + Col, 100 * Line + EndCol, "optimal.cpp", Line, Col};
}

inline hir::TensorType tensorType(DType T, Storage S, const std::string &Text) {
  hir::TensorType Out;
  Out.Element = T;
  Out.Where = S;
  Out.Layout = parse_layout_text(Text).value();
  Out.Spelling = Text;
  return Out;
}

inline Mesh threadsMesh() {
  return mesh("thread", IntTuple{3, 128}, "warpgroup", "participant");
}

GemmKernel buildGemm(const GemmOptions &O = {});

} // namespace tf::test

#endif // TF_TEST_ANALYSIS_GEMMKERNEL_H
