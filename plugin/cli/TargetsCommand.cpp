//===- plugin/cli/TargetsCommand.cpp - `tf targets` -----------------------===//
//
//   tf targets [--json] [--targets-dir DIR]          list every target
//   tf targets show ID [--json] [--targets-dir DIR]  a target's merged facts
//
// The fact tree is --targets-dir, else $TF_TARGETS_DIR, else the source tree's
// targets/. A broken tree prints every loader diagnostic and exits 1.
// docs/targets.md documents the text and JSON output.
//
//===----------------------------------------------------------------------===//
#include "Commands.h"

#include "targets/TargetFacts.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;
using namespace tf::targets;

namespace tf::cli {

cl::SubCommand TargetsSubcommand(
    "targets", "List the target fact documents or show one target's facts");

static cl::OptionCategory TargetsCategory("tf targets options");

static cl::list<std::string> TargetsArgs(cl::Positional, cl::sub(TargetsSubcommand),
                                         cl::desc("[show ID]"),
                                         cl::cat(TargetsCategory));
static cl::opt<bool> TargetsJson("json", cl::sub(TargetsSubcommand),
                                 cl::desc("Print JSON (docs/targets.md)"),
                                 cl::cat(TargetsCategory));
static cl::opt<std::string>
    TargetsDirOption("targets-dir", cl::sub(TargetsSubcommand),
                     cl::value_desc("DIR"),
                     cl::desc("Read the fact documents from DIR (default: "
                              "$TF_TARGETS_DIR, else the built-in targets/)"),
                     cl::cat(TargetsCategory));

static StringRef choiceText(TargetsDir::Choice C) {
  switch (C) {
  case TargetsDir::Choice::Option:
    return "--targets-dir";
  case TargetsDir::Choice::Environment:
    return "TF_TARGETS_DIR";
  case TargetsDir::Choice::Default:
    return "default";
  }
  return "default";
}

/// Prints rows as left-aligned columns separated by two spaces; the last
/// column is not padded.
static void printTable(raw_ostream &OS, StringRef Indent,
                       ArrayRef<std::vector<std::string>> Rows) {
  std::vector<size_t> Widths;
  for (const auto &R : Rows) {
    if (Widths.size() < R.size())
      Widths.resize(R.size(), 0);
    for (size_t I = 0; I < R.size(); ++I)
      Widths[I] = std::max(Widths[I], R[I].size());
  }
  for (const auto &R : Rows) {
    OS << Indent;
    for (size_t I = 0; I < R.size(); ++I) {
      OS << R[I];
      if (I + 1 < R.size())
        OS.indent(Widths[I] - R[I].size() + 2);
    }
    OS << '\n';
  }
}

static void writeCompatibility(json::OStream &J, const TargetDocument &D) {
  J.attributeArray(D.Kind == DocumentKind::Device ? "architectures"
                                                  : "includes",
                   [&] {
                     for (const std::string &A : D.Architectures)
                       J.value(A);
                   });
}

static int listTargets(const FactDatabase &DB, const TargetsDir &Dir) {
  raw_ostream &OS = outs();
  if (TargetsJson) {
    json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("targets_dir", Dir.Path);
      J.attribute("targets_dir_from", choiceText(Dir.Why));
      J.attributeArray("targets", [&] {
        for (const TargetDocument &D : DB.documents())
          J.object([&] {
            J.attribute("id", D.Id);
            J.attribute("kind", kindName(D.Kind));
            J.attribute("schema", D.Schema);
            J.attribute("name", D.Name);
            J.attribute("file", D.RelativePath);
            writeCompatibility(J, D);
          });
      });
    });
    OS << '\n';
    return 0;
  }
  std::vector<std::vector<std::string>> Rows;
  Rows.push_back({"ID", "KIND", "SCHEMA", "SUMMARY"});
  for (const TargetDocument &D : DB.documents())
    Rows.push_back({D.Id, kindName(D.Kind).str(), D.Schema, D.Name});
  printTable(OS, "", Rows);
  OS << DB.documents().size() << " targets in " << Dir.Path << " ("
     << choiceText(Dir.Why) << ")\n";
  return 0;
}

static void writeFact(json::OStream &J, const MergedFact &M) {
  const Fact &F = *M.F;
  J.object([&] {
    J.attribute("key", F.Key);
    switch (F.ValueKind) {
    case Fact::Kind::Integer:
      J.attribute("value", F.Int);
      break;
    case Fact::Kind::Float:
      J.attribute("value", F.Float);
      break;
    case Fact::Kind::Boolean:
      J.attribute("value", F.Bool);
      break;
    case Fact::Kind::String:
      J.attribute("value", F.Str);
      break;
    case Fact::Kind::Unavailable:
      J.attribute("value", nullptr);
      break;
    }
    J.attribute("available", F.isAvailable());
    J.attribute("unit", F.Unit);
    J.attribute("origin", originName(F.How));
    J.attribute("source", F.Source);
    if (!F.Note.empty())
      J.attribute("note", F.Note);
    J.attribute("from", M.From);
  });
}

