//===- test/runtime/generated_launcher.cpp - A stand-in for emitted code --===//
//
// What the CUDA backend's `.cu` does to make tf::launch find its launcher,
// without CUDA: it never includes kernels.hpp's declaration of the kernel
// (the emitted code sees no user header), names the host function through
// an asm label carrying its mangled name, and registers a launcher under
// that address with a static Registrar.
//
//===----------------------------------------------------------------------===//
#include "kernels.hpp"

#include "tf/runtime/registry.hpp"

// The asm label makes this declaration name tf_runtime_test::counted
// whatever C++ type it is given here. It must have external linkage: in an
// unnamed namespace it would be a different, never-defined function.
namespace tf_generated {
void host_kernel() __asm__("_ZN15tf_runtime_test7countedEPSt6atomicIlEl");
} // namespace tf_generated

namespace {

void launch_counted(const tf::runtime::LaunchRequest &request) {
  tf_runtime_test::SeenByLauncher &seen = tf_runtime_test::seen_by_launcher();
  ++seen.calls;
  seen.grid = request.grid;
  // Parameter 1 is a `long` passed by value: the launcher reads that type.
  seen.step = *static_cast<const long *>(request.args[1].value);
}

const tf::runtime::Registrar registrar{
    reinterpret_cast<const void *>(&tf_generated::host_kernel),
    "tf_runtime_test::counted", &launch_counted};

} // namespace
