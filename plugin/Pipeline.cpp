//===- plugin/Pipeline.cpp - The compiler's stages after Sema -------------===//
//
// See Pipeline.h.
//
//===----------------------------------------------------------------------===//
#include "Pipeline.h"
#include "AtomicFile.h"
#include "Diagnostics.h"

#include "analysis/Analysis.h"
#include "analysis/Site.h"
#include "backend/Backend.h"
#include "lower/Lower.h"

#include "targets/TargetFacts.h"

#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace clang;

namespace tf::plugin {

namespace {

clang::SourceLocation toClang(unsigned Raw) {
  return clang::SourceLocation::getFromRawEncoding(Raw);
}

CharSourceRange toClang(const hir::SourceRange &R) {
  if (R.Chars)
    return CharSourceRange::getCharRange(toClang(R.Begin), toClang(R.End));
  return CharSourceRange::getTokenRange(toClang(R.Begin),
                                        toClang(R.End ? R.End : R.Begin));
}

/// The range a diagnostic underlines and a fix-it replaces. A template-id's
/// range ends at its closing '>', which the lexer may have lexed as part of
/// `>>` (`tf::schedule<A, tf::Repeat<2, 1, 2>>(...)`): as a token range that
/// would swallow the enclosing template's '>' too, so such a range ends
/// after its one '>'.
CharSourceRange shownRange(const SourceManager &SM, const hir::SourceRange &R) {
  if (R.Chars)
    return toClang(R);
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

void report(DiagnosticsEngine &Diags, const Options &Opts,
            const analysis::Finding &F) {
  GroupSetting Setting;
  if (llvm::StringRef Group = tfGroup(F.Id); !Group.empty())
    Setting = resolveGroup(Opts, Group);
  if (!Setting.Enabled)
    return;
  {
    DiagnosticBuilder B =
        plugin::report(Diags, toClang(F.Range.Begin), F.Id, Setting.AsError);
    for (const std::string &Arg : F.Args)
      B << Arg;
    if (F.Range.valid())
      B << shownRange(Diags.getSourceManager(), F.Range);
    for (const analysis::FixIt &Fix : F.FixIts)
      if (Fix.Range.valid())
        B << FixItHint::CreateReplacement(
            shownRange(Diags.getSourceManager(), Fix.Range), Fix.Replacement);
  }
  for (const analysis::Finding &Note : F.Notes)
    report(Diags, Opts, Note);
}

/// Internal errors are tf's bugs, not the kernel's: not entries of the
/// diagnostics table, but errors that say so.
void reportInternalError(DiagnosticsEngine &Diags, const hir::SourceRange &At,
                         llvm::StringRef Message) {
  Diags.Report(toClang(At.Begin),
               Diags.getCustomDiagID(DiagnosticsEngine::Error,
                                     "internal error in tf (please report "
                                     "it): %0"))
      << Message;
}

const hir::SourceRange &targetRange(const hir::Kernel &K) {
  return K.TargetRange.valid() ? K.TargetRange : K.Range;
}

/// Legal means lowerable: every decided site whose contract accepted it
/// must be one the target's backend lowers.
std::vector<analysis::Finding> checkLowerable(const hir::Kernel &K,
                                              const backend::Backend &B) {
  std::vector<analysis::Finding> Out;
  for (hir::StmtId Id : K.preorder()) {
    const hir::Stmt &S = K.Stmts[Id];
    if (S.Kind != hir::StmtKind::Op || !S.Sched || !S.Sched->Match ||
        !S.Sched->Match->accepted)
      continue;
    const Contract *C = analysis::contractOf(S);
    if (!C)
      continue;
    backend::Support Sup = B.supports(K, Id, *C);
    if (!Sup.Lowerable)
      Out.push_back({DiagId::err_tf_lower_op,
                     S.CallRange.valid() ? S.CallRange : S.Range,
                     {"tf." + hir::opName(S.Op).str() + " as " + S.Sched->ContractId,
                      B.name().str(), Sup.Why},
                     {},
                     {}});
  }
  return Out;
}

} // namespace

void reportFinding(DiagnosticsEngine &Diags, const Options &Opts,
                   const analysis::Finding &F, const hir::Kernel *K) {
  if (!K || !K->InstantiatedAt.valid())
    return report(Diags, Opts, F);
  // A finding points into the template's pattern: say which instantiation.
  analysis::Finding In = F;
  In.Notes.push_back({DiagId::note_tf_in_instantiation,
                      K->InstantiatedAt,
                      {"'" + K->Name + "'"},
                      {},
                      {}});
  report(Diags, Opts, In);
}

Pipeline::Pipeline(const Options &Opts, DiagnosticsEngine &Diags)
    : Opts(Opts), Diags(Diags) {}

Pipeline::~Pipeline() = default;

bool Pipeline::loadFacts(const hir::Kernel &K) {
  if (Database)
    return true;
  if (FactsFailed)
    return false;
  targets::TargetsDir Dir = targets::resolveTargetsDir(Opts.TargetsDir);
  llvm::Expected<targets::FactDatabase> DB =
      targets::FactDatabase::loadDirectory(Dir.Path);
  if (!DB) {
    FactsFailed = true;
    std::string Message = llvm::toString(DB.takeError());
    llvm::StringRef First = llvm::StringRef(Message).split('\n').first;
    reportFinding(Diags, Opts,
                  {DiagId::err_tf_target_facts,
                   targetRange(K),
                   {K.Target, First.str()},
                   {},
                   {}});
    return false;
  }
  Database = std::make_unique<targets::FactDatabase>(std::move(*DB));
  return true;
}

const targets::MergedTarget *Pipeline::target(const hir::Kernel &K) {
  if (!loadFacts(K))
    return nullptr;
  auto [It, New] = Merged.try_emplace(K.Target);
  if (New)
    if (const targets::TargetDocument *Doc = Database->find(K.Target))
      It->second = std::make_unique<targets::MergedTarget>(Database->merge(*Doc));
  if (It->second)
    return It->second.get();
  std::string Known;
  for (const std::string &Id : Database->ids())
    Known += (Known.empty() ? "" : ", ") + Id;
  reportFinding(Diags, Opts,
                {DiagId::err_tf_kernel_target,
                 targetRange(K),
                 {K.Name, "unknown target '" + K.Target + "'; the fact tree " +
                              Database->root().str() + " has " + Known},
                 {},
                 {}});
  return nullptr;
}

std::vector<const targets::MergedTarget *> Pipeline::check(hir::Module &M) {
  std::vector<const targets::MergedTarget *> Targets;
  for (hir::Kernel &K : M.Kernels) {
    const targets::MergedTarget *T = K.Target.empty() ? nullptr : target(K);
    Targets.push_back(T);
    for (const analysis::Finding &F : analysis::infer(K, T))
      reportFinding(Diags, Opts, F, &K);
    if (!K.Target.empty() && !T)
      continue;
    std::vector<analysis::Finding> Findings = analysis::check(K, T);
    if (T)
      if (const backend::Backend *B = backend::backendFor(*T))
        for (analysis::Finding &F : checkLowerable(K, *B))
          Findings.push_back(std::move(F));
    for (const analysis::Finding &F : Findings)
      reportFinding(Diags, Opts, F, &K);
  }
  return Targets;
}

std::optional<std::vector<LoweredKernel>>
Pipeline::lower(const hir::Module &M,
                llvm::ArrayRef<const targets::MergedTarget *> Targets) {
  std::vector<LoweredKernel> Out;
  bool Failed = false;
  for (std::size_t I = 0; I < M.Kernels.size(); ++I) {
    const hir::Kernel &K = M.Kernels[I];
    if (K.Target.empty())
      continue; // a CPU-only kernel: tf::launch runs its body
    lower::LoweringResult R = lower::lowerKernel(K, Targets[I]);
    for (const analysis::Finding &F : R.Refusals)
      reportFinding(Diags, Opts, F, &K);
    for (const auto &[At, Message] : R.InternalErrors)
      reportInternalError(Diags, At, Message);
    if (!R.Lowered) {
      Failed = true;
      continue;
    }
    Out.push_back({std::move(*R.Lowered), R.Backend});
  }
  if (Failed)
    return std::nullopt;
  return Out;
}

void Pipeline::emit(llvm::ArrayRef<LoweredKernel> Kernels,
                    llvm::StringRef Source, llvm::StringRef Dir) {
  // One file per backend, its kernels in module order.
  std::vector<const backend::Backend *> Backends;
  for (const LoweredKernel &K : Kernels)
    if (!llvm::is_contained(Backends, K.Backend))
      Backends.push_back(K.Backend);
  for (const backend::Backend *B : Backends) {
    std::vector<lower::Kernel> Mine;
    for (const LoweredKernel &K : Kernels)
      if (K.Backend == B)
        Mine.push_back(K.LIR);
    llvm::SmallString<256> Path(Dir);
    llvm::sys::path::append(Path,
                            llvm::sys::path::stem(Source) + B->fileSuffix());
    std::string Text;
    llvm::raw_string_ostream OS(Text);
    // Lowering and the backend's rules refused every kernel the backend
    // cannot write, at its op: what the emitter still finds is a bug in tf.
    if (llvm::Error E = B->emit(Mine, {Source.str(), Opts.EmitDebugWaits}, OS)) {
      llvm::handleAllErrors(std::move(E), [&](const llvm::ErrorInfoBase &Info) {
        reportInternalError(Diags, Mine.front().Range,
                            "the " + B->name().str() + " backend cannot write " +
                                Path.str().str() + ": " + Info.message());
      });
      continue;
    }
    // The folder is made as -fprofile-generate=DIR makes its own: a build
    // names it before anything exists there.
    if (std::error_code EC = llvm::sys::fs::create_directories(Dir)) {
      Diags.Report(diag::err_fe_unable_to_open_output) << Dir << EC.message();
      return;
    }
    if (std::error_code EC = writeFileAtomically(Path, Text))
      Diags.Report(diag::err_fe_unable_to_open_output) << Path << EC.message();
  }
}

} // namespace tf::plugin
