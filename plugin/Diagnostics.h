//===- Diagnostics.h - tf diagnostics as Clang diagnostics ------*- C++ -*-===//
//
// The ids of Diagnostics.def and the functions that report them through
// Clang's DiagnosticsEngine, so that -verify, -Werror, -w, notes, fix-its and
// IDEs treat tf's findings like Clang's own. Errors and warnings end with
// their stable code, `[tf:code]`.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_DIAGNOSTICS_H
#define TF_PLUGIN_DIAGNOSTICS_H

#include "DiagId.h"

#include "clang/Basic/Diagnostic.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace tf::plugin {

/// The stable code of \p Id: its name without the class prefix, dashes for
/// underscores (err_tf_repeat_mismatch -> "repeat-mismatch").
std::string diagCode(DiagId Id);

/// The tf warning group of \p Id ("capacity-smem"), empty for diagnostics in
/// no tf group.
llvm::StringRef tfGroup(DiagId Id);

/// Every tf warning group, sorted, with "capacity" for all capacity-* ones.
llvm::ArrayRef<llvm::StringRef> tfGroups();

/// Starts diagnostic \p Id at \p Loc, registering it with \p Diags as a
/// Clang custom diagnostic (with its group) on first use. \p AsError
/// reports a warning as an error (-fplugin-arg-tf-Werror=<group>).
clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Diags,
                                clang::SourceLocation Loc, DiagId Id,
                                bool AsError = false);

} // namespace tf::plugin

#endif // TF_PLUGIN_DIAGNOSTICS_H
