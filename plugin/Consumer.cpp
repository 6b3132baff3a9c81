//===- Consumer.cpp - What tf does with a translation unit ----------------===//
//
// Sites -> HIR -> inference -> checks -> Clang diagnostics (Consumer.h).
//
//===----------------------------------------------------------------------===//

#include "Consumer.h"
#include "AtomicFile.h"
#include "BuildHIR.h"
#include "ConstantValue.h"
#include "Diagnostics.h"
#include "Sites.h"
#include "analysis/Analysis.h"
#include "emit/CudaEmitter.h"
#include "hir/Printer.h"
#include "lower/Lower.h"
#include "lower/Verify.h"

#include "targets/TargetFacts.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/Path.h"

#include <map>
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

clang::SourceLocation toClang(unsigned Raw) {
  return clang::SourceLocation::getFromRawEncoding(Raw);
}

CharSourceRange toClang(const hir::SourceRange &R) {
  return CharSourceRange::getTokenRange(toClang(R.Begin),
                                        toClang(R.End ? R.End : R.Begin));
}

/// The range a fix-it replaces. A template-id's range ends at its closing
/// '>', which the lexer may have lexed as part of `>>`
/// (`tf::schedule<A, tf::Repeat<2, 1, 2>>(...)`): as a token range that
/// would swallow the enclosing template's '>' too, so such a range ends
/// after its one '>'.
CharSourceRange fixItRange(const SourceManager &SM, const hir::SourceRange &R) {
  SourceLocation End = toClang(R.End ? R.End : R.Begin);
  bool Invalid = false;
  const char *At = SM.getCharacterData(SM.getSpellingLoc(End), &Invalid);
  if (!Invalid && *At == '>')
    return CharSourceRange::getCharRange(toClang(R.Begin),
                                         End.getLocWithOffset(1));
  return toClang(R);
}

/// Whether the warnings of tf group \p Group are on and promoted to errors,
/// after the W* arguments in the order given.
struct GroupSetting {
  bool Enabled = true;
  bool AsError = false;
};

GroupSetting resolveGroup(const Options &Opts, llvm::StringRef Group) {
  GroupSetting S;
  llvm::StringRef Parent = Group.split('-').first;
  for (const auto &[Name, What] : Opts.Warnings) {
    if (Name != Group && Name != Parent)
      continue;
    switch (What) {
    case WarningArg::Enable:
      S.Enabled = true;
      break;
    case WarningArg::Disable:
      S.Enabled = false;
      break;
    case WarningArg::Error:
      S.Enabled = S.AsError = true;
      break;
    case WarningArg::NoError:
      S.AsError = false;
      break;
    }
  }
  return S;
}

/// \p F with a note saying which instantiation of a kernel template it is
/// about (a finding points into the template's pattern).
analysis::Finding inInstantiation(analysis::Finding F, const hir::Kernel &K) {
  if (K.InstantiatedAt.valid())
    F.Notes.push_back({DiagId::note_tf_in_instantiation,
                       K.InstantiatedAt,
                       {"'" + K.Name + "'"}});
  return F;
}

/// Reports \p F and its notes through Clang.
void emit(DiagnosticsEngine &Diags, const Options &Opts,
          const analysis::Finding &F) {
  GroupSetting Setting;
  if (llvm::StringRef Group = tfGroup(F.Id); !Group.empty())
    Setting = resolveGroup(Opts, Group);
  if (!Setting.Enabled)
    return;
  {
    DiagnosticBuilder B =
        report(Diags, toClang(F.Range.Begin), F.Id, Setting.AsError);
    for (const std::string &Arg : F.Args)
      B << Arg;
    if (F.Range.valid())
      B << toClang(F.Range);
    for (const analysis::FixIt &Fix : F.FixIts)
      if (Fix.Range.valid())
        B << FixItHint::CreateReplacement(
            fixItRange(Diags.getSourceManager(), Fix.Range), Fix.Replacement);
  }
  for (const analysis::Finding &Note : F.Notes)
    emit(Diags, Opts, Note);
}

const hir::SourceRange &targetRange(const hir::Kernel &K) {
  return K.TargetRange.valid() ? K.TargetRange : K.Range;
}

/// The fact tree, loaded on first use; one error for the whole unit.
class Targets {
public:
  explicit Targets(const Options &Opts) : Opts(Opts) {}

