//===- MeshSource.cpp - Where a mesh's numbers are written ----------------===//
//
// The walk follows the expressions as Sema left them: implicit conversions,
// temporaries and copies of a tf::Mesh are looked through; a member call
// is recognised by the method's name (`reshape`, `sub`) and a free function
// by its name and namespace (`tf::range`, `tf::mesh`, `tf::topology`).
//
//===----------------------------------------------------------------------===//

#include "MeshSource.h"

#include "BuildHIR.h"
#include "LayoutLiterals.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace tf::plugin {

namespace {

/// \p E without what Sema wrapped around it: conversions, temporaries,
/// full-expression markers and copy constructions.
const Expr *bare(const Expr *E) {
  while (E) {
    E = E->IgnoreImplicit()->IgnoreParens();
    const auto *C = dyn_cast<CXXConstructExpr>(E);
    if (!C || C->getNumArgs() != 1)
      return E;
    E = C->getArg(0);
  }
  return E;
}

/// The initializer of the variable \p E names.
const Expr *initializerOf(const Expr *E) {
  const auto *Ref = dyn_cast_or_null<DeclRefExpr>(bare(E));
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const VarDecl *Def = V ? V->getDefinition() : nullptr;
  return Def ? Def->getInit() : nullptr;
}

/// Whether \p FD is tf::NAME.
bool isTfFunction(const FunctionDecl *FD, llvm::StringRef Name) {
  if (!FD || !FD->getIdentifier() || FD->getName() != Name)
    return false;
  const auto *NS = dyn_cast<NamespaceDecl>(FD->getDeclContext());
  return NS && NS->getIdentifier() && NS->getName() == "tf" &&
         isa<TranslationUnitDecl>(NS->getDeclContext());
}

/// The call of tf::NAME that \p E is, or null.
const CallExpr *tfCall(const Expr *E, llvm::StringRef Name) {
  const auto *Call = dyn_cast_or_null<CallExpr>(bare(E));
  return Call && isTfFunction(Call->getDirectCallee(), Name) ? Call : nullptr;
}

/// The call of the member function NAME that \p E is, or null.
const CXXMemberCallExpr *memberCall(const Expr *E, llvm::StringRef Name) {
  const auto *Call = dyn_cast_or_null<CXXMemberCallExpr>(bare(E));
  const CXXMethodDecl *M = Call ? Call->getMethodDecl() : nullptr;
  return M && M->getIdentifier() && M->getName() == Name ? Call : nullptr;
}

/// The integer literal \p E is written as, or null.
const IntegerLiteral *numberOf(const Expr *E) {
  return dyn_cast_or_null<IntegerLiteral>(bare(E));
}

/// The one layout literal of `tf::layout<"...">` or `reshape<"...">`.
const StringLiteral *onlyLiteral(llvm::ArrayRef<TemplateArgumentLoc> Args) {
  return Args.size() == 1 ? writtenLiteral(Args[0]) : nullptr;
}

} // namespace

std::optional<hir::MeshGroupsSource> meshGroupsSource(const Expr *E,
                                                      ASTContext &Ctx) {
  const SourceManager &SM = Ctx.getSourceManager();
  hir::MeshGroupsSource Out;
  const Expr *Scope = initializerOf(E);
  if (const CXXMemberCallExpr *Reshape = memberCall(Scope, "reshape")) {
    const auto *Callee = dyn_cast<MemberExpr>(Reshape->getCallee());
    const StringLiteral *Shape =
        Callee ? onlyLiteral(Callee->template_arguments()) : nullptr;
    if (!Shape || !Shape->isOrdinary())
      return std::nullopt;
    Out.ReshapeShape = hirRange(SM, Shape->getSourceRange());
    Out.ReshapeShapeText = Shape->getString().str();
    Scope = Reshape->getImplicitObjectArgument();
  }
  const CXXMemberCallExpr *Sub = memberCall(Scope, "sub");
  const CallExpr *Range =
      Sub && Sub->getNumArgs() >= 1 ? tfCall(Sub->getArg(0), "range") : nullptr;
  if (!Range || Range->getNumArgs() != 2)
    return std::nullopt;
  const IntegerLiteral *Begin = numberOf(Range->getArg(0));
  const IntegerLiteral *End = numberOf(Range->getArg(1));
  if (!Begin || !End)
    return std::nullopt;
  Out.Begin = Begin->getValue().getSExtValue();
  Out.End = End->getValue().getSExtValue();
  Out.EndRange = hirRange(SM, End->getSourceRange());
  const CallExpr *Root = tfCall(initializerOf(Sub->getImplicitObjectArgument()),
                                "mesh");
  const auto *Layout =
      Root && Root->getNumArgs() >= 2
          ? dyn_cast<DeclRefExpr>(bare(Root->getArg(1)))
          : nullptr;
  const StringLiteral *Text =
      Layout ? onlyLiteral(Layout->template_arguments()) : nullptr;
  if (!Text || !Text->isOrdinary())
    return std::nullopt;
  Out.RootLayout = hirRange(SM, Text->getSourceRange());
  Out.RootLayoutText = Text->getString().str();
  if (!Out.RootLayout.valid() || !Out.EndRange.valid())
    return std::nullopt;
  return Out;
}

hir::SourceRange topologyExtentRange(const Expr *E, ASTContext &Ctx) {
  const CallExpr *Call = tfCall(E, "topology");
  const IntegerLiteral *Extent =
      Call && Call->getNumArgs() == 2 ? numberOf(Call->getArg(1)) : nullptr;
  return Extent ? hirRange(Ctx.getSourceManager(), Extent->getSourceRange())
                : hir::SourceRange{};
}

} // namespace tf::plugin
