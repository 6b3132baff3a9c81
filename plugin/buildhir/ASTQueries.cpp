//===- buildhir/ASTQueries.cpp - What tf's types and calls say ------------===//
//
// Part of the HIR builder (BuildHIR.h); the questions are documented in
// ASTQueries.h.
//
//===----------------------------------------------------------------------===//

#include "buildhir/ASTQueries.h"
#include "ConstantValue.h"
#include "BuildHIR.h"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace tf::plugin::buildhir {
namespace {

/// Whether \p TD is a tf::Ring, tf::Buffer or tf::Window: a class whose first
/// template argument is the tensor type it holds.
bool isSlotHolder(const TemplateDecl *TD) {
  const std::string Name = TD->getQualifiedNameAsString();
  return Name == "tf::Ring" || Name == "tf::Buffer" || Name == "tf::Window";
}

/// Argument \p A of an alias template's pattern as the use \p Use writes it:
/// the use's argument where \p A names a parameter of \p Alias.
TemplateArgumentLoc asWritten(const TemplateArgumentLoc &A,
                              const TypeAliasTemplateDecl *Alias,
                              TemplateSpecializationTypeLoc Use) {
  const unsigned Depth = Alias->getTemplateParameters()->getDepth();
  std::optional<unsigned> Index;
  const TemplateArgument &Arg = A.getArgument();
  if (Arg.getKind() == TemplateArgument::Type) {
    if (const auto *P = Arg.getAsType()->getAs<TemplateTypeParmType>();
        P && P->getDepth() == Depth)
      Index = P->getIndex();
  } else if (Arg.getKind() == TemplateArgument::Expression) {
    if (const auto *R = dyn_cast<DeclRefExpr>(Arg.getAsExpr()->IgnoreImplicit()))
      if (const auto *P = dyn_cast<NonTypeTemplateParmDecl>(R->getDecl());
          P && P->getDepth() == Depth)
        Index = P->getIndex();
  }
  return Index && *Index < Use.getNumArgs() ? Use.getArgLoc(*Index) : A;
}

} // namespace

QualType bare(QualType T) {
  if (T.isNull())
    return T;
  return T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
}

const ClassTemplateSpecializationDecl *tfSpecialization(QualType T,
                                                        llvm::StringRef Name) {
  T = bare(T);
  if (T.isNull() || T->isDependentType())
    return nullptr;
  const auto *Spec =
      dyn_cast_or_null<ClassTemplateSpecializationDecl>(T->getAsCXXRecordDecl());
  if (!Spec || !Spec->getSpecializedTemplate())
    return nullptr;
  if (Spec->getSpecializedTemplate()->getQualifiedNameAsString() != Name)
    return nullptr;
  return Spec;
}

std::optional<DType> dtypeOf(QualType T) {
  T = bare(T);
  if (T.isNull())
    return std::nullopt;
  if (const auto *BT = T->getAs<BuiltinType>()) {
    switch (BT->getKind()) {
    case BuiltinType::Float:
      return DType::f32;
    case BuiltinType::Double:
      return DType::f64;
    case BuiltinType::SChar:
    case BuiltinType::Char_S:
      return DType::i8;
    case BuiltinType::UChar:
    case BuiltinType::Char_U:
      return DType::u8;
    case BuiltinType::Int:
      return DType::i32;
    default:
      return std::nullopt;
    }
  }
  const auto *RD = T->getAsCXXRecordDecl();
  if (!RD)
    return std::nullopt;
  std::string Q = RD->getQualifiedNameAsString();
  llvm::StringRef Name(Q);
  if (!Name.consume_front("tf::"))
    return std::nullopt;
  DType Out;
  if (parse_dtype(std::string_view(Name.data(), Name.size()), Out))
    return Out;
  return std::nullopt;
}

std::optional<std::int64_t> integralArg(const TemplateArgument &A) {
  if (A.getKind() == TemplateArgument::Integral)
    return A.getAsIntegral().getExtValue();
  return std::nullopt;
}

