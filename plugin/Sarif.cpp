//===- Sarif.cpp - Diagnostics as a SARIF 2.1.0 log -----------------------===//
//
// The forwarding consumer behind `-fplugin-arg-tf-sarif=FILE` (Sarif.h) and
// the log it writes:
//
//   {"$schema": ..., "version": "2.1.0", "runs": [{
//     "tool": {"driver": {"name": "tf", "version": ..., "rules": [...]},
//              "extensions": [{"name": "clang", "version": "22.1.8"}]},
//     "columnKind": "unicodeCodePoints",
//     "results": [{"ruleId": "tf:repeat-mismatch", "ruleIndex": 0,
//                  "level": "error", "message": {"text": ...},
//                  "locations": [...], "relatedLocations": [...],
//                  "fixes": [...]}, ...]}]}
//
// One result per error, warning or remark, in the order Clang reports them
// (the records of DiagnosticLog.h); its notes become relatedLocations, and
// the fix-its of the diagnostic and of each note a fix; a tf diagnostic's
// named arguments are the result's "properties": {"arguments": {...}}. A tf
// diagnostic's rule is its stable code ("tf:" + diagCode(), the [tf:code]
// suffix, which the message drops), with the message template of
// Diagnostics.def; a Clang diagnostic's rule is "clang:-W<option>" when a
// warning option controls it, else "clang:" and its numeric id, with
// Clang's format string. Rules are listed in the order of first use. File
// URIs are relative to the current directory when the file lies under it,
// else absolute file:// URIs; nothing else in the log depends on the
// machine or the time, so it is reproducible byte for byte.
//
//===----------------------------------------------------------------------===//

#include "Sarif.h"
#include "AtomicFile.h"
#include "DiagnosticLog.h"

#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInstance.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>
#include <vector>

#ifndef TF_VERSION
#error "TF_VERSION (tf's version, plugin/CMakeLists.txt) must be defined"
#endif

using namespace clang;

namespace tf::plugin {
namespace {

//===- Locations ----------------------------------------------------------===//

/// \p Path as a URI reference: relative to \p Cwd when it lies under it,
/// else an absolute file:// URI; characters outside RFC 3986's unreserved
/// set and '/' are percent-encoded.
std::string fileUri(llvm::StringRef Path, llvm::StringRef Cwd) {
  llvm::SmallString<256> Abs(Path);
  bool Relative = false;
  if (!llvm::sys::path::is_absolute(Abs) && !Cwd.empty()) {
    llvm::SmallString<256> Joined(Cwd);
    llvm::sys::path::append(Joined, Abs);
    Abs = Joined;
  }
  llvm::sys::path::remove_dots(Abs, /*remove_dot_dot=*/true);
  llvm::StringRef Rest = Abs;
  if (!Cwd.empty() && Rest.consume_front(Cwd) && Rest.consume_front("/"))
    Relative = true;
  else
    Rest = Abs;
  std::string Out = Relative ? "" : "file://";
  for (char C : Rest) {
    if (llvm::isAlnum(C) || llvm::StringRef("-._~/").contains(C)) {
      Out += C;
      continue;
    }
    static const char Hex[] = "0123456789ABCDEF";
    unsigned char U = static_cast<unsigned char>(C);
    Out += '%';
    Out += Hex[U >> 4];
    Out += Hex[U & 15];
  }
  return Out;
}

class Recorder : public DiagnosticConsumer {
public:
  Recorder(CompilerInstance &CI, std::string Path, DiagnosticConsumer *Next,
           std::unique_ptr<DiagnosticConsumer> OwnedNext)
      : Diags(CI.getDiagnostics()), LangOpts(CI.getLangOpts()),
        Path(std::move(Path)), Next(Next), OwnedNext(std::move(OwnedNext)) {
    llvm::SmallString<256> Dir;
    if (!llvm::sys::fs::current_path(Dir))
      Cwd = std::string(Dir);
  }

  // Everything goes on to the original client; the counts are its own, so
  // that -verify (whose counts are mismatches) and "N errors generated"
  // read as without the recorder.
  void BeginSourceFile(const LangOptions &LO, const Preprocessor *PP) override {
    Next->BeginSourceFile(LO, PP);
  }

  void EndSourceFile() override {
    // While the original client is still in the source file, so that a
    // failed write can be reported through it.
    write();
    Next->EndSourceFile();
    syncCounts();
  }

  void finish() override {
    if (Dirty)
      write();
    Next->finish();
    syncCounts();
  }

  void clear() override {
    Next->clear();
    syncCounts();
  }

  bool IncludeInDiagnosticCounts() const override {
    return Next->IncludeInDiagnosticCounts();
  }

  void HandleDiagnostic(DiagnosticsEngine::Level Level,
                        const Diagnostic &Info) override {
    Next->HandleDiagnostic(Level, Info);
    syncCounts();
    if (!Writing && Level != DiagnosticsEngine::Ignored) {
      Log.record(Level, Info, LangOpts);
      Dirty = true;
    }
  }

private:
  void syncCounts() {
    NumErrors = Next->getNumErrors();
    NumWarnings = Next->getNumWarnings();
  }

  //===- Writing ----------------------------------------------------------===//

  void write() {
    Dirty = false;
    std::string Log;
    llvm::raw_string_ostream OS(Log);
    print(OS);
    OS << '\n';
    Writing = true;
    if (std::error_code EC = writeFileAtomically(Path, Log))
      Diags.Report(diag::err_fe_unable_to_open_output) << Path << EC.message();
    Writing = false;
  }

