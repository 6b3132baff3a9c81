//===- LayoutLiterals.h - Malformed layout literals -------------*- C++ -*-===//
//
// Layout text written as a template argument -- `tf::Tensor<T, "...">`,
// `tf::layout<"...">`, `tf::composed_layout<"...">`, `tf::int_tuple<"...">`,
// `Mesh::reshape<"...">` -- is parsed while compiling by the header library
// (tf/layout/text/literal.hpp). Without the plugin a malformed literal is a
// static_assert in the header; with it, the header stays silent and the
// plugin reports the error here, at the failing byte of the string literal
// the user wrote, which a static_assert cannot point at.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_LAYOUTLITERALS_H
#define TF_PLUGIN_LAYOUTLITERALS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/TemplateBase.h"
#include "clang/Basic/Diagnostic.h"

namespace tf::plugin {

/// Reports err_tf_layout_text for every malformed layout literal the
/// translation unit instantiated (every specialization of the header's
/// `tf::detail::parsed_literal`): at the failing byte of each string
/// literal that spells it, or where it was instantiated when no literal in
/// the source spells it (text built by other means). Returns whether any
/// was reported.
bool checkLayoutLiterals(clang::ASTContext &Ctx, clang::DiagnosticsEngine &Diags);

/// The string literal a template argument is written as (through the
/// conversions to the header's FixedString), or null.
const clang::StringLiteral *writtenLiteral(const clang::TemplateArgumentLoc &A);

} // namespace tf::plugin

#endif // TF_PLUGIN_LAYOUTLITERALS_H
