//===- Consumer.cpp - What tf does with a translation unit ----------------===//
//
// Sites -> HIR -> inference -> checks -> Clang diagnostics (Consumer.h).
//
//===----------------------------------------------------------------------===//

#include "Consumer.h"
#include "BuildHIR.h"
#include "ConstantValue.h"
#include "Diagnostics.h"
#include "Sites.h"
#include "analysis/Analysis.h"
#include "hir/Printer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace clang;

namespace tf::plugin {
namespace {

std::string describeLocation(const SourceManager &SM, SourceLocation Loc) {
  PresumedLoc P = SM.getPresumedLoc(SM.getFileLoc(Loc));
  if (P.isInvalid())
    return "<unknown>";
  return (llvm::Twine(P.getFilename()) + ":" + llvm::Twine(P.getLine()) + ":" +
          llvm::Twine(P.getColumn()))
      .str();
}

std::string describeSubject(const Site &S) {
  if (S.S)
    return isa<CompoundStmt>(S.S) ? "compound statement"
                                  : "expression statement";
  const char *What = isa<ParmVarDecl>(S.D)   ? "parameter"
                     : isa<FieldDecl>(S.D)   ? "field"
                     : isa<VarDecl>(S.D)     ? "variable"
                     : isa<FunctionDecl>(S.D) ? "function"
                                             : "declaration";
  std::string Name;
  if (const auto *ND = dyn_cast<NamedDecl>(S.D))
    Name = ND->getNameAsString();
  return Name.empty() ? What : std::string(What) + " '" + Name + "'";
}

std::string describeArgument(TfAttr Kind, const SiteArgument &A,
                             const ASTContext &Ctx) {
  if (A.Text && Kind == TfAttr::Layout)
    return describeLayoutText(A.Text->getBytes());
  if (A.Text) {
    std::string Out;
    llvm::raw_string_ostream OS(Out);
    OS << '"';
    OS.write_escaped(A.Text->getBytes());
    OS << '"';
    return Out;
  }
  return describeConstant(A.Value, A.Type, Ctx);
}

std::string qualifiedName(const FunctionDecl &FD) {
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  FD.getNameForDiagnostic(OS, FD.getASTContext().getPrintingPolicy(),
                          /*Qualified=*/true);
  return Out;
}

/// Prints one line per site; sites inside a kernel are indented below it.
void printReport(const ASTContext &Ctx, llvm::ArrayRef<Site> Sites,
                 llvm::raw_ostream &OS) {
  const SourceManager &SM = Ctx.getSourceManager();
  llvm::SmallPtrSet<const FunctionDecl *, 8> Kernels;
  for (const Site &S : Sites)
    if (S.Kind == TfAttr::Kernel)
      Kernels.insert(cast<FunctionDecl>(S.D));
  for (const Site &S : Sites) {
    if (S.Kind == TfAttr::Kernel) {
      const auto &FD = *cast<FunctionDecl>(S.D);
      OS << "kernel " << qualifiedName(FD) << " at "
         << describeLocation(SM, FD.getLocation()) << '\n';
      for (unsigned I = 0; I < S.Args.size(); ++I)
        OS << "  argument " << I + 1 << ": "
           << describeArgument(S.Kind, S.Args[I], Ctx) << '\n';
      continue;
    }
    bool InKernel = S.Function && Kernels.contains(S.Function);
    OS << (InKernel ? "  " : "") << attrName(S.Kind) << " at "
       << describeLocation(SM, S.Attr->getLocation()) << " on "
       << describeSubject(S);
    if (S.Function && !InKernel)
      OS << " in " << qualifiedName(*S.Function);
    OS << ": " << describeArgument(S.Kind, S.Args.front(), Ctx) << '\n';
  }
  OS.flush();
}

class TfConsumer : public ASTConsumer {
public:
  TfConsumer(Options Opts, llvm::raw_ostream &Out) : Opts(std::move(Opts)), Out(Out) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    std::vector<Site> Sites = collectSites(Ctx);
    if (Opts.Report)
      printReport(Ctx, Sites, Out);
    hir::Module M = buildModule(Ctx, Sites);
    for (hir::Kernel &K : M.Kernels) {
      (void)analysis::infer(K);
      (void)analysis::check(K, nullptr);
    }
    if (Opts.DumpHir) {
      hir::print(M, Out);
      Out.flush();
    }
  }

private:
  Options Opts;
  llvm::raw_ostream &Out;
};

} // namespace

bool parseArgument(llvm::StringRef Arg, Options &Opts) {
  if (Arg == "report")
    Opts.Report = true;
  else if (Arg == "dump-hir")
    Opts.DumpHir = true;
  else if (Arg.consume_front("targets-dir="))
    Opts.TargetsDir = Arg.str();
  else
    return false;
  return true;
}

std::unique_ptr<ASTConsumer> makeConsumer(Options Opts,
                                          llvm::raw_ostream &Out) {
  return std::make_unique<TfConsumer>(std::move(Opts), Out);
}

} // namespace tf::plugin
