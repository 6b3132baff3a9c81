//===- test/interp/LowerExample.h - An example lowered in-process -*- C++ -*-===//
//
// What the end-to-end interpreter tests (GemmExampleTest.cpp,
// RowsExampleTest.cpp) start from: an example's kernels lowered and
// verified in the test's process, as `tf finalize` lowers them
// (plugin/cli/ToolRunner.h, the plugin's pipeline).
//
//===----------------------------------------------------------------------===//
#ifndef TF_TEST_INTERP_LOWEREXAMPLE_H
#define TF_TEST_INTERP_LOWEREXAMPLE_H

#include "lower/LIR.h"

#include <string>
#include <vector>

namespace tf_interp_test {

/// The kernels of \p Path, compiled with -std=c++20 -I <source>/include
/// -I \p IncludeDir and lowered; empty when the file did not compile or a
/// kernel did not lower (the diagnostics are printed).
std::vector<tf::lower::Kernel> lowerExample(const std::string &Path,
                                            const std::string &IncludeDir);

} // namespace tf_interp_test

#endif // TF_TEST_INTERP_LOWEREXAMPLE_H
