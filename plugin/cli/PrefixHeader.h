//===- plugin/cli/PrefixHeader.h - Precompiled tf headers for queries -*- C++ -*-===//
//
// Nearly all of a query's time is Clang parsing tf's headers and the standard
// library under them (1.7 s of 1.8 s CPU for the GEMM examples on the 2-core
// machine). The headers a file includes first, before anything of its own,
// are precompiled once per compile command into a cache directory and read
// back (-include-pch) by every later query that starts with them.
//
// Only `<tf/...>` headers and the standard library's (`<vector>`: no slash,
// no extension) qualify, and only while no other directive precedes them: a
// declaration read from a precompiled header is not searched for tf
// attributes (plugin/Sites.cpp), so no kernel may sit in one, and a macro
// defined first could change what the headers mean.
//
// A cached header is trusted only while the files it was built from are
// older than it: each one sits beside the list of those files (Make's
// dependency format) and is built again when one is newer or gone.
//
//===----------------------------------------------------------------------===//
#ifndef TF_CLI_PREFIXHEADER_H
#define TF_CLI_PREFIXHEADER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace tf::cli {

/// Where precompiled prefixes are kept: $TF_CACHE_DIR, else
/// $XDG_CACHE_HOME/tf, else $HOME/.cache/tf; empty when none is set.
std::string defaultCacheDir();

/// The includes at the top of \p Source that may be precompiled, in order,
/// as written between the angle brackets; empty unless one is a tf header.
std::vector<std::string> precompilableIncludes(llvm::StringRef Source);

/// The precompiled header of \p Includes for the compile command
/// \p CommandLine (driver first, the input file and -fsyntax-only removed),
/// run in \p WorkingDir; built into \p CacheDir when missing or stale.
llvm::Expected<std::string>
preparePrefixHeader(llvm::StringRef CacheDir,
                    llvm::ArrayRef<std::string> CommandLine,
                    llvm::ArrayRef<std::string> Includes,
                    llvm::StringRef WorkingDir);

} // namespace tf::cli

#endif // TF_CLI_PREFIXHEADER_H
