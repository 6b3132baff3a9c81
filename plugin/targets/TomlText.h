//===- plugin/targets/TomlText.h - Text checks before TOML parsing -*- C++ -*-===//
//
// Fact documents are ASCII outside comments. The TOML parser tf builds with
// (toml++ 3.3, Debian 12's) reaches undefined behaviour (an unreachable
// branch of its Unicode whitespace table) for some non-ASCII characters in
// some positions — between tokens, after a line-ending backslash in a
// multi-line string. Rather than follow the parser's internals, the loader
// refuses every non-ASCII character that is not in a comment before the text
// reaches the parser; comments, which the parser consumes without that
// table, may hold any UTF-8.
//
//===----------------------------------------------------------------------===//
#ifndef TF_TARGETS_TOMLTEXT_H
#define TF_TARGETS_TOMLTEXT_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

namespace tf::targets {

/// A character a fact document may not hold where it stands.
struct OutsideComment {
  unsigned Line = 0;   ///< 1-based
  unsigned Column = 0; ///< 1-based, in code points (as the parser counts)
  char32_t CodePoint = 0;
};

/// The first non-ASCII character of \p Text outside a TOML comment, if any.
/// Scanning stops without a finding at the first byte sequence that is not
/// UTF-8: the parser reports that itself, at the same place.
std::optional<OutsideComment> findNonAsciiOutsideComments(llvm::StringRef Text);

} // namespace tf::targets

#endif
