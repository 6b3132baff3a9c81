//===- Sites.cpp - Find the tf attributes of a translation unit -----------===//
//
// Walks the AST after Sema, template instantiations included. Attributes on
// template patterns are skipped: their arguments may be dependent, and every
// instantiation carries its own substituted copy, checked here with the same
// checkArgument that Attributes.cpp runs at parse time (for a valid site that
// check is a no-op, so nothing is reported twice). The same walk finds the
// user code's references to tf declarations and its element-wise calls
// (SiteScan).
//
//===----------------------------------------------------------------------===//

#include "Sites.h"
#include "BuildHIR.h"
#include "Diagnostics.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTLambda.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <algorithm>
#include <numeric>

using namespace clang;

namespace tf::plugin {
namespace {

class SiteFinder : public RecursiveASTVisitor<SiteFinder> {
  using Base = RecursiveASTVisitor<SiteFinder>;

public:
  explicit SiteFinder(ASTContext &Ctx)
      : Ctx(Ctx), Diags(Ctx.getDiagnostics()) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  bool TraverseDecl(Decl *D) {
    auto *FD = dyn_cast_or_null<FunctionDecl>(D);
    if (!FD)
      return Base::TraverseDecl(D);
    const FunctionDecl *Saved = Current;
    Current = FD;
    bool Result = Base::TraverseDecl(D);
    Current = Saved;
    return Result;
  }

  bool VisitDecl(Decl *D) {
    for (AnnotateAttr *A : D->specific_attrs<AnnotateAttr>()) {
      std::optional<TfAttr> Kind = classifyAnnotation(*A);
      if (!Kind || A->isInherited())
        continue;
      if (*Kind == TfAttr::Mesh)
        checkInitializer(*A, D);
      if (D->isTemplated())
        continue;
      addSite(*Kind, *A, D, nullptr);
    }
    return true;
  }

  bool VisitAttributedStmt(AttributedStmt *S) {
    const AnnotateAttr *Seen[3] = {};
    for (const Attr *At : S->getAttrs()) {
      auto *A = dyn_cast<AnnotateAttr>(const_cast<Attr *>(At));
      std::optional<TfAttr> Kind = A ? classifyAnnotation(*A) : std::nullopt;
      if (!Kind)
        continue;
      const AnnotateAttr *&Prev = Seen[static_cast<int>(*Kind)];
      if (Prev) {
        // Reported once, on the pattern or the plain function.
        if (!inInstantiation()) {
          report(Diags, A->getLocation(), DiagId::err_tf_attribute_duplicate)
              << attrName(*Kind) << "statement" << A->getRange();
          report(Diags, Prev->getLocation(),
                 DiagId::note_tf_attribute_previous)
              << attrName(*Kind);
        }
        continue;
      }
      Prev = A;
      if (Current && Current->isTemplated())
        continue;
      addSite(*Kind, *A, nullptr, S->getSubStmt());
    }
    return true;
  }

  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    const std::optional<hir::OpKind> Op =
        Callee ? opKindOf(Callee) : std::nullopt;
    if (!Op)
      return true;
    const SourceManager &SM = Ctx.getSourceManager();
    const hir::OpClass Class = hir::opInfo(*Op).Class;
    if ((Class == hir::OpClass::ElementwiseBinary ||
         Class == hir::OpClass::Select) &&
        static_cast<int>(CE->getNumArgs()) == hir::opInfo(*Op).Arity &&
        !CE->isTypeDependent() && !CE->isValueDependent() && !insideTf() &&
        !SM.isInSystemHeader(SM.getFileLoc(CE->getBeginLoc())))
      ElementwiseCalls.push_back(CE);
    return true;
  }

  bool TraverseNamespaceDecl(NamespaceDecl *NS) {
    const bool Saved = InTfNamespace;
    InTfNamespace |= isTfNamespace(NS);
    bool Result = Base::TraverseNamespaceDecl(NS);
    InTfNamespace = Saved;
    return Result;
  }

