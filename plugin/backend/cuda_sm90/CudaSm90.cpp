//===- plugin/backend/cuda_sm90/CudaSm90.cpp - CUDA for Hopper ------------===//
//
// See CudaSm90.h.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/CudaSm90.h"

#include "backend/cuda_sm90/CudaEmitter.h"
#include "lower/sm90/Descriptor.h"

#include "tf/atoms/generic/copy.hpp"
#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/atoms/nv/sm90/wgmma.hpp"
#include "tf/layout/text/print.hpp"

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
  std::unique_ptr<lower::HandoffProtocol> handoffProtocol() const override {
    return sm90::handoffProtocol();
  }
  ViewAlignment viewAlignment(const LayoutText &Layout) const override {
    return sm90::viewAlignment(Layout);
  }
  llvm::Error emit(llvm::ArrayRef<lower::Kernel> Kernels,
                   const EmitOptions &Opts,
                   llvm::raw_ostream &OS) const override {
    return sm90::emitCuda(Kernels, {Opts.Source, Opts.DebugWaits}, OS);
  }
};

} // namespace

ViewAlignment sm90::viewAlignment(const LayoutText &Layout) {
  std::optional<SwizzleMode> Mode = lower::sm90::swizzleModeOf(
      Layout.has_swizzle ? Layout.swizzle : Swizzle{});
  if (!Mode)
    return {0, "",
            "its swizzle " + to_string(Layout) +
                " is no TMA/WGMMA swizzle mode (Swizzle(1,4,3), (2,4,3) or "
                "(3,4,3) on bytes)"};
  return {atoms::nv::sm90::tma_smem_alignment(*Mode),
          *Mode == SwizzleMode::none ? "TMA box"
                                     : "TMA box on its swizzle period",
          ""};
}

const Backend &cudaSm90() {
  static const CudaSm90Backend B;
  return B;
}

} // namespace tf::backend
