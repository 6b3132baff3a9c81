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
#include <vector>

using namespace clang;

namespace tf::plugin {

namespace {

/// The static extents of \p T's top-level modes (-1 where dynamic).
std::vector<std::int64_t> extentsOf(const hir::TensorType &T) {
  std::vector<std::int64_t> Out;
  const IntTuple S = T.shape();
  const int Rank = S.is_leaf() ? 1 : S.rank();
  for (int I = 0; I < Rank; ++I) {
    Result<std::int64_t> P = product(S.is_leaf() ? S : S.mode(I));
    Out.push_back(P ? *P : -1);
  }
  return Out;
}

std::string shapeText(const std::vector<std::int64_t> &E) {
  std::string Out = "(";
  for (std::size_t I = 0; I < E.size(); ++I)
    Out += (I ? "," : "") +
           (E[I] < 0 ? std::string("?") : std::to_string(E[I]));
  return Out + ")";
}

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
    const Expr *Arg[2] = {Call.getArg(0), Call.getArg(1)};
    std::optional<hir::TensorType> T[2];
    for (int I = 0; I < 2; ++I) {
      QualType Q = Arg[I]->getType().getNonReferenceType();
      if (Q->isArithmeticType())
        return false; // a scalar meets the tensor's every element
      T[I] = decodeTensorType(Q);
      if (!T[I])
        return false;
    }
    // The operand that disagrees: the one read from a window (the user's
    // residual tile, C), else the second.
    const int Wrong = readsWindow(Arg[0]) && !readsWindow(Arg[1]) ? 0 : 1;
    const int Other = 1 - Wrong;
    const std::string Op = hir::opName(*opKindOf(Call.getDirectCallee())).str();
    const char *Ordinal[2] = {"the first operand", "the second operand"};
    const std::vector<std::int64_t> Have = extentsOf(*T[Wrong]);
    const std::vector<std::int64_t> Want = extentsOf(*T[Other]);
    if (T[Wrong]->Element != T[Other]->Element) {
      const std::string To(cpp_name(T[Other]->Element));
      analysis::Finding F{DiagId::err_tf_op_element_types,
                          range(Arg[Wrong]),
                          {Op, Ordinal[Wrong],
                           std::string(cpp_name(T[Wrong]->Element)),
                           Ordinal[Other], To},
                          {},
                          {}};
      if (std::string Text = sourceText(Arg[Wrong]); !Text.empty())
        F.FixIts.push_back(
            {range(Arg[Wrong]), "tf::cast<" + To + ">(" + Text + ")"});
      reportFinding(Ctx.getDiagnostics(), Opts, F);
      return true;
    }
    if (Have.size() != Want.size())
      return false; // the header's static_assert names tf::broadcast
    for (std::size_t M = 0; M < Have.size(); ++M) {
      if (Have[M] < 0 || Want[M] < 0 || Have[M] == Want[M])
        continue;
      analysis::Finding F{DiagId::err_tf_op_extents,
                          range(Arg[Wrong]),
                          {Op, std::string(Ordinal[Wrong]) + " " +
                                   shapeText(Have),
                           std::to_string(M), std::to_string(Have[M]),
                           std::string(Ordinal[Other]) + " " +
                               shapeText(Want),
                           std::to_string(M), std::to_string(Want[M])},
                          {},
                          {}};
      reportFinding(Ctx.getDiagnostics(), Opts, F);
      return true;
    }
    return false;
  }

private:
  ASTContext &Ctx;
  const SourceManager &SM;
  const Options &Opts;

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
