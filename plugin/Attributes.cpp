//===- Attributes.cpp - tf::kernel, tf::mesh and tf::layout ---------------===//
//
// ParsedAttrInfo registry entries for tf's attributes and the argument checks
// they share with Sites.cpp. Clang 22 specifics:
//  - each attribute is registered with its scoped spelling `tf::mesh` and its
//    bare spelling `mesh`, because a scoped spelling alone makes the parser
//    skip the arguments; the bare form is then refused here;
//  - a lone identifier argument arrives as an IdentifierLoc, which is
//    resolved here as an id-expression so that templates get a substituted,
//    evaluable expression and an undeclared name is an error;
//  - `[[tf::mesh(m)]] auto x = ...;` reaches handleDeclAttribute, while
//    `[[tf::mesh(m)]] { ... }` and `[[tf::mesh(m)]] x = ...;` reach
//    handleStmtAttribute.
//
// Tested by test/plugin/diagnostics/*.cpp and test/plugin/attributes.cpp.
//
//===----------------------------------------------------------------------===//

#include "Attributes.h"
#include "ConstantValue.h"
#include "Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/ParsedAttrInfo.h"
#include "clang/Sema/DeclSpec.h"
#include "clang/Sema/EnterExpressionEvaluationContext.h"
#include "clang/Sema/ParsedAttr.h"
#include "clang/Sema/Sema.h"

using namespace clang;

