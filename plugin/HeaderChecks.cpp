//===- HeaderChecks.cpp - The header's contract checks, reported ----------===//
//
// A failed check is a TypedefNameDecl whose type is tf::detail::Refusal<M>
// with a message M that is not empty: in the body of an instantiated tf
// function (check_tiled_mma<...>) or at the scope of an instantiated tf class
// (Wgmma<100, ...>). Which of them a reference in the user's code reaches is
// what instantiating it brought in: the bodies of the tf functions it names
// and that they name in turn, the classes those functions and their template
// arguments belong to, and those classes' own template arguments and bases.
// Each declaration's reach is computed once (Reach): the same few tf
// functions are named by every call.
//
//===----------------------------------------------------------------------===//

#include "HeaderChecks.h"

#include "BuildHIR.h"
#include "buildhir/ASTQueries.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <optional>
#include <set>
#include <string>
#include <utility>

using namespace clang;

namespace tf::plugin {

namespace {

/// Whether \p D is declared in namespace tf (or one nested in it).
bool inTf(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && NS->getIdentifier() && NS->getName() == "tf" &&
        isa<TranslationUnitDecl>(NS->getParent()))
      return true;
  return false;
}

/// The message of a failed check: \p TD's type is tf::detail::Refusal<M>
/// (marked "tf.refusal") and M is not empty.
std::optional<std::string> refusalMessage(const TypedefNameDecl &TD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      TD.getUnderlyingType()->getAsCXXRecordDecl());
  if (!Spec)
    return std::nullopt;
  const CXXRecordDecl *Pattern =
      Spec->getSpecializedTemplate()->getTemplatedDecl();
  if (llvm::none_of(Pattern->specific_attrs<AnnotateAttr>(),
                    [](const AnnotateAttr *A) {
                      return A->getAnnotation() == "tf.refusal";
                    }))
    return std::nullopt;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  if (Args.size() != 1)
    return std::nullopt;
  // A class-type argument is the template parameter object holding it.
  const APValue *Value = nullptr;
  if (Args[0].getKind() == TemplateArgument::Declaration) {
    if (const auto *Object =
            dyn_cast<TemplateParamObjectDecl>(Args[0].getAsDecl()))
      Value = &Object->getValue();
  } else if (Args[0].getKind() == TemplateArgument::StructuralValue) {
    Value = &Args[0].getAsStructuralValue();
  }
  if (!Value)
    return std::nullopt;
  // tf::detail::Message: { char text[capacity]; std::size_t length; }.
  const APValue &Message = *Value;
  if (!Message.isStruct() || Message.getStructNumFields() != 2)
    return std::nullopt;
  const APValue &Text = Message.getStructField(0);
  const APValue &Length = Message.getStructField(1);
  if (!Text.isArray() || !Length.isInt())
    return std::nullopt;
  const uint64_t Size =
      std::min<uint64_t>(Length.getInt().getZExtValue(), Text.getArraySize());
  if (Size == 0)
    return std::nullopt;
  std::string Out;
  for (uint64_t I = 0; I < Size; ++I) {
    const APValue &Ch = I < Text.getArrayInitializedElts()
                            ? Text.getArrayInitializedElt(I)
                            : Text.getArrayFiller();
    if (!Ch.isInt())
      return std::nullopt;
    Out.push_back(static_cast<char>(Ch.getInt().getExtValue()));
  }
  return Out;
}

/// Where the user's code writes the class \p Record in \p TL: a template
/// specialization of it among \p TL's template arguments, followed through
/// the user's aliases (`using Wgmma = tf::nv::sm90::Wgmma<100, ...>`); an
/// invalid range when it is not written there.
SourceRange writtenType(TypeLoc TL, const CXXRecordDecl &Record,
                        int Depth = 0) {
  for (; !TL.isNull() && Depth < 16; ++Depth) {
    if (auto Alias = TL.getAs<TypedefTypeLoc>()) {
      const TypedefNameDecl *D = Alias.getDecl();
      if (!D || inTf(D) || !D->getTypeSourceInfo())
        return {};
      TL = D->getTypeSourceInfo()->getTypeLoc();
      continue;
    }
    if (auto Spec = TL.getAs<TemplateSpecializationTypeLoc>()) {
      if (const CXXRecordDecl *RD = Spec.getType()->getAsCXXRecordDecl();
          RD && RD->getCanonicalDecl() == Record.getCanonicalDecl())
        return Spec.getSourceRange();
      for (unsigned I = 0; I < Spec.getNumArgs(); ++I)
        if (const TypeSourceInfo *Arg = Spec.getArgLoc(I).getTypeSourceInfo())
          if (SourceRange R = writtenType(Arg->getTypeLoc(), Record, Depth + 1);
              R.isValid())
            return R;
      return {};
    }
    TL = TL.getNextTypeLoc();
  }
  return {};
}

