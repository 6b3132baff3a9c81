//===- BuildHIR.cpp - Clang's AST of tf kernels -> HIR --------------------===//
//
// The one file that reads Clang's AST into tf's HIR (BuildHIR.h). For each
// kernel site it walks the function body once:
//
//   declarations   tensor / ring / buffer / index variables -> Alloc, Let, Op
//   range-for      over tf.op.tile_offsets / persistent_tiles / grid_tiles
//                  -> Loop (tile_offsets' step, the scheduler's mesh and
//                  options evaluated as constants)
//   [[tf::mesh]]   sites matched by their AnnotateAttr -> MeshScope
//   calls          whose callee carries [[clang::annotate("tf.op.NAME")]]
//                  -> Op of that kind (hir/Ops.def), with operands, result
//                  and AccessRelation; nested ops become Ops of their own
//                  before the one that uses them
//
// Types are recognised by the qualified names of tf's class templates
// (tf::Tensor, tf::Window, tf::Buffer, tf::Ring), ops only by their
// annotation, never by how the user spells them. Scalar statements that
// touch no tensor and call nothing but constexpr functions are host-side
// integer arithmetic: they are allowed and leave no trace. Everything else --
// control flow, calls to other functions, lambdas, tensor addresses -- is an
// error at its exact range, and the kernel is left out of the module.
//
//===----------------------------------------------------------------------===//

#include "BuildHIR.h"
#include "ConstantValue.h"
#include "Diagnostics.h"
#include "LayoutLiterals.h"
#include "MeshSource.h"
#include "tf/atoms/registry.hpp"
#include "tf/layout/text/print.hpp"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Mangle.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/TypeLoc.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringExtras.h"

#include <functional>
#include <memory>

using namespace clang;

