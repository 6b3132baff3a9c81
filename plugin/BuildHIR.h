//===- BuildHIR.h - Clang's AST of tf kernels -> HIR ------------*- C++ -*-===//
//
// The one place where Clang's AST becomes tf's HIR (hir/HIR.h). Every
// [[tf::kernel]] function (each instantiation of a kernel template) becomes
// one hir::Kernel. What the HIR cannot represent -- control flow on tensor
// values, calls to functions that are not tf ops, tensor addresses escaping,
// statements other than declarations, tf ops, tile loops and mesh scopes --
// is reported as an error at its source range, and the kernel is left out.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_BUILDHIR_H
#define TF_PLUGIN_BUILDHIR_H

#include "Sites.h"
#include "hir/HIR.h"

#include "llvm/ADT/ArrayRef.h"

namespace clang {
class ASTContext;
} // namespace clang

namespace tf::plugin {

/// The HIR of every kernel among \p Sites (collectSites' result), in the
/// order of their sites. Problems are reported through \p Ctx's
/// DiagnosticsEngine.
hir::Module buildModule(clang::ASTContext &Ctx, llvm::ArrayRef<Site> Sites);

} // namespace tf::plugin

#endif // TF_PLUGIN_BUILDHIR_H
