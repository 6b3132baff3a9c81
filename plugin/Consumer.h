//===- Consumer.h - What tf does with a translation unit -------*- C++ -*-===//
//
// The ASTConsumer behind the plugin action and `tf hir`: once Sema is done it
// collects the tf attribute sites, builds the HIR of every kernel, infers,
// checks each kernel against its target's contracts and facts, and reports
// the findings as Clang diagnostics; the options add the site report and the
// HIR dump. Without options it only diagnoses and writes nothing.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_CONSUMER_H
#define TF_PLUGIN_CONSUMER_H

#include "clang/AST/ASTConsumer.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <utility>
#include <vector>
#include <memory>
#include <string>

namespace clang {
class CompilerInstance;
} // namespace clang

namespace tf::plugin {

/// One W* plugin argument for a tf warning group: WG, Wno-G, Werror=G,
/// Wno-error=G.
enum class WarningArg { Enable, Disable, Error, NoError };

/// What -fplugin-arg-tf-KEY[=VALUE] selected.
struct Options {
  bool Report = false;
  bool DumpHir = false;
  /// targets-dir=DIR: the fact tree (else $TF_TARGETS_DIR, else the source
  /// tree's targets/).
  std::string TargetsDir;
  /// The W* arguments for tf's warning groups (Diagnostics.def), in the
  /// order given: a later one wins; "capacity" names every capacity-* group.
  std::vector<std::pair<std::string, WarningArg>> Warnings;
};

/// The plugin arguments, for the message about an unknown one.
std::string knownArguments();

/// Applies one plugin argument to \p Opts; false if it is unknown.
bool parseArgument(llvm::StringRef Arg, Options &Opts);

/// The consumer; the report and the HIR dump go to \p Out.
std::unique_ptr<clang::ASTConsumer> makeConsumer(Options Opts,
                                                 llvm::raw_ostream &Out);

} // namespace tf::plugin

#endif // TF_PLUGIN_CONSUMER_H