namespace tf::plugin {
namespace {

using hir::ExprId;
using hir::StmtId;
using hir::ValueId;
constexpr unsigned None = hir::None;

//===- Types ---------------------------------------------------------------===//

/// \p T without references and qualifiers, canonical.
QualType bare(QualType T) {
  if (T.isNull())
    return T;
  return T.getNonReferenceType().getCanonicalType().getUnqualifiedType();
}

/// The specialization of tf's class template \p Name ("tf::Tensor") that
/// \p T is, or null.
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

bool isTfRecordType(QualType T, llvm::StringRef Name) {
  T = bare(T);
  if (T.isNull() || T->isDependentType())
    return false;
  const auto *RD = T->getAsCXXRecordDecl();
  return RD && RD->getQualifiedNameAsString() == Name;
}

/// The DType of an element type: float, double, tf::bf16, std::int8_t, ...
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

/// What a C++ type is to the HIR.
struct TypeInfo {
  hir::ValueKind Kind = hir::ValueKind::Tensor;
  hir::TensorType Type;
  int Stages = 0;
};

std::optional<TypeInfo> typeInfo(QualType T);

/// tf::Tensor<T, Text, S>.
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

/// Whether \p TD is a tf::Ring, tf::Buffer or tf::Window: a class whose first
/// template argument is the tensor type it holds.
bool isSlotHolder(const TemplateDecl *TD) {
  const std::string Name = TD->getQualifiedNameAsString();
  return Name == "tf::Ring" || Name == "tf::Buffer" || Name == "tf::Window";
}

/// The template arguments a tf::Tensor<T, "layout", S> is written with.
struct TensorSpelling {
  TemplateArgumentLoc Element;
  TemplateArgumentLoc Layout;
};

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

/// How a declared type writes its tf::Tensor, followed through aliases,
/// alias templates (`Acc128x64<tf::f16>`: the element is the use's
/// argument) and the slot types of rings, buffers and windows.
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

/// The same for a type known only by its sugar (`auto x = tf::zeros<Acc>()`,
/// an op's result): the first alias it was named by that spells a tensor.
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

/// Whether \p T is one of tf's tensor-like classes (views, buffers, rings),
/// even one the HIR cannot read.
bool isTensorLike(QualType T) {
  return tfSpecialization(T, "tf::Tensor") ||
         tfSpecialization(T, "tf::Window") ||
         tfSpecialization(T, "tf::Buffer") || tfSpecialization(T, "tf::Ring");
}

bool isIndexType(QualType T) {
  T = bare(T);
  return !T.isNull() && T->isIntegerType() && !T->isBooleanType();
}

/// The element type of a floating-point scalar an op may take (float,
/// double), or nullopt.
std::optional<DType> floatingScalar(QualType T) {
  QualType B = bare(T);
  if (!B->isRealFloatingType())
    return std::nullopt;
  return dtypeOf(B);
}

//===- Expressions ---------------------------------------------------------===//

/// Where field \p Field of the options \p Opt is written: the designated
/// initializer (`.cluster = 2`), else the whole argument.
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

/// \p E without the nodes that only carry it: parentheses, implicit
/// conversions, temporaries, copies and moves of tf values, conversions of a
/// Buffer to its view.
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

/// The explicitly written template arguments of a call's callee.
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

/// How the result of \p CE is written: by its type's sugar, else by the
/// call's explicit template argument when that is the result's type or the
/// tensor of the buffer it returns (`tf::zeros<tf::Tensor<...>>()`).
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

/// The function template arguments of the call's callee after deduction.
const TemplateArgumentList *calleeTemplateArgs(const CallExpr *CE) {
  const FunctionDecl *FD = calleeOf(CE);
  return FD ? FD->getTemplateSpecializationArgs() : nullptr;
}

/// The mode a reduction or broadcast names: its first template argument
/// (0 when it cannot be read; a mode outside the operand stops the compile
/// in the header).
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

/// Reads the integer field \p Name of the struct value \p V of type \p T.
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

//===- The builder ---------------------------------------------------------===//

class KernelBuilder {
public:
  KernelBuilder(ASTContext &Ctx, const Site &KernelSite,
                llvm::ArrayRef<Site> Sites)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Diags(Ctx.getDiagnostics()),
        KernelSite(KernelSite), FD(cast<FunctionDecl>(KernelSite.D)) {
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
  hir::SourceRange range(const Stmt *S) const {
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
  DiagnosticBuilder error(SourceLocation Loc, DiagId Id);
  void unsupported(const Stmt *S, llvm::StringRef What, llvm::StringRef Hint);
  void afterError();

  // Values and statements.
  ValueId addValue(hir::Value V);
  StmtId addStmt(hir::Stmt &&S);
  ValueId valueOfDecl(const ValueDecl *D) const {
    auto It = Vars.find(D);
    return It == Vars.end() ? None : It->second;
  }
  bool isTensorValueRef(const Expr *E) const;

  // The walk.
  void scanForEscapes(const Stmt *Body);
  void translate(const Stmt *S);
  void translateDecl(const Decl *D, const Stmt *Whole);
  void translateVar(const VarDecl *VD, const Stmt *Whole);
  void translateExprStmt(const Expr *E, const Stmt *Whole);
  void translateLoop(const CXXForRangeStmt *FS);
  void translateIf(const IfStmt *IS);
  void translateBodyInto(const Stmt *S);
  /// Whether \p RS ends the kernel's body: any other 'return' skips the
  /// statements after it, which the HIR cannot say.
  bool isLastOfBody(const clang::ReturnStmt *RS) const {
    const auto *Body = llvm::dyn_cast_or_null<clang::CompoundStmt>(FD->getBody());
    return Body && !Body->body_empty() && Body->body_back() == RS;
  }
  StmtId openMeshScope(const Site &S, clang::SourceRange Whole);
  void closeScope(StmtId Saved) { Current = Saved; }
  const Site *meshSiteOf(const AttributedStmt *AS) const;
  const Site *meshSiteOf(const Decl *D) const;

  /// Checks a scalar expression: no tf ops, only constexpr calls. Reports
  /// and returns false otherwise.
  bool checkScalar(const Expr *E);
  bool touchesTensor(const Expr *E) const;

  // Ops.
  bool isOpCall(const Expr *E) const;
  /// Emits the op \p CE (and the ops nested in its operands) as Op
  /// statements; returns the Op's statement or None.
  StmtId translateOp(const CallExpr *CE, ValueId Result, bool Assigns,
                     const Stmt *Whole);
  ValueId operandValue(const Expr *E);
  /// A floating-point scalar written as an op's operand (a literal, a
  /// constant expression, a float local): a Scalar value with its text.
  ValueId scalarOperand(const Expr *E);
  ValueId tileValue(const CXXMemberCallExpr *MC, const std::string &Name);
  ValueId indexOperand(const Expr *E);
  ExprId indexExpr(const Expr *E);
  ExprId buildIndexExpr(const Expr *E);
  ExprId constantExpr(std::int64_t V);
  std::optional<tf::Mesh> evaluateMesh(const Expr *E);
  void buildAccess(hir::Stmt &Op, const CallExpr *CE);
  void buildSchedule(hir::Stmt &Op, const CallExpr *CE);
  std::optional<std::string> contractIdOf(const CXXRecordDecl *RD,
                                          int Depth = 0);
  /// Whether the text at \p R is a template parameter of the kernel
  /// template this kernel instantiates (Wgmma<N, ...>).
  bool spelledByTemplateParameter(clang::SourceRange R) const;
  std::vector<hir::SourceRange> paramRanges(const CallExpr *CE,
                                            const CXXRecordDecl *AtomRD,
                                            const detail::AtomParams &Params);

  ASTContext &Ctx;
  SourceManager &SM;
  DiagnosticsEngine &Diags;
  const Site &KernelSite;
  const FunctionDecl *FD;
  llvm::DenseMap<const AnnotateAttr *, const Site *> MeshSites;
  /// [[tf::layout]] on declarations of the kernel.
  llvm::DenseMap<const Decl *, const Site *> LayoutSites;
  /// Applies a [[tf::layout]] written on \p VD to its type \p T.
  bool applyLayoutSite(const VarDecl *VD, hir::TensorType &T);
  llvm::DenseMap<const ValueDecl *, ValueId> Vars;
  /// Index values that an HIR expression or loop reads; assigning them
  /// later would make the HIR lie.
  llvm::SmallPtrSet<const ValueDecl *, 8> Mutable;
  /// The written ranges of the operands of the op being built.
  llvm::DenseMap<ValueId, hir::SourceRange> OperandRanges;
  /// Expressions already reported as escaping addresses: the statements
  /// holding them are not reported again.
  llvm::SmallPtrSet<const Stmt *, 4> Escapes;
  bool holdsEscape(const Stmt *S) const {
    if (!S)
      return false;
    if (Escapes.contains(S))
      return true;
    for (const Stmt *C : S->children())
      if (holdsEscape(C))
        return true;
    return false;
  }
  hir::Kernel K;
  /// The statement new statements are appended to.
  StmtId Current = None;
  bool Failed = false;
};

hir::SourceRange KernelBuilder::range(clang::SourceRange R) const {
  return hirRange(SM, R);
}

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
  CharSourceRange CR = CharSourceRange::getTokenRange(
      SM.getFileLoc(R.getBegin()), SM.getFileLoc(R.getEnd()));
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
    } else {
      error(A.Range.getBegin(), DiagId::err_tf_attribute_argument_type)
          << "kernel" << "tf::target(ID) or tf::topology(LEVEL, EXTENT)"
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

//===- Statements ----------------------------------------------------------===//

void KernelBuilder::translateBodyInto(const Stmt *S) {
  if (const auto *CS = dyn_cast_or_null<CompoundStmt>(S)) {
    for (const Stmt *Child : CS->body())
      translate(Child);
    return;
  }
  translate(S);
}

const Site *KernelBuilder::meshSiteOf(const AttributedStmt *AS) const {
  for (const Attr *A : AS->getAttrs())
    if (const auto *AA = dyn_cast<AnnotateAttr>(A))
      if (auto It = MeshSites.find(AA); It != MeshSites.end())
        return It->second;
  return nullptr;
}

const Site *KernelBuilder::meshSiteOf(const Decl *D) const {
  for (const AnnotateAttr *AA : D->specific_attrs<AnnotateAttr>())
    if (auto It = MeshSites.find(AA); It != MeshSites.end())
      return It->second;
  return nullptr;
}

StmtId KernelBuilder::openMeshScope(const Site &S, clang::SourceRange Whole) {
  hir::Stmt Scope;
  Scope.Kind = hir::StmtKind::MeshScope;
  clang::SourceRange R = Whole;
  if (S.Attr && S.Attr->getLocation().isValid() &&
      SM.isBeforeInTranslationUnit(SM.getFileLoc(S.Attr->getLocation()),
                                   SM.getFileLoc(R.getBegin())))
    R.setBegin(S.Attr->getLocation());
  Scope.Range = range(R);
  if (!S.Args.empty()) {
    if (std::optional<tf::Mesh> M = decodeMesh(S.Args[0].Value, S.Args[0].Type))
      Scope.Mesh = *M;
    Scope.MeshSpelling = sourceText(S.Args[0].Range);
    Scope.MeshGroups = meshGroupsSource(S.Args[0].Written, Ctx);
  }
  StmtId Saved = Current;
  Current = addStmt(std::move(Scope));
  return Saved;
}

void KernelBuilder::translate(const Stmt *S) {
  if (!S)
    return;
  if (isa<NullStmt>(S))
    return;
  if (const auto *CS = dyn_cast<CompoundStmt>(S)) {
    hir::Stmt B;
    B.Kind = hir::StmtKind::Block;
    B.Range = range(CS);
    StmtId Saved = Current;
    Current = addStmt(std::move(B));
    translateBodyInto(CS);
    Current = Saved;
    return;
  }
  if (const auto *AS = dyn_cast<AttributedStmt>(S)) {
    if (const Site *Mesh = meshSiteOf(AS)) {
      StmtId Saved = openMeshScope(*Mesh, AS->getSourceRange());
      K.Stmts[Current].MeshOnBlock = isa<CompoundStmt>(AS->getSubStmt());
      translateBodyInto(AS->getSubStmt());
      closeScope(Saved);
      return;
    }
    translate(AS->getSubStmt());
    return;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      translateDecl(D, DS);
    return;
  }
  if (const auto *FS = dyn_cast<CXXForRangeStmt>(S))
    return translateLoop(FS);
  if (const auto *IS = dyn_cast<IfStmt>(S))
    return translateIf(IS);
  if (const auto *E = dyn_cast<Expr>(S))
    return translateExprStmt(E, S);
  if (const auto *RS = dyn_cast<ReturnStmt>(S)) {
    if (RS->getRetValue())
      unsupported(RS, "'return' with a value",
                  "a kernel returns nothing; write results into a tensor "
                  "parameter");
    else if (Current != K.Body || !isLastOfBody(RS))
      unsupported(RS, "an early 'return'",
                  "a kernel runs to its end; restrict the work with the "
                  "tile loop's bounds instead");
    return;
  }
  if (isa<ForStmt>(S))
    return unsupported(S, "a 'for' loop",
                       "loop over tiles with `for (std::int64_t k : "
                       "tf::tile_offsets(extent, step))` or "
                       "tf::persistent_tiles / tf::grid_tiles");
  if (isa<WhileStmt>(S) || isa<DoStmt>(S))
    return unsupported(S, isa<WhileStmt>(S) ? "a 'while' loop" : "a 'do' loop",
                       "loop over tiles with `for (std::int64_t k : "
                       "tf::tile_offsets(extent, step))`");
  if (isa<SwitchStmt>(S))
    return unsupported(S, "a 'switch' statement",
                       "choose at compile time with 'if constexpr' or a "
                       "template parameter");
  if (const auto *LS = dyn_cast<LabelStmt>(S))
    return translate(LS->getSubStmt()); // the goto is what is reported
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S))
    return unsupported(S, "'goto'",
                       "kernels are straight-line code, tile loops and mesh "
                       "scopes");
  if (isa<BreakStmt>(S) || isa<ContinueStmt>(S))
    return unsupported(S, isa<BreakStmt>(S) ? "'break'" : "'continue'",
                       "a tile loop visits every tile; narrow its bounds "
                       "instead");
  if (isa<CXXTryStmt>(S))
    return unsupported(S, "a 'try' block",
                       "kernels do not throw; remove the handler");
  if (isa<AsmStmt>(S))
    return unsupported(S, "inline assembly",
                       "choose the instruction with tf::schedule<Atom>");
  if (isa<CoroutineBodyStmt>(S) || isa<CoreturnStmt>(S))
    return unsupported(S, "a coroutine", "write the kernel as a plain function");
  unsupported(S, "this statement",
              "kernels hold declarations, tf ops, tile loops and mesh scopes");
}

void KernelBuilder::translateIf(const IfStmt *IS) {
  if (IS->isConstexpr()) {
    // The instantiation keeps only the branch taken.
    const Expr *Cond = IS->getCond();
    bool Value = false;
    if (Cond && !Cond->isValueDependent() &&
        Cond->EvaluateAsBooleanCondition(Value, Ctx)) {
      if (IS->getInit())
        translate(IS->getInit());
      translate(Value ? IS->getThen() : IS->getElse());
      return;
    }
  }
  unsupported(IS, "an 'if' statement",
              "the HIR has no branches; decide at compile time with 'if "
              "constexpr', or let the tile loop's bounds and the tiles' "
              "bounds handle the edges");
}

void KernelBuilder::translateDecl(const Decl *D, const Stmt *Whole) {
  if (!D)
    return;
  if (isa<TypedefNameDecl>(D) || isa<StaticAssertDecl>(D) ||
      isa<UsingDecl>(D) || isa<UsingDirectiveDecl>(D) ||
      isa<UsingShadowDecl>(D) || isa<TagDecl>(D) ||
      isa<NamespaceAliasDecl>(D))
    return;
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD) {
    unsupported(Whole, "this declaration",
                "kernels declare tensors, rings, buffers and integers");
    return;
  }
  if (const Site *Mesh = meshSiteOf(VD)) {
    StmtId Saved = openMeshScope(*Mesh, Whole->getSourceRange());
    translateVar(VD, Whole);
    closeScope(Saved);
    return;
  }
  translateVar(VD, Whole);
}

bool KernelBuilder::applyLayoutSite(const VarDecl *VD, hir::TensorType &T) {
  auto It = LayoutSites.find(VD);
  if (It == LayoutSites.end() || It->second->Args.empty())
    return true;
  const SiteArgument &A = It->second->Args.front();
  std::optional<LayoutText> Written;
  if (A.Text) {
    Result<LayoutText> Parsed = parse_layout_text(A.Text->getString());
    if (Parsed.ok())
      Written = *Parsed;
  } else if (std::optional<Layout> L = decodeLayout(A.Value, A.Type)) {
    Written = LayoutText{*L};
  } else if (std::optional<ComposedLayout> C =
                 decodeComposedLayout(A.Value, A.Type)) {
    Written = LayoutText{C->layout};
    Written->offset = C->offset;
    Written->has_offset = !(C->offset.is_constant() && C->offset.value == 0);
    Written->swizzle = C->swizzle;
    Written->has_swizzle = true;
  } else if (std::optional<ShardLayout> Sh = decodeShardLayout(A.Value, A.Type)) {
    Written = LayoutText{Sh->layout};
    Written->axes = Sh->axes;
    Written->has_axes = true;
  }
  // The attribute's own checks reported a value tf cannot read.
  if (!Written)
    return true;
  // The written layout replaces the type's; the shape is the type's promise.
  hir::TensorType Annotated = T;
  Annotated.Layout = *Written;
  IntTuple Want = T.shape(), Have = Annotated.shape();
  bool Agrees = Want.rank() == Have.rank();
  for (int I = 0; Agrees && I < Want.rank(); ++I) {
    const Int W = Want.mode(I).leaf(), H = Have.mode(I).leaf();
    Agrees = W.is_dynamic() || H.is_dynamic() || W == H;
  }
  if (!Agrees) {
    error(It->second->Attr->getLocation(), DiagId::err_tf_layout_shape)
        << VD << to_string(Want) << to_string(Have)
        << It->second->Attr->getRange();
    return false;
  }
  Annotated.Spelling = to_string(*Written);
  T = std::move(Annotated);
  return true;
}

void KernelBuilder::translateVar(const VarDecl *VD, const Stmt *Whole) {
  QualType T = VD->getType();
  if (T->isDependentType())
    return;
  const Expr *Init = VD->getInit();
  if (isa<DecompositionDecl>(VD)) {
    unsupported(Whole, "a structured binding outside a tile loop",
                "bind tile coordinates in the loop: `for (auto [m, n] : "
                "tf::persistent_tiles(...))`");
    return;
  }
  if (VD->isStaticLocal() || VD->getTLSKind() != VarDecl::TLS_None) {
    if (VD->isConstexpr() || (T.isConstQualified() && Init &&
                              Init->isConstantInitializer(Ctx, false)))
      return;
    unsupported(Whole, "a static local variable",
                "kernel state lives in tensors; declare a buffer or a ring");
    return;
  }

  // References to tf values alias them.
  if (T->isReferenceType() && Init) {
    const Expr *S = strip(Init);
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S)) {
      ValueId V = valueOfDecl(DRE->getDecl());
      if (V != None) {
        Vars[VD] = V;
        return;
      }
    }
  }

  if (std::optional<TypeInfo> TI = typeInfo(T)) {
    hir::Value V;
    V.Kind = TI->Kind;
    V.Type = TI->Type;
    V.Stages = TI->Stages;
    V.Origin = hir::ValueOrigin::Local;
    V.Name = VD->getNameAsString();
    V.Range = range(VD->getSourceRange());
    const TypeSourceInfo *TSI = VD->getTypeSourceInfo();
    const auto *InitCall = dyn_cast_or_null<CallExpr>(strip(Init));
    recordSpelling(V.Type, TSI && !TSI->getType()->getContainedAutoType()
                               ? tensorSpelling(TSI->getTypeLoc())
                           : InitCall ? resultSpelling(InitCall, Ctx)
                                      : tensorSpelling(T, Ctx));
    if (!applyLayoutSite(VD, V.Type))
      return;
    const Expr *S = strip(Init);
    // `tf::Ring<Slot, N> r;` and `tf::Buffer<T> b;`: storage without an op.
    const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(S);
    if (!S || (Construct && Construct->getNumArgs() == 0)) {
      hir::Stmt A;
      A.Kind = hir::StmtKind::Alloc;
      A.Range = range(Whole);
      StmtId Id = addStmt(std::move(A));
      V.Def = Id;
      ValueId Val = addValue(std::move(V));
      K.Stmts[Id].Defines = Val;
      K.Stmts[Id].Result = Val;
      Vars[VD] = Val;
      return;
    }
    if (const auto *CE = dyn_cast<CallExpr>(S); CE && opKindOf(CE)) {
      ValueId Val = addValue(std::move(V));
      Vars[VD] = Val;
      StmtId Op = translateOp(CE, Val, /*Assigns=*/false, Whole);
      K.Values[Val].Def = Op;
      if (Op != None) {
        K.Stmts[Op].Range = range(Whole);
        inheritSpelling(Val, Op);
      }
      return;
    }
    if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
      const CXXMethodDecl *M = MC->getMethodDecl();
      if (M && M->getIdentifier() && M->getName() == "tile") {
        ValueId Tile = tileValue(MC, VD->getNameAsString());
        if (Tile != None) {
          K.Values[Tile].Origin = hir::ValueOrigin::Local;
          K.Values[Tile].Range = V.Range;
          Vars[VD] = Tile;
        }
        return;
      }
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      ValueId Src = valueOfDecl(DRE->getDecl());
      if (Src != None) {
        // A copy of a view or buffer names the same tile of data.
        Vars[VD] = Src;
        return;
      }
    }
    unsupported(Whole, "this initializer of a tensor",
                "initialize tensors with a tf op (tf::zeros, tf::empty, "
                "tf::schedule, ...), a tile `t.tile<BM, BK>(m0, k0)` or "
                "another tensor");
    return;
  }
  if (isTensorLike(T)) {
    unsupported(Whole, "this tensor type",
                "tf reads tensor types whose element type and layout text it "
                "knows; write tf::Tensor<T, \"layout\", storage>");
    return;
  }

  if (isIndexType(T)) {
    if (VD->isConstexpr())
      return; // read as a constant wherever it is used
    if (!Init) {
      unsupported(Whole, "an integer without initializer",
                  "index values are defined once: `const std::int64_t x = "
                  "...;`");
      return;
    }
    if (!checkScalar(Init))
      return;
    hir::Value V;
    V.Kind = hir::ValueKind::Index;
    V.Origin = hir::ValueOrigin::Local;
    V.Name = VD->getNameAsString();
    V.Range = range(VD->getSourceRange());
    hir::Stmt L;
    L.Kind = hir::StmtKind::Let;
    L.Range = range(Whole);
    ExprId Ex = indexExpr(Init);
    StmtId Id = addStmt(std::move(L));
    V.Def = Id;
    V.Init = Ex;
    ValueId Val = addValue(std::move(V));
    K.Stmts[Id].Defines = Val;
    K.Stmts[Id].Init = Ex;
    Vars[VD] = Val;
    return;
  }

  // Other variables: allowed when they are constants or scalars computed
  // from scalars (booleans, floating constants); never when they hold tf
  // values or call functions tf cannot see.
  if (!Init || VD->isConstexpr() || holdsEscape(Init))
    return;
  if (touchesTensor(Init)) {
    unsupported(Whole, "a variable of this type holding a tensor",
                "declare it with `auto` from a tf op, or as a tf::Tensor");
    return;
  }
  checkScalar(Init);
}

