//===- buildhir/ASTQueries.h - What tf's types and calls say ----*- C++ -*-===//
//
// The questions the HIR builder asks of Clang's AST, answered without a
// kernel: what a C++ type is to the HIR (a tf::Tensor's element type, layout
// and storage; a tf::Ring's slot and stages), where a declaration writes its
// tensor type, and what a call expression is (the op its callee's annotation
// names, its written and deduced template arguments). Types are recognised
// by the qualified names of tf's class templates, ops only by their
// annotation.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_BUILDHIR_ASTQUERIES_H
#define TF_PLUGIN_BUILDHIR_ASTQUERIES_H

#include "hir/HIR.h"
#include "hir/Ops.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/TemplateBase.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tf::plugin::buildhir {

/// \p T without references and qualifiers, canonical.
clang::QualType bare(clang::QualType T);

/// The specialization of tf's class template \p Name ("tf::Tensor") that
/// \p T is, or null.
const clang::ClassTemplateSpecializationDecl *tfSpecialization(clang::QualType T,
                                                        llvm::StringRef Name);

/// The DType of an element type: float, double, tf::bf16, std::int8_t, ...
std::optional<DType> dtypeOf(clang::QualType T);

/// The value of an integral template argument.
std::optional<std::int64_t> integralArg(const clang::TemplateArgument &A);

/// What a C++ type is to the HIR.
struct TypeInfo {
  hir::ValueKind Kind = hir::ValueKind::Tensor;
  hir::TensorType Type;
  int Stages = 0;
};

/// tf::Tensor<T, Text, S>.
std::optional<hir::TensorType> tensorTypeOf(clang::QualType T);

/// A tf::Ring of a tensor type, or a tensor type (tensorTypeOf).
std::optional<TypeInfo> typeInfo(clang::QualType T);

/// The template arguments a tf::Tensor<T, "layout", S> is written with.
struct TensorSpelling {
  clang::TemplateArgumentLoc Element;
  clang::TemplateArgumentLoc Layout;
};

/// How a declared type writes its tf::Tensor, followed through aliases,
/// alias templates (`Acc128x64<tf::f16>`: the element is the use's
/// argument) and the slot types of rings, buffers and windows.
std::optional<TensorSpelling> tensorSpelling(clang::TypeLoc TL);

/// The same for a type known only by its sugar (`auto x = tf::zeros<Acc>()`,
/// an op's result): the first alias it was named by that spells a tensor.
std::optional<TensorSpelling> tensorSpelling(clang::QualType T, const clang::ASTContext &Ctx);

/// Whether \p T is one of tf's tensor-like classes (views, buffers, rings),
/// even one the HIR cannot read.
bool isTensorLike(clang::QualType T);

/// Whether \p T is an integer type other than bool: an index.
bool isIndexType(clang::QualType T);

/// The element type of a floating-point scalar an op may take (float,
/// double), or nullopt.
std::optional<DType> floatingScalar(clang::QualType T);

/// Where field \p Field of the options \p Opt is written: the designated
/// initializer (`.cluster = 2`), else the whole argument.
clang::SourceRange optionRange(const clang::Expr *Opt, llvm::StringRef Field);

/// \p E without the nodes that only carry it: parentheses, implicit
/// conversions, temporaries, copies and moves of tf values, conversions of a
/// Buffer to its view.
const clang::Expr *strip(const clang::Expr *E);

/// The function a call names directly, or null.
const clang::FunctionDecl *calleeOf(const clang::CallExpr *CE);

/// The tf op a call is (its callee's annotation); an overloaded operator
/// is none.
std::optional<hir::OpKind> opKindOf(const clang::CallExpr *CE);

/// The explicitly written template arguments of a call's callee.
llvm::ArrayRef<clang::TemplateArgumentLoc> writtenTemplateArgs(const clang::CallExpr *CE);

/// How the result of \p CE is written: by its type's sugar, else by the
/// call's explicit template argument when that is the result's type or the
/// tensor of the buffer it returns (`tf::zeros<tf::Tensor<...>>()`).
std::optional<TensorSpelling> resultSpelling(const clang::CallExpr *CE,
                                             const clang::ASTContext &Ctx);

/// The function template arguments of the call's callee after deduction.
const clang::TemplateArgumentList *calleeTemplateArgs(const clang::CallExpr *CE);

/// The mode a reduction or broadcast names: its first template argument
/// (0 when it cannot be read; a mode outside the operand stops the compile
/// in the header).
unsigned modeArgument(const clang::CallExpr *CE);

/// \p D's name as diagnostics print it, qualified.
std::string qualifiedName(const clang::NamedDecl &D);

/// Reads the integer field \p Name of the struct value \p V of type \p T.
std::optional<std::int64_t> intField(const clang::APValue &V, clang::QualType T,
                                     llvm::StringRef Name);

} // namespace tf::plugin::buildhir

#endif // TF_PLUGIN_BUILDHIR_ASTQUERIES_H
