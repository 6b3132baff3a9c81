//===- plugin/backend/cuda_sm90/CudaEmitter.h - sm_90a CUDA -*- C++ -*-===//
//
// Writes one self-contained CUDA translation unit for the verified LIR
// kernels of a C++ translation unit (docs/backend-cuda.md): per kernel a
// `__global__` function that walks the LIR one for one -- the shared-memory
// map as named constexpr offsets, barrier set-up, one branch per role over
// its threads, the tile and K loops, TMA / mbarrier / WGMMA calls into the
// device library in runtime/include/tf/runtime/sm90 with every descriptor
// field and byte count a compile-time constant -- and a host launcher that
// checks the type-erased arguments, builds the tensor maps, computes the
// grid and launches, registered under the user's kernel function (declared
// here with an asm label carrying its mangled name). The output includes
// only the tf runtime and CUDA headers and is the same bytes for the same
// LIR. The plugin calls it for -fplugin-arg-tf-emit=DIR (Consumer.cpp);
// test/plugin/emit/ checks what it writes.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_BACKEND_CUDA_SM90_CUDAEMITTER_H
#define TF_PLUGIN_BACKEND_CUDA_SM90_CUDAEMITTER_H

#include "lower/LIR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace tf::backend::sm90 {

struct CudaOptions {
  /// The translation unit's main file as the compiler was given it.
  std::string Source;
  /// emit-debug-waits: every mbarrier wait gives up after a bound and traps
  /// with the barrier's name, and the launcher synchronises to report it.
  bool DebugWaits = false;
};

/// Writes the `.cu` of \p Kernels to \p OS; an error (nothing useful
/// written) for LIR that breaks an invariant lowering guarantees (the
/// backend's rules refuse every kernel it cannot write), naming the
/// construct: an internal error of tf.
/// @pre every kernel passed lower::verify
llvm::Error emitCuda(llvm::ArrayRef<lower::Kernel> Kernels,
                     const CudaOptions &Opts, llvm::raw_ostream &OS);

} // namespace tf::backend::sm90

#endif // TF_PLUGIN_BACKEND_CUDA_SM90_CUDAEMITTER_H
