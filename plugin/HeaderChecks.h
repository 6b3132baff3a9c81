//===- HeaderChecks.h - The header's contract checks, reported -*- C++ -*-===//
//
// Without the plugin, tf::schedule's header checks that consult a contract
// (TF_CONTRACT_CHECK in include/tf/schedule/contract_facts.hpp: the written
// Repeat, Wgmma's n and majors, operand dtypes and storages, the TMA box)
// are static_asserts. With the plugin loaded they are left to it -- in a
// [[tf::kernel]] its full match reports each refusal at the operand, with
// fix-its -- and each check becomes a tf::detail::Refusal type that holds the
// static_assert's message when the check fails. This file reports those
// messages, so that loading the plugin never makes a build less strict: a
// failed check that the user's code reaches outside every kernel is an
// error at the user's reference (the tf::schedule call, the atom type's
// use); one reached from a kernel is reported only if the plugin's own
// checks found nothing (then it is a check the match does not make).
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_HEADERCHECKS_H
#define TF_PLUGIN_HEADERCHECKS_H

#include "Pipeline.h"
#include "Sites.h"

#include "llvm/ADT/ArrayRef.h"

namespace clang {
class ASTContext;
} // namespace clang

namespace tf::plugin {

/// Reports err_tf_header_check for every failed header check that a
/// reference of \p References (SiteScan::TfReferences) reaches through the
/// instantiated tf functions and classes it names: each failed check once,
/// at the first reference that reaches it; references from kernels only
/// when \p KernelsToo. Returns whether any was reported.
bool reportHeaderChecks(clang::ASTContext &Ctx, const Options &Opts,
                        llvm::ArrayRef<TfReference> References,
                        bool KernelsToo);

} // namespace tf::plugin

#endif // TF_PLUGIN_HEADERCHECKS_H