bool KernelBuilder::touchesTensor(const Expr *E) const {
  if (!E)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    return isTensorValueRef(DRE);
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      if (touchesTensor(CE))
        return true;
  return false;
}

bool KernelBuilder::checkScalar(const Expr *E) {
  if (!E)
    return true;
  bool OK = true;
  std::function<void(const Stmt *)> Walk = [&](const Stmt *S) {
    if (!S)
      return;
    if (isa<LambdaExpr>(S))
      return; // reported by scanForEscapes
    if (const auto *CE = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = calleeOf(CE);
      if (opKindOf(CE)) {
        unsupported(CE, "a tf op inside an expression",
                    "give the op its own statement: `auto x = tf::op(...);`");
        OK = false;
        return;
      }
      bool Allowed = Callee && (Callee->isConstexpr() || Callee->isConsteval());
      // Extents and sizes of tf values are known to the HIR.
      if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
        if (const CXXMethodDecl *M = MC->getMethodDecl();
            M && M->getIdentifier() && MC->getImplicitObjectArgument() &&
            isTensorLike(MC->getImplicitObjectArgument()->getType()) &&
            (M->getName() == "extent" || M->getName() == "size"))
          Allowed = true;
      if (!Allowed && isa<CXXOperatorCallExpr>(CE) && Callee &&
          !isTensorLike(CE->getType()))
        Allowed = Callee->isConstexpr();
      if (!Allowed) {
        std::string Name = Callee ? qualifiedName(*Callee)
                                  : sourceText(CE->getCallee()
                                                   ? CE->getCallee()
                                                         ->getSourceRange()
                                                   : CE->getSourceRange());
        error(CE->getBeginLoc(), DiagId::err_tf_hir_unknown_call)
            << Name
            << (K.meshScopeOf(Current) != None
                    ? "inside a mesh scope only tf ops run; make it a "
                      "constexpr function of constants or compute it "
                      "outside the kernel"
                    : "make it a constexpr function, or a tf op "
                      "([[clang::annotate(\"tf.op.NAME\")]])")
            << CE->getSourceRange();
        afterError();
        OK = false;
        return;
      }
    }
    if (const auto *CE = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = CE->getConstructor();
      if (Ctor && !Ctor->isConstexpr() && !Ctor->isTrivial()) {
        error(CE->getBeginLoc(), DiagId::err_tf_hir_unknown_call)
            << qualifiedName(*Ctor)
            << "only constexpr constructors can be represented"
            << CE->getSourceRange();
        afterError();
        OK = false;
        return;
      }
    }
    if (isa<CXXThrowExpr>(S)) {
      unsupported(S, "'throw'",
                  "a kernel cannot unwind; report failures through a tensor "
                  "parameter");
      OK = false;
      return;
    }
    if (isa<CXXNewExpr>(S) || isa<CXXDeleteExpr>(S)) {
      unsupported(S, "dynamic allocation",
                  "tensors get their storage from tf::zeros, tf::empty and "
                  "tf::Ring");
      OK = false;
      return;
    }
    for (const Stmt *Child : S->children())
      Walk(Child);
  };
  Walk(E);
  return OK;
}

