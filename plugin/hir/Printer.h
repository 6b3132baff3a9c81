//===- plugin/hir/Printer.h - The HIR as stable, readable text -*- C++ -*-===//
//
// `-fplugin-arg-tf-dump-hir` and `tf hir FILE -- FLAGS` print this form:
// one kernel after another, statements indented by nesting, every value,
// type, loop, mesh scope and op with its AccessRelation and its source
// position (file:line:col). The same HIR always prints the same bytes.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_HIR_PRINTER_H
#define TF_PLUGIN_HIR_PRINTER_H

#include "hir/HIR.h"

#include "llvm/Support/raw_ostream.h"

namespace tf::hir {

void print(const Module &M, llvm::raw_ostream &OS);
void print(const Kernel &K, llvm::raw_ostream &OS);

} // namespace tf::hir

#endif // TF_PLUGIN_HIR_PRINTER_H
