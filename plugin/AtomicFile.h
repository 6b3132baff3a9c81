//===- AtomicFile.h - Files written whole or not at all ---------*- C++ -*-===//
//
// What tf writes (the SARIF log, the emitted .cu, `tf finalize -o`) is never
// seen half-written: the bytes go to a temporary file next to the
// destination, which is then renamed over it. A run killed before the
// rename leaves the earlier file as it was; the temporary is removed on
// the signals LLVM handles (SIGINT, SIGTERM, ...) and, after a SIGKILL, is
// the only trace left (`<destination>.tmp-XXXXXXXX`).
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ATOMICFILE_H
#define TF_PLUGIN_ATOMICFILE_H

#include "llvm/ADT/StringRef.h"

#include <system_error>

namespace tf::plugin {

/// The environment variable that makes writeFileAtomically stop, after the
/// temporary is written and before the rename, until a signal arrives: how
/// the tests kill a run at exactly that point (test/plugin/emit/killed.test).
inline constexpr llvm::StringLiteral PauseBeforeRenameEnvVar =
    "TF_TEST_PAUSE_BEFORE_RENAME";

/// Writes \p Contents to \p Path through a temporary file in the same
/// directory and a rename; on failure \p Path is left as it was and the
/// temporary file removed.
std::error_code writeFileAtomically(llvm::StringRef Path,
                                    llvm::StringRef Contents);

} // namespace tf::plugin

#endif // TF_PLUGIN_ATOMICFILE_H