std::optional<hir::TensorType> tensorTypeOf(QualType T) {
  if (const auto *Spec = tfSpecialization(T, "tf::Tensor")) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() < 3 || Args[0].getKind() != TemplateArgument::Type)
      return std::nullopt;
    hir::TensorType Out;
    std::optional<DType> D = dtypeOf(Args[0].getAsType());
    std::optional<std::string> Text = fixedStringText(Args[1]);
    std::optional<std::int64_t> S = integralArg(Args[2]);
    if (!D || !Text || !S)
      return std::nullopt;
    Result<LayoutText> Parsed = parse_layout_text(*Text);
    if (!Parsed)
      return std::nullopt;
    Out.Element = *D;
    Out.Where = static_cast<Storage>(*S);
    Out.Layout = *Parsed;
    Out.Spelling = *Text;
    return Out;
  }
  if (const auto *Spec = tfSpecialization(T, "tf::Window")) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() < 2 || Args[0].getKind() != TemplateArgument::Type)
      return std::nullopt;
    std::optional<hir::TensorType> Base = tensorTypeOf(Args[0].getAsType());
    if (!Base)
      return std::nullopt;
    Base->WindowExtents.clear();
    for (unsigned I = 1; I < Args.size(); ++I) {
      const TemplateArgument &A = Args[I];
      if (A.getKind() == TemplateArgument::Pack) {
        for (const TemplateArgument &E : A.pack_elements())
          if (std::optional<std::int64_t> V = integralArg(E))
            Base->WindowExtents.push_back(*V);
      } else if (std::optional<std::int64_t> V = integralArg(A)) {
        Base->WindowExtents.push_back(*V);
      }
    }
    return Base;
  }
  if (const auto *Spec = tfSpecialization(T, "tf::Buffer")) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() < 1 || Args[0].getKind() != TemplateArgument::Type)
      return std::nullopt;
    return tensorTypeOf(Args[0].getAsType());
  }
  return std::nullopt;
}

std::optional<TypeInfo> typeInfo(QualType T) {
  if (const auto *Spec = tfSpecialization(T, "tf::Ring")) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() < 2 || Args[0].getKind() != TemplateArgument::Type)
      return std::nullopt;
    std::optional<hir::TensorType> Slot = tensorTypeOf(Args[0].getAsType());
    std::optional<std::int64_t> N = integralArg(Args[1]);
    if (!Slot || !N)
      return std::nullopt;
    return TypeInfo{hir::ValueKind::Ring, *Slot, static_cast<int>(*N)};
  }
  if (std::optional<hir::TensorType> TT = tensorTypeOf(T))
    return TypeInfo{hir::ValueKind::Tensor, *TT, 0};
  return std::nullopt;
}

std::optional<TensorSpelling> tensorSpelling(TypeLoc TL) {
  for (int Step = 0; Step < 16 && !TL.isNull(); ++Step) {
    TL = TL.getUnqualifiedLoc();
    if (auto TD = TL.getAs<TypedefTypeLoc>()) {
      const TypedefNameDecl *D = TD.getDecl();
      if (!D || !D->getTypeSourceInfo())
        return std::nullopt;
      TL = D->getTypeSourceInfo()->getTypeLoc();
      continue;
    }
    auto TS = TL.getAs<TemplateSpecializationTypeLoc>();
    const TemplateDecl *TD =
        TS ? TS.getTypePtr()->getTemplateName().getAsTemplateDecl() : nullptr;
    if (!TD || TS.getNumArgs() < 1)
      return std::nullopt;
    if (const auto *Alias = dyn_cast<TypeAliasTemplateDecl>(TD)) {
      const TypeSourceInfo *Pattern =
          Alias->getTemplatedDecl()->getTypeSourceInfo();
      std::optional<TensorSpelling> Inner =
          Pattern ? tensorSpelling(Pattern->getTypeLoc()) : std::nullopt;
      if (!Inner)
        return std::nullopt;
      return TensorSpelling{asWritten(Inner->Element, Alias, TS),
                            asWritten(Inner->Layout, Alias, TS)};
    }
    if (TD->getQualifiedNameAsString() == "tf::Tensor" && TS.getNumArgs() >= 2)
      return TensorSpelling{TS.getArgLoc(0), TS.getArgLoc(1)};
    if (!isSlotHolder(TD) || !TS.getArgLoc(0).getTypeSourceInfo())
      return std::nullopt;
    TL = TS.getArgLoc(0).getTypeSourceInfo()->getTypeLoc();
  }
  return std::nullopt;
}

