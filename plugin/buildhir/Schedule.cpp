//===- buildhir/Schedule.cpp - tf::schedule's atom and contract -----------===//
//
// The atom type a tf::schedule names, the contract it chooses (read from
// declarations and constants only), its parameters' values and where each
// is written, the written Repeat.
//
//===----------------------------------------------------------------------===//

#include "buildhir/KernelBuilder.h"
#include "ConstantValue.h"
#include "LayoutLiterals.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace tf::plugin::buildhir {

/// The contract id an atom type chooses: the `id` of the constexpr Contract
/// that its static member `contract` refers to (a base's when it declares
/// none). Read from declarations and constant values only, never from a
/// function body: clangd parses headers with function bodies skipped.
std::optional<std::string>
KernelBuilder::contractIdOf(const CXXRecordDecl *RD, int Depth) {
  if (!RD || Depth > 4)
    return std::nullopt;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  // tf::TiledMma<A> chooses A's contract.
  if (Spec && Spec->getSpecializedTemplate() &&
      Spec->getSpecializedTemplate()->getQualifiedNameAsString() ==
          "tf::TiledMma" &&
      Spec->getTemplateArgs().size() >= 1 &&
      Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    return contractIdOf(
        Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl(),
        Depth + 1);
  // A specialization nothing required complete: the template's members,
  // whose `contract` does not depend on the template arguments.
  if (!RD->hasDefinition() && Spec && Spec->getSpecializedTemplate())
    RD = Spec->getSpecializedTemplate()->getTemplatedDecl();
  if (!RD->hasDefinition())
    return std::nullopt;
  RD = RD->getDefinition();
  const VarDecl *Member = nullptr;
  for (const Decl *D : RD->decls())
    if (const auto *VD = dyn_cast<VarDecl>(D);
        VD && VD->isStaticDataMember() && VD->getIdentifier() &&
        VD->getName() == "contract")
      Member = VD;
  if (!Member) {
    for (const CXXBaseSpecifier &Base : RD->bases())
      if (std::optional<std::string> Id =
              contractIdOf(Base.getType()->getAsCXXRecordDecl(), Depth + 1))
        return Id;
    return std::nullopt;
  }
  // A member of a class template specialization whose initializer Sema has
  // not instantiated yet: the pattern's, when it does not depend on the
  // template arguments.
  const Expr *Init = Member->getInit();
  if (!Init)
    if (const VarDecl *Pattern = Member->getTemplateInstantiationPattern())
      Init = Pattern->getInit();
  Expr::EvalResult Ref;
  if (!Init || Init->isValueDependent() || !Init->EvaluateAsLValue(Ref, Ctx))
    return std::nullopt;
  const auto *Contract = dyn_cast_or_null<VarDecl>(
      Ref.Val.getLValueBase().dyn_cast<const ValueDecl *>());
  const APValue *V = Contract ? Contract->evaluateValue() : nullptr;
  const CXXRecordDecl *CRD =
      Contract ? Contract->getType()->getAsCXXRecordDecl() : nullptr;
  if (!V || !V->isStruct() || !CRD)
    return std::nullopt;
  for (const FieldDecl *F : CRD->fields())
    if (F->getName() == "id" && F->getFieldIndex() < V->getStructNumFields())
      return decodeName(V->getStructField(F->getFieldIndex()), F->getType());
  return std::nullopt;
}

/// Where each parameter's template argument is written: the atom type is
/// followed from the written `tf::schedule<...>` argument through
/// TiledMma<...> and `using` aliases to the atom's specialization; parameter
/// i is its template argument i when their values agree (the atom types
/// list their parameters in the contract's order; derived ones come last
/// and have no argument).
bool KernelBuilder::spelledByTemplateParameter(clang::SourceRange R) const {
  const FunctionTemplateDecl *P =
      FD && FD->isTemplateInstantiation() ? FD->getPrimaryTemplate() : nullptr;
  if (!P || R.isInvalid())
    return false;
  bool Invalid = false;
  llvm::StringRef Text =
      Lexer::getSourceText(CharSourceRange::getTokenRange(R), SM,
                           Ctx.getLangOpts(), &Invalid)
          .trim();
  return !Invalid && llvm::any_of(*P->getTemplateParameters(),
                                  [&](const NamedDecl *Param) {
                                    return Param->getName() == Text;
                                  });
}

std::vector<hir::SourceRange>
KernelBuilder::paramRanges(const CallExpr *CE, const CXXRecordDecl *AtomRD,
                           const detail::AtomParams &Params) {
  std::vector<hir::SourceRange> Out(Params.size());
  llvm::ArrayRef<TemplateArgumentLoc> Written = writtenTemplateArgs(CE);
  if (Written.empty() || !AtomRD)
    return Out;
  const TypeSourceInfo *TSI = Written[0].getTypeSourceInfo();
  if (!TSI)
    return Out;
  TypeLoc TL = TSI->getTypeLoc();
  std::optional<TemplateSpecializationTypeLoc> AtomLoc;
  for (int Step = 0; Step < 16 && !TL.isNull(); ++Step) {
    TL = TL.getUnqualifiedLoc();
    if (auto TS = TL.getAs<TemplateSpecializationTypeLoc>()) {
      const CXXRecordDecl *RD = TS.getTypePtr()->getAsCXXRecordDecl();
      if (RD && RD->getCanonicalDecl() == AtomRD->getCanonicalDecl()) {
        AtomLoc = TS;
        break;
      }
      if (TS.getNumArgs() >= 1 &&
          TS.getArgLoc(0).getArgument().getKind() == TemplateArgument::Type &&
          TS.getArgLoc(0).getTypeSourceInfo()) {
        TL = TS.getArgLoc(0).getTypeSourceInfo()->getTypeLoc();
        continue;
      }
      break;
    }
    if (auto TD = TL.getAs<TypedefTypeLoc>()) {
      const TypedefNameDecl *D = TD.getDecl();
      if (!D || !D->getTypeSourceInfo())
        break;
      TL = D->getTypeSourceInfo()->getTypeLoc();
      continue;
    }
    break;
  }
  if (!AtomLoc)
    return Out;
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(AtomRD);
  if (!Spec)
    return Out;
  const TemplateArgumentList &Args = Spec->getTemplateArgs();
  for (unsigned I = 0; I < Params.size(); ++I) {
    if (I >= Args.size() || I >= AtomLoc->getNumArgs())
      break;
    const TemplateArgument &A = Args[I];
    const ParamValue &V = Params[I].value;
    bool Agrees = false;
    switch (V.kind) {
    case ParamKind::integer:
      Agrees = A.getKind() == TemplateArgument::Integral &&
               A.getAsIntegral().getExtValue() == V.integer;
      break;
    case ParamKind::dtype:
      Agrees = A.getKind() == TemplateArgument::Type &&
               dtypeOf(A.getAsType()) == V.dtype;
      break;
    case ParamKind::choice:
      if (A.getKind() == TemplateArgument::Integral) {
        if (const auto *ET = A.getIntegralType()->getAs<EnumType>())
          for (const EnumConstantDecl *E :
               ET->getDecl()->getDefinitionOrSelf()->enumerators())
            if (E->getInitVal() == A.getAsIntegral())
              Agrees = E->getName() == llvm::StringRef(V.choice.view().data(),
                                                      V.choice.view().size());
      }
      break;
    }
    // An argument spelled by a template parameter (Wgmma<N, ...> in a
    // kernel template) is the instantiation's decision, not this text's:
    // a fix-it there would change every instantiation.
    const clang::SourceRange ArgRange = AtomLoc->getArgLoc(I).getSourceRange();
    const bool ByTemplate = spelledByTemplateParameter(ArgRange);
    if (Agrees && !ByTemplate)
      Out[I] = range(ArgRange);
  }
  return Out;
}

void KernelBuilder::buildSchedule(hir::Stmt &Op, const CallExpr *CE) {
  hir::Schedule S;
  const TemplateArgumentList *TA = calleeTemplateArgs(CE);
  llvm::ArrayRef<TemplateArgumentLoc> Written = writtenTemplateArgs(CE);
  if (!Written.empty())
    S.AtomSpelling = sourceText(Written[0].getSourceRange());
  const CXXRecordDecl *AtomRD = nullptr;
  if (TA && TA->size() >= 1 && (*TA)[0].getKind() == TemplateArgument::Type) {
    QualType Atom = (*TA)[0].getAsType();
    if (S.AtomSpelling.empty())
      S.AtomSpelling = Atom.getAsString(Ctx.getPrintingPolicy());
    AtomRD = bare(Atom)->getAsCXXRecordDecl();
  }
  if (AtomRD)
    if (std::optional<std::string> Id = contractIdOf(AtomRD))
      S.ContractId = *Id;

  // The atom whose `params` are the contract's parameters: A of
  // TiledMma<A>, else the atom type itself.
  const CXXRecordDecl *ParamsRD = AtomRD;
  if (const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(AtomRD);
      Spec && Spec->getSpecializedTemplate() &&
      Spec->getSpecializedTemplate()->getQualifiedNameAsString() ==
          "tf::TiledMma" &&
      Spec->getTemplateArgs().size() >= 1 &&
      Spec->getTemplateArgs()[0].getKind() == TemplateArgument::Type)
    ParamsRD = Spec->getTemplateArgs()[0].getAsType()->getAsCXXRecordDecl();
  if (ParamsRD) {
    for (const Decl *D : ParamsRD->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !VD->getIdentifier() || VD->getName() != "params" ||
          !VD->isStaticDataMember())
        continue;
      const APValue *V = VD->getInit() ? VD->evaluateValue() : nullptr;
      if (V)
        if (std::optional<detail::AtomParams> P =
                decodeAtomParams(*V, VD->getType()))
          S.Params = *P;
    }
  }
  S.ParamRanges = paramRanges(CE, ParamsRD, S.Params);

  // The Repeat: tf::Repeat<R...> (not detail::DerivedRepeat).
  if (TA && TA->size() >= 2 && (*TA)[1].getKind() == TemplateArgument::Type)
    if (const auto *Rep = tfSpecialization((*TA)[1].getAsType(), "tf::Repeat")) {
      for (const TemplateArgument &A : Rep->getTemplateArgs().asArray()) {
        if (A.getKind() == TemplateArgument::Pack) {
          for (const TemplateArgument &E : A.pack_elements())
            if (std::optional<std::int64_t> V = integralArg(E))
              S.Repeat.push_back(*V);
        } else if (std::optional<std::int64_t> V = integralArg(A)) {
          S.Repeat.push_back(*V);
        }
      }
      if (Written.size() >= 2)
        S.RepeatRange = range(Written[1].getSourceRange());
    }
  Op.Sched = std::move(S);
}

} // namespace tf::plugin::buildhir