namespace tf::plugin {

llvm::StringRef attrName(TfAttr Kind) {
  switch (Kind) {
  case TfAttr::Kernel:
    return "kernel";
  case TfAttr::Mesh:
    return "mesh";
  case TfAttr::Layout:
    return "layout";
  }
  llvm_unreachable("unknown tf attribute");
}

static llvm::StringRef annotation(TfAttr Kind) {
  switch (Kind) {
  case TfAttr::Kernel:
    return "tf.kernel";
  case TfAttr::Mesh:
    return "tf.mesh";
  case TfAttr::Layout:
    return "tf.layout";
  }
  llvm_unreachable("unknown tf attribute");
}

std::optional<TfAttr> classifyAnnotation(const AnnotateAttr &A) {
  for (TfAttr K : {TfAttr::Kernel, TfAttr::Mesh, TfAttr::Layout})
    if (A.getAnnotation() == annotation(K))
      return K;
  return std::nullopt;
}

namespace {

/// The qualified name of \p T's class, or "" when it is not a class.
std::string recordName(QualType T) {
  const auto *RD = T.getCanonicalType()->getAsCXXRecordDecl();
  return RD ? RD->getQualifiedNameAsString() : std::string();
}

const StringLiteral *asStringLiteral(const Expr *E) {
  return dyn_cast<StringLiteral>(E->IgnoreParenImpCasts());
}

/// Checks the type of an argument; reports and returns false if it is wrong.
bool checkType(DiagnosticsEngine &Diags, TfAttr Kind, const Expr *Arg) {
  QualType T = Arg->getType();
  llvm::StringRef Expected;
  switch (Kind) {
  case TfAttr::Kernel:
    if (!T->isVoidType())
      return true;
    Expected = "a constant value";
    break;
  case TfAttr::Mesh:
    if (recordName(T) == "tf::Mesh")
      return true;
    Expected = "a tf::Mesh";
    break;
  case TfAttr::Layout: {
    std::string Name = recordName(T);
    if (Name == "tf::Layout" || Name == "tf::ComposedLayout" ||
        Name == "tf::ShardLayout" || asStringLiteral(Arg))
      return true;
    Expected = "a tf::Layout, tf::ComposedLayout, tf::ShardLayout or a "
               "layout string";
    break;
  }
  }
  report(Diags, Arg->getBeginLoc(), DiagId::err_tf_attribute_argument_type)
      << attrName(Kind) << Expected << T << Arg->getSourceRange();
  return false;
}

/// Runs tf's layout parser on a string argument.
bool checkLayoutString(const ASTContext &Ctx, DiagnosticsEngine &Diags,
                       const StringLiteral *S) {
  if (!S->isOrdinary() && !S->isUTF8()) {
    report(Diags, S->getBeginLoc(), DiagId::err_tf_layout_malformed)
        << "a layout string must be an ordinary string literal"
        << S->getSourceRange();
    return false;
  }
  std::optional<LayoutTextError> Error = checkLayoutText(S->getString());
  if (!Error)
    return true;
  SourceLocation At =
      S->getLocationOfByte(Error->Position, Ctx.getSourceManager(),
                           Ctx.getLangOpts(), Ctx.getTargetInfo());
  report(Diags, At, DiagId::err_tf_layout_malformed)
      << Error->Message << S->getSourceRange();
  return false;
}

} // namespace

bool checkArgument(ASTContext &Ctx, DiagnosticsEngine &Diags, TfAttr Kind,
                   Expr *&Arg) {
  if (!checkType(Diags, Kind, Arg))
    return false;
  // Evaluated already: here, or by Sema when it instantiated a declaration
  // attribute (Sema::AddAnnotationAttr).
  if (auto *CE = dyn_cast<ConstantExpr>(Arg); CE && CE->hasAPValueResult())
    return true;
  if (Kind == TfAttr::Layout)
    if (const StringLiteral *S = asStringLiteral(Arg))
      return checkLayoutString(Ctx, Diags, S);

  // Evaluate as Sema::ConstantFoldAttrArgs does for clang::annotate, but
  // report with tf's own words (and Clang's notes saying why).
  Expr *E = Arg;
  if (E->getType()->isArrayType())
    E = ImplicitCastExpr::Create(Ctx, Ctx.getArrayDecayedType(E->getType()),
                                 CK_ArrayToPointerDecay, E, nullptr,
                                 VK_PRValue, FPOptionsOverride());
  else if (E->getType()->isFunctionType())
    E = ImplicitCastExpr::Create(Ctx, Ctx.getPointerType(E->getType()),
                                 CK_FunctionToPointerDecay, E, nullptr,
                                 VK_PRValue, FPOptionsOverride());
  else if (E->isGLValue())
    E = ImplicitCastExpr::Create(Ctx, E->getType().getUnqualifiedType(),
                                 CK_LValueToRValue, E, nullptr, VK_PRValue,
                                 FPOptionsOverride());
  SmallVector<PartialDiagnosticAt, 8> Notes;
  Expr::EvalResult Result;
  Result.Diag = &Notes;
  if (!E->EvaluateAsConstantExpr(Result, Ctx) || !Notes.empty()) {
    report(Diags, Arg->getBeginLoc(),
           DiagId::err_tf_attribute_argument_not_constant)
        << attrName(Kind) << Arg->getSourceRange();
    for (const PartialDiagnosticAt &Note : Notes) {
      DiagnosticBuilder B = Diags.Report(Note.first, Note.second.getDiagID());
      Note.second.Emit(B);
    }
    return false;
  }
  Arg = ConstantExpr::Create(Ctx, E, Result.Val);
  return true;
}

namespace {

/// Where each attribute may stand, as the wrong-subject error lists it.
llvm::StringRef subjects(TfAttr Kind) {
  switch (Kind) {
  case TfAttr::Kernel:
    return "functions";
  case TfAttr::Mesh:
    return "compound statements, variable declarations and expression "
           "statements";
  case TfAttr::Layout:
    return "variables, parameters, fields and expression statements";
  }
  llvm_unreachable("unknown tf attribute");
}

bool appliesTo(TfAttr Kind, const Decl *D) {
  switch (Kind) {
  case TfAttr::Kernel:
    return isa<FunctionDecl>(D);
  case TfAttr::Mesh:
    return isa<VarDecl>(D) && !isa<ParmVarDecl>(D);
  case TfAttr::Layout:
    return isa<VarDecl, FieldDecl>(D);
  }
  llvm_unreachable("unknown tf attribute");
}

bool appliesTo(TfAttr Kind, const Stmt *S) {
  switch (Kind) {
  case TfAttr::Kernel:
    return false;
  case TfAttr::Mesh:
    return isa<CompoundStmt, Expr>(S);
  case TfAttr::Layout:
    return isa<Expr>(S);
  }
  llvm_unreachable("unknown tf attribute");
}

/// Resolves a lone identifier argument as the parser would an id-expression.
Expr *resolveIdentifier(Sema &S, const IdentifierLoc &Ident) {
  CXXScopeSpec SS;
  UnqualifiedId Id;
  Id.setIdentifier(Ident.getIdentifierInfo(), Ident.getLoc());
  ExprResult E = S.ActOnIdExpression(S.getCurScope(), SS, SourceLocation(), Id,
                                     /*HasTrailingLParen=*/false,
                                     /*IsAddressOfOperand=*/false);
  if (E.isInvalid() || E.get()->containsErrors())
    return nullptr;
  return E.get();
}

class TfAttrInfo : public ParsedAttrInfo {
public:
  TfAttrInfo(TfAttr Kind, ArrayRef<Spelling> S) : Kind(Kind) {
    // Argument counts are checked here, with tf's words: 15 means variadic.
    OptArgs = 15;
    IsStmt = Kind != TfAttr::Kernel;
    Spellings = S;
  }

  bool diagAppertainsToDecl(Sema &S, const ParsedAttr &A,
                            const Decl *D) const override {
    if (!checkScope(S, A))
      return false;
    if (appliesTo(Kind, D))
      return true;
    report(S.getDiagnostics(), A.getLoc(),
           DiagId::err_tf_attribute_wrong_subject)
        << attrName(Kind) << subjects(Kind) << A.getRange();
    return false;
  }

