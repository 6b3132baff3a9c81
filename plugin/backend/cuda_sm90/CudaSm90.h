//===- plugin/backend/cuda_sm90/CudaSm90.h - CUDA for Hopper ----*- C++ -*-===//
//
// The backend of `nvidia.sm90` targets (the H200): it lowers the
// warp-specialized GEMM family -- TMA loads of global tiles into stage
// rings, WGMMA over ring slots, a register fragment (with its fused
// elementwise ops) staged in shared memory, and TMA stores of the staged
// tile -- and writes the LIR as a self-contained `.tf.cu` for sm_90a
// (CudaEmitter.h). Its lowering rules are in Rules.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_BACKEND_CUDA_SM90_CUDASM90_H
#define TF_PLUGIN_BACKEND_CUDA_SM90_CUDASM90_H

#include "backend/Backend.h"

namespace tf::backend {

/// The cuda_sm90 backend.
const Backend &cudaSm90();

namespace sm90 {

/// The lowering rules (Rules.cpp): a TMA copy (global tile into a ring, or
/// a staged buffer into a global tile), a WGMMA over ring slots, and the
/// register-to-shared staging copy.
void lowerTmaCopy(lower::LoweringContext &Ctx, hir::StmtId Op,
                  lower::Selection &Out);
void lowerWgmma(lower::LoweringContext &Ctx, hir::StmtId Op,
                lower::Selection &Out);
void lowerStagingCopy(lower::LoweringContext &Ctx, hir::StmtId Op,
                      lower::Selection &Out);

/// Whether the rules above lower op \p Op under contract \p C.
Support supports(const hir::Kernel &K, hir::StmtId Op, const Contract &C);

} // namespace sm90
} // namespace tf::backend

#endif // TF_PLUGIN_BACKEND_CUDA_SM90_CUDASM90_H
