//===- buildhir/KernelBuilder.cpp - Builder basics and the kernel ---------===//
//
// Source positions and diagnostics, values and statements, the spelling of
// tensor types; then the kernel itself: its parameters, its launch
// attributes and the addresses that escape it.
//
//===----------------------------------------------------------------------===//

#include "buildhir/KernelBuilder.h"
#include "ConstantValue.h"
#include "LayoutLiterals.h"
#include "MeshSource.h"
#include "tf/layout/text/print.hpp"

#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringExtras.h"

#include <memory>

using namespace clang;

namespace tf::plugin::buildhir {

hir::SourceRange KernelBuilder::range(clang::SourceRange R) const {
  return hirRange(SM, R);
}

namespace {

/// Where \p Text, a layout literal's contents, writes each leaf's stride:
/// the numbers between the `:` after the shape and the end of the stride
/// tuple (before an offset `+`, a `| Swizzle` or a composition), in leaf
/// order -- when there is one number per leaf of \p T's layout.
template <class CharRange>
void recordStrides(hir::TensorType &T, llvm::StringRef Text,
                   CharRange charRange) {
  std::size_t Colon = Text.find(':');
  if (Colon == llvm::StringRef::npos)
    return;
  std::vector<hir::SourceRange> Out;
  int Depth = 0;
  for (std::size_t I = Colon + 1; I < Text.size(); ++I) {
    char C = Text[I];
    if (C == '(')
      ++Depth;
    else if (C == ')' && --Depth <= 0)
      break;
    else if (llvm::isDigit(C)) {
      std::size_t End = I;
      while (End < Text.size() && llvm::isDigit(Text[End]))
        ++End;
      Out.push_back(charRange(I, End));
      I = End - 1;
    } else if (Depth == 0 && !llvm::isSpace(C)) {
      break; // a stride outside parentheses is one number, read above
    }
    if (Depth == 0 && !Out.empty())
      break;
  }
  if (static_cast<int>(Out.size()) == T.Layout.layout.stride.leaf_count())
    T.StrideRanges = std::move(Out);
}

} // namespace

void KernelBuilder::recordSpelling(hir::TensorType &T,
                                   std::optional<TensorSpelling> W) const {
  if (!W)
    return;
  // What is still a template parameter is spelled by the template, not by
  // the declaration the user reads.
  const TemplateArgument &E = W->Element.getArgument();
  if (E.getKind() == TemplateArgument::Type && !E.getAsType()->isDependentType())
    T.ElementRange = range(W->Element.getSourceRange());
  const StringLiteral *S = writtenLiteral(W->Layout);
  if (!S || !S->isOrdinary())
    return;
  T.LayoutRange = range(S->getSourceRange());
  llvm::StringRef Text = S->getString();
  auto byteLoc = [&](std::size_t Byte) {
    return S->getLocationOfByte(Byte, SM, Ctx.getLangOpts(),
                                Ctx.getTargetInfo());
  };
  auto charRange = [&](std::size_t Begin, std::size_t End) {
    hir::SourceRange R = range(clang::SourceRange(byteLoc(Begin), byteLoc(End)));
    R.Chars = true;
    return R;
  };
  recordStrides(T, Text, charRange);
  std::size_t At = Text.find("Swizzle(");
  if (At == llvm::StringRef::npos) {
    T.SwizzleRange = charRange(Text.size(), Text.size());
    return;
  }
  std::size_t Close = Text.find(')', At);
  if (Close == llvm::StringRef::npos)
    return;
  T.SwizzleRange = charRange(At, Close + 1);
}

void KernelBuilder::inheritSpelling(ValueId Result, StmtId Op) {
  hir::TensorType &T = K.Values[Result].Type;
  if (T.Spelling.empty())
    return;
  for (ValueId V : K.Stmts[Op].Operands) {
    const hir::TensorType &From = K.Values[V].Type;
    if (From.Element != T.Element || From.Spelling != T.Spelling)
      continue;
    if (!T.ElementRange.valid())
      T.ElementRange = From.ElementRange;
    if (!T.LayoutRange.valid()) {
      T.LayoutRange = From.LayoutRange;
      T.StrideRanges = From.StrideRanges;
    }
    if (!T.SwizzleRange.valid())
      T.SwizzleRange = From.SwizzleRange;
  }
}

std::string KernelBuilder::sourceText(clang::SourceRange R) const {
  if (R.isInvalid())
    return {};
  const SourceLocation Begin = SM.getFileLoc(R.getBegin()),
                       End = SM.getFileLoc(R.getEnd());
  // A template argument closed by the first '>' of a '>>' token (which the
  // parser split: `schedule<Multicast<2>>(...)`) ends at that character, not
  // with the token.
  bool InvalidEnd = false;
  const char *At = SM.getCharacterData(End, &InvalidEnd);
  CharSourceRange CR =
      !InvalidEnd && At[0] == '>' && At[1] == '>'
          ? CharSourceRange::getCharRange(Begin, End.getLocWithOffset(1))
          : CharSourceRange::getTokenRange(Begin, End);
  bool Invalid = false;
  llvm::StringRef Text =
      Lexer::getSourceText(CR, SM, Ctx.getLangOpts(), &Invalid);
  if (Invalid)
    return {};
  // One line, single spaces: the text is printed, not re-parsed.
  std::string Out;
  bool Space = false;
  for (char C : Text) {
    if (C == ' ' || C == '\n' || C == '\t' || C == '\r') {
      Space = !Out.empty();
      continue;
    }
    if (Space)
      Out.push_back(' ');
    Space = false;
    Out.push_back(C);
  }
  return Out;
}

DiagnosticBuilder KernelBuilder::error(SourceLocation Loc, DiagId Id) {
  Failed = true;
  return report(Diags, Loc, Id);
}

void KernelBuilder::afterError() {
  if (FD->isTemplateInstantiation())
    report(Diags, FD->getPointOfInstantiation(),
           DiagId::note_tf_in_instantiation)
        << FD;
}

void KernelBuilder::unsupported(const Stmt *S, llvm::StringRef What,
                                llvm::StringRef Hint) {
  error(S->getBeginLoc(), DiagId::err_tf_hir_unsupported)
      << What << Hint << S->getSourceRange();
  afterError();
}

ValueId KernelBuilder::addValue(hir::Value V) {
  if (V.Scope == None)
    V.Scope = K.meshScopeOf(Current);
  return K.addValue(std::move(V));
}

StmtId KernelBuilder::addStmt(hir::Stmt &&S) {
  S.Parent = Current;
  StmtId Id = K.addStmt(std::move(S));
  if (Current != None)
    K.Stmts[Current].Body.push_back(Id);
  return Id;
}

bool KernelBuilder::isTensorValueRef(const Expr *E) const {
  const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(E));
  if (!DRE)
    return false;
  ValueId V = valueOfDecl(DRE->getDecl());
  return V != None && K.Values[V].Kind != hir::ValueKind::Index &&
         K.Values[V].Kind != hir::ValueKind::Scalar;
}

