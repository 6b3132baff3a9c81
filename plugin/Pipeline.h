//===- plugin/Pipeline.h - The compiler's stages after Sema -----*- C++ -*-===//
//
// One object runs tf's stages on a translation unit's HIR, in order, for
// every caller -- the plugin (Consumer.cpp) and each `tf` command -- so that
// they report the same diagnostics and lower the same way:
//
//   check  - per kernel: its target's facts (loaded once), inference on the
//            target (recording every site's match), the contract, scope and
//            capacity checks, and whether the target's backend lowers every
//            decided site (legal means lowerable);
//   lower  - per kernel with a target: lowering as passes and verification
//            (lower/Lower.h);
//   emit   - per backend, the file of its kernels beside the source, written
//            atomically, only when every kernel lowered.
//
// Every finding becomes a Clang diagnostic through the unit's
// DiagnosticsEngine (-verify, -Werror, SARIF and editors see them).
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_PIPELINE_H
#define TF_PLUGIN_PIPELINE_H

#include "Consumer.h"
#include "analysis/Finding.h"
#include "hir/HIR.h"
#include "lower/LIR.h"

#include "clang/Basic/Diagnostic.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tf::targets {
class FactDatabase;
} // namespace tf::targets

namespace tf::backend {
class Backend;
} // namespace tf::backend

namespace tf::plugin {

/// Reports \p F and its notes through \p Diags as Clang diagnostics, with a
/// note naming the instantiation when \p K is one of a kernel template;
/// the tf warning groups of \p Opts apply.
void reportFinding(clang::DiagnosticsEngine &Diags, const Options &Opts,
                   const analysis::Finding &F, const hir::Kernel *K = nullptr);

/// A kernel lowered for its target's backend.
struct LoweredKernel {
  lower::Kernel LIR;
  const backend::Backend *Backend = nullptr;
};

class Pipeline {
public:
  Pipeline(const Options &Opts, clang::DiagnosticsEngine &Diags);
  ~Pipeline();

  /// Checks every kernel of \p M; returns each kernel's merged target
  /// (parallel to M.Kernels; null when it names none or it could not be
  /// loaded).
  std::vector<const targets::MergedTarget *> check(hir::Module &M);

  /// Lowers every kernel of \p M that names a target and verifies it;
  /// reports every refusal. The lowered kernels in module order, or none
  /// when some kernel was refused.
  /// @pre check(M) returned \p Targets and reported no error.
  std::optional<std::vector<LoweredKernel>>
  lower(const hir::Module &M,
        llvm::ArrayRef<const targets::MergedTarget *> Targets);

  /// Writes each backend's file for \p Kernels into \p Dir, named after
  /// \p Source's stem with the backend's suffix, atomically.
  void emit(llvm::ArrayRef<LoweredKernel> Kernels, llvm::StringRef Source,
            llvm::StringRef Dir);

private:
  const targets::MergedTarget *target(const hir::Kernel &K);
  bool loadFacts(const hir::Kernel &K);

  const Options &Opts;
  clang::DiagnosticsEngine &Diags;
  std::unique_ptr<targets::FactDatabase> Database;
  std::map<std::string, std::unique_ptr<targets::MergedTarget>> Merged;
  bool FactsFailed = false;
};

} // namespace tf::plugin

#endif // TF_PLUGIN_PIPELINE_H
