//===- bench/rows/export.hpp - Row kernels behind a C interface -*- C++ -*-===//
//
// What the rows benchmark (bench.py) calls through ctypes: each
// bench/rows/<example>.cpp includes one examples/rows/<example>.cpp (its main
// renamed) and exports its kernels as `extern "C"` functions on raw device
// pointers, each a tf::launch as a user writes it (on the default stream, the
// one PyTorch uses unless told otherwise), on the grid rows.hpp gives the
// kernel's form. These helpers build the tensors.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "rows.hpp"

#include <cstdint>

namespace bench_rows {

/// A ROWS x COLS row-major bf16 matrix at `data` (a device pointer).
inline rows::Matrix matrix(void *data, std::int64_t rows, std::int64_t cols) {
  return rows::Matrix(static_cast<tf::bf16 *>(data), {rows, cols});
}

/// A bf16 vector of `n` elements at `data`.
inline rows::Vector vector(void *data, std::int64_t n) {
  return rows::Vector(static_cast<tf::bf16 *>(data), {n});
}

} // namespace bench_rows
