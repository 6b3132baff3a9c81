//===- buildhir/KernelBuilder.h - One kernel's AST -> HIR -------*- C++ -*-===//
//
// The HIR builder of one [[tf::kernel]] (BuildHIR.h's buildModule makes one
// per kernel site). It walks the function body once; its members are
// defined by concern:
//
//   KernelBuilder.cpp      source positions, diagnostics, values; the kernel
//                          (parameters, launch attributes, escapes)
//   Statements.cpp         declarations, expression statements, tile loops,
//                          ifs and [[tf::mesh]] scopes
//   IndexExpressions.cpp   integer index expressions and meshes
//   Ops.cpp                calls of tf ops and their operands
//   AccessRelations.cpp    each op's access relation
//   Schedule.cpp           tf::schedule's atom, contract and parameters
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_BUILDHIR_KERNELBUILDER_H
#define TF_PLUGIN_BUILDHIR_KERNELBUILDER_H

#include "BuildHIR.h"
#include "Diagnostics.h"
#include "buildhir/ASTQueries.h"
#include "hir/HIR.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>
#include <string>
#include <vector>

namespace tf::plugin::buildhir {

using hir::ExprId;
using hir::StmtId;
using hir::ValueId;
constexpr unsigned None = hir::None;

class KernelBuilder {
public:
  KernelBuilder(clang::ASTContext &Ctx, const Site &KernelSite,
                llvm::ArrayRef<Site> Sites)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Ctx.getDiagnostics()),
        KernelSite(KernelSite), FD(llvm::cast<clang::FunctionDecl>(KernelSite.D)) {
    for (const Site &S : Sites) {
      if (S.Kind == TfAttr::Mesh && S.Function == FD && S.Attr)
        MeshSites[S.Attr] = &S;
      if (S.Kind == TfAttr::Layout && S.Function == FD && S.D)
        LayoutSites[S.D] = &S;
    }
  }

  std::optional<hir::Kernel> build();

private:
  // Source positions and diagnostics.
  hir::SourceRange range(clang::SourceRange R) const;
  hir::SourceRange range(const clang::Stmt *S) const {
    return S ? range(S->getSourceRange()) : hir::SourceRange{};
  }
  std::string sourceText(clang::SourceRange R) const;
  /// Records in \p T where its declaration writes the element type and the
  /// swizzle (TensorType::ElementRange, SwizzleRange).
  void recordSpelling(hir::TensorType &T,
                      std::optional<TensorSpelling> Written) const;
  /// An op's result whose C++ type does not say where it is written (the
  /// slot a TMA load fills, typed through tf's templates) is written by the
  /// declaration of the operand of its type.
  void inheritSpelling(ValueId Result, StmtId Op);
  clang::DiagnosticBuilder error(clang::SourceLocation Loc, DiagId Id);
  void unsupported(const clang::Stmt *S, llvm::StringRef What, llvm::StringRef Hint);
  void afterError();

  // Values and statements.
  ValueId addValue(hir::Value V);
  StmtId addStmt(hir::Stmt &&S);
  ValueId valueOfDecl(const clang::ValueDecl *D) const {
    auto It = Vars.find(D);
    return It == Vars.end() ? None : It->second;
  }
  bool isTensorValueRef(const clang::Expr *E) const;

  // The walk.
  void scanForEscapes(const clang::Stmt *Body);
  void translate(const clang::Stmt *S);
  void translateDecl(const clang::Decl *D, const clang::Stmt *Whole);
  void translateVar(const clang::VarDecl *VD, const clang::Stmt *Whole);
  void translateExprStmt(const clang::Expr *E, const clang::Stmt *Whole);
  void translateLoop(const clang::CXXForRangeStmt *FS);
  void translateIf(const clang::IfStmt *IS);
  void translateBodyInto(const clang::Stmt *S);
  /// Whether \p RS ends the kernel's body: any other 'return' skips the
  /// statements after it, which the HIR cannot say.
  bool isLastOfBody(const clang::ReturnStmt *RS) const {
    const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(FD->getBody());
    return Body && !Body->body_empty() && Body->body_back() == RS;
  }
  StmtId openMeshScope(const Site &S, clang::SourceRange Whole);
  void closeScope(StmtId Saved) { Current = Saved; }
  const Site *meshSiteOf(const clang::AttributedStmt *AS) const;
  const Site *meshSiteOf(const clang::Decl *D) const;

