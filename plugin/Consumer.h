//===- Consumer.h - What tf does with a translation unit -------*- C++ -*-===//
//
// The ASTConsumer behind the plugin action and the `tf` commands: once Sema
// is done it collects the tf attribute sites, builds the HIR of every
// kernel and runs the stages of Pipeline.h on it (checks; lowering and
// emission when asked), each finding a Clang diagnostic; the options add the
// site report and the HIR dump. Without options it only diagnoses and
// writes nothing.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_CONSUMER_H
#define TF_PLUGIN_CONSUMER_H

#include "clang/AST/ASTConsumer.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>
#include <utility>
#include <vector>
#include <memory>
#include <string>

namespace clang {
class ASTContext;
class CompilerInstance;
} // namespace clang

namespace tf::hir {
struct Module;
} // namespace tf::hir

namespace tf::targets {
struct MergedTarget;
} // namespace tf::targets

namespace tf::plugin {

struct LoweredKernel;

/// What a tool (`tf candidates`, `tf analyze`) does with a translation
/// unit's HIR once every kernel is inferred and checked: \p Targets is
/// parallel to \p M.Kernels, each kernel's merged target (null when it names
/// none or its target could not be loaded). Valid during the call only.
using ModuleSink = std::function<void(
    clang::ASTContext &Ctx, hir::Module &M,
    llvm::ArrayRef<const targets::MergedTarget *> Targets)>;

/// One W* plugin argument for a tf warning group: WG, Wno-G, Werror=G,
/// Wno-error=G.
enum class WarningArg { Enable, Disable, Error, NoError };

/// What -fplugin-arg-tf-KEY[=VALUE] selected.
struct Options {
  bool Report = false;
  bool DumpHir = false;
  /// dump-hir=json: the HIR dump as JSON (docs/schemas/hir.schema.json).
  bool DumpHirJson = false;
  /// sarif=FILE: write every diagnostic of the translation unit to FILE as
  /// SARIF 2.1.0 (Sarif.h). The plugin action does this, not the consumer.
  std::string SarifFile;
  /// emit=DIR: lower every kernel with a target and write, per backend, its
  /// file DIR/<main file's stem><suffix> (cuda_sm90: .tf.cu) atomically
  /// (Pipeline.h), when the translation unit has no errors; a kernel that
  /// cannot be lowered is an error at its op and nothing is written.
  std::string EmitDir;
  /// emit-debug-waits: the emitted waits are bounded and trap with the
  /// barrier's name (with emit=DIR only).
  bool EmitDebugWaits = false;
  /// targets-dir=DIR: the fact tree (else $TF_TARGETS_DIR, else the source
  /// tree's targets/).
  std::string TargetsDir;
  /// The W* arguments for tf's warning groups (Diagnostics.def), in the
  /// order given: a later one wins; "capacity" names every capacity-* group.
  std::vector<std::pair<std::string, WarningArg>> Warnings;
  /// Not a plugin argument: set by the tf tool when it reads the tf headers
  /// precompiled (plugin/cli/PrefixHeader.h). Declarations read from a
  /// precompiled header are then not searched for kernels.
  bool SkipPrecompiled = false;
  /// Not a plugin argument: set by the tf tool. Called after the checks
  /// (and before the HIR dump) when Sema succeeded.
  ModuleSink Sink;
  /// Not a plugin argument: set by `tf finalize`. When set, the kernels are
  /// lowered after the checks as for emit=DIR (Pipeline.h) and, when every
  /// kernel lowered, passed to it in module order.
  std::function<void(llvm::ArrayRef<LoweredKernel>)> LoweredSink;
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