  bool VisitDeclRefExpr(DeclRefExpr *E) {
    noteReference(E->getDecl(), E->getSourceRange(), E);
    return true;
  }
  bool VisitMemberExpr(MemberExpr *E) {
    noteReference(E->getMemberDecl(), {E->getMemberLoc(), E->getEndLoc()},
                  E);
    return true;
  }
  bool VisitCXXConstructExpr(CXXConstructExpr *E) {
    noteReference(E->getConstructor(), E->getSourceRange(), E);
    return true;
  }
  bool VisitDeclaratorDecl(DeclaratorDecl *D) {
    QualType T = D->getType();
    if (T.isNull() || T->isDependentType() || isa<FunctionDecl>(D))
      return true;
    if (const CXXRecordDecl *RD =
            T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl())
      noteReference(RD, D->getSourceRange());
    return true;
  }
  std::vector<Site> takeSites() { return std::move(Sites); }
  std::vector<TfReference> takeTfReferences() {
    return std::move(TfReferences);
  }
  std::vector<const CallExpr *> takeElementwiseCalls() {
    return std::move(ElementwiseCalls);
  }

private:
  /// Whether the function being walked, or the one a lambda being walked is
  /// written in, is a [[tf::kernel]] (a template's instantiation by its
  /// pattern's attribute).
  bool insideKernel() const {
    const DeclContext *DC = Current;
    while (DC) {
      const auto *FD = dyn_cast<FunctionDecl>(DC);
      if (FD && !isLambdaCallOperator(FD)) {
        const FunctionDecl *Pattern = FD->getTemplateInstantiationPattern();
        return isKernel(*FD) || (Pattern && isKernel(*Pattern));
      }
      DC = DC->getParent();
    }
    return false;
  }

  /// Whether the function being walked is one of tf's own (in namespace
  /// tf): its calls are the library's, whose operands agree by
  /// construction.
  bool insideTf() const {
    if (InTfNamespace)
      return true;
    for (const DeclContext *DC = Current; DC; DC = DC->getParent())
      if (isTfNamespace(DC))
        return true;
    return false;
  }

  static bool isTfNamespace(const DeclContext *DC) {
    const auto *NS = dyn_cast<NamespaceDecl>(DC);
    return NS && NS->getIdentifier() && NS->getName() == "tf" &&
           isa<TranslationUnitDecl>(NS->getParent());
  }

  static bool declaredInTf(const Decl *D) {
    for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
      if (isTfNamespace(DC))
        return true;
    return false;
  }

  /// Records a reference of the user's code to \p D, if D is tf's.
  void noteReference(const Decl *D, SourceRange R,
                     const Expr *Use = nullptr) {
    if (!D || insideTf() || !declaredInTf(D))
      return;
    const SourceManager &SM = Ctx.getSourceManager();
    SourceLocation At = SM.getFileLoc(R.getBegin());
    if (At.isInvalid() || SM.isInSystemHeader(At))
      return;
    TfReferences.push_back(
        {D, {At, SM.getFileLoc(R.getEnd())}, insideKernel(), Use});
  }

  static bool isKernel(const FunctionDecl &FD) {
    return llvm::any_of(FD.specific_attrs<AnnotateAttr>(),
                        [](const AnnotateAttr *A) {
                          return classifyAnnotation(*A) == TfAttr::Kernel;
                        });
  }

  bool inInstantiation() const {
    return Current && Current->isTemplateInstantiation();
  }

  /// A tf::mesh on a declaration says where its initializer runs.
  void checkInitializer(const AnnotateAttr &A, const Decl *D) {
    const auto *VD = dyn_cast<VarDecl>(D);
    if (!VD || VD->hasInit() || VD->getType()->isDependentType() ||
        inInstantiation())
      return;
    report(Diags, A.getLocation(), DiagId::warn_tf_mesh_without_initializer)
        << A.getRange();
  }

