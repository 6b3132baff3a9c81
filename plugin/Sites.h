//===- Sites.h - Find the tf attributes of a translation unit ---*- C++ -*-===//
//
// The first stage after Sema: every [[tf::kernel]], [[tf::mesh]] and
// [[tf::layout]] of the translation unit with its subject and evaluated
// arguments, template instantiations included. Later stages (AST -> HIR) and
// the `report` argument start from these sites.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_SITES_H
#define TF_PLUGIN_SITES_H

#include "Attributes.h"

#include "clang/AST/APValue.h"
#include "clang/AST/Type.h"
#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/SmallVector.h"

#include <vector>

namespace clang {
class AnnotateAttr;
class ASTContext;
class CallExpr;
class Decl;
class Expr;
class FunctionDecl;
class Stmt;
class StringLiteral;
} // namespace clang

namespace tf::plugin {

/// One evaluated attribute argument.
struct SiteArgument {
  /// The argument as written (what the fix-its that edit it walk).
  const clang::Expr *Written = nullptr;
  clang::SourceRange Range;
  clang::QualType Type;
  clang::APValue Value;
  /// Set instead of Value for a layout written as a string.
  const clang::StringLiteral *Text = nullptr;
};

/// One tf attribute on its subject.
struct Site {
  TfAttr Kind;
  const clang::AnnotateAttr *Attr;
  /// The subject: a declaration or a statement.
  const clang::Decl *D = nullptr;
  const clang::Stmt *S = nullptr;
  /// The function whose body holds the site (or the kernel itself); null at
  /// namespace and class scope.
  const clang::FunctionDecl *Function = nullptr;
  llvm::SmallVector<SiteArgument, 2> Args;
};

/// A reference from the user's code to one of tf's declarations.
struct TfReference {
  const clang::Decl *D;
  /// The reference's range in the user's file.
  clang::SourceRange Range;
  /// Whether it is written in a [[tf::kernel]] (or a lambda in one).
  bool InKernel;
  /// The expression that refers (a DeclRefExpr, MemberExpr or
  /// CXXConstructExpr); null for a declaration of a tf class's type.
  const clang::Expr *Use = nullptr;
};

/// What collectSites finds in a translation unit.
struct SiteScan {
  /// The tf attribute sites in source order (sites of one function together,
  /// instantiations after one another).
  std::vector<Site> Sites;
  /// Every reference from the user's code (outside namespace tf and system
  /// headers) to a tf declaration -- a function, a class member, a
  /// constructor, the class of a variable -- in the order found: what the
  /// header's checks are reported at with the plugin loaded (HeaderChecks.h).
  std::vector<TfReference> TfReferences;
  /// Every call of an element-wise op of two tensors (tf::add, sub, mul,
  /// div, maximum, minimum, where) written outside tf's own functions, with
  /// its argument types known, once each: with the plugin loaded the header
  /// leaves the agreement of their element types and extents to the
  /// plugin (checkOperandTypes), inside kernels and out.
  std::vector<const clang::CallExpr *> ElementwiseCalls;
};

/// Collects the tf attribute sites of \p Ctx's translation unit and the
/// user code's references to tf declarations, checking what Sema could not check
/// when an attribute was parsed: arguments substituted by template
/// instantiation, statement attributes written twice, a tf::mesh on a
/// declaration without initializer. Problems are reported through \p Ctx's
/// DiagnosticsEngine; such sites are left out. With \p SkipPrecompiled,
/// declarations read from a precompiled header are not searched (nor
/// deserialized).
/// @pre Sema has finished the translation unit (HandleTranslationUnit).
SiteScan collectSites(clang::ASTContext &Ctx, bool SkipPrecompiled);

} // namespace tf::plugin

#endif // TF_PLUGIN_SITES_H