void KernelBuilder::translateExprStmt(const Expr *E, const Stmt *Whole) {
  const Expr *S = strip(E);
  if (!S)
    return;
  // (void)x and other casts to void of a plain value.
  if (const auto *C = dyn_cast<CStyleCastExpr>(S);
      C && C->getType()->isVoidType()) {
    const Expr *Sub = strip(C->getSubExpr());
    if (Sub && (isa<DeclRefExpr>(Sub) || !Sub->HasSideEffects(Ctx)))
      return;
    return translateExprStmt(C->getSubExpr(), Whole);
  }
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && opKindOf(CE)) {
    translateOp(CE, None, false, Whole);
    return;
  }
  // acc = op(...): an assignment of a tensor (a builtin or an operator=).
  const Expr *Lhs = nullptr, *Rhs = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp()) {
    Lhs = BO->getLHS();
    Rhs = BO->getRHS();
    if (BO->getOpcode() != BO_Assign && isTensorValueRef(Lhs)) {
      unsupported(BO, "a compound assignment of a tensor",
                  "use the element-wise ops: `x = tf::add(x, y);`");
      return;
    }
  } else if (const auto *OC = dyn_cast<CXXOperatorCallExpr>(S);
             OC && OC->getOperator() == OO_Equal && OC->getNumArgs() == 2) {
    Lhs = OC->getArg(0);
    Rhs = OC->getArg(1);
  }
  if (Lhs && isTensorValueRef(Lhs)) {
    const auto *DRE = cast<DeclRefExpr>(strip(Lhs));
    ValueId Target = valueOfDecl(DRE->getDecl());
    const auto *Call = dyn_cast_or_null<CallExpr>(strip(Rhs));
    if (Call && opKindOf(Call)) {
      StmtId Op = translateOp(Call, Target, /*Assigns=*/true, Whole);
      if (Op != None)
        K.Stmts[Op].Range = range(Whole);
      return;
    }
    unsupported(Whole, "this assignment of a tensor",
                "assign the result of a tf op: `acc = tf::schedule<...>(acc, "
                "lhs, rhs);`");
    return;
  }
  if (Lhs) {
    // Assigning an index value the HIR already read would make it lie.
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(Lhs)))
      if (Mutable.contains(DRE->getDecl())) {
        unsupported(Whole, "assigning an index value used by tile ops",
                    "index values are defined once; declare a new `const "
                    "std::int64_t` instead");
        return;
      }
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
    if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(strip(U->getSubExpr())))
      if (Mutable.contains(DRE->getDecl())) {
        unsupported(Whole, "changing an index value used by tile ops",
                    "index values are defined once; declare a new `const "
                    "std::int64_t` instead");
        return;
      }
  if (holdsEscape(S))
    return;
  if (touchesTensor(S)) {
    unsupported(Whole, "this use of a tensor",
                "tensors are read and written by tf ops only; element access "
                "belongs to header-only code outside the kernel");
    return;
  }
  checkScalar(S);
}

