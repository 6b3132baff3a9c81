//===- Diagnostics.h - tf diagnostics as Clang diagnostics ------*- C++ -*-===//
//
// The ids of Diagnostics.def and the function that reports them through
// Clang's DiagnosticsEngine, so that -verify, -Werror, -Wno-<group>, notes,
// fix-its and IDEs treat tf's findings like Clang's own.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_DIAGNOSTICS_H
#define TF_PLUGIN_DIAGNOSTICS_H

#include "clang/Basic/Diagnostic.h"

namespace tf::plugin {

enum class DiagId : unsigned {
#define TF_DIAG(Id, Class, Group, Message) Id,
#include "Diagnostics.def"
};

/// Starts diagnostic \p Id at \p Loc, registering it with \p Diags as a
/// Clang custom diagnostic (with its group) on first use.
clang::DiagnosticBuilder report(clang::DiagnosticsEngine &Diags,
                                clang::SourceLocation Loc, DiagId Id);

} // namespace tf::plugin

#endif // TF_PLUGIN_DIAGNOSTICS_H
