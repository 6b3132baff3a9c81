//===- OperandTypes.cpp - Element-wise operands that agree ----------------===//
//
// An operand's type is its argument's C++ type decoded as a tensor
// (decodeTensorType: a tf::Tensor, a tf::Buffer's or a tf::Window's); a
// scalar operand (`tf::add(t, 0.5f)`) and a type tf cannot decode are not
// compared. Ranks that differ are left to the header's static_assert (its
// message names tf::broadcast); so are run-time extents, which the op
// checks when it runs.
//
//===----------------------------------------------------------------------===//

#include "OperandTypes.h"

#include "BuildHIR.h"
#include "hir/Ops.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

#include <string>
#include <utility>
#include <vector>

using namespace clang;

namespace tf::plugin {

namespace {

/// Whether \p E reads a tensor's window (`t.tile<...>(...)`) somewhere.
bool readsWindow(const Expr *E) {
  struct Finder : RecursiveASTVisitor<Finder> {
    bool Found = false;
    bool VisitCXXMemberCallExpr(CXXMemberCallExpr *Call) {
      const CXXMethodDecl *M = Call->getMethodDecl();
      if (M && M->getIdentifier() && M->getName() == "tile")
        Found = true;
      return !Found;
    }
  } F;
  F.TraverseStmt(const_cast<Expr *>(E));
  return F.Found;
}

class OperandChecker {
public:
  OperandChecker(ASTContext &Ctx, const Options &Opts)
      : Ctx(Ctx), SM(Ctx.getSourceManager()), Opts(Opts) {}

  /// Reports \p Call's disagreeing operands; returns whether it did.
  bool check(const CallExpr &Call) {
    const hir::OpKind Kind = *opKindOf(Call.getDirectCallee());
    const bool Select = hir::opInfo(Kind).Class == hir::OpClass::Select;
    // tf::where(mask, a, b): the mask's extents are its values', its
    // element type is free (nonzero is true).
    static const char *const BinaryNames[] = {"the first operand",
                                              "the second operand"};
    static const char *const SelectNames[] = {"the mask", "the first value",
                                              "the second value"};
    std::vector<Operand> Ops;
    for (unsigned I = 0; I < Call.getNumArgs(); ++I) {
      const Expr *Arg = Call.getArg(I);
      QualType Q = Arg->getType().getNonReferenceType();
      if (Q->isArithmeticType())
        continue; // a scalar meets the tensor's every element
      std::optional<hir::TensorType> T = decodeTensorType(Q);
      if (!T)
        return false;
      Ops.push_back({Arg, std::move(*T),
                     Select ? SelectNames[I] : BinaryNames[I],
                     /*IsValue=*/!Select || I > 0});
    }
    const std::string Op = hir::opName(Kind).str();
    for (std::size_t J = 1; J < Ops.size(); ++J)
      for (std::size_t I = 0; I < J; ++I)
        if (Ops[I].IsValue && Ops[J].IsValue &&
            Ops[I].Type.Element != Ops[J].Type.Element) {
          reportElementTypes(Op, blame(Ops[I], Ops[J]));
          return true;
        }
    for (std::size_t J = 1; J < Ops.size(); ++J)
      for (std::size_t I = 0; I < J; ++I)
        if (reportExtents(Op, blame(Ops[I], Ops[J])))
          return true;
    return false;
  }

private:
  struct Operand {
    const Expr *Arg;
    hir::TensorType Type;
    const char *Name;
    bool IsValue; ///< whose element type is the result's
  };
  /// The operand that disagrees, then the one it disagrees with.
  using Pair = std::pair<const Operand *, const Operand *>;

  ASTContext &Ctx;
  const SourceManager &SM;
  const Options &Opts;

  /// Of two operands that disagree, the one read from a window (the user's
  /// residual tile, C) is blamed, else the later one.
  static Pair blame(const Operand &Earlier, const Operand &Later) {
    if (readsWindow(Earlier.Arg) && !readsWindow(Later.Arg))
      return {&Earlier, &Later};
    return {&Later, &Earlier};
  }

  void reportElementTypes(const std::string &Op, Pair P) {
    const auto [Wrong, Other] = P;
    const std::string To(cpp_name(Other->Type.Element));
    analysis::Finding F{DiagId::err_tf_op_element_types,
                        range(Wrong->Arg),
                        {Op, Wrong->Name,
                         std::string(cpp_name(Wrong->Type.Element)),
                         Other->Name, To},
                        {},
                        {}};
    if (std::string Text = sourceText(Wrong->Arg); !Text.empty())
      F.FixIts.push_back(
          {range(Wrong->Arg), "tf::cast<" + To + ">(" + Text + ")"});
    reportFinding(Ctx.getDiagnostics(), Opts, F);
  }

  /// Reports the first mode whose static extents disagree; ranks that
  /// differ are the header's static_assert (its message names
  /// tf::broadcast).
  bool reportExtents(const std::string &Op, Pair P) {
    const auto [Wrong, Other] = P;
    const std::vector<std::int64_t> Have = Wrong->Type.extents();
    const std::vector<std::int64_t> Want = Other->Type.extents();
    if (Have.size() != Want.size())
      return false;
    for (std::size_t M = 0; M < Have.size(); ++M) {
      if (Have[M] < 0 || Want[M] < 0 || Have[M] == Want[M])
        continue;
      analysis::Finding F{
          DiagId::err_tf_op_extents,
          range(Wrong->Arg),
          {Op, std::string(Wrong->Name) + " " + hir::shapeText(Have),
           std::to_string(M), std::to_string(Have[M]),
           std::string(Other->Name) + " " + hir::shapeText(Want),
           std::to_string(M), std::to_string(Want[M])},
          {},
          {}};
      reportFinding(Ctx.getDiagnostics(), Opts, F);
      return true;
    }
    return false;
  }

  hir::SourceRange range(const Expr *E) const {
    return hirRange(SM, E->getSourceRange());
  }

  std::string sourceText(const Expr *E) const {
    CharSourceRange R = CharSourceRange::getTokenRange(
        SM.getFileLoc(E->getBeginLoc()), SM.getFileLoc(E->getEndLoc()));
    bool Invalid = false;
    llvm::StringRef Text =
        Lexer::getSourceText(R, SM, Ctx.getLangOpts(), &Invalid);
    return Invalid ? std::string() : Text.str();
  }
};

} // namespace

bool checkOperandTypes(ASTContext &Ctx, const Options &Opts,
                       llvm::ArrayRef<const CallExpr *> Calls) {
  OperandChecker Checker(Ctx, Opts);
  const SourceManager &SM = Ctx.getSourceManager();
  // A call in a template is one call, however many instantiations check it.
  llvm::DenseSet<SourceLocation> Seen;
  bool Reported = false;
  for (const CallExpr *Call : Calls)
    if (Seen.insert(SM.getFileLoc(Call->getBeginLoc())).second)
      Reported |= Checker.check(*Call);
  return Reported;
}

} // namespace tf::plugin
