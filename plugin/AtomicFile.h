//===- AtomicFile.h - Files written whole or not at all ---------*- C++ -*-===//
//
// What the plugin writes (the SARIF log, the emitted .cu) is never seen
// half-written: the bytes go to a temporary file next to the destination,
// which is then renamed over it. Sarif.cpp and Consumer.cpp use it.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ATOMICFILE_H
#define TF_PLUGIN_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"

#include <system_error>

namespace tf::plugin {

/// Writes \p Contents to \p Path through a temporary file in the same
/// directory and a rename; on failure \p Path is left as it was and the
/// temporary file removed.
std::error_code writeFileAtomically(llvm::StringRef Path,
                                    llvm::StringRef Contents);

} // namespace tf::plugin

#endif // TF_PLUGIN_ATOMICFILE_H