void KernelBuilder::translateLoop(const CXXForRangeStmt *FS) {
  const auto *Call = dyn_cast_or_null<CallExpr>(strip(FS->getRangeInit()));
  std::optional<hir::OpKind> Op = Call ? opKindOf(Call) : std::nullopt;
  hir::LoopKind Kind;
  if (Op == hir::OpKind::TileOffsets)
    Kind = hir::LoopKind::TileOffsets;
  else if (Op == hir::OpKind::PersistentTiles)
    Kind = hir::LoopKind::PersistentTiles;
  else if (Op == hir::OpKind::GridTiles)
    Kind = hir::LoopKind::GridTiles;
  else {
    unsupported(FS, "a range-based 'for' over this range",
                "loop over tf::tile_offsets(extent, step), "
                "tf::persistent_tiles(mesh, GM, GN) or tf::grid_tiles(mesh, "
                "GM, GN)");
    return;
  }

  hir::Stmt L;
  L.Kind = hir::StmtKind::Loop;
  L.Loop = Kind;
  L.Range = range(FS);
  L.CallRange = range(Call);

  if (Kind == hir::LoopKind::TileOffsets) {
    for (const Expr *A : Call->arguments())
      L.Bounds.push_back(indexExpr(A));
    // tile_offsets<Step>(extent): the step is the template argument.
    std::optional<std::int64_t> Step;
    if (L.Bounds.size() == 1) {
      if (const TemplateArgumentList *TA = calleeTemplateArgs(Call);
          TA && TA->size() >= 1)
        if ((Step = integralArg((*TA)[0])))
          L.Bounds.push_back(constantExpr(*Step));
    } else if (Call->getNumArgs() >= 2 &&
               !Call->getArg(1)->isValueDependent()) {
      if (std::optional<llvm::APSInt> V =
              Call->getArg(1)->getIntegerConstantExpr(Ctx))
        Step = V->getExtValue();
    }
    // A step that is not positive never reaches the extent.
    if (Step && *Step <= 0) {
      error(Call->getBeginLoc(), DiagId::err_tf_hir_unsupported)
          << ("a tile loop with step " + std::to_string(*Step))
          << "the step of tf::tile_offsets is a tile's positive extent"
          << Call->getSourceRange();
      afterError();
    }
  } else {
    unsigned N = Call->getNumArgs();
    if (N >= 1) {
      if (std::optional<tf::Mesh> M = evaluateMesh(Call->getArg(0)))
        L.LoopMesh = *M;
      else {
        error(Call->getArg(0)->getBeginLoc(), DiagId::err_tf_hir_unsupported)
            << "a tile scheduler over a mesh that is not a constant"
            << "declare the CTA mesh `constexpr tf::Mesh cta = "
               "tf::mesh(\"cta\", ...)`"
            << Call->getArg(0)->getSourceRange();
        afterError();
      }
    }
    for (unsigned I = 1; I < N && I < 3; ++I)
      L.Bounds.push_back(indexExpr(Call->getArg(I)));
    if (N >= 4) {
      const Expr *Opt = strip(Call->getArg(3));
      if (const auto *DA = dyn_cast_or_null<CXXDefaultArgExpr>(Opt))
        Opt = strip(DA->getExpr());
      Expr::EvalResult R;
      if (Opt && !Opt->isValueDependent() && Opt->EvaluateAsRValue(R, Ctx) &&
          R.Val.isStruct()) {
        QualType T = Opt->getType();
        if (std::optional<std::int64_t> G = intField(R.Val, T, "group_m"))
          L.GroupM = *G;
        if (L.GroupM < 1) {
          error(Opt->getBeginLoc(), DiagId::err_tf_hir_unsupported)
              << ("a tile scheduler with group_m = " +
                  std::to_string(L.GroupM))
              << "group_m counts the tile rows of a group: 1 or more"
              << Opt->getSourceRange();
          afterError();
        }
        if (std::optional<std::int64_t> C = intField(R.Val, T, "column_major"))
          L.ColumnMajor = *C != 0;
        if (std::optional<std::int64_t> C = intField(R.Val, T, "cluster")) {
          L.Cluster = *C;
          L.ClusterRange = range(optionRange(Opt, "cluster"));
        }
      } else if (Opt) {
        error(Opt->getBeginLoc(), DiagId::err_tf_hir_unsupported)
            << "tile scheduler options that are not constants"
            << "write them as constants: `{.group_m = 8}`"
            << Opt->getSourceRange();
        afterError();
      }
    }
  }

  StmtId Saved = Current;
  StmtId Id = addStmt(std::move(L));
  Current = Id;

  const VarDecl *LV = FS->getLoopVariable();
  auto AddIndex = [&](const ValueDecl *D) {
    hir::Value V;
    V.Kind = hir::ValueKind::Index;
    V.Origin = hir::ValueOrigin::LoopIndex;
    V.Name = D->getNameAsString();
    V.Range = range(D->getSourceRange());
    V.Def = Id;
    ValueId Val = addValue(std::move(V));
    K.Stmts[Id].Indices.push_back(Val);
    Vars[D] = Val;
    Mutable.insert(D);
  };
  if (const auto *DD = dyn_cast_or_null<DecompositionDecl>(LV)) {
    for (const BindingDecl *B : DD->bindings())
      AddIndex(B);
  } else if (LV && isIndexType(LV->getType())) {
    AddIndex(LV);
  } else if (LV) {
    unsupported(LV->getInit() ? static_cast<const Stmt *>(FS) : FS,
                "binding the whole tile",
                "bind its coordinates: `for (auto [m, n] : ...)`");
  }
  unsigned Want = Kind == hir::LoopKind::TileOffsets ? 1 : 2;
  if (!Failed && K.Stmts[Id].Indices.size() != Want)
    unsupported(FS, "this loop variable",
                Kind == hir::LoopKind::TileOffsets
                    ? "write `for (std::int64_t k : tf::tile_offsets(...))`"
                    : "write `for (auto [m, n] : ...)`");

  translateBodyInto(FS->getBody());
  Current = Saved;
}

//===- Index expressions ---------------------------------------------------===//

ExprId KernelBuilder::constantExpr(std::int64_t V) {
  hir::Expr E;
  E.Kind = hir::ExprKind::Constant;
  E.Constant = V;
  return K.addExpr(std::move(E));
}

ExprId KernelBuilder::indexExpr(const Expr *E) {
  ExprId Id = buildIndexExpr(E);
  if (Id != None && !K.Exprs[Id].Range.valid())
    K.Exprs[Id].Range = range(E->getSourceRange());
  return Id;
}