std::optional<TensorSpelling> tensorSpelling(QualType T, const ASTContext &Ctx) {
  for (int Step = 0; Step < 32 && !T.isNull(); ++Step) {
    // An alias of tf's own templates (a ring's slot type) spells a template
    // parameter: the user's alias is further down the sugar.
    if (const auto *TT = dyn_cast<TypedefType>(T.getTypePtr()))
      if (const TypeSourceInfo *TSI = TT->getDecl()->getTypeSourceInfo())
        if (std::optional<TensorSpelling> S = tensorSpelling(TSI->getTypeLoc());
            S && S->Element.getArgument().getKind() == TemplateArgument::Type &&
            !S->Element.getArgument().getAsType()->isDependentType())
          return S;
    if (const auto *R = dyn_cast<ReferenceType>(T.getTypePtr())) {
      T = R->getPointeeTypeAsWritten();
      continue;
    }
    // A buffer, ring or window of a tensor (`tf::zeros<Acc>()` is a
    // Buffer<Acc>): the tensor's sugar is in the argument.
    if (const auto *TST = dyn_cast<TemplateSpecializationType>(T.getTypePtr()))
      if (const TemplateDecl *TD = TST->getTemplateName().getAsTemplateDecl();
          TD && isSlotHolder(TD) && !TST->template_arguments().empty() &&
          TST->template_arguments()[0].getKind() == TemplateArgument::Type) {
        T = TST->template_arguments()[0].getAsType();
        continue;
      }
    QualType Next = T.getSingleStepDesugaredType(Ctx);
    if (Next == T)
      return std::nullopt;
    T = Next;
  }
  return std::nullopt;
}

bool isTensorLike(QualType T) {
  return tfSpecialization(T, "tf::Tensor") ||
         tfSpecialization(T, "tf::Window") ||
         tfSpecialization(T, "tf::Buffer") || tfSpecialization(T, "tf::Ring");
}

bool isIndexType(QualType T) {
  T = bare(T);
  return !T.isNull() && T->isIntegerType() && !T->isBooleanType();
}

std::optional<DType> floatingScalar(QualType T) {
  QualType B = bare(T);
  if (!B->isRealFloatingType())
    return std::nullopt;
  return dtypeOf(B);
}

clang::SourceRange optionRange(const Expr *Opt, llvm::StringRef Field) {
  const auto *List = dyn_cast<InitListExpr>(Opt);
  if (List && List->isSemanticForm() && List->getSyntacticForm())
    List = List->getSyntacticForm();
  if (List)
    for (const Expr *Init : List->inits())
      if (const auto *D = dyn_cast_or_null<DesignatedInitExpr>(Init))
        for (const DesignatedInitExpr::Designator &X : D->designators())
          if (X.isFieldDesignator() && X.getFieldName() &&
              X.getFieldName()->getName() == Field)
            return D->getSourceRange();
  return Opt->getSourceRange();
}