/// Where the reference \p Use writes \p Record: in its explicit template
/// arguments (`tf::schedule<tf::TiledMma<Wgmma>>`) or its qualifier
/// (`Wgmma::atom_n`).
SourceRange writtenType(const Expr *Use, const CXXRecordDecl &Record) {
  ArrayRef<TemplateArgumentLoc> Args;
  NestedNameSpecifierLoc Qualifier;
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(Use)) {
    Args = Ref->template_arguments();
    Qualifier = Ref->getQualifierLoc();
  } else if (const auto *Member = dyn_cast_or_null<MemberExpr>(Use)) {
    Args = Member->template_arguments();
  }
  for (const TemplateArgumentLoc &A : Args)
    if (const TypeSourceInfo *TSI = A.getTypeSourceInfo())
      if (SourceRange R = writtenType(TSI->getTypeLoc(), Record); R.isValid())
        return R;
  if (Qualifier)
    if (TypeLoc TL = Qualifier.getAsTypeLoc(); !TL.isNull())
      return writtenType(TL, Record);
  return {};
}

using CheckSet = llvm::SmallSetVector<const TypedefNameDecl *, 2>;

/// The failed checks each tf declaration's instantiation brings in.
class Reach {
public:
  /// The failed checks that naming \p D (a function, variable, class or
  /// one of their members) reaches; empty for declarations outside tf.
  const CheckSet &of(const Decl *D) {
    D = D->getCanonicalDecl();
    if (auto It = Memo.find(D); It != Memo.end())
      return It->second;
    // Entered before the walk: a recursive reference sees what is known.
    Memo[D];
    CheckSet Found;
    if (inTf(D))
      collect(D, Found);
    CheckSet &Slot = Memo[D];
    Slot = std::move(Found);
    return Slot;
  }

private:
  /// Names the declarations a body or an initializer refers to.
  class Walker : public RecursiveASTVisitor<Walker> {
  public:
    Walker(Reach &R, CheckSet &Found) : R(R), Found(Found) {}
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool VisitTypedefNameDecl(TypedefNameDecl *TD) {
      R.addIfFailed(*TD, Found);
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr *E) {
      R.merge(E->getDecl(), Found);
      return true;
    }
    bool VisitMemberExpr(MemberExpr *E) {
      R.merge(E->getMemberDecl(), Found);
      return true;
    }
    bool VisitCXXConstructExpr(CXXConstructExpr *E) {
      R.merge(E->getConstructor(), Found);
      return true;
    }
    bool VisitVarDecl(VarDecl *VD) {
      R.mergeType(VD->getType(), Found);
      return true;
    }

  private:
    Reach &R;
    CheckSet &Found;
  };

  void addIfFailed(const TypedefNameDecl &TD, CheckSet &Found) {
    if (refusalMessage(TD))
      Found.insert(&TD);
  }

  void merge(const Decl *D, CheckSet &Found) {
    if (D)
      for (const TypedefNameDecl *TD : of(D))
        Found.insert(TD);
  }

  /// The class \p T names (through arrays), if it is an instantiated one.
  void mergeType(QualType T, CheckSet &Found) {
    if (T.isNull() || T->isDependentType())
      return;
    if (const CXXRecordDecl *RD =
            T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl())
      merge(RD, Found);
  }

  void mergeArguments(ArrayRef<TemplateArgument> Args, CheckSet &Found) {
    for (const TemplateArgument &A : Args) {
      if (A.getKind() == TemplateArgument::Type)
        mergeType(A.getAsType(), Found);
      else if (A.getKind() == TemplateArgument::Pack)
        mergeArguments(A.pack_elements(), Found);
    }
  }

