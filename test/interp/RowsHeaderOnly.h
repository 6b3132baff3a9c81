//===- test/interp/RowsHeaderOnly.h - Row kernels run header-only -*- C++ -*-===//
//
// The interface between RowsExampleTest.cpp and RowsHeaderOnly.cpp: the
// latter includes one examples/rows/*.cpp (its main renamed) and runs its
// kernels header-only on buffers the former owns, so that the interpreter's
// result is compared with the same kernel's header-only execution.
//
//===----------------------------------------------------------------------===//
#ifndef TF_TEST_INTERP_ROWSHEADERONLY_H
#define TF_TEST_INTERP_ROWSHEADERONLY_H

#include <cstdint>
#include <string>
#include <vector>

namespace tf_interp_rows {

/// One kernel argument: a bf16 tensor (Data, row-major Extents) or a float.
struct Argument {
  void *Data = nullptr;
  std::vector<std::int64_t> Extents;
  float Float = 0;
};

/// Runs kernel \p Name (`rows::softmax_rows`) of the example header-only on
/// \p Args with a grid of \p Grid CTAs; false when the example has no such
/// kernel.
bool runHeaderOnly(const std::string &Name, std::int64_t Grid,
                   std::vector<Argument> &Args);

} // namespace tf_interp_rows

#endif // TF_TEST_INTERP_ROWSHEADERONLY_H