const Expr *strip(const Expr *E) {
  while (E) {
    const Expr *Next = nullptr;
    if (const auto *P = dyn_cast<ParenExpr>(E))
      Next = P->getSubExpr();
    else if (const auto *C = dyn_cast<ExprWithCleanups>(E))
      Next = C->getSubExpr();
    else if (const auto *M = dyn_cast<MaterializeTemporaryExpr>(E))
      Next = M->getSubExpr();
    else if (const auto *B = dyn_cast<CXXBindTemporaryExpr>(E))
      Next = B->getSubExpr();
    else if (const auto *I = dyn_cast<ImplicitCastExpr>(E))
      Next = I->getSubExpr();
    else if (const auto *CE = dyn_cast<ConstantExpr>(E))
      Next = CE->getSubExpr();
    else if (const auto *F = dyn_cast<CXXFunctionalCastExpr>(E);
             F && F->getCastKind() == CK_NoOp)
      Next = F->getSubExpr();
    else if (const auto *K = dyn_cast<CXXConstructExpr>(E)) {
      const CXXConstructorDecl *Ctor = K->getConstructor();
      if (K->getNumArgs() == 1 && Ctor &&
          (Ctor->isCopyOrMoveConstructor() ||
           isTensorLike(K->getArg(0)->getType())))
        Next = K->getArg(0);
    } else if (const auto *MC = dyn_cast<CXXMemberCallExpr>(E)) {
      if (isa_and_nonnull<CXXConversionDecl>(MC->getMethodDecl()))
        Next = MC->getImplicitObjectArgument();
    }
    if (!Next)
      break;
    E = Next;
  }
  return E;
}

const FunctionDecl *calleeOf(const CallExpr *CE) {
  return CE ? CE->getDirectCallee() : nullptr;
}

std::optional<hir::OpKind> opKindOf(const CallExpr *CE) {
  if (isa<CXXOperatorCallExpr>(CE))
    return std::nullopt;
  return plugin::opKindOf(calleeOf(CE));
}

llvm::ArrayRef<TemplateArgumentLoc> writtenTemplateArgs(const CallExpr *CE) {
  const Expr *Callee = CE->getCallee();
  if (!Callee)
    return {};
  Callee = Callee->IgnoreParenImpCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(Callee))
    return DRE->template_arguments();
  if (const auto *ME = dyn_cast<MemberExpr>(Callee))
    return ME->template_arguments();
  return {};
}

std::optional<TensorSpelling> resultSpelling(const CallExpr *CE,
                                             const ASTContext &Ctx) {
  if (std::optional<TensorSpelling> S = tensorSpelling(CE->getType(), Ctx))
    return S;
  QualType Held = CE->getType();
  if (const auto *Buffer = tfSpecialization(Held, "tf::Buffer");
      Buffer && Buffer->getTemplateArgs().size() >= 1 &&
      Buffer->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    Held = Buffer->getTemplateArgs()[0].getAsType();
  for (const TemplateArgumentLoc &A : writtenTemplateArgs(CE))
    if (A.getArgument().getKind() == TemplateArgument::Type &&
        A.getTypeSourceInfo() &&
        Ctx.hasSameType(A.getArgument().getAsType(), Held))
      return tensorSpelling(A.getTypeSourceInfo()->getTypeLoc());
  return std::nullopt;
}

const TemplateArgumentList *calleeTemplateArgs(const CallExpr *CE) {
  const FunctionDecl *FD = calleeOf(CE);
  return FD ? FD->getTemplateSpecializationArgs() : nullptr;
}

unsigned modeArgument(const CallExpr *CE) {
  if (const TemplateArgumentList *TA = calleeTemplateArgs(CE);
      TA && TA->size() >= 1)
    if (std::optional<std::int64_t> M = integralArg((*TA)[0]))
      return *M >= 0 ? static_cast<unsigned>(*M) : 0;
  return 0;
}

std::string qualifiedName(const NamedDecl &D) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  D.getNameForDiagnostic(OS, D.getASTContext().getPrintingPolicy(),
                         /*Qualified=*/true);
  return Out;
}

std::optional<std::int64_t> intField(const APValue &V, QualType T,
                                     llvm::StringRef Name) {
  const auto *RD = bare(T).isNull() ? nullptr : bare(T)->getAsCXXRecordDecl();
  if (!RD || !V.isStruct())
    return std::nullopt;
  for (const FieldDecl *F : RD->fields()) {
    if (F->getName() != Name)
      continue;
    unsigned I = F->getFieldIndex();
    if (I >= V.getStructNumFields() || !V.getStructField(I).isInt())
      return std::nullopt;
    return V.getStructField(I).getInt().getExtValue();
  }
  return std::nullopt;
}

} // namespace tf::plugin::buildhir
