//===- plugin/cli/QueryOutput.h - What queries print alike ------*- C++ -*-===//
//
// `tf candidates` and `tf analyze` answer per file and per kernel, in text
// and in one JSON document of the same frame: {"version", "files": [{"file",
// "kernels": [{"name", "position", ...}]}]}. Positions name a file by its
// base name, as the HIR printer does.
//
//===----------------------------------------------------------------------===//
#ifndef TF_CLI_QUERYOUTPUT_H
#define TF_CLI_QUERYOUTPUT_H

#include "hir/HIR.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

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

/// Prints the query's JSON document: every file with its kernels, each
/// kernel's name and position, then what \p KernelFields writes for it.
/// FileResult has File and Kernels; each kernel has Name and Range.
template <typename FileResult, typename Fields>
void printFilesJson(llvm::raw_ostream &OS, int Version,
                    llvm::ArrayRef<FileResult> Files, Fields KernelFields) {
  llvm::json::OStream J(OS, 2);
  J.object([&] {
    J.attribute("version", Version);
    J.attributeArray("files", [&] {
      for (const FileResult &F : Files)
        J.object([&] {
          J.attribute("file", F.File);
          J.attributeArray("kernels", [&] {
            for (const auto &K : F.Kernels)
              J.object([&] {
                J.attribute("name", K.Name);
                positionJson(J, K.Range);
                KernelFields(J, K);
              });
          });
        });
    });
  });
  OS << '\n';
}

} // namespace tf::cli

#endif // TF_CLI_QUERYOUTPUT_H
