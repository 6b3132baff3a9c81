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
#include "clang/Basic/DiagnosticIDs.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace tf::plugin {

/// The stable code of \p Id: its name without the class prefix, dashes for
/// underscores (err_tf_repeat_mismatch -> "repeat-mismatch").
std::string diagCode(DiagId Id);

/// The id whose stable code is \p Code, if any.
std::optional<DiagId> diagIdOfCode(llvm::StringRef Code);

/// Diagnostics.def's name of \p Id ("err_tf_repeat_mismatch").
llvm::StringRef diagName(DiagId Id);

/// Whether \p Id is an error, a warning or a note, as Diagnostics.def
/// declares it (before -Werror).
clang::DiagnosticIDs::Class diagClass(DiagId Id);

/// The message template of \p Id, with its %0.. arguments.
llvm::StringRef diagMessage(DiagId Id);

/// The names of \p Id's message arguments, %0 first ("operand", "value",
/// "atom", "reason").
llvm::ArrayRef<llvm::StringRef> argumentNames(DiagId Id);

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