  /// The merged view of target \p Id, or null after reporting why not.
  const targets::MergedTarget *find(DiagnosticsEngine &Diags,
                                    const hir::Kernel &K) {
    if (!load(Diags, K))
      return nullptr;
    auto [It, New] = Merged.try_emplace(K.Target);
    if (New) {
      if (const targets::TargetDocument *Doc = Database->find(K.Target))
        It->second = Database->merge(*Doc);
    }
    if (It->second.Doc)
      return &It->second;
    std::string Known;
    for (const std::string &Id : Database->ids())
      Known += (Known.empty() ? "" : ", ") + Id;
    analysis::Finding F{DiagId::err_tf_kernel_target, targetRange(K),
                        {K.Name, "unknown target '" + K.Target +
                                     "'; the fact tree " +
                                     Database->root().str() + " has " + Known}};
    emit(Diags, Opts, F);
    return nullptr;
  }

private:
  bool load(DiagnosticsEngine &Diags, const hir::Kernel &K) {
    if (Database)
      return true;
    if (Failed)
      return false;
    targets::TargetsDir Dir = targets::resolveTargetsDir(Opts.TargetsDir);
    llvm::Expected<targets::FactDatabase> DB =
        targets::FactDatabase::loadDirectory(Dir.Path);
    if (!DB) {
      Failed = true;
      std::string Message = llvm::toString(DB.takeError());
      llvm::StringRef First = llvm::StringRef(Message).split('\n').first;
      emit(Diags, Opts,
           {DiagId::err_tf_target_facts, targetRange(K), {K.Target, First.str()}});
      return false;
    }
    Database = std::move(*DB);
    return true;
  }

  const Options &Opts;
  std::optional<targets::FactDatabase> Database;
  std::map<std::string, targets::MergedTarget> Merged;
  bool Failed = false;
};

/// emit=DIR: the CUDA backend's file for \p M, written only when every kernel
/// with a target lowers, verifies and emits; otherwise one error per kernel
/// at the kernel, listing why.
void emitCuda(DiagnosticsEngine &Diags, const Options &Opts, hir::Module &M,
              llvm::ArrayRef<const targets::MergedTarget *> Targets) {
  const SourceManager &SM = Diags.getSourceManager();
  const OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  const std::string Source = Main ? Main->getName().str() : "<stdin>";
  llvm::SmallString<256> Path(Opts.EmitDir);
  llvm::sys::path::append(Path, llvm::sys::path::stem(Source) + ".tf.cu");

  std::vector<lower::Kernel> Lowered;
  bool Failed = false;
  auto Refuse = [&](const hir::Kernel &K, llvm::Error E) {
    Failed = true;
    std::string Why;
    llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &Info) {
      Why += "\n  " + Info.message();
    });
    // At the kernel's name: the whole definition would be printed otherwise.
    hir::SourceRange At = K.Range;
    At.End = 0;
    emit(Diags, Opts,
         inInstantiation({DiagId::err_tf_emit_refused, At,
                          {K.Name, Path.str().str(), Why}},
                         K));
  };
  for (std::size_t I = 0; I < M.Kernels.size(); ++I) {
    const hir::Kernel &K = M.Kernels[I];
    if (K.Target.empty())
      continue; // a CPU-only kernel: tf::launch runs its body
    llvm::Expected<lower::Kernel> L = lower::lowerKernel(K, Targets[I]);
    if (!L) {
      Refuse(K, L.takeError());
      continue;
    }
    if (llvm::Error E = lower::verify(*L)) {
      Refuse(K, std::move(E));
      continue;
    }
    Lowered.push_back(std::move(*L));
  }
  if (Failed)
    return;
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  if (llvm::Error E = emit::emitCuda(
          Lowered, {Source, Opts.EmitDebugWaits}, OS)) {
    Refuse(M.Kernels.front(), std::move(E));
    return;
  }
  if (std::error_code EC = writeFileAtomically(Path, Text))
    Diags.Report(diag::err_fe_unable_to_open_output) << Path << EC.message();
}

class TfConsumer : public ASTConsumer {
public:
  TfConsumer(Options Opts, llvm::raw_ostream &Out)
      : Opts(std::move(Opts)), Out(Out), Facts(this->Opts) {}

  void HandleTranslationUnit(ASTContext &Ctx) override {
    DiagnosticsEngine &Diags = Ctx.getDiagnostics();
    std::vector<Site> Sites = collectSites(Ctx, Opts.SkipPrecompiled);
    if (Opts.Report)
      printReport(Ctx, Sites, Out);
    // A translation unit Sema refused has no reliable AST to extract.
    if (Diags.hasUncompilableErrorOccurred())
      return;
    hir::Module M = buildModule(Ctx, Sites);
    std::vector<const targets::MergedTarget *> KernelTargets;
    for (hir::Kernel &K : M.Kernels) {
      for (const analysis::Finding &F : analysis::infer(K))
        emit(Diags, Opts, inInstantiation(F, K));
      const targets::MergedTarget *Target =
          K.Target.empty() ? nullptr : Facts.find(Diags, K);
      KernelTargets.push_back(Target);
      if (!K.Target.empty() && !Target)
        continue;
      for (const analysis::Finding &F : analysis::check(K, Target))
        emit(Diags, Opts, inInstantiation(F, K));
    }
    if (!Opts.EmitDir.empty() && !Diags.hasErrorOccurred())
      emitCuda(Diags, Opts, M, KernelTargets);
    if (Opts.Sink)
      Opts.Sink(Ctx, M, KernelTargets);
    if (Opts.DumpHir && Opts.DumpHirJson)
      hir::printJson(M, Out);
    else if (Opts.DumpHir)
      hir::print(M, Out);
    Out.flush();
  }

private:
  Options Opts;
  llvm::raw_ostream &Out;
  Targets Facts;
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
