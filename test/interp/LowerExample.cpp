//===- test/interp/LowerExample.cpp - An example lowered in-process -------===//
//
// See LowerExample.h.
//
//===----------------------------------------------------------------------===//
#include "LowerExample.h"

#include "Pipeline.h"
#include "cli/ToolRunner.h"

#ifndef TF_SOURCE_DIR
#error "TF_SOURCE_DIR (the source tree) must be defined"
#endif

namespace tf_interp_test {

std::vector<tf::lower::Kernel> lowerExample(const std::string &Path,
                                            const std::string &IncludeDir) {
  using namespace tf;
  // The flags live as long as the tool runner reads them.
  static std::vector<std::string> Flags;
  static std::vector<const char *> Argv;
  Flags = {"tf_interp_test", "--", "-std=c++20", "-I" TF_SOURCE_DIR "/include",
           "-I" + IncludeDir};
  Argv.clear();
  for (const std::string &F : Flags)
    Argv.push_back(F.c_str());
  cli::takeCompilerFlags(static_cast<int>(Argv.size()), Argv.data());
  std::vector<lower::Kernel> Kernels;
  cli::ToolOptions Opts;
  Opts.Command = "finalize";
  Opts.Files = {Path};
  // The plugin's pipeline lowers and verifies, as for `tf finalize`; its
  // refusals are diagnostics (the run then fails).
  Opts.LoweredSink = [&](llvm::ArrayRef<plugin::LoweredKernel> Lowered) {
    for (const plugin::LoweredKernel &L : Lowered)
      Kernels.push_back(L.LIR);
  };
  if (cli::runOnFiles(Opts) != 0)
    Kernels.clear();
  return Kernels;
}

} // namespace tf_interp_test