  void addSite(TfAttr Kind, AnnotateAttr &A, const Decl *D, const Stmt *S) {
    Site Out{Kind, &A, D, S, Current, {}};
    bool OK = true;
    for (Expr *&Arg : llvm::make_range(A.args_begin(), A.args_end())) {
      if (Arg->isTypeDependent() || Arg->isValueDependent())
        return;
      if (!checkArgument(Ctx, Diags, Kind, Arg)) {
        OK = false;
        if (inInstantiation())
          report(Diags, Current->getPointOfInstantiation(),
                 DiagId::note_tf_in_instantiation)
              << Current;
        continue;
      }
      SiteArgument Value;
      Value.Written = Arg;
      Value.Range = Arg->getSourceRange();
      Value.Type = Arg->getType();
      Value.Text = dyn_cast<StringLiteral>(Arg->IgnoreParenImpCasts());
      if (auto *CE = dyn_cast<ConstantExpr>(Arg);
          CE && CE->hasAPValueResult())
        Value.Value = CE->getAPValueResult();
      Out.Args.push_back(std::move(Value));
    }
    if (OK)
      Sites.push_back(std::move(Out));
  }

  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  const FunctionDecl *Current = nullptr;
  std::vector<Site> Sites;
  std::vector<TfReference> TfReferences;
  std::vector<const CallExpr *> ElementwiseCalls;
  bool InTfNamespace = false;
};

} // namespace

SiteScan collectSites(ASTContext &Ctx, bool SkipPrecompiled) {
  SiteFinder Finder(Ctx);
  if (!SkipPrecompiled) {
    Finder.TraverseDecl(Ctx.getTranslationUnitDecl());
  } else {
    // Walking the precompiled declarations would deserialize them all.
    for (Decl *D : Ctx.getTranslationUnitDecl()->decls())
      if (!D->isFromASTFile())
        Finder.TraverseDecl(D);
  }
  std::vector<Site> Found = Finder.takeSites();

  // Sites of one function form a group, placed at its first site; groups
  // that start at the same place (instantiations of one template) keep the
  // order in which they were found.
  const SourceManager &SM = Ctx.getSourceManager();
  auto Before = [&](SourceLocation A, SourceLocation B) {
    A = SM.getFileLoc(A);
    B = SM.getFileLoc(B);
    return A != B && SM.isBeforeInTranslationUnit(A, B);
  };
  llvm::DenseMap<const void *, unsigned> GroupOf;
  std::vector<unsigned> Group(Found.size());
  std::vector<SourceLocation> Anchor;
  for (unsigned I = 0; I < Found.size(); ++I) {
    const void *Key = Found[I].Function ? static_cast<const void *>(
                                              Found[I].Function)
                                        : &Found[I];
    auto [It, New] = GroupOf.try_emplace(Key, Anchor.size());
    SourceLocation Loc = Found[I].Attr->getLocation();
    if (New)
      Anchor.push_back(Loc);
    else if (Before(Loc, Anchor[It->second]))
      Anchor[It->second] = Loc;
    Group[I] = It->second;
  }
  std::vector<unsigned> Order(Found.size());
  std::iota(Order.begin(), Order.end(), 0u);
  std::stable_sort(Order.begin(), Order.end(), [&](unsigned A, unsigned B) {
    unsigned GA = Group[A], GB = Group[B];
    if (GA != GB) {
      if (Before(Anchor[GA], Anchor[GB]))
        return true;
      if (Before(Anchor[GB], Anchor[GA]))
        return false;
      return GA < GB;
    }
    return Before(Found[A].Attr->getLocation(), Found[B].Attr->getLocation());
  });
  SiteScan Scan;
  Scan.Sites.reserve(Found.size());
  for (unsigned I : Order)
    Scan.Sites.push_back(std::move(Found[I]));
  Scan.TfReferences = Finder.takeTfReferences();
  Scan.ElementwiseCalls = Finder.takeElementwiseCalls();
  return Scan;
}

} // namespace tf::plugin