ExprId KernelBuilder::buildIndexExpr(const Expr *E) {
  if (!E)
    return None;
  if (E->isValueDependent() || E->isTypeDependent()) {
    hir::Expr O;
    O.Kind = hir::ExprKind::Opaque;
    O.Text = sourceText(E->getSourceRange());
    return K.addExpr(std::move(O));
  }
  Expr::EvalResult R;
  if (E->getType()->isIntegralOrEnumerationType() &&
      E->EvaluateAsInt(R, Ctx) && R.Val.isInt())
    return constantExpr(R.Val.getInt().getExtValue());

  const Expr *S = strip(E);
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    ValueId V = valueOfDecl(DRE->getDecl());
    if (V != None && K.Values[V].Kind == hir::ValueKind::Index) {
      Mutable.insert(DRE->getDecl());
      hir::Expr O;
      O.Kind = hir::ExprKind::Ref;
      O.Ref = V;
      return K.addExpr(std::move(O));
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    hir::ExprKind Kind;
    bool Known = true;
    switch (BO->getOpcode()) {
    case BO_Add: Kind = hir::ExprKind::Add; break;
    case BO_Sub: Kind = hir::ExprKind::Sub; break;
    case BO_Mul: Kind = hir::ExprKind::Mul; break;
    case BO_Div: Kind = hir::ExprKind::Div; break;
    default: Known = false; Kind = hir::ExprKind::Opaque; break;
    }
    if (Known) {
      ExprId L = indexExpr(BO->getLHS());
      ExprId Rr = indexExpr(BO->getRHS());
      hir::Expr O;
      O.Kind = Kind;
      O.Lhs = L;
      O.Rhs = Rr;
      return K.addExpr(std::move(O));
    }
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    const Expr *Obj = strip(MC->getImplicitObjectArgument());
    if (M && M->getIdentifier() && M->getName() == "extent" &&
        MC->getNumArgs() == 1 && Obj) {
      Expr::EvalResult D;
      const auto *DRE = dyn_cast<DeclRefExpr>(Obj);
      ValueId V = DRE ? valueOfDecl(DRE->getDecl()) : None;
      if (V != None && K.Values[V].Kind == hir::ValueKind::Tensor &&
          MC->getArg(0)->EvaluateAsInt(D, Ctx)) {
        hir::Expr O;
        O.Kind = hir::ExprKind::Extent;
        O.Ref = V;
        O.Dim = static_cast<unsigned>(D.Val.getInt().getExtValue());
        return K.addExpr(std::move(O));
      }
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && CE->getNumArgs() == 2) {
    if (const FunctionDecl *Callee = calleeOf(CE)) {
      std::string Q = Callee->getQualifiedNameAsString();
      std::optional<hir::ExprKind> Kind;
      if (Q == "tf::ceil_div")
        Kind = hir::ExprKind::CeilDiv;
      else if (Q == "std::min")
        Kind = hir::ExprKind::Min;
      else if (Q == "std::max")
        Kind = hir::ExprKind::Max;
      if (Kind) {
        ExprId L = indexExpr(CE->getArg(0));
        ExprId Rr = indexExpr(CE->getArg(1));
        hir::Expr O;
        O.Kind = *Kind;
        O.Lhs = L;
        O.Rhs = Rr;
        return K.addExpr(std::move(O));
      }
    }
  }
  checkScalar(S);
  hir::Expr O;
  O.Kind = hir::ExprKind::Opaque;
  O.Text = sourceText(E->getSourceRange());
  return K.addExpr(std::move(O));
}

std::optional<tf::Mesh> KernelBuilder::evaluateMesh(const Expr *E) {
  const Expr *S = strip(E);
  if (!S || S->isValueDependent())
    return std::nullopt;
  Expr::EvalResult R;
  if (!S->EvaluateAsRValue(R, Ctx))
    return std::nullopt;
  return decodeMesh(R.Val, S->getType());
}

//===- Ops -----------------------------------------------------------------===//

bool KernelBuilder::isOpCall(const Expr *E) const {
  const auto *CE = dyn_cast_or_null<CallExpr>(strip(E));
  return CE && opKindOf(CE);
}

ValueId KernelBuilder::tileValue(const CXXMemberCallExpr *MC,
                                 const std::string &Name) {
  ValueId Parent = operandValue(MC->getImplicitObjectArgument());
  if (Parent == None)
    return None;
  std::optional<hir::TensorType> TT = tensorTypeOf(MC->getType());
  if (!TT) {
    unsupported(MC, "this tile", "tiles are `t.tile<E0, E1, ...>(o0, o1, ...)`");
    return None;
  }
  hir::Value V;
  V.Kind = hir::ValueKind::Tensor;
  V.Origin = hir::ValueOrigin::Temporary;
  V.Name = Name;
  V.Type = *TT;
  // The tile is written by its tensor's declaration.
  V.Type.ElementRange = K.Values[Parent].Type.ElementRange;
  V.Type.LayoutRange = K.Values[Parent].Type.LayoutRange;
  V.Type.StrideRanges = K.Values[Parent].Type.StrideRanges;
  V.Type.SwizzleRange = K.Values[Parent].Type.SwizzleRange;
  V.Range = range(MC);
  std::vector<ExprId> Offsets;
  for (const Expr *A : MC->arguments())
    Offsets.push_back(indexExpr(A));
  // A tile of a tile is a tile of the same parent at the summed offsets.
  const hir::Value &P = K.Values[Parent];
  if (P.TileOf != None && P.TileOffsets.size() == Offsets.size()) {
    for (unsigned I = 0; I < Offsets.size(); ++I) {
      hir::Expr Sum;
      Sum.Kind = hir::ExprKind::Add;
      Sum.Lhs = P.TileOffsets[I];
      Sum.Rhs = Offsets[I];
      Offsets[I] = K.addExpr(std::move(Sum));
    }
    Parent = P.TileOf;
  }
  V.TileOf = Parent;
  V.TileOffsets = std::move(Offsets);
  return addValue(std::move(V));
}

ValueId KernelBuilder::indexOperand(const Expr *E) {
  const Expr *S = strip(E);
  if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S)) {
    ValueId V = valueOfDecl(DRE->getDecl());
    if (V != None && K.Values[V].Kind == hir::ValueKind::Index) {
      Mutable.insert(DRE->getDecl());
      return V;
    }
  }
  hir::Value V;
  V.Kind = hir::ValueKind::Index;
  V.Origin = hir::ValueOrigin::Temporary;
  V.Init = indexExpr(E);
  V.Range = range(E);
  return addValue(std::move(V));
}

ValueId KernelBuilder::scalarOperand(const Expr *E) {
  if (!checkScalar(E))
    return None;
  hir::Value V;
  V.Kind = hir::ValueKind::Scalar;
  V.Origin = hir::ValueOrigin::Temporary;
  V.Type.Element = floatingScalar(E->getType()).value_or(DType::f32);
  V.Written = sourceText(E->getSourceRange());
  V.Range = range(E);
  return addValue(std::move(V));
}

ValueId KernelBuilder::operandValue(const Expr *E) {
  const Expr *S = strip(E);
  if (!S)
    return None;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
    ValueId V = valueOfDecl(DRE->getDecl());
    if (V != None)
      return V;
    if (isIndexType(DRE->getType()))
      return indexOperand(S);
    if (floatingScalar(DRE->getType()))
      return scalarOperand(S);
    if (isTensorLike(DRE->getType())) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
          VD && VD->isConstexpr()) {
        // A constexpr tensor (a static smem tile type's view) is a value
        // without storage the HIR could follow.
      }
      unsupported(S, "a tensor declared outside the kernel",
                  "pass it as a kernel parameter");
      return None;
    }
    unsupported(S, "this operand",
                "operands of tf ops are tensors, rings, buffers and integers");
    return None;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S); CE && opKindOf(CE)) {
    hir::Value T;
    T.Origin = hir::ValueOrigin::Temporary;
    if (std::optional<TypeInfo> TI = typeInfo(CE->getType())) {
      T.Kind = TI->Kind;
      T.Type = TI->Type;
      T.Stages = TI->Stages;
      recordSpelling(T.Type, resultSpelling(CE, Ctx));
    }
    T.Range = range(CE);
    ValueId Tmp = addValue(std::move(T));
    StmtId Op = translateOp(CE, Tmp, false, CE);
    K.Values[Tmp].Def = Op;
    return Tmp;
  }
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *M = MC->getMethodDecl();
    if (M && M->getIdentifier() && M->getName() == "tile" &&
        isTensorLike(MC->getImplicitObjectArgument()->getType()))
      return tileValue(MC, "");
  }
  if (isIndexType(S->getType()))
    return indexOperand(E);
  if (floatingScalar(S->getType()))
    return scalarOperand(S);
  if (const auto *IL = dyn_cast<InitListExpr>(S)) {
    // tf::zeros<T>({M, N}): the extents, one index operand each; the caller
    // flattens them.
    (void)IL;
    return None;
  }
  if (touchesTensor(S))
    unsupported(S, "this operand",
                "give tf ops tensors, tiles `t.tile<BM, BK>(m0, k0)` or the "
                "results of other tf ops");
  else
    checkScalar(S);
  return None;
}