  bool diagAppertainsToStmt(Sema &S, const ParsedAttr &A,
                            const Stmt *St) const override {
    if (!checkScope(S, A))
      return false;
    if (appliesTo(Kind, St))
      return true;
    report(S.getDiagnostics(), A.getLoc(),
           DiagId::err_tf_attribute_wrong_subject)
        << attrName(Kind) << subjects(Kind) << A.getRange();
    return false;
  }

  AttrHandling handleDeclAttribute(Sema &S, Decl *D,
                                   const ParsedAttr &A) const override {
    // Attributes of one declaration are handled in written order, before
    // redeclarations are merged: earlier ones are already attached.
    for (const auto *Prev : D->specific_attrs<AnnotateAttr>())
      if (classifyAnnotation(*Prev) == Kind) {
        report(S.getDiagnostics(), A.getLoc(),
               DiagId::err_tf_attribute_duplicate)
            << attrName(Kind) << "declaration" << A.getRange();
        report(S.getDiagnostics(), Prev->getLocation(),
               DiagId::note_tf_attribute_previous)
            << attrName(Kind);
        return AttributeNotApplied;
      }
    SmallVector<Expr *, 4> Args;
    if (!buildArguments(S, A, Args))
      return AttributeNotApplied;
    D->addAttr(AnnotateAttr::Create(S.Context, annotation(Kind), Args.data(),
                                    Args.size(), A));
    return AttributeApplied;
  }

  AttrHandling handleStmtAttribute(Sema &S, Stmt *St, const ParsedAttr &A,
                                   Attr *&Result) const override {
    SmallVector<Expr *, 4> Args;
    if (!buildArguments(S, A, Args))
      return AttributeNotApplied;
    Result = AnnotateAttr::Create(S.Context, annotation(Kind), Args.data(),
                                  Args.size(), A);
    return AttributeApplied;
  }

private:
  /// Refuses the bare spelling, which is registered only so that the parser
  /// reads the arguments of the scoped one.
  bool checkScope(Sema &S, const ParsedAttr &A) const {
    if (A.hasScope())
      return true;
    report(S.getDiagnostics(), A.getLoc(), DiagId::err_tf_attribute_unscoped)
        << attrName(Kind) << A.getRange()
        << FixItHint::CreateInsertion(A.getLoc(), "tf::");
    return false;
  }

  bool buildArguments(Sema &S, const ParsedAttr &A,
                      SmallVectorImpl<Expr *> &Args) const {
    unsigned N = A.getNumArgs();
    if (Kind != TfAttr::Kernel && N != 1) {
      report(S.getDiagnostics(), A.getLoc(),
             DiagId::err_tf_attribute_argument_count)
          << attrName(Kind) << N << A.getRange();
      return false;
    }
    EnterExpressionEvaluationContext Evaluated(
        S, Sema::ExpressionEvaluationContext::ConstantEvaluated);
    bool OK = true;
    for (unsigned I = 0; I < N; ++I) {
      Expr *E = A.isArgIdent(I) ? resolveIdentifier(S, *A.getArgAsIdent(I))
                                : A.getArgAsExpr(I);
      if (!E || E->containsErrors()) {
        OK = false;
        continue;
      }
      // Dependent arguments are checked per instantiation (Sites.cpp).
      if (!E->isTypeDependent() && !E->isValueDependent())
        OK &= checkArgument(S.Context, S.getDiagnostics(), Kind, E);
      Args.push_back(E);
    }
    return OK;
  }

  TfAttr Kind;
};

struct KernelAttrInfo : TfAttrInfo {
  static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "tf::kernel"},
                                   {ParsedAttr::AS_CXX11, "kernel"}};
  KernelAttrInfo() : TfAttrInfo(TfAttr::Kernel, S) {}
};

struct MeshAttrInfo : TfAttrInfo {
  static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "tf::mesh"},
                                   {ParsedAttr::AS_CXX11, "mesh"}};
  MeshAttrInfo() : TfAttrInfo(TfAttr::Mesh, S) {}
};

struct LayoutAttrInfo : TfAttrInfo {
  static constexpr Spelling S[] = {{ParsedAttr::AS_CXX11, "tf::layout"},
                                   {ParsedAttr::AS_CXX11, "layout"}};
  LayoutAttrInfo() : TfAttrInfo(TfAttr::Layout, S) {}
};

} // namespace
} // namespace tf::plugin

static clang::ParsedAttrInfoRegistry::Add<tf::plugin::KernelAttrInfo>
    KernelAttr("tf-kernel", "[[tf::kernel(...)]]: a function is a tf kernel");
static clang::ParsedAttrInfoRegistry::Add<tf::plugin::MeshAttrInfo>
    MeshAttr("tf-mesh", "[[tf::mesh(m)]]: code runs on mesh m");
static clang::ParsedAttrInfoRegistry::Add<tf::plugin::LayoutAttrInfo>
    LayoutAttr("tf-layout", "[[tf::layout(l)]]: a value has layout l");