static void printFacts(raw_ostream &OS, StringRef Title,
                       ArrayRef<MergedFact> Facts) {
  OS << '\n' << Title << " (" << Facts.size() << ")\n";
  if (Facts.empty())
    return;
  std::vector<std::vector<std::string>> Rows;
  Rows.push_back({"KEY", "VALUE", "UNIT", "ORIGIN", "FROM", "SOURCE"});
  for (const MergedFact &M : Facts) {
    std::string Source = M.F->Source;
    if (!M.F->Note.empty())
      Source += " [note: " + M.F->Note + "]";
    Rows.push_back({M.F->Key, M.F->valueText(), M.F->Unit,
                    originName(M.F->How).str(), M.From, Source});
  }
  printTable(OS, "  ", Rows);
}

static int showTarget(const FactDatabase &DB, StringRef Id) {
  const TargetDocument *D = DB.find(Id);
  if (!D) {
    errs() << "tf targets: error: unknown target '" << Id
           << "'; known targets: " << join(DB.ids(), ", ") << '\n';
    return 1;
  }
  MergedTarget M = DB.merge(*D);
  raw_ostream &OS = outs();
  if (TargetsJson) {
    json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("id", D->Id);
      J.attribute("kind", kindName(D->Kind));
      J.attribute("schema", D->Schema);
      J.attribute("name", D->Name);
      J.attribute("file", D->RelativePath);
      writeCompatibility(J, *D);
      J.attributeArray("architecture_closure", [&] {
        for (const std::string &A : M.ArchitectureClosure)
          J.value(A);
      });
      J.attributeArray("facts", [&] {
        for (const MergedFact &F : M.Facts)
          writeFact(J, F);
      });
      J.attributeArray("capabilities", [&] {
        for (const MergedFact &F : M.Capabilities)
          writeFact(J, F);
      });
    });
    OS << '\n';
    return 0;
  }
  OS << D->Id << ": " << D->Name << '\n';
  std::vector<std::vector<std::string>> Header = {
      {"kind", kindName(D->Kind).str()},
      {"schema", D->Schema},
      {"file", D->RelativePath},
  };
  if (D->Kind == DocumentKind::Device)
    Header.push_back({"architectures", join(D->Architectures, ", ")});
  else
    Header.push_back({"includes", D->Architectures.empty()
                                      ? std::string("(none)")
                                      : join(D->Architectures, ", ")});
  Header.push_back({"closure", M.ArchitectureClosure.empty()
                                   ? std::string("(none)")
                                   : join(M.ArchitectureClosure, ", ")});
  size_t Unavailable = llvm::count_if(
      M.Facts, [](const MergedFact &F) { return !F.F->isAvailable(); });
  Header.push_back({"unavailable", std::to_string(Unavailable) + " of " +
                                       std::to_string(M.Facts.size()) +
                                       " facts"});
  printTable(OS, "  ", Header);
  printFacts(OS, "facts", M.Facts);
  printFacts(OS, "capabilities", M.Capabilities);
  return 0;
}

int runTargetsCommand() {
  TargetsDir Dir = resolveTargetsDir(TargetsDirOption);
  std::vector<std::string> Args(TargetsArgs.begin(), TargetsArgs.end());
  enum { List, Show } Verb = List;
  if (!Args.empty()) {
    if (Args[0] != "show") {
      errs() << "tf targets: error: unknown verb '" << Args[0]
             << "' (expected 'tf targets' or 'tf targets show ID')\n";
      return 1;
    }
    if (Args.size() != 2) {
      errs() << "tf targets: error: 'show' takes one target id, found "
             << Args.size() - 1 << '\n';
      return 1;
    }
    Verb = Show;
  }

  Expected<FactDatabase> DB = FactDatabase::loadDirectory(Dir.Path);
  if (!DB) {
    size_t Count = 0;
    handleAllErrors(
        DB.takeError(),
        [&](const FactError &E) {
          for (const Diagnostic &D : E.diagnostics())
            errs() << D.str() << '\n';
          Count += E.diagnostics().size();
        },
        [&](const ErrorInfoBase &E) {
          errs() << "tf targets: error: " << E.message() << '\n';
          ++Count;
        });
    errs() << "tf targets: error: the fact tree " << Dir.Path << " ("
           << choiceText(Dir.Why) << ") has " << Count
           << (Count == 1 ? " error" : " errors") << '\n';
    return 1;
  }
  return Verb == List ? listTargets(*DB, Dir) : showTarget(*DB, Args[1]);
}

} // namespace tf::cli