//===- Kernel --------------------------------------------------------------===//

std::optional<hir::Kernel> KernelBuilder::build() {
  const Stmt *Body = FD->getBody();
  if (!Body || FD->isDependentContext())
    return std::nullopt;

  K.Name = qualifiedName(*FD);
  {
    std::unique_ptr<MangleContext> MC(Ctx.createMangleContext());
    if (MC && MC->shouldMangleDeclName(FD)) {
      llvm::raw_string_ostream OS(K.MangledName);
      MC->mangleName(GlobalDecl(FD), OS);
    } else {
      K.MangledName = FD->getNameAsString();
    }
  }
  K.Range = range(clang::SourceRange(FD->getLocation(), FD->getEndLoc()));
  if (FD->isTemplateInstantiation())
    K.InstantiatedAt = range(clang::SourceRange(FD->getPointOfInstantiation()));
  for (const SiteArgument &A : KernelSite.Args) {
    if (std::optional<Target> T = decodeTarget(A.Value, A.Type)) {
      if (!K.Target.empty()) {
        error(A.Range.getBegin(), DiagId::err_tf_kernel_argument_twice)
            << "a target" << A.Range;
        afterError();
        continue;
      }
      K.Target = std::string(T->id.view());
      K.TargetRange = range(A.Range);
    } else if (std::optional<Topology> T = decodeTopology(A.Value, A.Type)) {
      if (llvm::any_of(K.Topologies, [&](const Topology &Known) {
            return Known.level == T->level;
          })) {
        error(A.Range.getBegin(), DiagId::err_tf_kernel_argument_twice)
            << ("the topology of level '" + std::string(T->level.view()) +
                "'")
            << A.Range;
        afterError();
        continue;
      }
      K.Topologies.push_back(*T);
      K.TopologyRanges.push_back(range(A.Range));
      K.TopologyExtentRanges.push_back(topologyExtentRange(A.Written, Ctx));
    } else if (std::optional<ResidentCtas> R =
                   decodeResidentCtas(A.Value, A.Type)) {
      if (K.ResidentCtasRange.valid()) {
        error(A.Range.getBegin(), DiagId::err_tf_kernel_argument_twice)
            << "tf::resident_ctas" << A.Range;
        afterError();
        continue;
      }
      K.ResidentCtas = R->count;
      K.ResidentCtasRange = range(A.Range);
    } else {
      error(A.Range.getBegin(), DiagId::err_tf_attribute_argument_type)
          << "kernel"
          << "tf::target(ID), tf::topology(LEVEL, EXTENT) or "
             "tf::resident_ctas(N)"
          << A.Type << A.Range;
      afterError();
    }
  }

  for (const ParmVarDecl *P : FD->parameters()) {
    if (!P)
      continue;
    hir::Value V;
    V.Origin = hir::ValueOrigin::Parameter;
    V.Name = P->getNameAsString();
    V.Range = range(P->getSourceRange());
    if (std::optional<TypeInfo> TI = typeInfo(P->getType())) {
      V.Kind = TI->Kind;
      V.Type = TI->Type;
      V.Stages = TI->Stages;
      if (const TypeSourceInfo *TSI = P->getTypeSourceInfo())
        recordSpelling(V.Type, tensorSpelling(TSI->getTypeLoc()));
    } else if (isIndexType(P->getType())) {
      V.Kind = hir::ValueKind::Index;
      const QualType T = bare(P->getType());
      V.ScalarType = (T->isUnsignedIntegerType() ? "std::uint" : "std::int") +
                     std::to_string(Ctx.getTypeSize(T)) + "_t";
    } else if (std::optional<DType> D = floatingScalar(P->getType())) {
      V.Kind = hir::ValueKind::Scalar;
      V.Type.Element = *D;
    } else if (isTensorLike(P->getType())) {
      error(P->getLocation(), DiagId::err_tf_hir_unsupported)
          << "this tensor parameter type"
          << "tf reads tensor types whose element type and layout text it "
             "knows; write tf::Tensor<T, \"layout\", storage>"
          << P->getSourceRange();
      afterError();
      continue;
    } else {
      // Other parameters (pointers, structs) are not values of the HIR;
      // using them with a tf op is reported where it happens.
      continue;
    }
    ValueId Id = K.addValue(std::move(V));
    K.Parameters.push_back(Id);
    Vars[P] = Id;
  }

  scanForEscapes(Body);

  hir::Stmt Root;
  Root.Kind = hir::StmtKind::Block;
  Root.Range = range(Body);
  K.Body = addStmt(std::move(Root));
  Current = K.Body;
  translateBodyInto(Body);
  if (Failed)
    return std::nullopt;
  return std::move(K);
}

