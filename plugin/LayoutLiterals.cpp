//===- LayoutLiterals.cpp - Malformed layout literals ---------------------===//
//
// The header's `parsed_literal<Text, Parse>` names the text and the parser;
// the plugin runs the same parser on the same text (the table below), so its
// message is the header's.
//
//===----------------------------------------------------------------------===//

#include "LayoutLiterals.h"
#include "ConstantValue.h"
#include "Diagnostics.h"

#include "tf/layout/text.hpp"

#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"

#include <optional>
#include <string_view>
#include <vector>

using namespace clang;

namespace tf::plugin {
namespace {

/// The error of `Parse` on a text, if it refuses it.
template <auto Parse> std::optional<Error> refusal(std::string_view Text) {
  auto Parsed = Parse(Text);
  if (Parsed)
    return std::nullopt;
  return Parsed.error();
}

/// The header's literal parsers, by the name `parsed_literal` is given.
struct LiteralParser {
  llvm::StringLiteral Function;
  std::optional<Error> (*Refusal)(std::string_view);
};
constexpr LiteralParser Parsers[] = {
    {"parse_layout_text", refusal<parse_layout_text>},
    {"parse_layout", refusal<parse_layout>},
    {"parse_composed_layout", refusal<parse_composed_layout>},
    {"parse_int_tuple", refusal<parse_int_tuple>},
};

/// A malformed literal: its text and the parser's error.
struct Malformed {
  std::string Text;
  Error Refused;
  SourceLocation Instantiated;
};

/// `tf::detail::parsed_literal`, when the translation unit declares it.
const ClassTemplateDecl *parsedLiteralTemplate(ASTContext &Ctx) {
  const DeclContext *DC = Ctx.getTranslationUnitDecl();
  for (llvm::StringRef Name : {"tf", "detail"}) {
    auto Found = DC->lookup(&Ctx.Idents.get(Name));
    const auto *NS = Found.empty() ? nullptr : dyn_cast<NamespaceDecl>(Found.front());
    if (!NS)
      return nullptr;
    DC = NS;
  }
  auto Found = DC->lookup(&Ctx.Idents.get("parsed_literal"));
  return Found.empty() ? nullptr : dyn_cast<ClassTemplateDecl>(Found.front());
}

std::vector<Malformed> malformedLiterals(ASTContext &Ctx) {
  std::vector<Malformed> Out;
  const ClassTemplateDecl *T = parsedLiteralTemplate(Ctx);
  if (!T)
    return Out;
  for (const ClassTemplateSpecializationDecl *Spec : T->specializations()) {
    const TemplateArgumentList &Args = Spec->getTemplateArgs();
    if (Args.size() != 2 || Args[1].getKind() != TemplateArgument::Declaration)
      continue;
    std::optional<std::string> Text = fixedStringText(Args[0]);
    const auto *Fn = dyn_cast<FunctionDecl>(Args[1].getAsDecl());
    if (!Text || !Fn || !Fn->getIdentifier())
      continue;
    const LiteralParser *P = llvm::find_if(Parsers, [&](const LiteralParser &P) {
      return P.Function == Fn->getName();
    });
    if (P == std::end(Parsers))
      continue;
    if (std::optional<Error> E = P->Refusal(*Text))
      Out.push_back({*Text, *E, Spec->getPointOfInstantiation()});
  }
  return Out;
}

/// Every string literal written as a template argument, in source order.
class LiteralArguments : public RecursiveASTVisitor<LiteralArguments> {
public:
  std::vector<const StringLiteral *> Found;

  bool TraverseTemplateArgumentLoc(const TemplateArgumentLoc &A) {
    if (const StringLiteral *S = writtenLiteral(A))
      Found.push_back(S);
    return RecursiveASTVisitor::TraverseTemplateArgumentLoc(A);
  }
};

} // namespace

/// The expression a non-type argument was written as; each kind keeps it in
/// its own accessor (the others assert, or read another union member).
static const Expr *sourceExpression(const TemplateArgumentLoc &A) {
  switch (A.getArgument().getKind()) {
  case TemplateArgument::Expression:
    return A.getSourceExpression();
  case TemplateArgument::Declaration:
    return A.getSourceDeclExpression();
  case TemplateArgument::StructuralValue:
    return A.getSourceStructuralValueExpression();
  default:
    return nullptr;
  }
}

const StringLiteral *writtenLiteral(const TemplateArgumentLoc &A) {
  const Expr *E = sourceExpression(A);
  while (E) {
    E = E->IgnoreImplicit();
    if (const auto *S = dyn_cast<StringLiteral>(E))
      return S;
    if (const auto *C = dyn_cast<CXXConstructExpr>(E); C && C->getNumArgs() == 1)
      E = C->getArg(0);
    else if (const auto *C = dyn_cast<CXXFunctionalCastExpr>(E))
      E = C->getSubExpr();
    else
      return nullptr;
  }
  return nullptr;
}

bool checkLayoutLiterals(ASTContext &Ctx, DiagnosticsEngine &Diags) {
  std::vector<Malformed> Bad = malformedLiterals(Ctx);
  if (Bad.empty())
    return false;
  LiteralArguments Arguments;
  Arguments.TraverseAST(Ctx);
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::DenseSet<const StringLiteral *> Reported;
  for (const Malformed &M : Bad) {
    const unsigned At = M.Refused.position < 0 ? 0 : M.Refused.position;
    bool Spelled = false;
    for (const StringLiteral *S : Arguments.Found) {
      if (!S->isOrdinary() || S->getString() != M.Text)
        continue;
      Spelled = true;
      if (!Reported.insert(S).second)
        continue;
      SourceLocation Loc = S->getLocationOfByte(
          std::min<unsigned>(At, S->getLength()), SM, Ctx.getLangOpts(),
          Ctx.getTargetInfo());
      report(Diags, Loc, DiagId::err_tf_layout_text)
          << M.Refused.message() << S->getSourceRange();
    }
    if (!Spelled)
      report(Diags, M.Instantiated, DiagId::err_tf_layout_text)
          << (M.Refused.message() + " in \"" + M.Text + "\" at byte " +
              std::to_string(At));
  }
  return true;
}

} // namespace tf::plugin
