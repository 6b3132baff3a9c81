//===- plugin/backend/cuda_sm90/CudaSm90.cpp - CUDA for Hopper ------------===//
//
// See CudaSm90.h.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/CudaSm90.h"

#include "backend/cuda_sm90/CudaEmitter.h"

#include "tf/atoms/generic/copy.hpp"
#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/atoms/nv/sm90/wgmma.hpp"

namespace tf::backend {

namespace {

struct RuleEntry {
  const Contract *C;
  LoweringRule Rule;
};

/// The contracts this backend lowers, and how.
const RuleEntry Rules[] = {
    {&atoms::nv::sm90::copy_async_tensor, sm90::lowerTmaCopy},
    {&atoms::nv::sm90::wgmma, sm90::lowerWgmma},
    {&atoms::generic::copy, sm90::lowerStagingCopy},
};

class CudaSm90Backend final : public Backend {
public:
  llvm::StringRef name() const override { return "cuda_sm90"; }
  llvm::StringRef fileSuffix() const override { return ".tf.cu"; }
  Support supports(const hir::Kernel &K, hir::StmtId Op,
                   const Contract &C) const override {
    return sm90::supports(K, Op, C);
  }
  LoweringRule rule(const Contract &C) const override {
    for (const RuleEntry &E : Rules)
      if (E.C == &C)
        return E.Rule;
    return nullptr;
  }
  llvm::Error emit(llvm::ArrayRef<lower::Kernel> Kernels,
                   const EmitOptions &Opts,
                   llvm::raw_ostream &OS) const override {
    return sm90::emitCuda(Kernels, {Opts.Source, Opts.DebugWaits}, OS);
  }
};

} // namespace

const Backend &cudaSm90() {
  static const CudaSm90Backend B;
  return B;
}

} // namespace tf::backend
