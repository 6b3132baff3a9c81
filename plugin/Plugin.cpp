//===- Plugin.cpp - The tf Clang plugin -----------------------------------===//
//
// The plugin action "tf" of tf.so:
//
//   clang++ -fplugin=tf.so [-fplugin-arg-tf-report] ...
//   clang -cc1 -load tf.so -add-plugin tf [-plugin-arg-tf report] ...
//
// It runs before the main action (so code generation still happens), collects
// the tf attribute sites once Sema is done and, for `report`, prints them.
// Without arguments it only diagnoses and writes nothing, which is how clangd
// runs it (LD_PRELOAD=tf.so clangd, DESIGN.md "Toolchain facts").
//
// Tested by test/plugin/report.cpp and test/plugin/plugin_arguments.test.
//
//===----------------------------------------------------------------------===//

#include "ConstantValue.h"
#include "Diagnostics.h"
#include "Sites.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

using namespace clang;

namespace tf::plugin {
namespace {

/// What -fplugin-arg-tf-KEY[=VALUE] selected.
struct Options {
  bool Report = false;
};

constexpr llvm::StringLiteral KnownArguments = "report";

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
  explicit TfConsumer(Options Opts) : Opts(Opts) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    std::vector<Site> Sites = collectSites(Ctx);
    if (Opts.Report)
      printReport(Ctx, Sites, llvm::outs());
  }

private:
  Options Opts;
};

class TfAction : public PluginASTAction {
public:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &,
                                                 llvm::StringRef) override {
    return std::make_unique<TfConsumer>(Opts);
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    bool OK = true;
    for (const std::string &Arg : Args) {
      if (Arg == "report") {
        Opts.Report = true;
        continue;
      }
      report(CI.getDiagnostics(), SourceLocation(),
             DiagId::err_tf_plugin_unknown_argument)
          << Arg << KnownArguments;
      OK = false;
    }
    return OK;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  Options Opts;
};

} // namespace
} // namespace tf::plugin

static clang::FrontendPluginRegistry::Add<tf::plugin::TfAction>
    TfPlugin("tf", "tf: check and report tf attributes, build the tile IR");
