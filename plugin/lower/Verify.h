//===- plugin/lower/Verify.h - Checks of a lowered kernel -------*- C++ -*-===//
//
// What must hold of a LIR kernel before anything is emitted from it
// (docs/finalize.md, "The verifier"). The core checks here: the
// shared-memory map is aligned, free of overlaps and within the target's
// limit; roles are disjoint and inside the CTA. Each extension the kernel
// uses adds the checks of its statements (ExtensionVerifier; sm_90's in
// lower/sm90/Verify.cpp), fed every body and statement of the walk below
// with the loops and lets around it.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LOWER_VERIFY_H
#define TF_PLUGIN_LOWER_VERIFY_H

#include "lower/LIR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <map>
#include <string>

namespace tf::lower {

/// The loops and lets around a statement, as the verifier walks to it.
struct VerifyScope {
  /// The enclosing role's statement (None at kernel level).
  InstId Role = None;
  bool Persistent = false;
  /// The enclosing K loop's variable (empty outside one).
  std::string KVar;
  /// The lets in scope, by name.
  std::map<std::string, ExprId> Lets;
};

/// The checks one extension adds; Extension::verifier makes one per kernel.
class ExtensionVerifier {
public:
  virtual ~ExtensionVerifier();
  /// Called for every body before its statements.
  virtual void body(llvm::ArrayRef<InstId> Body, const VerifyScope &Scope);
  /// Called for every statement of the extension (extension statements and
  /// the atom calls it encodes).
  virtual void stmt(InstId Id, const Stmt &S, const VerifyScope &Scope) = 0;
  /// Called once the walk is done: whole-kernel checks.
  virtual void finish();
};

/// Checks \p K; one error per failed check (what and where), joined.
llvm::Error verify(const Kernel &K);

} // namespace tf::lower

#endif // TF_PLUGIN_LOWER_VERIFY_H