StmtId KernelBuilder::translateOp(const CallExpr *CE, ValueId Result,
                                  bool Assigns, const Stmt *Whole) {
  std::optional<hir::OpKind> Kind = opKindOf(CE);
  if (!Kind)
    return None;
  // On the heap: a statement is large (its schedule's match report), and
  // nested ops -- an epilogue's chain, a row kernel's
  // tf::exp2(tf::mul(tf::sub(x, tf::broadcast<1>(m, x)), c)) -- translate
  // recursively, one statement per level.
  auto Owned = std::make_unique<hir::Stmt>();
  hir::Stmt &Op = *Owned;
  Op.Kind = hir::StmtKind::Op;
  Op.Op = *Kind;
  Op.CallRange = range(CE);
  Op.Range = range(Whole);
  Op.Assigns = Assigns;

  // Operands first: nested ops are emitted before this one.
  llvm::DenseMap<ValueId, hir::SourceRange> Ranges;
  std::vector<const Expr *> Args;
  if (const auto *MC = dyn_cast<CXXMemberCallExpr>(CE))
    Args.push_back(MC->getImplicitObjectArgument());
  for (const Expr *A : CE->arguments())
    Args.push_back(A);
  for (const Expr *A : Args) {
    const Expr *S = strip(A);
    if (isa_and_nonnull<CXXDefaultArgExpr>(S))
      continue;
    if (const auto *IL = dyn_cast_or_null<InitListExpr>(S)) {
      for (const Expr *I : IL->inits())
        if (isIndexType(I->getType()))
          Op.Operands.push_back(indexOperand(I));
      continue;
    }
    ValueId V = operandValue(A);
    if (V != None) {
      Op.Operands.push_back(V);
      Ranges.try_emplace(V, range(A));
    }
  }

  // A discarded result of an op that returns a view of its destination
  // names no new value.
  if (Result == None && !CE->getType()->isVoidType()) {
    if (std::optional<TypeInfo> TI = typeInfo(CE->getType());
        TI && !hir::writesInPlace(*Kind)) {
      hir::Value T;
      T.Origin = hir::ValueOrigin::Temporary;
      T.Kind = TI->Kind;
      T.Type = TI->Type;
      T.Range = range(CE);
      Result = addValue(std::move(T));
    }
  }
  Op.Result = Result;

  if (*Kind == hir::OpKind::Cast)
    if (const TemplateArgumentList *TA = calleeTemplateArgs(CE);
        TA && TA->size() >= 1 && (*TA)[0].getKind() == TemplateArgument::Type)
      if (std::optional<DType> D = dtypeOf((*TA)[0].getAsType()))
        Op.CastTo = *D;
  if (*Kind == hir::OpKind::Broadcast)
    Op.BroadcastMode = modeArgument(CE);
  if (*Kind == hir::OpKind::Schedule)
    buildSchedule(Op, CE);
  OperandRanges = std::move(Ranges);
  buildAccess(Op, CE);
  OperandRanges.clear();

  StmtId Id = addStmt(std::move(Op));
  if (Result != None && (K.Values[Result].Def == None || !Assigns))
    K.Values[Result].Def = Id;
  return Id;
}

//===- Access relations ----------------------------------------------------===//

/// The access of operand \p V on domain dimensions \p Map: a tile names its
/// parent with the window's offsets and extents.
hir::Access accessOf(const hir::Kernel &K, ValueId V, hir::AccessKind Kind,
                     std::vector<unsigned> Map,
                     const llvm::DenseMap<ValueId, hir::SourceRange> *Written =
                         nullptr) {
  hir::Access A;
  A.Kind = Kind;
  A.Map = std::move(Map);
  A.Operand = V;
  if (V == None)
    return A;
  const hir::Value &Val = K.Values[V];
  // Where the operand is written in this call; the value's own range for
  // a result.
  A.Range = Val.Range;
  if (Written)
    if (auto It = Written->find(V); It != Written->end())
      A.Range = It->second;
  if (Val.TileOf != None) {
    A.Operand = Val.TileOf;
    A.Offsets = Val.TileOffsets;
    A.Extents = Val.Type.WindowExtents;
  }
  return A;
}

std::vector<unsigned> identity(unsigned N) {
  std::vector<unsigned> M(N);
  for (unsigned I = 0; I < N; ++I)
    M[I] = I;
  return M;
}

void setDomain(hir::AccessRelation &R, const IntTuple &Shape,
               std::vector<std::string> Names = {}) {
  R.Domain = IntTuple{};
  int Rank = Shape.is_leaf() ? 1 : Shape.rank();
  for (int I = 0; I < Rank; ++I) {
    IntTuple Mode = Shape.is_leaf() ? Shape : Shape.mode(I);
    Result<std::int64_t> Size = product(Mode);
    R.Domain.push_back(IntTuple(Size.ok() ? Int(*Size) : Int::dynamic()));
    R.DimNames.push_back(I < static_cast<int>(Names.size())
                             ? Names[I]
                             : "d" + std::to_string(I));
  }
}

