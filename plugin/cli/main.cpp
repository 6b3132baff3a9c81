//===- plugin/cli/main.cpp - The tf command-line tool ---------------------===//
//
// `tf` answers questions about layouts, targets, contracts and kernels from
// the same implementation the plugin uses (Tool.h).
//
//===----------------------------------------------------------------------===//
#include "Tool.h"

#include "llvm/Support/InitLLVM.h"

int main(int argc, char **argv) {
  llvm::InitLLVM X(argc, argv);
  return tf::cli::runTool(argc, argv);
}
