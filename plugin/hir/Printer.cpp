//===- plugin/hir/Printer.cpp - The HIR as text ---------------------------===//
// (being written: see Printer.h)
#include "hir/Printer.h"

namespace tf::hir {
void print(const Kernel &K, llvm::raw_ostream &OS) { OS << "kernel " << K.Name << '\n'; }
void print(const Module &M, llvm::raw_ostream &OS) {
  for (const Kernel &K : M.Kernels)
    print(K, OS);
}
} // namespace tf::hir
