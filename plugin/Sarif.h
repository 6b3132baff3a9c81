//===- Sarif.h - Diagnostics as a SARIF 2.1.0 log ---------------*- C++ -*-===//
//
// `-fplugin-arg-tf-sarif=FILE`: every diagnostic of the translation unit --
// tf's and Clang's -- also goes to FILE as a SARIF 2.1.0 log (one run, tool
// "tf"), for code-scanning services and agents. docs/plugin.md describes the
// log, docs/schemas/sarif.schema.json is the subset of SARIF it uses, and
// test/plugin/sarif/ tests it.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_SARIF_H
#define TF_PLUGIN_SARIF_H

#include "llvm/ADT/StringRef.h"

namespace clang {
class CompilerInstance;
} // namespace clang

namespace tf::plugin {

/// Puts a consumer in front of \p CI's diagnostic client that records every
/// diagnostic and passes it on unchanged (printing, -verify and the error
/// count behave as without it). When the source file ends it writes the
/// diagnostics recorded so far to \p Path, atomically (a temporary file in
/// the same directory, then a rename), also when there were errors; a
/// failed write is Clang's "unable to open output file" error. The log is
/// the same bytes for the same input, compiled from the same directory.
/// @pre the main source file has begun (call it from CreateASTConsumer)
void installSarifWriter(clang::CompilerInstance &CI, llvm::StringRef Path);

} // namespace tf::plugin

#endif // TF_PLUGIN_SARIF_H
