//===- plugin/lower/Verify.h - Checks of a lowered kernel -------*- C++ -*-===//
//
// What must hold of a LIR kernel before anything is emitted from it
// (docs/finalize.md, "The verifier"): the shared-memory map is aligned,
// free of overlaps and within the target's limit; every barrier's arrival
// count is what the roles arriving on it perform per phase, another role
// waits on it, and its expected transaction bytes are what the TMA copies
// issued on it move; every use of a barrier indexes slot and phase with one
// clock, which counts the persistent tiles and the K iterations it runs in;
// roles are disjoint and inside the CTA, named barriers count whole warps;
// TMA boxes and WGMMA descriptors fit their views and fields.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_VERIFY_H
#define TF_PLUGIN_LOWER_VERIFY_H

#include "lower/LIR.h"

#include "llvm/Support/Error.h"

namespace tf::lower {

/// Checks \p K; one error per failed check (what and where), joined.
llvm::Error verify(const Kernel &K);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_VERIFY_H
