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
/// A and B as the example declares them: row-major (gemm::Matrix), or
/// column-major (tn.cpp's A stored K x M, nt.cpp's B stored N x K:
/// "(?,?):(1,?)").
using Lhs = typename KernelParameter<0, decltype(gemm::gemm)>::type;
using Rhs = typename KernelParameter<1, decltype(gemm::gemm)>::type;

/// \p T over \p Data with extents {Rows, Cols}, as its layout stores it.
template <class T, class E>
T matrixOver(E *Data, std::int64_t Rows, std::int64_t Cols) {
  if constexpr (std::is_same_v<T, gemm::Matrix>)
    return T(Data, {Rows, Cols});
  else
    return T(Data, {Rows, Cols}, {Rows});
}

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
  Lhs ATensor = matrixOver<Lhs>(A.data(), M, K);
  Rhs BTensor = matrixOver<Rhs>(B.data(), K, N);
  if constexpr (KernelArity == 3) {
    tf::launch(gemm::gemm, tf::grid(gemm::CTAS), ATensor,
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
                 ATensor, BTensor, Tensor,
                 gemm::Matrix(Out.data(), {M, N}));
    else
      tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
                 ATensor, BTensor, Tensor,
                 gemm::Matrix(Out.data(), {M, N}), In.Alpha, In.Beta);
  }
}

} // namespace tf_interp_test
