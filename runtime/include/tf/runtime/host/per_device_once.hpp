//===- tf/runtime/host/per_device_once.hpp - A setting made once a device -===//
//
// A kernel's dynamic shared-memory limit (cudaFuncSetAttribute) belongs to
// the kernel on one device's context and stays set: a launcher sets it on
// its first launch on each device, not on every launch, where it would cost
// host time inside every timed window.
//
//   static tf::runtime::PerDeviceOnce shared_memory_limit;
//   shared_memory_limit(check, "cudaFuncSetAttribute(...)", [] {
//     return cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
//   });
//
// Lock-free: threads launching the same kernel for the first time at once
// may both make the (idempotent) call. Devices 0..63 are remembered; on a
// device numbered higher the call is made every time. cudaDeviceReset
// discards the device's context and what was set in it; a program that
// resets a device and launches again on it is not supported.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/host/check.hpp"

#include <cuda_runtime_api.h>

#include <atomic>
#include <cstdint>

namespace tf::runtime {

class PerDeviceOnce {
public:
  /// The devices whose settings are remembered: 0..tracked_devices-1.
  static constexpr int tracked_devices = 64;

  /// Whether the setting was made on `device`.
  bool done(int device) const {
    return tracked(device) &&
           (done_.load(std::memory_order_acquire) >> device & 1u) != 0;
  }

  /// Records that the setting was made on `device`.
  void mark(int device) {
    if (tracked(device))
      done_.fetch_or(std::uint64_t{1} << device, std::memory_order_release);
  }

  /// Calls `set` (returning cudaError_t, checked as `call`) unless it
  /// succeeded on the current device before.
  template <class Set>
  void operator()(const CudaCheck &check, const char *call, Set set) {
    int device = 0;
    check(cudaGetDevice(&device), "cudaGetDevice");
    if (done(device))
      return;
    check(set(), call);
    mark(device);
  }

private:
  static constexpr bool tracked(int device) {
    return device >= 0 && device < tracked_devices;
  }
  std::atomic<std::uint64_t> done_{0};
};

} // namespace tf::runtime