void KernelBuilder::buildAccess(hir::Stmt &Op, const CallExpr *CE) {
  hir::AccessRelation &R = Op.Access;
  auto accessOf = [&](const hir::Kernel &K, ValueId V, hir::AccessKind Kind,
                      std::vector<unsigned> Map) {
    return tf::plugin::accessOf(K, V, Kind, std::move(Map), &OperandRanges);
  };
  std::vector<ValueId> Tensors;
  for (ValueId V : Op.Operands)
    if (K.Values[V].Kind != hir::ValueKind::Index &&
        K.Values[V].Kind != hir::ValueKind::Scalar)
      Tensors.push_back(V);
  auto Rank = [&](ValueId V) {
    IntTuple S = K.Values[V].Type.shape();
    return static_cast<unsigned>(S.is_leaf() ? 1 : S.rank());
  };
  // The op whose relation this is: for tf::schedule, the op its atom's
  // contract implements (none for an atom tf's registry does not hold).
  std::optional<hir::OpKind> Performs = Op.Op;
  if (hir::opInfo(Op.Op).Access == hir::AccessShape::Scheduled) {
    const tf::Contract *C =
        Op.Sched ? tf::find_contract(Op.Sched->ContractId) : nullptr;
    Performs = C ? hir::scheduledOp(C->kind) : std::nullopt;
  }
  hir::AccessShape Shape =
      Performs ? hir::opInfo(*Performs).Access : hir::AccessShape::Elementwise;
  // Operands that do not fit the op (a malformed call, reported elsewhere)
  // get the element-wise relation, as any other op does.
  if (Performs && !hir::takesTensorOperands(*Performs, Tensors.size()))
    Shape = hir::AccessShape::Elementwise;
  switch (Shape) {
  case hir::AccessShape::None:
  case hir::AccessShape::Scheduled:
  case hir::AccessShape::Elementwise:
    break;
  case hir::AccessShape::Mma: {
    // C(m, n) += A(m, k) * B(k, n).
    IntTuple C = K.Values[Tensors[0]].Type.shape();
    IntTuple A = K.Values[Tensors[1]].Type.shape();
    IntTuple Dom;
    auto Size = [](const IntTuple &S, int I) {
      if (S.is_leaf() || I >= S.rank())
        return Int::dynamic();
      Result<std::int64_t> P = product(S.mode(I));
      return P.ok() ? Int(*P) : Int::dynamic();
    };
    Dom.push_back(IntTuple(Size(C, 0)));
    Dom.push_back(IntTuple(Size(C, 1)));
    Dom.push_back(IntTuple(Size(A, 1)));
    R.Domain = Dom;
    R.DimNames = {"m", "n", "k"};
    R.Accesses.push_back(
        accessOf(K, Tensors[0], hir::AccessKind::ReadWrite, {0, 1}));
    R.Accesses.push_back(accessOf(K, Tensors[1], hir::AccessKind::Read, {0, 2}));
    R.Accesses.push_back(accessOf(K, Tensors[2], hir::AccessKind::Read, {2, 1}));
    return;
  }
  case hir::AccessShape::Fill:
    if (Op.Result == None)
      return;
    setDomain(R, K.Values[Op.Result].Type.shape());
    R.Accesses.push_back(accessOf(K, Op.Result, hir::AccessKind::Write,
                                  identity(R.DimNames.size())));
    return;
  case hir::AccessShape::RingHandout:
    // No element moves: the ring hands out a slot.
    R.Accesses.push_back(accessOf(K, Tensors[0],
                                  Op.Op == hir::OpKind::RingNext
                                      ? hir::AccessKind::ReadWrite
                                      : hir::AccessKind::Read,
                                  {}));
    return;
  case hir::AccessShape::InsertSlice: {
    // out(o + d) = tile(d) over the tile's shape.
    ValueId Out = Tensors[0], Tile = Tensors[1];
    setDomain(R, K.Values[Tile].Type.shape());
    unsigned D = R.DimNames.size();
    R.Accesses.push_back(accessOf(K, Tile, hir::AccessKind::Read, identity(D)));
    hir::Access W = accessOf(K, Out, hir::AccessKind::Write, identity(D));
    if (W.Offsets.empty()) {
      for (ValueId V : Op.Operands)
        if (K.Values[V].Kind == hir::ValueKind::Index) {
          const hir::Value &I = K.Values[V];
          if (I.Init != None) {
            W.Offsets.push_back(I.Init);
          } else {
            hir::Expr Ref;
            Ref.Kind = hir::ExprKind::Ref;
            Ref.Ref = V;
            W.Offsets.push_back(K.addExpr(std::move(Ref)));
          }
        }
      IntTuple S = K.Values[Tile].Type.shape();
      for (int I = 0; I < (S.is_leaf() ? 1 : S.rank()); ++I) {
        Result<std::int64_t> P = product(S.is_leaf() ? S : S.mode(I));
        W.Extents.push_back(P.ok() ? *P : -1);
      }
    }
    R.Accesses.push_back(std::move(W));
    return;
  }
  case hir::AccessShape::Broadcast: {
    // result(d) = t(d without Mode) over the result's (`like`'s) shape;
    // `like` lends its shape, no element of it is read.
    if (Op.Result == None || Tensors.empty())
      return;
    const unsigned Mode = Op.BroadcastMode;
    setDomain(R, K.Values[Op.Result].Type.shape());
    unsigned D = R.DimNames.size();
    std::vector<unsigned> Kept;
    for (unsigned I = 0; I < D; ++I)
      if (I != Mode)
        Kept.push_back(I);
    R.Accesses.push_back(
        accessOf(K, Tensors[0], hir::AccessKind::Read, std::move(Kept)));
    R.Accesses.push_back(
        accessOf(K, Op.Result, hir::AccessKind::Write, identity(D)));
    return;
  }
  case hir::AccessShape::Reduce: {
    unsigned Mode = modeArgument(CE);
    setDomain(R, K.Values[Tensors[0]].Type.shape());
    unsigned D = R.DimNames.size();
    R.Accesses.push_back(
        accessOf(K, Tensors[0], hir::AccessKind::Read, identity(D)));
    if (Op.Result != None) {
      std::vector<unsigned> Kept;
      for (unsigned I = 0; I < D; ++I)
        if (I != Mode)
          Kept.push_back(I);
      R.Accesses.push_back(
          accessOf(K, Op.Result, hir::AccessKind::Write, std::move(Kept)));
    }
    return;
  }
  case hir::AccessShape::Copy: {
    // dst(d) = src(d) over the destination's shape (a ring: its slot's).
    ValueId Src = Tensors[0], Dst = Tensors[1];
    setDomain(R, K.Values[Dst].Type.shape());
    unsigned D = R.DimNames.size();
    R.Accesses.push_back(accessOf(K, Src, hir::AccessKind::Read, identity(D)));
    R.Accesses.push_back(accessOf(K, Dst, hir::AccessKind::Write, identity(D)));
    return;
  }
  }
  // Element-wise ops and anything else: every operand read over the
  // result's shape (or the first operand's), the result written.
  ValueId Over = Op.Result != None ? Op.Result
                 : Tensors.empty() ? None
                                   : Tensors[0];
  if (Over == None)
    return;
  setDomain(R, K.Values[Over].Type.shape());
  unsigned D = R.DimNames.size();
  for (ValueId V : Tensors)
    R.Accesses.push_back(accessOf(
        K, V, hir::AccessKind::Read,
        Rank(V) == D ? identity(D) : identity(std::min(Rank(V), D))));
  // `x = tf::add(x, y)` reads x as an operand and overwrites it.
  if (Op.Result != None)
    R.Accesses.push_back(
        accessOf(K, Op.Result, hir::AccessKind::Write, identity(D)));
}

//===- tf::schedule --------------------------------------------------------===//

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

} // namespace

hir::Module buildModule(ASTContext &Ctx, llvm::ArrayRef<Site> Sites) {
  hir::Module M;
  const SourceManager &SM = Ctx.getSourceManager();
  if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
    M.MainFile = std::string(Main->getName());
  for (const Site &S : Sites) {
    if (S.Kind != TfAttr::Kernel)
      continue;
    const auto *FD = dyn_cast_or_null<FunctionDecl>(S.D);
    if (!FD || !FD->doesThisDeclarationHaveABody() || FD->isInvalidDecl())
      continue;
    KernelBuilder B(Ctx, S, Sites);
    if (std::optional<hir::Kernel> K = B.build())
      M.Kernels.push_back(std::move(*K));
  }
  return M;
}

hir::SourceRange hirRange(const SourceManager &SM, clang::SourceRange R) {
  hir::SourceRange Out;
  if (R.isInvalid())
    return Out;
  SourceLocation B = SM.getFileLoc(R.getBegin());
  SourceLocation E = SM.getFileLoc(R.getEnd());
  Out.Begin = B.getRawEncoding();
  Out.End = E.getRawEncoding();
  PresumedLoc P = SM.getPresumedLoc(B);
  if (P.isValid()) {
    Out.File = P.getFilename();
    Out.Line = P.getLine();
    Out.Column = P.getColumn();
  }
  return Out;
}

/// The annotation is on the declaration the header wrote: a function
/// template's pattern, a class template's member.
std::optional<hir::TensorType> decodeTensorType(QualType T) {
  return tensorTypeOf(T);
}

std::optional<hir::OpKind> opKindOf(const FunctionDecl *FD) {
  for (int Depth = 0; FD && Depth < 4; ++Depth) {
    for (const AnnotateAttr *A : FD->specific_attrs<AnnotateAttr>())
      if (std::optional<hir::OpKind> K =
              hir::opKindFromAnnotation(A->getAnnotation()))
        return K;
    const FunctionDecl *Next = FD->getTemplateInstantiationPattern();
    if (!Next)
      if (const FunctionTemplateDecl *P = FD->getPrimaryTemplate())
        Next = P->getTemplatedDecl();
    if (!Next)
      Next = FD->getInstantiatedFromMemberFunction();
    if (Next == FD)
      break;
    FD = Next;
  }
  return std::nullopt;
}

} // namespace tf::plugin
