//===- tf/runtime/host/check.hpp - Checked CUDA calls, named by kernel ----===//
//
// Every CUDA call a launcher makes is checked; a failure stops the program
// with the kernel's name, the call and CUDA's own words:
//
//   const tf::runtime::CudaCheck check{"gemm::gemm"};
//   check(cudaFuncSetAttribute(k, ..., bytes), "cudaFuncSetAttribute");
//   k<<<grid, block, bytes>>>(...);
//   check.launch("gemm_sm90<<<132, 384>>>");
//
//   tf: error: kernel 'gemm::gemm': cudaFuncSetAttribute failed:
//   cudaErrorInvalidValue (invalid argument)
//
// A failure aborts rather than throws: launchers run inside tf::launch,
// which header-only users compile with -fno-exceptions.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace tf::runtime {

/// Checks the CUDA calls made on behalf of one kernel.
class CudaCheck {
public:
  constexpr explicit CudaCheck(const char *kernel) : kernel_(kernel) {}

  constexpr const char *kernel() const { return kernel_; }

  /// Stops the program unless `status` is cudaSuccess.
  void operator()(cudaError_t status, const char *call) const {
    if (status != cudaSuccess)
      fail("%s failed: %s (%s)", call, cudaGetErrorName(status),
           cudaGetErrorString(status));
  }

  /// Stops the program unless the driver API's `status` is CUDA_SUCCESS.
  /// (The driver's own message functions live in libcuda, which launchers
  /// do not link; the code is the CUresult enumerator's value.)
  void operator()(CUresult status, const char *call) const {
    if (status != CUDA_SUCCESS)
      fail("%s failed: CUresult %d", call, static_cast<int>(status));
  }

  /// Checks the launch just made (`what` names it) and the errors it left.
  void launch(const char *what) const { (*this)(cudaGetLastError(), what); }

  /// Stops the program with a printf-style message about this kernel.
  [[noreturn]] void fail(const char *format, ...) const
      __attribute__((format(printf, 2, 3))) {
    std::fprintf(stderr, "tf: error: kernel '%s': ", kernel_);
    va_list args;
    va_start(args, format);
    std::vfprintf(stderr, format, args);
    va_end(args);
    std::fputc('\n', stderr);
    std::abort();
  }

private:
  const char *kernel_;
};

} // namespace tf::runtime
