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

#include <optional>

namespace clang {
class ASTContext;
class FunctionDecl;
class SourceManager;
class SourceRange;
class QualType;
} // namespace clang

namespace tf::plugin {

/// The HIR of every kernel among \p Sites (collectSites' result), in the
/// order of their sites. Problems are reported through \p Ctx's
/// DiagnosticsEngine.
hir::Module buildModule(clang::ASTContext &Ctx, llvm::ArrayRef<Site> Sites);

/// \p R as the HIR keeps source ranges: file locations (macro expansions
/// resolved), the presumed file, line and column of its start.
hir::SourceRange hirRange(const clang::SourceManager &SM, clang::SourceRange R);

/// The tensor type \p T holds: a tf::Tensor, or the tensor of a tf::Buffer
/// or tf::Window (a window's extents as its shape's); none for other types.
std::optional<hir::TensorType> decodeTensorType(clang::QualType T);

/// The op whose tf.op.NAME annotation \p FD carries (or its template
/// pattern, its member template); none for a function that is no tf op.
std::optional<hir::OpKind> opKindOf(const clang::FunctionDecl *FD);

} // namespace tf::plugin

#endif // TF_PLUGIN_BUILDHIR_H
