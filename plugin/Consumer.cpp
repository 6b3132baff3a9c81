//===- Consumer.cpp - What tf does with a translation unit ----------------===//
//
// Sites -> HIR -> the stages of Pipeline.h (Consumer.h).
//
//===----------------------------------------------------------------------===//

#include "Consumer.h"
#include "BuildHIR.h"
#include "ConstantValue.h"
#include "Diagnostics.h"
#include "HeaderChecks.h"
#include "LayoutLiterals.h"
#include "OperandTypes.h"
#include "Pipeline.h"
#include "Sites.h"
#include "buildhir/ASTQueries.h"
#include "hir/Printer.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

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
      OS << "kernel " << buildhir::qualifiedName(FD) << " at "
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
      OS << " in " << buildhir::qualifiedName(*S.Function);
    OS << ": " << describeArgument(S.Kind, S.Args.front(), Ctx) << '\n';
  }
  OS.flush();
}

class TfConsumer : public ASTConsumer {
public:
  TfConsumer(Options Opts, llvm::raw_ostream &Out)
      : Opts(std::move(Opts)), Out(Out) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    SiteScan Scan = collectSites(Ctx, Opts.SkipPrecompiled);
    const std::vector<Site> &Sites = Scan.Sites;
    if (Opts.Report)
      printReport(Ctx, Sites, Out);
    checkOperandTypes(Ctx, Opts, Scan.ElementwiseCalls);
    // A malformed layout literal leaves a default layout behind it; the
    // kernels built from it would only repeat the error.
    checkLayoutLiterals(Ctx, Diags);
    // A translation unit Sema refused has no reliable AST to extract.
    if (Diags.hasUncompilableErrorOccurred()) {
      reportHeaderChecks(Ctx, Opts, Scan.TfReferences, /*KernelsToo=*/false);
      return;
    }
    hir::Module M = buildModule(Ctx, Sites);
    Pipeline P(Opts, Diags);
    std::vector<const targets::MergedTarget *> Targets = P.check(M);
    // The header's checks, where the plugin's did not speak: outside every
    // kernel, and in kernels the match accepted.
    reportHeaderChecks(Ctx, Opts, Scan.TfReferences,
                       /*KernelsToo=*/!Diags.hasErrorOccurred());
    const bool Lower = !Opts.EmitDir.empty() || Opts.LoweredSink;
    if (Lower && !Diags.hasErrorOccurred())
      if (std::optional<std::vector<LoweredKernel>> Kernels =
              P.lower(M, Targets)) {
        if (!Opts.EmitDir.empty())
          P.emit(*Kernels, mainFile(Ctx.getSourceManager()), Opts.EmitDir);
        if (Opts.LoweredSink)
          Opts.LoweredSink(*Kernels);
      }
    if (Opts.Sink)
      Opts.Sink(Ctx, M, Targets);
    if (Opts.DumpHir && Opts.DumpHirJson)
      hir::printJson(M, Out);
    else if (Opts.DumpHir)
      hir::print(M, Out);
    Out.flush();
  }

private:
  /// The main file as the compiler was given it.
  static std::string mainFile(const SourceManager &SM) {
    const OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    return Main ? Main->getName().str() : "<stdin>";
  }

  Options Opts;
  llvm::raw_ostream &Out;
};

/// Wno-G, WG, Werror=G, Wno-error=G (after the W) for a known tf group G.
bool parseWarning(llvm::StringRef Arg, Options &Opts) {
  WarningArg What = WarningArg::Enable;
  if (Arg.consume_front("no-error="))
    What = WarningArg::NoError;
  else if (Arg.consume_front("error="))
    What = WarningArg::Error;
  else if (Arg.consume_front("no-"))
    What = WarningArg::Disable;
  if (!llvm::is_contained(tfGroups(), Arg))
    return false;
  Opts.Warnings.emplace_back(Arg.str(), What);
  return true;
}

} // namespace

std::string knownArguments() {
  std::string Groups;
  for (llvm::StringRef G : tfGroups())
    Groups += (Groups.empty() ? "" : ", ") + G.str();
  return (llvm::Twine("report, dump-hir, dump-hir=json, targets-dir=DIR, "
                      "sarif=FILE, emit=DIR, emit-debug-waits, W<group>, Wno-<group>, Werror=<group>, "
                      "Wno-error=<group> with <group> one of ") +
          Groups)
      .str();
}

bool parseArgument(llvm::StringRef Arg, Options &Opts) {
  if (Arg == "report") {
    Opts.Report = true;
  } else if (Arg == "dump-hir" || Arg == "dump-hir=json") {
    Opts.DumpHir = true;
    Opts.DumpHirJson = Arg == "dump-hir=json";
  } else if (Arg.consume_front("sarif=") && !Arg.empty()) {
    Opts.SarifFile = Arg.str();
  } else if (Arg.consume_front("emit=") && !Arg.empty()) {
    Opts.EmitDir = Arg.str();
  } else if (Arg == "emit-debug-waits") {
    Opts.EmitDebugWaits = true;
  } else if (Arg.consume_front("targets-dir=")) {
    Opts.TargetsDir = Arg.str();
  } else if (Arg.consume_front("W")) {
    return parseWarning(Arg, Opts);
  } else {
    return false;
  }
  return true;
}

std::unique_ptr<ASTConsumer> makeConsumer(Options Opts,
                                          llvm::raw_ostream &Out) {
  return std::make_unique<TfConsumer>(std::move(Opts), Out);
}

} // namespace tf::plugin
