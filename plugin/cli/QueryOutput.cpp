//===- plugin/cli/QueryOutput.cpp - What the queries print in common ------===//
//
// QueryOutput.h.
//
//===----------------------------------------------------------------------===//
#include "QueryOutput.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Path.h"

using namespace llvm;

namespace tf::cli {

std::string basename(StringRef Path) {
  return sys::path::filename(Path).str();
}

std::string position(const hir::SourceRange &R) {
  if (!R.valid() && R.File.empty())
    return "<unknown>";
  return basename(R.File) + ":" + std::to_string(R.Line) + ":" +
         std::to_string(R.Column);
}

void positionJson(json::OStream &J, const hir::SourceRange &R) {
  J.attributeObject("position", [&] {
    J.attribute("file", basename(R.File));
    J.attribute("line", static_cast<int64_t>(R.Line));
    J.attribute("column", static_cast<int64_t>(R.Column));
  });
}

std::size_t errorCount(ArrayRef<plugin::RecordedDiagnostic> Diagnostics) {
  return llvm::count_if(Diagnostics, [](const plugin::RecordedDiagnostic &D) {
    return D.Level == plugin::DiagnosticLevel::Error;
  });
}

void diagnosticsJson(json::OStream &J,
                     ArrayRef<plugin::RecordedDiagnostic> Diagnostics) {
  J.attribute("errors", static_cast<int64_t>(errorCount(Diagnostics)));
  J.attributeArray("diagnostics", [&] {
    for (const plugin::RecordedDiagnostic &D : Diagnostics)
      plugin::diagnosticJson(J, D);
  });
}

int usageError(StringRef Command, const std::string &Message, bool Json) {
  errs() << "tf " << Command << ": error: " << Message << '\n';
  if (Json) {
    json::OStream J(outs(), 2);
    J.object([&] {
      J.attributeObject("error", [&] { J.attribute("message", Message); });
    });
    outs() << '\n';
  }
  return 1;
}

} // namespace tf::cli
