//===- plugin/cli/FinalizeCommand.cpp - `tf finalize` ---------------------===//
//
//   tf finalize FILE... [-o OUT] [--json] [--targets-dir DIR] -- COMPILER FLAGS
//   tf finalize FILE... -p BUILD_DIR [-o OUT] [--json] [-- EXTRA FLAGS]
//
// Compiles each FILE as `tf hir` does (ToolRunner.h) and runs the plugin's
// pipeline on it (Pipeline.h: checks, lowering as passes, verification), and
// prints every kernel's LIR (lower/Printer.h) to stdout, or with -o to OUT,
// written whole through a temporary file and a rename, so OUT is never
// half-written and is left as it was when anything fails. A kernel with
// undecided sites is refused with one error per site; a construct the
// lowering cannot lower and a failed check are errors too. They are Clang
// diagnostics on stderr (`FILE:L:C: error: ... [tf:lower-...]`); usage errors
// are `tf finalize: error: ...`. The exit status is 1 then. With --json the
// output is one document (docs/schemas/finalize.schema.json): every file
// with its lowered kernels -- launch shape and LIR text -- and every
// diagnostic of its compile as data (QueryOutput.h); when a file failed, on
// stdout (OUT is left as it was) with the exit status 1.
// docs/finalize.md describes the lowered form, docs/cli.md the command;
// test/cli/finalize/ tests it.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"
#include "QueryOutput.h"
#include "ToolRunner.h"

#include "AtomicFile.h"
#include "Pipeline.h"
#include "backend/Backend.h"
#include "lower/Printer.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

using namespace llvm;

namespace tf::cli {

cl::SubCommand FinalizeSubcommand(
    "finalize",
    "The lowered form (LIR) of the kernels in C++ files: tf finalize FILE... "
    "-- FLAGS\n\n"
    "  tf finalize FILE... -- FLAGS        compile FILEs with these clang++ "
    "flags\n"
    "  tf finalize FILE... -p BUILD_DIR    use "
    "BUILD_DIR/compile_commands.json\n"
    "  tf finalize FILE... -o OUT -- FLAGS write the LIR to OUT (atomically)"
    "\n"
    "  tf finalize FILE... --json -- FLAGS one JSON document: the kernels and "
    "every\n"
    "                                      diagnostic as data\n\n"
    "Lowers every kernel -- shared-memory map, mbarrier pipelines with their "
    "clocks,\nroles over thread ranges, TMA boxes, unrolled WGMMA with "
    "descriptors, the staged\nepilogue -- verifies it and prints it. A kernel "
    "with undecided sites is refused,\nevery site listed with its location "
    "(tf candidates shows their options); so is\na construct finalize cannot "
    "lower or a failed check. Errors go to stderr and\nthe exit status is "
    "1; OUT is then left as it was. See docs/finalize.md and\ndocs/cli.md");

static cl::OptionCategory FinalizeCategory("tf finalize options");

static FileOptions CommonOptions(FinalizeSubcommand, FinalizeCategory);
static cl::opt<std::string>
    Output("o", cl::sub(FinalizeSubcommand), cl::value_desc("OUT"),
           cl::desc("Write the LIR to OUT (a temporary file renamed over "
                    "it; untouched on failure) instead of stdout"),
           cl::cat(FinalizeCategory));
static cl::opt<bool>
    Json("json", cl::sub(FinalizeSubcommand),
         cl::desc("Print one JSON document (docs/schemas/finalize.schema.json): "
                  "each file's lowered kernels and its diagnostics as data, "
                  "also when it has errors"),
         cl::cat(FinalizeCategory));

namespace {

/// The version of the JSON form; bumped when a field changes meaning.
constexpr int JsonVersion = 1;

/// One lowered kernel of the answer.
struct KernelResult {
  std::string Name;
  hir::SourceRange Range;
  std::string Target;
  std::string Backend;
  std::int64_t Threads = 0;
  std::int64_t SharedBytes = 0;
  bool Persistent = false;
  /// The LIR as the text form prints it.
  std::string Lir;
};

void printJson(ArrayRef<FileAnswer<KernelResult>> Files, raw_ostream &OS) {
  printFilesJson(OS, JsonVersion, Files,
                 [](json::OStream &J, const KernelResult &K) {
    J.attribute("target", K.Target);
    J.attribute("backend", K.Backend);
    J.attributeObject("launch", [&] {
      J.attribute("threads", K.Threads);
      J.attribute("shared_bytes", K.SharedBytes);
      J.attribute("persistent", K.Persistent);
    });
    J.attribute("lir", K.Lir);
  });
}

} // namespace

int runFinalizeCommand() {
  std::string Text;
  raw_string_ostream OS(Text);
  ToolOptions Opts = CommonOptions.toolOptions("finalize");
  Opts.Json = Json;
  FileAnswers<KernelResult> Results;
  std::vector<KernelResult> Lowered;
  // The plugin's pipeline lowers and verifies (Pipeline.h); its refusals are
  // diagnostics on stderr that make the run fail. It hands over the lowered
  // kernels before the module (Consumer.h), so the module sink files them.
  Opts.LoweredSink = [&](ArrayRef<plugin::LoweredKernel> Kernels) {
    for (const plugin::LoweredKernel &K : Kernels) {
      if (!Json) {
        lower::print(K.LIR, OS);
        continue;
      }
      KernelResult R{K.LIR.Name, K.LIR.Range, K.LIR.Target,
                     K.Backend ? K.Backend->name().str() : std::string(),
                     K.LIR.BlockThreads, K.LIR.SharedBytes, K.LIR.Persistent,
                     std::string()};
      raw_string_ostream Lir(R.Lir);
      lower::print(K.LIR, Lir);
      Lowered.push_back(std::move(R));
    }
  };
  if (Json) {
    Opts.Sink = [&](StringRef File, clang::ASTContext &, hir::Module &,
                    ArrayRef<const targets::MergedTarget *>) {
      Results.add(File).Kernels = std::move(Lowered);
      Lowered.clear();
    };
    Opts.DiagnosticSink = [&](StringRef File,
                              ArrayRef<plugin::RecordedDiagnostic> D) {
      Results.setDiagnostics(File, D);
    };
  }
  int RC = runOnFiles(Opts);
  if (Json && !Results.Files.empty())
    printJson(Results.Files, OS);
  if (RC != 0) {
    // OUT is left as it was; the JSON document, which says what failed,
    // goes to stdout.
    if (Json)
      outs() << Text;
    return 1;
  }
  if (Output.empty()) {
    outs() << Text;
    return 0;
  }
  if (std::error_code EC = plugin::writeFileAtomically(Output, Text)) {
    errs() << "tf finalize: error: cannot write '" << Output
           << "': " << EC.message() << '\n';
    return 1;
  }
  return 0;
}

} // namespace tf::cli
