//===- plugin/cli/CandidatesCommand.cpp - `tf candidates` -----------------===//
//
//   tf candidates FILE... [--site LINE] [--json] [--targets-dir DIR] -- FLAGS
//   tf candidates FILE... -p BUILD_DIR [--site LINE] [--json] [-- EXTRA FLAGS]
//
// Compiles each FILE as `tf hir` does (ToolRunner.h) and lists, for every op
// of its kernels that has no instruction yet, the contracts of tf's registry
// that implement it: accepted ones with what the engine derives, refused
// ones with every reason and, for a refused MMA, the placement of its
// operands it would accept (analysis/Candidates.h decides which contracts,
// which parameters and the placement). The text is stable and names files by their basename;
// --json prints one document in the form docs/schemas/candidates.schema.json
// describes. The exit status is 0 when the query ran, refusals or not; 1
// when a file had errors or --site names no undecided op. docs/cli.md
// documents the command; test/cli/candidates/ tests it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "QueryOutput.h"
#include "ToolRunner.h"

#include "analysis/Candidates.h"
#include "backend/Backend.h"
#include "hir/HIR.h"
#include "hir/Printer.h"

#include "tf/contract/describe.hpp"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <set>
#include <string>
#include <vector>

using namespace llvm;

namespace tf::cli {

cl::SubCommand CandidatesSubcommand(
    "candidates",
    "The instructions each undecided op could use: tf candidates FILE... -- "
    "FLAGS\n\n"
    "  tf candidates FILE... -- FLAGS      compile FILEs with these clang++ "
    "flags\n"
    "  tf candidates FILE... -p BUILD_DIR  use "
    "BUILD_DIR/compile_commands.json\n"
    "  tf candidates FILE...               no --, no -p: -std=c++20\n\n"
    "For every op without a tf::schedule (tf::matmul, tf::copy, tf::cast, "
    "...), its\nmesh and operands, then each contract of tf's registry that "
    "implements it:\naccepted (with the derived repeat or boxes) or refused "
    "(with every reason;\nfor an MMA refused only for its operands' layouts, "
    "the layouts it would\naccept, ready to paste).\nThe exit status is 0 when the query ran, 1 when a "
    "file has errors. See\ndocs/cli.md");

static cl::OptionCategory CandidatesCategory("tf candidates options");

static FileOptions CommonOptions(CandidatesSubcommand, CandidatesCategory);
static cl::opt<unsigned>
    SiteLine("site", cl::sub(CandidatesSubcommand), cl::value_desc("LINE"),
             cl::desc("Only the op sites on source line LINE"),
             cl::cat(CandidatesCategory));
static cl::opt<bool>
    Json("json", cl::sub(CandidatesSubcommand),
         cl::desc("Print one JSON document "
                  "(docs/schemas/candidates.schema.json)"),
         cl::cat(CandidatesCategory));

namespace {

/// The version of the JSON form; bumped when a field changes meaning.
constexpr int JsonVersion = 1;

/// An operand as the HIR printer prints it.
struct OperandText {
  std::string Access, Value, Type;
};

/// One kernel's answer.
struct KernelResult {
  std::string Name;
  /// Parallel to Sites: the operands' text.
  std::vector<std::vector<OperandText>> Operands;
  hir::SourceRange Range;
  std::string Target;
  std::vector<analysis::CandidateSite> Sites;
  /// The values' names as the HIR printer prints them (%acc).
  std::vector<std::string> Names;
};

using FileResult = FileAnswer<KernelResult>;

bool onSiteLine(const analysis::CandidateSite &S) {
  return S.Range.Line == SiteLine || S.StmtRange.Line == SiteLine;
}

void collect(FileResult &Out, hir::Module &M,
             ArrayRef<const targets::MergedTarget *> Targets) {
  for (std::size_t I = 0; I < M.Kernels.size(); ++I) {
    const hir::Kernel &K = M.Kernels[I];
    KernelResult R;
    R.Name = K.Name;
    R.Range = K.Range;
    R.Target = K.Target;
    R.Names = hir::valueNames(K);
    const std::vector<std::string> &Names = R.Names;
    const targets::MergedTarget *Target =
        I < Targets.size() ? Targets[I] : nullptr;
    std::vector<analysis::CandidateSite> Sites =
        analysis::findCandidates(K, Target);
    backend::rankCandidates(K, Target, Sites);
    for (analysis::CandidateSite &S : Sites) {
      if (SiteLine.getNumOccurrences() && !onSiteLine(S))
        continue;
      std::vector<OperandText> Texts;
      for (const analysis::CandidateOperand &O : S.Operands)
        Texts.push_back({O.Access, Names[O.Value],
                         hir::typeText(K.Values[O.Value].Type)});
      R.Operands.push_back(std::move(Texts));
      R.Sites.push_back(std::move(S));
    }
    Out.Kernels.push_back(std::move(R));
  }
}

std::string joined(const std::vector<std::int64_t> &Xs) {
  std::string Out;
  for (std::size_t I = 0; I < Xs.size(); ++I)
    Out += (I ? "," : "") + std::to_string(Xs[I]);
  return Out;
}

std::string valueName(const KernelResult &K, hir::ValueId V) {
  return V < K.Names.size() ? K.Names[V] : std::string("?");
}

void printPlacement(const analysis::CandidatePlacement &P,
                    const KernelResult &K, raw_ostream &OS) {
  OS << "              placement";
  if (P.Accepted)
    OS << ", accepted" << (P.Mesh.empty() ? "" : " on '" + P.Mesh + "'");
  OS << ":\n";
  for (const analysis::CandidatePlacement::OperandLayout &L : P.Layouts)
    OS << "                operand " << L.Operand << " ("
       << valueName(K, L.Value) << "): \"" << L.Text << "\"\n";
  if (!P.Unplaced.empty())
    OS << "                not placed: " << P.Unplaced << '\n';
}

void printCandidate(const analysis::Candidate &C, const KernelResult &K,
                    raw_ostream &OS) {
  OS << "  " << (C.Accepted ? "accepted" : "refused ") << "  " << C.ContractId
     << " ";
  std::vector<std::string> Tried;
  for (const analysis::CandidateParam &P : C.Params) {
    OS << ' ' << P.Name << '=' << P.Value;
    if (P.Source == "tried")
      Tried.push_back(P.Name);
  }
  if (!Tried.empty())
    OS << "  (tried: " << join(Tried, ", ") << ')';
  OS << '\n';
  if (C.Accepted) {
    OS << "              mesh " << C.MeshInstance << '\n';
    if (!C.BoxExtents.empty())
      OS << "              boxes (" << joined(C.Repeat) << ") of ("
         << joined(C.BoxExtents) << ")\n";
    else if (!C.Repeat.empty())
      OS << "              repeat (" << joined(C.Repeat) << ")\n";
    if (!C.Backend.empty())
      OS << "              "
         << (C.Lowerable ? "lowered by " + C.Backend
                         : "not lowered by " + C.Backend + ": " + C.NotLowered)
         << '\n';
  }
  for (const analysis::CandidateReason &R : C.Reasons)
    OS << "              " << R.Text << '\n';
  if (C.Dropped)
    OS << "              ... and " << C.Dropped << " more\n";
  if (C.Placement)
    printPlacement(*C.Placement, K, OS);
}

void printText(const FileResult &F, raw_ostream &OS) {
  if (F.Kernels.empty()) {
    OS << F.File << ": no kernels\n";
    return;
  }
  for (const KernelResult &K : F.Kernels) {
    OS << "kernel " << K.Name << " at " << position(K.Range);
    if (!K.Target.empty())
      OS << " target " << K.Target;
    OS << '\n';
    if (K.Sites.empty()) {
      OS << (SiteLine.getNumOccurrences() ? "  no undecided op site on line " +
                                                std::to_string(SiteLine)
                                          : std::string("  no undecided op sites"))
         << "\n";
      continue;
    }
    for (std::size_t I = 0; I < K.Sites.size(); ++I) {
      const analysis::CandidateSite &S = K.Sites[I];
      OS << '\n' << position(S.Range) << "  tf." << hir::opName(S.Kind) << "  on "
         << S.Mesh
         << (S.MeshSpelling.empty() ? " (" + S.UnscopedMesh + ")"
                                    : " ('" + S.MeshSpelling + "')")
         << '\n';
      for (const OperandText &O : K.Operands[I])
        OS << "  " << left_justify(O.Access, 10) << ' ' << O.Value << " : "
           << O.Type << '\n';
      if (!S.NoCandidates.empty())
        OS << "  " << S.NoCandidates << '\n';
      for (const analysis::Candidate &C : S.Candidates)
        printCandidate(C, K, OS);
    }
  }
}

void intsJson(json::OStream &J, StringRef Key,
              const std::vector<std::int64_t> &Xs) {
  J.attributeArray(Key, [&] {
    for (std::int64_t X : Xs)
      J.value(X);
  });
}

void placementJson(json::OStream &J, const analysis::Candidate &C,
                   const KernelResult &K) {
  if (!C.Placement) {
    J.attribute("placement", nullptr);
    return;
  }
  const analysis::CandidatePlacement &P = *C.Placement;
  J.attributeObject("placement", [&] {
    J.attribute("accepted", P.Accepted);
    if (P.Mesh.empty())
      J.attribute("mesh_scope", nullptr);
    else
      J.attribute("mesh_scope", P.Mesh);
    J.attributeArray("layouts", [&] {
      for (const analysis::CandidatePlacement::OperandLayout &L : P.Layouts)
        J.object([&] {
          J.attribute("operand", L.Operand);
          J.attribute("value", valueName(K, L.Value));
          J.attribute("layout", L.Text);
        });
    });
    if (P.Unplaced.empty())
      J.attribute("unplaced", nullptr);
    else
      J.attribute("unplaced", P.Unplaced);
  });
}

void candidateJson(json::OStream &J, const analysis::Candidate &C,
                   const KernelResult &K) {
  J.object([&] {
    J.attribute("contract", C.ContractId);
    J.attribute("accepted", C.Accepted);
    J.attributeArray("params", [&] {
      for (const analysis::CandidateParam &P : C.Params)
        J.object([&] {
          J.attribute("name", P.Name);
          J.attribute("value", P.Value);
          J.attribute("source", P.Source);
        });
    });
    J.attributeArray("reasons", [&] {
      for (const analysis::CandidateReason &R : C.Reasons)
        J.object([&] {
          J.attribute("kind", tf::to_string(R.Kind));
          J.attribute("text", R.Text);
        });
    });
    J.attribute("dropped", static_cast<int64_t>(C.Dropped));
    if (C.Accepted)
      J.attribute("mesh_instance", C.MeshInstance);
    else
      J.attribute("mesh_instance", nullptr);
    intsJson(J, "repeat", C.Repeat);
    intsJson(J, "box_extents", C.BoxExtents);
    if (C.Backend.empty() || !C.Accepted)
      J.attribute("lowering", nullptr);
    else
      J.attributeObject("lowering", [&] {
        J.attribute("backend", C.Backend);
        J.attribute("lowerable", C.Lowerable);
        J.attribute("rank", C.Rank);
        if (C.Lowerable)
          J.attribute("reason", nullptr);
        else
          J.attribute("reason", C.NotLowered);
      });
    placementJson(J, C, K);
  });
}

void siteJson(json::OStream &J, const analysis::CandidateSite &S,
              const std::vector<OperandText> &Operands,
              const KernelResult &K) {
  J.object([&] {
    J.attribute("op", hir::opName(S.Kind));
    positionJson(J, S.Range);
    J.attribute("mesh", S.Mesh);
    if (S.MeshSpelling.empty())
      J.attribute("mesh_scope", nullptr);
    else
      J.attribute("mesh_scope", S.MeshSpelling);
    J.attributeArray("operands", [&] {
      for (const OperandText &O : Operands)
        J.object([&] {
          J.attribute("access", O.Access);
          J.attribute("value", O.Value);
          J.attribute("type", O.Type);
        });
    });
    if (S.NoCandidates.empty())
      J.attribute("no_candidates", nullptr);
    else
      J.attribute("no_candidates", S.NoCandidates);
    J.attributeArray("candidates", [&] {
      for (const analysis::Candidate &C : S.Candidates)
        candidateJson(J, C, K);
    });
  });
}

void printJson(ArrayRef<FileResult> Files, raw_ostream &OS) {
  printFilesJson(OS, JsonVersion, Files,
                 [](json::OStream &J, const KernelResult &K) {
    J.attribute("target", K.Target);
    J.attributeArray("sites", [&] {
      for (std::size_t I = 0; I < K.Sites.size(); ++I)
        siteJson(J, K.Sites[I], K.Operands[I], K);
    });
  });
}

} // namespace

int runCandidatesCommand() {
  FileAnswers<KernelResult> Results;
  bool First = true;
  ToolOptions Opts = CommonOptions.toolOptions("candidates");
  Opts.Json = Json;
  Opts.Sink = [&](StringRef File, clang::ASTContext &, hir::Module &M,
                  ArrayRef<const targets::MergedTarget *> Targets) {
    FileResult &R = Results.add(File);
    collect(R, M, Targets);
    if (!Json) {
      if (!First)
        outs() << '\n';
      First = false;
      printText(R, outs());
      outs().flush();
    }
  };
  Opts.DiagnosticSink = [&](StringRef File,
                            ArrayRef<plugin::RecordedDiagnostic> D) {
    Results.setDiagnostics(File, D);
  };
  int RC = runOnFiles(Opts);
  // Every file compiled, with its errors; nothing after a usage error.
  if (Json && !Results.Files.empty())
    printJson(Results.Files, outs());
  if (RC == 0 && SiteLine.getNumOccurrences()) {
    bool Found = false;
    for (const FileResult &F : Results.Files)
      for (const KernelResult &K : F.Kernels)
        Found |= !K.Sites.empty();
    if (!Found) {
      errs() << "tf candidates: error: no undecided op site on line "
             << SiteLine << "\n";
      return 1;
    }
  }
  return RC;
}

} // namespace tf::cli
