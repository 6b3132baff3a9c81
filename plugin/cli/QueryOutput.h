//===- plugin/cli/QueryOutput.h - What queries print alike ------*- C++ -*-===//
//
// `tf candidates`, `tf analyze` and `tf finalize` answer per file and per
// kernel, in text and in one JSON document of the same frame: {"version",
// "files": [{"file", "kernels": [{"name", "position", ...}], "errors",
// "diagnostics": [...]}]}. Positions name a file by its base name, as the
// HIR printer does; a diagnostic names it as the compiler does
// (DiagnosticLog.h). A file whose compile failed is in the document with
// its errors, so an empty answer never reads as a clean one.
//
//===----------------------------------------------------------------------===//
#ifndef TF_CLI_QUERYOUTPUT_H
#define TF_CLI_QUERYOUTPUT_H

#include "DiagnosticLog.h"
#include "hir/HIR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tf::cli {

/// The last component of \p Path.
std::string basename(llvm::StringRef Path);

/// "file.cpp:LINE:COLUMN", or "<unknown>".
std::string position(const hir::SourceRange &R);

/// "position": {"file", "line", "column"}.
void positionJson(llvm::json::OStream &J, const hir::SourceRange &R);

/// Reports a usage error of `tf Command`: one line on stderr and, with
/// \p Json, the object {"error": {"message": ...}} on stdout. Returns the
/// exit status, 1.
int usageError(llvm::StringRef Command, const std::string &Message, bool Json);

/// One file's part of a query's answer: its kernels (each with Name and
/// Range) and every diagnostic its compile reported.
template <typename KernelResult> struct FileAnswer {
  /// The file's base name.
  std::string File;
  std::vector<KernelResult> Kernels;
  std::vector<plugin::RecordedDiagnostic> Diagnostics;
};

/// The files of a query, in the order compiled, filled from ToolOptions'
/// Sink (add) and DiagnosticSink (setDiagnostics), which runs after the
/// Sink for each file -- or alone, when the file never reached the checks.
template <typename KernelResult> class FileAnswers {
public:
  using File = FileAnswer<KernelResult>;

  /// The answer for the file being compiled, made by the Sink.
  File &add(llvm::StringRef Path) {
    Files.push_back(File{basename(Path), {}, {}});
    Reached = true;
    return Files.back();
  }

  /// What the file's compile reported: on the answer add() made for it, or
  /// on a new one without kernels.
  void setDiagnostics(llvm::StringRef Path,
                      llvm::ArrayRef<plugin::RecordedDiagnostic> D) {
    if (!Reached)
      Files.push_back(File{basename(Path), {}, {}});
    Reached = false;
    Files.back().Diagnostics.assign(D.begin(), D.end());
  }

  std::vector<File> Files;

private:
  bool Reached = false;
};

/// The number of errors among \p Diagnostics.
std::size_t errorCount(llvm::ArrayRef<plugin::RecordedDiagnostic> Diagnostics);

/// "errors": N, "diagnostics": [...] (DiagnosticLog.h's diagnosticJson).
void diagnosticsJson(llvm::json::OStream &J,
                     llvm::ArrayRef<plugin::RecordedDiagnostic> Diagnostics);

/// Prints the query's JSON document: every file with its kernels, each
/// kernel's name and position, then what \p KernelFields writes for it,
/// then the file's errors and diagnostics.
template <typename KernelResult, typename Fields>
void printFilesJson(llvm::raw_ostream &OS, int Version,
                    llvm::ArrayRef<FileAnswer<KernelResult>> Files,
                    Fields KernelFields) {
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("version", Version);
    J.attributeArray("files", [&] {
      for (const FileAnswer<KernelResult> &F : Files)
        J.object([&] {
          J.attribute("file", F.File);
          J.attributeArray("kernels", [&] {
            for (const KernelResult &K : F.Kernels)
              J.object([&] {
                J.attribute("name", K.Name);
                positionJson(J, K.Range);
                KernelFields(J, K);
              });
          });
          diagnosticsJson(J, F.Diagnostics);
        });
    });
  });
  OS << '\n';
}

} // namespace tf::cli

#endif // TF_CLI_QUERYOUTPUT_H
