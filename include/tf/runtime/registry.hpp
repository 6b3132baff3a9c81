//===- tf/runtime/registry.hpp - Generated launchers by kernel address ----===//
//
// tf::launch looks a kernel up here before running it on the CPU. A
// generated `.cu` registers its launcher under the address of the host
// kernel function, which it names by redeclaring the function with an asm
// label carrying its mangled name (so kernels have external linkage):
//
//   void tf_kernel_gemm() __asm__("_ZN4gemm4gemmEN2tf6TensorI...");
//   static const tf::runtime::Registrar registrar{
//       reinterpret_cast<const void *>(&tf_kernel_gemm), "gemm::gemm",
//       &launch_gemm};
//
// The registry is an intrusive list headed by a constinit inline variable:
// no allocation, no static-initialisation-order problem (the head is
// constant-initialised before any registrar runs), one list per program
// even across translation units. Registration happens while static objects
// are constructed, before main; a tf::launch from a static initialiser may
// not see launchers of other translation units yet. Lookups are linear: a
// program links few generated kernels. Registering and looking up are not
// synchronised with each other; they happen before and after main starts.
//
// Needs no CUDA: the header library includes it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/kernel_args.hpp"

namespace tf::runtime {

/// One registered launcher.
struct LauncherEntry {
  const void *kernel = nullptr; ///< the host kernel function's address
  const char *name = "";        ///< the kernel's qualified name, for messages
  Launcher launch = nullptr;
  LauncherEntry *next = nullptr;
};

namespace detail {
/// The most recently registered entry; the list runs through `next`.
inline constinit LauncherEntry *launcher_list = nullptr;
} // namespace detail

/// The entry registered for `kernel`, or null. The latest registration wins,
/// so a test can shadow a kernel's launcher.
inline const LauncherEntry *find_launcher(const void *kernel) {
  for (const LauncherEntry *e = detail::launcher_list; e; e = e->next)
    if (e->kernel == kernel)
      return e;
  return nullptr;
}

/// Registers a launcher for as long as it lives: a static object in the
/// generated translation unit. Unlinks itself when destroyed (a shared
/// library being unloaded).
class Registrar {
public:
  Registrar(const void *kernel, const char *name, Launcher launch) noexcept
      : entry_{kernel, name, launch, detail::launcher_list} {
    detail::launcher_list = &entry_;
  }
  ~Registrar() {
    for (LauncherEntry **p = &detail::launcher_list; *p; p = &(*p)->next)
      if (*p == &entry_) {
        *p = entry_.next;
        return;
      }
  }
  Registrar(const Registrar &) = delete;
  Registrar &operator=(const Registrar &) = delete;

private:
  LauncherEntry entry_;
};

/// The address a kernel function is registered under.
template <class R, class... P>
inline const void *kernel_address(R (*kernel)(P...)) {
  // Converting a function pointer to an object pointer is conditionally
  // supported; every compiler tf targets supports it.
  return reinterpret_cast<const void *>(kernel);
}

} // namespace tf::runtime
