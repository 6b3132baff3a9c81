//===- test/interp/GemmHeaderOnly.cpp - A GEMM example run header-only ----===//
//
// One of the examples/gemm/*.cpp GEMMs itself (TF_GEMM_EXAMPLE_SOURCE,
// its path), compiled without the plugin, so that the interpreter's result is
// compared with the same kernel's header-only execution rather than with a
// copy of it. CMake compiles this file once per example, with `main` defined
// to another name, which renames the example's main; its kernel, types,
// epilogue and CTA count are used as the example declares them.
//
//===----------------------------------------------------------------------===//
#ifndef TF_GEMM_EXAMPLE_SOURCE
#error "TF_GEMM_EXAMPLE_SOURCE (the example's path) must be defined"
#endif
#include TF_GEMM_EXAMPLE_SOURCE

#include "GemmReference.h"

#include <tuple>
#include <type_traits>

namespace tf_interp_test {

/// The example's element type (gemm::Matrix's): the one overload of
/// gemmHeaderOnly this binary defines.
using ExampleElement = typename gemm::Matrix::element_type;

/// The type of parameter I of a kernel of type F.
template <std::size_t I, class F> struct KernelParameter;
template <std::size_t I, class R, class... P>
struct KernelParameter<I, R(P...)> {
  using type = std::tuple_element_t<I, std::tuple<P...>>;
};
/// B as the example declares it: row-major K x N (gemm::Matrix), or
/// K-major, stored N x K (nt.cpp's "(?,?):(1,?)").
using Rhs = typename KernelParameter<1, decltype(gemm::gemm)>::type;

/// The number of parameters of the example's kernel: 3 (a, b, out), 4 (a,
/// b, an epilogue's tensor, out) or 6 (a, b, c, out, alpha, beta).
template <class F> struct Arity;
template <class R, class... P> struct Arity<R(P...)> {
  static constexpr std::size_t value = sizeof...(P);
};
constexpr std::size_t KernelArity = Arity<decltype(gemm::gemm)>::value;

void gemmHeaderOnly(std::vector<ExampleElement> &A,
                    std::vector<ExampleElement> &B,
                    std::vector<ExampleElement> &Out, std::int64_t M,
                    std::int64_t N, std::int64_t K,
                    EpilogueInputs<ExampleElement> &In) {
  Rhs BTensor = [&] {
    if constexpr (std::is_same_v<Rhs, gemm::Matrix>)
      return Rhs(B.data(), {K, N});
    else
      return Rhs(B.data(), {K, N}, {K});
  }();
  if constexpr (KernelArity == 3) {
    tf::launch(gemm::gemm, tf::grid(gemm::CTAS), gemm::Matrix(A.data(), {M, K}),
               BTensor, gemm::Matrix(Out.data(), {M, N}));
  } else {
    using Extra = typename KernelParameter<2, decltype(gemm::gemm)>::type;
    Extra Tensor = [&] {
      if constexpr (Extra::rank == 1)
        return Extra(In.Tensor.data(), {N});
      else
        return Extra(In.Tensor.data(), {M, N});
    }();
    if constexpr (KernelArity == 4)
      tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
                 gemm::Matrix(A.data(), {M, K}), BTensor, Tensor,
                 gemm::Matrix(Out.data(), {M, N}));
    else
      tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
                 gemm::Matrix(A.data(), {M, K}), BTensor, Tensor,
                 gemm::Matrix(Out.data(), {M, N}), In.Alpha, In.Beta);
  }
}

} // namespace tf_interp_test
