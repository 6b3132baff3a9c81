//===- test/interp/RowsHeaderOnly.cpp - Row kernels run header-only -------===//
//
// One of the examples/rows/*.cpp (TF_ROWS_EXAMPLE_SOURCE, its path)
// compiled without the plugin, with its main renamed; TF_ROWS_KERNELS lists
// its kernels as X(name) entries (a template's instantiation as
// X(name<2048,128>), without spaces). Each kernel's arguments are made from the
// test's buffers by the kernel's own parameter types.
//
//===----------------------------------------------------------------------===//
#ifndef TF_ROWS_EXAMPLE_SOURCE
#error "TF_ROWS_EXAMPLE_SOURCE (the example's path) must be defined"
#endif
#include TF_ROWS_EXAMPLE_SOURCE

#include "RowsHeaderOnly.h"

#include <string>
#include <type_traits>
#include <utility>

namespace tf_interp_rows {

namespace {

/// Kernel parameter of type \p T from \p A: a tensor over its data with its
/// extents, or a float.
template <class T> T parameter(const Argument &A) {
  if constexpr (std::is_floating_point_v<T>) {
    return T(A.Float);
  } else {
    using E = typename T::element_type;
    if constexpr (T::rank == 1)
      return T(static_cast<E *>(A.Data), {A.Extents[0]});
    else
      return T(static_cast<E *>(A.Data), {A.Extents[0], A.Extents[1]});
  }
}

template <class... P, std::size_t... I>
void launch(void (*Kernel)(P...), std::int64_t Grid,
            std::vector<Argument> &Args, std::index_sequence<I...>) {
  tf::launch(Kernel, tf::grid(Grid), parameter<P>(Args[I])...);
}

template <class... P>
void launch(void (*Kernel)(P...), std::int64_t Grid,
            std::vector<Argument> &Args) {
  launch(Kernel, Grid, Args, std::index_sequence_for<P...>{});
}

} // namespace

bool runHeaderOnly(const std::string &Name, std::int64_t Grid,
                   std::vector<Argument> &Args) {
  // A template's name as the compiler prints it has a space after each
  // comma; the list's has none.
  std::string Bare = Name;
  std::erase(Bare, ' ');
#define X(...)                                                                 \
  if (Bare == "rows::" #__VA_ARGS__) {                                         \
    launch(rows::__VA_ARGS__, Grid, Args);                                     \
    return true;                                                               \
  }
  TF_ROWS_KERNELS
#undef X
  return false;
}

} // namespace tf_interp_rows