/// Addresses of tensors and lambdas, wherever they hide in the body.
void KernelBuilder::scanForEscapes(const Stmt *Body) {
  struct Scanner : RecursiveASTVisitor<Scanner> {
    KernelBuilder &B;
    explicit Scanner(KernelBuilder &B) : B(B) {}
    bool TraverseLambdaExpr(LambdaExpr *L) {
      B.unsupported(L, "a lambda expression",
                    "write its statements in the kernel body, or make it a "
                    "constexpr function of integers");
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator *U) {
      if (U->getOpcode() != UO_AddrOf)
        return true;
      const Expr *Sub = strip(U->getSubExpr());
      if (!Sub || !isTensorLike(Sub->getType()))
        return true;
      std::string What = "'" + B.sourceText(Sub->getSourceRange()) + "'";
      B.Escapes.insert(U);
      B.error(U->getBeginLoc(), DiagId::err_tf_hir_address_escapes)
          << What
          << "pass the tensor itself to tf ops; tf decides where it lives"
          << U->getSourceRange();
      B.afterError();
      return true;
    }
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *MC) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      const Expr *Obj = MC->getImplicitObjectArgument();
      if (!M || !Obj || !M->getIdentifier() || !isTensorLike(Obj->getType()))
        return true;
      llvm::StringRef N = M->getName();
      if (N != "data" && N != "buffer" && N != "view")
        return true;
      if (N == "view")
        return true;
      std::string What = "'" + B.sourceText(Obj->getSourceRange()) + "'";
      B.Escapes.insert(MC);
      B.error(MC->getExprLoc(), DiagId::err_tf_hir_address_escapes)
          << What
          << ("'" + N + "()' exposes its storage; pass the tensor itself to "
              "tf ops")
                 .str()
          << MC->getSourceRange();
      B.afterError();
      return true;
    }
    bool VisitVarDecl(VarDecl *VD) {
      QualType T = VD->getType();
      if (T->isPointerType() && isTensorLike(T->getPointeeType()) &&
          !isa<ParmVarDecl>(VD)) {
        // &x itself is reported at the address-of; a pointer declared from
        // elsewhere is reported here.
        const Expr *Init = VD->getInit();
        const auto *U =
            Init ? dyn_cast<UnaryOperator>(Init->IgnoreParenImpCasts()) : nullptr;
        if (U && U->getOpcode() == UO_AddrOf)
          return true;
        B.error(VD->getLocation(), DiagId::err_tf_hir_address_escapes)
            << ("'" + VD->getNameAsString() + "'")
            << "pointers to tensors cannot be followed; use the tensor "
               "itself"
            << VD->getSourceRange();
        B.afterError();
      }
      return true;
    }
  } S(*this);
  S.TraverseStmt(const_cast<Stmt *>(Body));
  for (const ParmVarDecl *P : FD->parameters()) {
    QualType T = P ? P->getType() : QualType();
    if (!T.isNull() && T->isPointerType() && isTensorLike(T->getPointeeType())) {
      error(P->getLocation(), DiagId::err_tf_hir_address_escapes)
          << ("'" + P->getNameAsString() + "'")
          << "take the tensor by value; a tf::Tensor is already a view"
          << P->getSourceRange();
      afterError();
    }
  }
}

} // namespace tf::plugin::buildhir