  /// Checks a scalar expression: no tf ops, only constexpr calls. Reports
  /// and returns false otherwise.
  bool checkScalar(const clang::Expr *E);
  bool touchesTensor(const clang::Expr *E) const;

  // Ops.
  bool isOpCall(const clang::Expr *E) const;
  /// Emits the op \p CE (and the ops nested in its operands) as Op
  /// statements; returns the Op's statement or None.
  StmtId translateOp(const clang::CallExpr *CE, ValueId Result, bool Assigns,
                     const clang::Stmt *Whole);
  ValueId operandValue(const clang::Expr *E);
  /// A floating-point scalar written as an op's operand (a literal, a
  /// constant expression, a float local): a Scalar value with its text.
  ValueId scalarOperand(const clang::Expr *E);
  /// \p E as a ScalarExpr: what Clang evaluates to a constant, float
  /// parameters, integer index expressions and + - * / on them; nullopt
  /// for anything else.
  std::optional<hir::ScalarExpr> scalarExpr(const clang::Expr *E);
  ValueId tileValue(const clang::CXXMemberCallExpr *MC, const std::string &Name);
  ValueId indexOperand(const clang::Expr *E);
  ExprId indexExpr(const clang::Expr *E);
  ExprId buildIndexExpr(const clang::Expr *E);
  ExprId constantExpr(std::int64_t V);
  std::optional<tf::Mesh> evaluateMesh(const clang::Expr *E);
  void buildAccess(hir::Stmt &Op, const clang::CallExpr *CE);
  void buildSchedule(hir::Stmt &Op, const clang::CallExpr *CE);
  std::optional<std::string> contractIdOf(const clang::CXXRecordDecl *RD,
                                          int Depth = 0);
  /// Whether the text at \p R is a template parameter of the kernel
  /// template this kernel instantiates (Wgmma<N, ...>).
  bool spelledByTemplateParameter(clang::SourceRange R) const;
  std::vector<hir::SourceRange> paramRanges(const clang::CallExpr *CE,
                                            const clang::CXXRecordDecl *AtomRD,
                                            const detail::AtomParams &Params);

  clang::ASTContext &Ctx;
  clang::SourceManager &SM;
  clang::DiagnosticsEngine &Diags;
  const Site &KernelSite;
  const clang::FunctionDecl *FD;
  llvm::DenseMap<const clang::AnnotateAttr *, const Site *> MeshSites;
  /// [[tf::layout]] on declarations of the kernel.
  llvm::DenseMap<const clang::Decl *, const Site *> LayoutSites;
  /// Applies a [[tf::layout]] written on \p VD to its type \p T.
  bool applyLayoutSite(const clang::VarDecl *VD, hir::TensorType &T);
  llvm::DenseMap<const clang::ValueDecl *, ValueId> Vars;
  /// Index values that an HIR expression or loop reads; assigning them
  /// later would make the HIR lie.
  llvm::SmallPtrSet<const clang::ValueDecl *, 8> Mutable;
  /// The written ranges of the operands of the op being built.
  llvm::DenseMap<ValueId, hir::SourceRange> OperandRanges;
  /// Expressions already reported as escaping addresses: the statements
  /// holding them are not reported again.
  llvm::SmallPtrSet<const clang::Stmt *, 4> Escapes;
  bool holdsEscape(const clang::Stmt *S) const {
    if (!S)
      return false;
    if (Escapes.contains(S))
      return true;
    for (const clang::Stmt *C : S->children())
      if (holdsEscape(C))
        return true;
    return false;
  }
  hir::Kernel K;
  /// The statement new statements are appended to.
  StmtId Current = None;
  bool Failed = false;
};

} // namespace tf::plugin::buildhir

#endif // TF_PLUGIN_BUILDHIR_KERNELBUILDER_H
