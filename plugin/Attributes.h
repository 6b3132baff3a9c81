//===- Attributes.h - tf::kernel, tf::mesh and tf::layout -------*- C++ -*-===//
//
// Registers the attributes [[tf::kernel(...)]], [[tf::mesh(m)]] and
// [[tf::layout(l)]] with Clang (ParsedAttrInfo registry entries in
// Attributes.cpp, active as soon as tf.so is loaded). A valid attribute is
// stored on the AST as AnnotateAttr "tf.kernel" / "tf.mesh" / "tf.layout"
// whose arguments are ConstantExprs holding the evaluated values (string
// layouts stay StringLiterals); later stages (Sites.cpp) find them there.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_ATTRIBUTES_H
#define TF_PLUGIN_ATTRIBUTES_H

#include "llvm/ADT/StringRef.h"

#include <optional>

namespace clang {
class AnnotateAttr;
class ASTContext;
class DiagnosticsEngine;
class Expr;
} // namespace clang

namespace tf::plugin {

enum class TfAttr { Kernel, Mesh, Layout };

/// The attribute's name without scope: "kernel", "mesh" or "layout".
llvm::StringRef attrName(TfAttr Kind);

/// The tf attribute that \p A stores ("tf.mesh" -> Mesh), if it is one.
std::optional<TfAttr> classifyAnnotation(const clang::AnnotateAttr &A);

/// Checks argument \p Arg of a tf attribute of kind \p Kind (its type, and
/// that it is a constant expression) and evaluates it with Clang's constant
/// evaluator. On success \p Arg becomes a ConstantExpr holding the value (a
/// string layout stays the StringLiteral, after tf's parser accepted it) and
/// the result is true; otherwise the problem is reported through \p Diags.
/// Used when an attribute is parsed and again, by Sites.cpp, for arguments
/// that template instantiation substituted.
/// @pre Arg is neither type- nor value-dependent.
bool checkArgument(clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags,
                   TfAttr Kind, clang::Expr *&Arg);

} // namespace tf::plugin

#endif // TF_PLUGIN_ATTRIBUTES_H
