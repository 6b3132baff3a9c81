//===- plugin/hir/Printer.h - The HIR as stable, readable text -*- C++ -*-===//
//
// `-fplugin-arg-tf-dump-hir` and `tf hir FILE -- FLAGS` print this form:
// one kernel after another, statements indented by nesting, every value,
// type, loop, mesh scope and op with its AccessRelation and its source
// position (file:line:col). The same HIR always prints the same bytes.
// `dump-hir=json` and `tf hir --json` print the same HIR as one JSON
// document (JsonPrinter.cpp, docs/schemas/hir.schema.json).
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_HIR_PRINTER_H
#define TF_PLUGIN_HIR_PRINTER_H

#include "hir/HIR.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace tf::hir {

void print(const Module &M, llvm::raw_ostream &OS);
void print(const Kernel &K, llvm::raw_ostream &OS);

/// Prints \p M as one JSON document (an object ending with a newline) in
/// the form docs/schemas/hir.schema.json describes: every field of HIR.h,
/// keys in a fixed order, positions as {file (basename), line, column}.
void printJson(const Module &M, llvm::raw_ostream &OS);

/// The names the text form gives the values of \p K, by ValueId: %a,
/// %acc.2 for the second value named acc, %17 for an unnamed one.
std::vector<std::string> valueNames(const Kernel &K);

/// Every expression of \p K as the text form prints it, by ExprId:
/// `ceil_div(extent(%a, 0), 128)`.
std::vector<std::string> exprTexts(const Kernel &K);

/// A tensor type as the text form prints it:
/// `tensor<bf16, (?,?):(?,1), gmem>`, `tile<128x64 of tensor<...>>`.
std::string typeText(const TensorType &T);

} // namespace tf::hir

#endif // TF_PLUGIN_HIR_PRINTER_H