  void print(llvm::raw_ostream &OS) const {
    llvm::json::OStream J(OS, 2);
    J.object([&] {
      J.attribute("$schema", "https://json.schemastore.org/sarif-2.1.0.json");
      J.attribute("version", "2.1.0");
      J.attributeArray("runs", [&] {
        J.object([&] {
          J.attributeObject("tool", [&] {
            J.attributeObject("driver", [&] {
              J.attribute("name", "tf");
              J.attribute("version", TF_VERSION);
              J.attributeArray("rules", [&] {
                for (const DiagnosticRule &R : Log.rules())
                  rule(J, R);
              });
            });
            J.attributeArray("extensions", [&] {
              J.object([&] {
                J.attribute("name", "clang");
                J.attribute("version", CLANG_VERSION_STRING);
              });
            });
          });
          J.attribute("columnKind", "unicodeCodePoints");
          J.attributeArray("results", [&] {
            for (const RecordedDiagnostic &D : Log.diagnostics())
              result(J, D);
          });
        });
      });
    });
  }

  static void message(llvm::json::OStream &J, llvm::StringRef Text) {
    J.attributeObject("message", [&] { J.attribute("text", Text); });
  }

  static void rule(llvm::json::OStream &J, const DiagnosticRule &R) {
    J.object([&] {
      J.attribute("id", R.Code);
      if (!R.Name.empty())
        J.attribute("name", R.Name);
      J.attributeObject("shortDescription",
                        [&] { J.attribute("text", R.Template); });
      J.attributeObject("defaultConfiguration", [&] {
        if (!R.EnabledByDefault)
          J.attribute("enabled", false);
        J.attribute("level", levelName(R.DefaultLevel));
      });
    });
  }

  static void region(llvm::json::OStream &J, llvm::StringRef Key,
                     const DiagnosticLocation &L) {
    J.attributeObject(Key, [&] {
      J.attribute("startLine", L.StartLine);
      J.attribute("startColumn", L.StartColumn);
      J.attribute("endLine", L.EndLine);
      J.attribute("endColumn", L.EndColumn);
    });
  }

  static void artifact(llvm::json::OStream &J, const std::string &Uri) {
    J.attributeObject("artifactLocation", [&] { J.attribute("uri", Uri); });
  }

  void physical(llvm::json::OStream &J, const DiagnosticLocation &L) const {
    J.attributeObject("physicalLocation", [&] {
      artifact(J, fileUri(L.File, Cwd));
      region(J, "region", L);
    });
  }

  void result(llvm::json::OStream &J, const RecordedDiagnostic &D) const {
    J.object([&] {
      J.attribute("ruleId", D.Code);
      J.attribute("ruleIndex", Log.ruleIndex(D.Code));
      J.attribute("level", levelName(D.Level));
      message(J, D.Message);
      J.attributeArray("locations", [&] {
        if (D.Location)
          J.object([&] { physical(J, *D.Location); });
      });
      if (!D.Notes.empty())
        J.attributeArray("relatedLocations", [&] {
          for (std::size_t I = 0; I < D.Notes.size(); ++I)
            J.object([&] {
              J.attribute("id", I);
              if (D.Notes[I].Location)
                physical(J, *D.Notes[I].Location);
              message(J, D.Notes[I].Message);
            });
        });
      if (!D.Fixes.empty())
        J.attributeArray("fixes", [&] {
          for (const DiagnosticFix &F : D.Fixes)
            fix(J, F);
        });
      if (!D.Arguments.empty())
        J.attributeObject("properties", [&] {
          J.attributeObject("arguments", [&] {
            for (const DiagnosticArgument &A : D.Arguments)
              J.attribute(A.Name, A.Value);
          });
        });
    });
  }

  /// The edits grouped by file, in the order of first use.
  void fix(llvm::json::OStream &J, const DiagnosticFix &F) const {
    std::vector<std::string> Files;
    for (const DiagnosticEdit &E : F.Edits)
      if (llvm::find(Files, E.Deleted.File) == Files.end())
        Files.push_back(E.Deleted.File);
    J.object([&] {
      J.attributeObject("description",
                        [&] { J.attribute("text", F.Description); });
      J.attributeArray("artifactChanges", [&] {
        for (const std::string &File : Files)
          J.object([&] {
            artifact(J, fileUri(File, Cwd));
            J.attributeArray("replacements", [&] {
              for (const DiagnosticEdit &E : F.Edits) {
                if (E.Deleted.File != File)
                  continue;
                J.object([&] {
                  region(J, "deletedRegion", E.Deleted);
                  J.attributeObject("insertedContent",
                                    [&] { J.attribute("text", E.Inserted); });
                });
              }
            });
          });
      });
    });
  }

  DiagnosticsEngine &Diags;
  const LangOptions &LangOpts;
  DiagnosticLog Log;
  std::string Path;
  std::string Cwd;
  DiagnosticConsumer *Next;
  std::unique_ptr<DiagnosticConsumer> OwnedNext;

  /// Something was recorded since the last write.
  bool Dirty = true;
  /// Reporting a failed write: not recorded.
  bool Writing = false;
};

} // namespace

void installSarifWriter(CompilerInstance &CI, llvm::StringRef Path) {
  DiagnosticsEngine &Diags = CI.getDiagnostics();
  DiagnosticConsumer *Next = Diags.getClient();
  std::unique_ptr<DiagnosticConsumer> Owned = Diags.takeClient();
  Diags.setClient(new Recorder(CI, Path.str(), Next, std::move(Owned)),
                  /*ShouldOwnClient=*/true);
}

} // namespace tf::plugin
