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

/// The type of parameter I of a kernel of type F.
template <std::size_t I, class F> struct KernelParameter;
template <std::size_t I, class R, class... P>
struct KernelParameter<I, R(P...)> {
  using type = std::tuple_element_t<I, std::tuple<P...>>;
};
template <std::size_t I>
using Parameter = typename KernelParameter<I, decltype(gemm::gemm)>::type;

/// The operands' element type (A's): with the output's (below), the one
/// instance of gemmHeaderOnly this binary defines.
using InputElement = typename Parameter<0>::element_type;

/// A and B as the example declares them: row-major (gemm::Matrix), or
/// column-major (tn.cpp's A stored K x M, nt.cpp's B stored N x K:
/// "(?,?):(1,?)").
using Lhs = Parameter<0>;
using Rhs = Parameter<1>;

/// \p T over \p Data with extents {Rows, Cols}, as its layout stores it:
/// row-major ("(?,?)": its `?` stride is the compact row-major one) or
/// column-major ("(?,?):(1,?)", the stride Rows given); a rank-3 \p T
/// (batched.cpp's "(?,?,?)") holds \p Batches row-major matrices.
template <class T, class E>
T matrixOver(E *Data, std::int64_t Batches, std::int64_t Rows,
             std::int64_t Cols) {
  if constexpr (T::rank == 3)
    return T(Data, {Batches, Rows, Cols});
  else if constexpr (!T::static_layout.stride.leaf_at(0).is_constant())
    return T(Data, {Rows, Cols});
  else
    return T(Data, {Rows, Cols}, {Rows});
}

/// The number of parameters of the example's kernel: 3 (a, b, out), 4 (a,
/// b, an epilogue's tensor, out; or a, b, out, scale) or 6 (a, b, c, out,
/// alpha, beta).
template <class F> struct Arity;
template <class R, class... P> struct Arity<R(P...)> {
  static constexpr std::size_t value = sizeof...(P);
};
constexpr std::size_t KernelArity = Arity<decltype(gemm::gemm)>::value;
/// Whether the kernel is (a, b, out, scale): fp8.cpp's.
constexpr bool ScaledOutput =
    KernelArity == 4 && std::is_floating_point_v<Parameter<KernelArity - 1>>;

/// The output tensor: the third parameter, or the fourth after an
/// epilogue's tensor; its element type is the output's (bf16, f16, or
/// f32_out.cpp's float).
using OutTensor = Parameter<KernelArity == 3 || ScaledOutput ? 2 : 3>;
using ExampleElement = typename OutTensor::element_type;

template <class Input, class Output>
void gemmHeaderOnly(std::vector<Input> &A, std::vector<Input> &B,
                    std::vector<Output> &Out, std::int64_t Batches,
                    std::int64_t M, std::int64_t N, std::int64_t K,
                    EpilogueInputs<Output> &In) {
  Lhs ATensor = matrixOver<Lhs>(A.data(), Batches, M, K);
  Rhs BTensor = matrixOver<Rhs>(B.data(), Batches, K, N);
  if constexpr (KernelArity == 3) {
    tf::launch(gemm::gemm, tf::grid(gemm::CTAS), ATensor, BTensor,
               matrixOver<OutTensor>(Out.data(), Batches, M, N));
  } else if constexpr (ScaledOutput) {
    tf::launch(gemm::gemm, tf::grid(gemm::CTAS), ATensor, BTensor,
               OutTensor(Out.data(), {M, N}), In.Alpha);
  } else {
    // A generic lambda, so that the constructor for the other rank is
    // discarded, not compiled: outside a template, clang checks both.
    auto Tensor = [&]<class Extra>(std::type_identity<Extra>) {
      if constexpr (Extra::rank == 1)
        return Extra(In.Tensor.data(), {N});
      else
        return Extra(In.Tensor.data(), {M, N});
    }(std::type_identity<Parameter<2>>{});
    if constexpr (KernelArity == 4)
      tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
                 ATensor, BTensor, Tensor,
                 OutTensor(Out.data(), {M, N}));
    else
      tf::launch(gemm::gemm, tf::grid(gemm::CTAS),
                 ATensor, BTensor, Tensor,
                 OutTensor(Out.data(), {M, N}), In.Alpha, In.Beta);
  }
}

template void gemmHeaderOnly(std::vector<InputElement> &,
                             std::vector<InputElement> &,
                             std::vector<ExampleElement> &, std::int64_t,
                             std::int64_t, std::int64_t, std::int64_t,
                             EpilogueInputs<ExampleElement> &);

} // namespace tf_interp_test