  void collect(const Decl *D, CheckSet &Found) {
    if (const auto *FD = dyn_cast<FunctionDecl>(D)) {
      if (const auto *Method = dyn_cast<CXXMethodDecl>(FD))
        merge(Method->getParent(), Found);
      if (const TemplateArgumentList *Args =
              FD->getTemplateSpecializationArgs())
        mergeArguments(Args->asArray(), Found);
      const FunctionDecl *Definition = nullptr;
      if (FD->hasBody(Definition) && !Definition->isDependentContext())
        Walker(*this, Found).TraverseStmt(Definition->getBody());
      return;
    }
    if (const auto *VD = dyn_cast<VarDecl>(D)) {
      if (const auto *RD = dyn_cast<CXXRecordDecl>(VD->getDeclContext()))
        merge(RD, Found);
      mergeType(VD->getType(), Found);
      if (const VarDecl *Definition = VD->getInitializingDeclaration();
          Definition && !Definition->isTemplated())
        Walker(*this, Found).TraverseStmt(
            const_cast<Expr *>(Definition->getInit()));
      return;
    }
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D)) {
      const CXXRecordDecl *Definition = RD->getDefinition();
      if (!Definition || Definition->isDependentContext())
        return;
      if (const auto *Spec =
              dyn_cast<ClassTemplateSpecializationDecl>(Definition)) {
        if (Spec->getSpecializationKind() == TSK_Undeclared)
          return;
        mergeArguments(Spec->getTemplateArgs().asArray(), Found);
      }
      for (const Decl *Member : Definition->decls())
        if (const auto *TD = dyn_cast<TypedefNameDecl>(Member))
          addIfFailed(*TD, Found);
      for (const CXXBaseSpecifier &Base : Definition->bases())
        mergeType(Base.getType(), Found);
      return;
    }
    // A field, an enumerator, a member alias: its class.
    if (const auto *RD = dyn_cast<CXXRecordDecl>(D->getDeclContext()))
      merge(RD, Found);
  }

  llvm::DenseMap<const Decl *, CheckSet> Memo;
};

} // namespace

bool reportHeaderChecks(ASTContext &Ctx, const Options &Opts,
                        ArrayRef<TfReference> References, bool KernelsToo) {
  const SourceManager &SM = Ctx.getSourceManager();
  Reach R;
  // Each failed check once; and once per line and message, as for a user's
  // template whose instantiations fail the same way.
  llvm::DenseSet<const TypedefNameDecl *> Reported;
  std::set<std::pair<SourceLocation::UIntTy, std::string>> Said;
  bool Any = false;
  for (const TfReference &Ref : References) {
    if (Ref.InKernel && !KernelsToo)
      continue;
    for (const TypedefNameDecl *TD : R.of(Ref.D)) {
      if (!Reported.insert(TD).second)
        continue;
      std::string Message = *refusalMessage(*TD);
      if (!Said.emplace(Ref.Range.getBegin().getRawEncoding(), Message).second)
        continue;
      analysis::Finding F;
      F.Id = DiagId::err_tf_header_check;
      F.Range = hirRange(SM, Ref.Range);
      F.Args = {std::move(Message)};
      // A check of an atom type (at its class scope) stands where the user
      // wrote the type; a reference elsewhere is a note.
      if (const auto *Record = dyn_cast<CXXRecordDecl>(TD->getDeclContext()))
        if (SourceRange Written = writtenType(Ref.Use, *Record);
            Written.isValid()) {
          const SourceLocation At = SM.getFileLoc(Written.getBegin());
          const bool InReference =
              !SM.isBeforeInTranslationUnit(At, Ref.Range.getBegin()) &&
              !SM.isBeforeInTranslationUnit(Ref.Range.getEnd(), At);
          if (!InReference) {
            analysis::Finding Use;
            Use.Id = DiagId::note_tf_type_used;
            Use.Range = F.Range;
            Use.Args = {buildhir::qualifiedName(*Record)};
            F.Notes.push_back(std::move(Use));
          }
          F.Range = hirRange(SM, Written);
        }
      reportFinding(Ctx.getDiagnostics(), Opts, F);
      Any = true;
    }
  }
  return Any;
}

} // namespace tf::plugin
