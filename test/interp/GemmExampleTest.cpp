//===- test/interp/GemmExampleTest.cpp - A lowered GEMM on the CPU --------===//
//
// End to end, for one GEMM example (TF_GEMM_EXAMPLE names it, one of the
// table `Examples` below; TF_GEMM_EXAMPLE_PATH is examples/gemm/<name>.cpp,
// or the variant examples/gemm/variants.py writes): the example lowered in this process as
// `tf finalize` lowers it (plugin/cli/ToolRunner.h, lower/Lower.h,
// verified), its LIR interpreted (interp/Interpreter.h) on random inputs at
// awkward shapes under every schedule policy, outputs poisoned, and the
// result compared element by element with the same kernel run header-only
// (GemmHeaderOnly.cpp) and with a naive fp32 product (the epilogue applied).
// Then the LIR is mutated the ways a lowering or backend bug would (a
// dropped box offset, swapped boxes, a wrong descriptor field, a missing
// arrival, wait or barrier, a loop one step short, a dropped epilogue, a
// wrong atom type) and each mutant must be caught -- a mismatch, a deadlock
// or an error -- under at least one policy.
//
// test/interp/CMakeLists.txt builds this file once per example, one binary
// and one ctest entry each (interp-gemm-<name>), so each example is
// compiled once. What differs between the examples is in `Example` below.
//
//===----------------------------------------------------------------------===//
#include "GemmReference.h"
#include "LowerExample.h"

#include "hir/HIR.h"
#include "interp/Interpreter.h"
#include "lower/Lower.h"
#include "lower/Verify.h"
#include "tf/ops/activation_math.hpp"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string_view>
#include <tuple>
#include <type_traits>

#ifndef TF_SOURCE_DIR
#error "TF_SOURCE_DIR (the source tree) must be defined"
#endif
#if !defined(TF_GEMM_EXAMPLE) || !defined(TF_GEMM_EXAMPLE_PATH)
#error "TF_GEMM_EXAMPLE (the example's name) and TF_GEMM_EXAMPLE_PATH (its source) must be defined"
#endif

namespace {

using namespace tf;
using interp::SchedulePolicy;
using lower::InstId;
using lower::Kernel;
using lower::OperandView;
using lower::Stmt;
namespace ext = lower::sm90;

//===- The example --------------------------------------------------------===//

/// What this binary tests: examples/gemm/<Example>.cpp, or the variant of
/// an example that examples/gemm/variants.py writes (TF_GEMM_EXAMPLE_PATH).
constexpr std::string_view Example = TF_GEMM_EXAMPLE;

/// What an example's epilogue does with the f32 accumulator.
enum class Epilogue {
  None,      ///< rounds it
  Relu,      ///< relu.cpp: relu, then rounds
  Gelu,      ///< gelu.cpp: the tanh GELU, then rounds
  BiasGelu,  ///< bias_gelu.cpp: gelu_tanh(acc + bias(n)), the bias read
             ///< from global memory
  AlphaBeta, ///< alpha_beta.cpp: alpha acc + beta c(m, n)
  Residual,  ///< residual.cpp: acc + residual(m, n)
  Scaled,    ///< fp8.cpp: scale acc, scale a float parameter
};

/// One example: its operands' and output's element types, how A and B are
/// stored (A M-major: stored K x M, box order {1, 0}, WGMMA's transposed A;
/// B K-major: stored N x K), its epilogue.
struct ExampleTraits {
  std::string_view Name;
  DType Input, Output;
  bool AMMajor, BKMajor;
  Epilogue Epi;
  /// batched.cpp: rank-3 operands, a batch of GEMMs (Batches of them here).
  bool Batched = false;
};

constexpr ExampleTraits Examples[] = {
    {"optimal", DType::bf16, DType::bf16, false, false, Epilogue::None},
    {"relu", DType::bf16, DType::bf16, false, false, Epilogue::Relu},
    {"gelu", DType::bf16, DType::bf16, false, false, Epilogue::Gelu},
    {"bias_gelu", DType::bf16, DType::bf16, false, false, Epilogue::BiasGelu},
    {"alpha_beta", DType::bf16, DType::bf16, false, false,
     Epilogue::AlphaBeta},
    {"residual", DType::bf16, DType::bf16, false, false, Epilogue::Residual},
    {"f16", DType::f16, DType::f16, false, false, Epilogue::None},
    {"nt", DType::bf16, DType::bf16, false, true, Epilogue::None},
    {"tn", DType::bf16, DType::bf16, true, false, Epilogue::None},
    {"tt", DType::bf16, DType::bf16, true, true, Epilogue::None},
    {"fp8", DType::fp8e4m3, DType::bf16, false, true, Epilogue::Scaled},
    {"f32_out", DType::bf16, DType::f32, false, false, Epilogue::None},
    // examples/gemm/variants.py
    {"f16_nt", DType::f16, DType::f16, false, true, Epilogue::None},
    {"f16_tn", DType::f16, DType::f16, true, false, Epilogue::None},
    {"f16_tt", DType::f16, DType::f16, true, true, Epilogue::None},
    {"fp8_e5m2", DType::fp8e5m2, DType::bf16, false, true, Epilogue::Scaled},
    {"fp8_f16", DType::fp8e4m3, DType::f16, false, true, Epilogue::Scaled},
    {"f16_f32", DType::f16, DType::f32, false, false, Epilogue::None},
    {"fp8_f32", DType::fp8e4m3, DType::f32, false, true, Epilogue::Scaled},
    {"n128", DType::bf16, DType::bf16, false, false, Epilogue::None},
    {"n192", DType::bf16, DType::bf16, false, false, Epilogue::None},
    {"m256", DType::bf16, DType::bf16, false, false, Epilogue::None},
    {"nsplit", DType::bf16, DType::bf16, false, false, Epilogue::None},
    {"cluster2", DType::bf16, DType::bf16, false, false, Epilogue::None},
    {"batched", DType::bf16, DType::bf16, false, false, Epilogue::None, true},
};

constexpr std::size_t exampleIndex() {
  std::size_t I = 0;
  while (I < std::size(Examples) && Examples[I].Name != Example)
    ++I;
  return I;
}
static_assert(exampleIndex() < std::size(Examples),
              "TF_GEMM_EXAMPLE names no example of the table Examples");
constexpr ExampleTraits This = Examples[exampleIndex()];

/// An f16 output (the outputs of f32_out.cpp, f16_f32 and fp8_f32 are the
/// f32 accumulator).
constexpr bool F16 = This.Output == DType::f16;
constexpr bool Relu = This.Epi == Epilogue::Relu;
constexpr bool BiasGelu = This.Epi == Epilogue::BiasGelu;
/// An activation epilogue (the interpreter and the header-only ops evaluate
/// the same f32 formula, so their results must agree bit for bit).
constexpr bool Gelu = This.Epi == Epilogue::Gelu || BiasGelu;
constexpr bool AlphaBeta = This.Epi == Epilogue::AlphaBeta;
constexpr bool Residual = This.Epi == Epilogue::Residual;
/// The examples whose epilogue reads a tensor (and floats): each element is
/// one f32 expression in the header-only ops' order, so the interpreter
/// must agree with them bit for bit.
constexpr bool Reads = BiasGelu || AlphaBeta || Residual;
/// fp8 operands (both K-major), the output scaled by a float parameter.
constexpr bool Fp8 = This.Epi == Epilogue::Scaled;
constexpr bool BKMajor = This.BKMajor;
constexpr bool AMMajor = This.AMMajor;
/// The GEMMs of a problem: 3 for batched.cpp (its tensors L x M x K, ...),
/// else 1.
constexpr std::int64_t Batches = This.Batched ? 3 : 1;
/// alpha_beta.cpp's parameters in these runs (fp8.cpp's scale is Alpha).
constexpr float Alpha = AlphaBeta ? 0.75f : Fp8 ? 0.375f : 1.0f, Beta = -1.5f;

/// Where A's element (m, k) of an M x K problem is stored.
std::int64_t aAt(std::int64_t I, std::int64_t L, std::int64_t M,
                 std::int64_t K) {
  return AMMajor ? L * M + I : I * K + L;
}

/// Where B's element (k, n) of a K x N problem is stored.
std::int64_t bAt(std::int64_t L, std::int64_t J, std::int64_t K,
                 std::int64_t N) {
  return BKMajor ? J * K + L : L * N + J;
}

/// The C++ element type of a DType of the table.
template <DType D> struct ElementOf;
template <> struct ElementOf<DType::bf16> { using type = bf16; };
template <> struct ElementOf<DType::f16> { using type = f16; };
template <> struct ElementOf<DType::fp8e4m3> { using type = tf::fp8e4m3; };
template <> struct ElementOf<DType::fp8e5m2> { using type = tf::fp8e5m2; };
template <> struct ElementOf<DType::f32> { using type = float; };

/// The element type of the output, and of A and B.
using Element = typename ElementOf<This.Output>::type;
constexpr DType ElementType = This.Output;
using Input = typename ElementOf<This.Input>::type;
constexpr DType InputType = This.Input;
/// The significand bits an element stores: one ulp of 1 is 2^-Mantissa.
constexpr int Mantissa = F16 ? 10 : This.Output == DType::f32 ? 23 : 7;
/// The exponent of the smallest normal element (below it the spacing is
/// that of the subnormals).
constexpr int MinNormalExp = F16 ? -14 : -126;

/// What the kernel applies to each f32 sum before rounding it.
double epilogue(double X) {
  if (Gelu)
    return activation::gelu_tanh(X);
  return Relu && X < 0 ? 0.0 : X;
}
/// A bound on the epilogue's slope: how much it magnifies a difference of
/// sums (the tanh GELU's peaks at 1.1289).
constexpr double Lipschitz = Gelu ? 1.13 : 1.0;

//===- The LIR ------------------------------------------------------------===//

/// The verified LIR of the example, lowered on first use; null (with the
/// reason in \p Why) when it could not be.
const Kernel *exampleLir(std::string &Why) {
  // examples/gemm for check.hpp, which a variant includes from there.
  static const std::vector<Kernel> Kernels = tf_interp_test::lowerExample(
      TF_GEMM_EXAMPLE_PATH, TF_SOURCE_DIR "/examples/gemm");
  Why = Kernels.empty() ? "the example did not compile or lower\n" : "";
  return Kernels.empty() ? nullptr : &Kernels.front();
}

//===- Inputs and references ----------------------------------------------===//

/// Elements uniform in [-1, -1/8] u [1/8, 1]: random, never zero (as
/// examples/gemm/check.hpp draws them). With random signs about half the
/// sums are negative, which relu's epilogue must clamp.
template <class T = Element>
std::vector<T> randomElements(std::int64_t N, std::uint32_t Seed) {
  std::mt19937 Gen(Seed);
  std::uniform_real_distribution<float> Magnitude(0.125f, 1.0f);
  std::bernoulli_distribution Sign(0.5);
  std::vector<T> Out(static_cast<std::size_t>(N));
  for (T &X : Out)
    X = T(Sign(Gen) ? Magnitude(Gen) : -Magnitude(Gen));
  return Out;
}

/// A NaN (bf16 and f16 alike): what every output element holds before a
/// run.
template <class T> T poisonOf() {
  if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<float>(0xFFFFFFFFu);
  else
    return T::from_bits(0xFFFF);
}
const Element Poison = poisonOf<Element>();

/// The bits of an output element: equal bits, equal results.
template <class T> auto bitsOf(T X) {
  if constexpr (std::is_same_v<T, float>)
    return std::bit_cast<std::uint32_t>(X);
  else
    return X.bits;
}

/// One problem: inputs, the header-only result, the naive fp32 product (the
/// epilogue applied), per element sum_k |a_mk| |b_kn| (for the error
/// bounds), and how many of the f32 sums are negative before the epilogue.
/// Batches of them, one after the other in each vector, for batched.cpp.
struct Gemm {
  std::int64_t M = 0, N = 0, K = 0;
  std::vector<Input> A, B;
  std::vector<Element> HeaderOnly;
  /// What the epilogue reads (bias_gelu, alpha_beta, residual).
  tf_interp_test::EpilogueInputs<Element> In;
  std::vector<float> Naive;
  std::vector<double> AbsSum;
  /// |the epilogue's added term| per element (0 without one).
  std::vector<double> AddedAbs;
  std::int64_t NegativeSums = 0;
};

Gemm makeGemm(std::int64_t M, std::int64_t N, std::int64_t K,
              std::uint32_t Seed = 7) {
  Gemm G;
  G.M = M;
  G.N = N;
  G.K = K;
  G.A = randomElements<Input>(Batches * M * K, Seed);
  G.B = randomElements<Input>(Batches * K * N, Seed + 1000);
  G.HeaderOnly.assign(static_cast<std::size_t>(Batches * M * N), Poison);
  if (Reads)
    G.In.Tensor = randomElements(BiasGelu ? N : M * N, Seed + 2000);
  G.In.Alpha = Alpha;
  G.In.Beta = Beta;
  std::vector<Input> A = G.A, B = G.B;
  tf_interp_test::EpilogueInputs<Element> In = G.In;
  tf_interp_test::gemmHeaderOnly(A, B, G.HeaderOnly, Batches, M, N, K, In);
  G.Naive.resize(static_cast<std::size_t>(Batches * M * N));
  G.AbsSum.resize(static_cast<std::size_t>(Batches * M * N));
  for (std::int64_t Row = 0; Row < Batches * M; ++Row) {
    // Row I of batch Batch: its operands are that batch's matrices.
    const std::int64_t Batch = Row / M, I = Row % M;
    const Input *BatchA = G.A.data() + Batch * M * K,
                *BatchB = G.B.data() + Batch * K * N;
    for (std::int64_t J = 0; J < N; ++J) {
      float Sum = 0;
      double Abs = 0;
      for (std::int64_t L = 0; L < K; ++L) {
        const float X = float(BatchA[aAt(I, L, M, K)]),
                    Y = float(BatchB[bAt(L, J, K, N)]);
        Sum += X * Y;
        Abs += std::fabs(double(X) * double(Y));
      }
      // The epilogue's added term: bias(n), beta c(m, n), residual(m, n).
      const double Added =
          !Reads     ? 0.0
          : BiasGelu ? float(G.In.Tensor[J])
          : AlphaBeta ? double(Beta) * float(G.In.Tensor[I * N + J])
                      : float(G.In.Tensor[I * N + J]);
      G.Naive[Row * N + J] = float(epilogue(Alpha * Sum + Added));
      G.AbsSum[Row * N + J] = Abs;
      G.AddedAbs.push_back(std::fabs(Added));
      G.NegativeSums += Sum < 0;
    }
  }
  return G;
}

/// The problem at \p M x \p N x \p K, made once per process (the header-only
/// run of a shape with many tiles takes seconds).
const Gemm &gemmAt(std::int64_t M, std::int64_t N, std::int64_t K) {
  static std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, Gemm>
      Cache;
  auto It = Cache.find({M, N, K});
  if (It == Cache.end())
    It = Cache.emplace(std::make_tuple(M, N, K), makeGemm(M, N, K)).first;
  return It->second;
}

/// The spacing of Element values at |X| (Mantissa stored bits; below the
/// smallest normal, the subnormals' spacing): at most 2^-Mantissa |X| for a
/// normal X, i.e. 2^-7 |X| for bf16 and 2^-10 |X| for f16.
double ulpElement(double X) {
  X = std::fabs(X);
  const double Subnormal = std::ldexp(1.0, MinNormalExp - Mantissa);
  if (X == 0 || !std::isfinite(X))
    return Subnormal;
  int Exp = 0;
  std::frexp(X, &Exp); // X = f 2^Exp, f in [0.5, 1)
  return std::max(std::ldexp(1.0, Exp - 1 - Mantissa), Subnormal);
}

/// What an interpretation produced, compared element by element.
struct Outcome {
  std::string Error;
  std::int64_t Elements = 0;
  /// Elements outside the bound against the header-only result and
  /// against the naive fp32 product (NaN, a leftover poison, counts).
  std::int64_t Mismatches = 0, NaiveMismatches = 0;
  /// Elements bit for bit equal to the header-only result.
  std::int64_t Identical = 0;
  std::string First;
  interp::InterpStats Stats;

  bool caught() const { return !Error.empty() || Mismatches > 0; }
  std::string summary() const {
    if (!Error.empty())
      return "error: " + Error.substr(0, Error.find('\n', 300));
    return std::to_string(Mismatches) + " of " + std::to_string(Elements) +
           " elements mismatch" +
           (First.empty() ? "" : " (first: " + First + ")");
  }
};

/// Interprets \p K on \p G's inputs under \p Policy and compares.
///
/// The bounds: every f32 sum of K products of bf16 or f16 inputs (exact in
/// f32: 8 or 11 significant bits each) is within gamma_K * S of the exact
/// sum, S = sum_k |a b|, gamma_K = K u / (1 - K u), u = 2^-24, whatever the
/// order. The interpreter and the header-only run both sum k ascending and
/// should agree bit for bit; two orders may differ by 2 gamma_K S before
/// rounding to the output type, and after it by that plus one output ulp
/// (each side rounds by at most half an ulp: bf16's ulp is at most 2^-7 of
/// the value, f16's 2^-10). Against the naive product: 2 gamma_K S plus half
/// an ulp of the output. relu is 1-Lipschitz, so applied to both sides
/// before the rounding it widens neither bound; the tanh GELU multiplies the
/// orders' term by its slope (Lipschitz), and its f32 evaluation (a few f32
/// ulps off) may cross a rounding boundary that the double one does not: one
/// ulp against the naive product instead of half. Against the header-only
/// run gelu.cpp asks for equal bits.
Outcome runGemm(const Kernel &K, const Gemm &G, SchedulePolicy Policy,
                std::uint64_t Seed = 1) {
  Outcome O;
  std::vector<Input> A = G.A, B = G.B;
  std::vector<Element> Out(static_cast<std::size_t>(Batches * G.M * G.N),
                           Poison);
  std::vector<Element> Read = G.In.Tensor;
  std::vector<interp::TensorArg> Args = {
      {"a", A.data(), InputType, {G.M, G.K},
       AMMajor ? llvm::SmallVector<std::int64_t, 4>{1, G.M}
               : llvm::SmallVector<std::int64_t, 4>{G.K, 1}},
      {"b", B.data(), InputType, {G.K, G.N},
       BKMajor ? llvm::SmallVector<std::int64_t, 4>{1, G.K}
               : llvm::SmallVector<std::int64_t, 4>{G.N, 1}},
      {"out", Out.data(), ElementType, {G.M, G.N}, {G.N, 1}},
  };
  // batched.cpp's tensors: the batch mode first, row-major matrices.
  if (This.Batched)
    for (interp::TensorArg &T : Args) {
      T.Strides.insert(T.Strides.begin(), T.Extents[0] * T.Extents[1]);
      T.Extents.insert(T.Extents.begin(), Batches);
    }
  if (BiasGelu)
    Args.insert(Args.begin() + 2,
                {"bias", Read.data(), ElementType, {G.N}, {1}});
  if (AlphaBeta || Residual)
    Args.insert(Args.begin() + 2, {AlphaBeta ? "c" : "residual", Read.data(),
                                   ElementType, {G.M, G.N}, {G.N, 1}});
  if (Fp8) {
    interp::TensorArg Scale;
    Scale.Name = "scale";
    Scale.Float = Alpha;
    Args.push_back(Scale);
  }
  if (AlphaBeta) {
    interp::TensorArg A, B;
    A.Name = "alpha";
    A.Float = Alpha;
    B.Name = "beta";
    B.Float = Beta;
    Args.push_back(A);
    Args.push_back(B);
  }
  interp::InterpOptions Opts;
  Opts.Policy = Policy;
  Opts.Seed = Seed;
  if (llvm::Error E = interp::interpret(K, Args, Opts, &O.Stats)) {
    O.Error = llvm::toString(std::move(E));
    return O;
  }
  const double U = std::ldexp(1.0, -24);
  const double Gamma = G.K * U / (1 - G.K * U);
  O.Elements = Batches * G.M * G.N;
  for (std::int64_t I = 0; I < O.Elements; ++I) {
    const double Got = float(Out[I]), Want = float(G.HeaderOnly[I]);
    // alpha scales the sums' error; the epilogue's f32 products and sums
    // round once each (at most 2^-24 of their operands apiece).
    const double Orders =
        (2 * Gamma * std::fabs(Alpha) * G.AbsSum[I] +
         (Reads ? std::ldexp(std::fabs(Alpha) * G.AbsSum[I] + G.AddedAbs[I],
                             -22)
                : 0.0)) *
        Lipschitz;
    const bool Same = bitsOf(Out[I]) == bitsOf(G.HeaderOnly[I]);
    O.Identical += Same;
    const bool Near =
        Gelu || Reads ? Same
             : std::isfinite(Got) && std::isfinite(Want) &&
                   std::fabs(Got - Want) <=
                       Orders +
                           ulpElement(std::max(std::fabs(Got), std::fabs(Want)));
    const bool NearNaive =
        std::isfinite(Got) &&
        std::fabs(Got - G.Naive[I]) <=
            Orders + ulpElement(Got) * (Gelu || Reads ? 1.0 : 0.5);
    if (!Near && O.First.empty())
      O.First = "(" + std::to_string(I / G.N) + ", " + std::to_string(I % G.N) +
                ") = " + std::to_string(Got) + ", header-only " +
                std::to_string(Want);
    O.Mismatches += !Near;
    O.NaiveMismatches += !NearNaive;
  }
  return O;
}

//===- The unchanged LIR at awkward shapes --------------------------------===//

struct Shape {
  std::int64_t M, N, K;
  const char *Name;
  /// Whether relu.cpp and f16.cpp run it too (optimal.cpp runs every
  /// shape; the variants differ from it in the epilogue and the element
  /// type only, so a few shapes keep CI short).
  bool Variants = false;
};

// BM x BN x BK = 128 x 256 x 64, 132 persistent CTAs.
const Shape Shapes[] = {
    {200, 300, 100, "NoExtentATileMultiple", true},
    {129, 257, 65, "EveryExtentOnePastAMultiple", true},
    {64, 256, 64, "HalfATileOneKStep", true},
    {128, 256, 64, "OneTile"},
    {1, 1, 1, "OneElement", true},
    {72, 40, 16, "KBelowOneStep"},
    {136, 300, 200, "FourKSteps", true},
    // 133 tiles on 132 CTAs (n128's: 265): CTA 0 runs two or more, its
    // ring's clock and the staged tile's carrying on across them.
    {1, 256 * 132 + 1, 16, "PersistentCtasLoop", true},
};

/// The shapes this example runs.
std::vector<Shape> exampleShapes() {
  std::vector<Shape> Out;
  for (const Shape &S : Shapes)
    if (Example == "optimal" || S.Variants)
      Out.push_back(S);
  return Out;
}

class GemmExample : public ::testing::TestWithParam<Shape> {};

TEST_P(GemmExample, MatchesHeaderOnlyUnderEveryPolicy) {
  std::string Why;
  const Kernel *K = exampleLir(Why);
  ASSERT_NE(K, nullptr) << Why;
  const Shape S = GetParam();
  const Gemm &G = gemmAt(S.M, S.N, S.K);
  // The header-only run wrote every element (its nearness to the naive
  // product follows from the interpreter's to both).
  for (std::int64_t I = 0; I < Batches * S.M * S.N; ++I)
    ASSERT_TRUE(std::isfinite(float(G.HeaderOnly[I]))) << "header-only " << I;
  if (Relu) {
    // relu clamps something: sums below zero exist (about half of them
    // with random signs; 1 x 1 x 1 has one sum), and nothing it output is.
    if (S.M * S.N > 1) {
      EXPECT_GT(G.NegativeSums, 0) << "no sum for relu to clamp";
    }
    for (std::int64_t I = 0; I < S.M * S.N; ++I)
      ASSERT_GE(float(G.HeaderOnly[I]), 0.0f) << "header-only " << I;
    std::printf("  %lld x %lld x %lld: %lld of %lld sums negative before "
                "relu\n",
                (long long)S.M, (long long)S.N, (long long)S.K,
                (long long)G.NegativeSums, (long long)(S.M * S.N));
  }
  for (SchedulePolicy P : interp::AllPolicies)
    for (std::uint64_t Seed : {1, 2}) {
      if (Seed == 2 && P != SchedulePolicy::Random)
        continue;
      const Outcome O = runGemm(*K, G, P, Seed);
      EXPECT_EQ(O.Error, "") << interp::policyName(P).str();
      EXPECT_EQ(O.Mismatches, 0)
          << interp::policyName(P).str() << ": " << O.summary();
      EXPECT_EQ(O.NaiveMismatches, 0) << interp::policyName(P).str();
      if (O.Error.empty())
        std::printf("  %lld x %lld x %lld, %s: %lld of %lld elements bit for "
                    "bit equal to the header-only run, %lld mismatches "
                    "(header-only), %lld (naive); %lld CTAs, %lld WGMMAs, "
                    "at most %lld tile(s) per walker\n",
                    (long long)S.M, (long long)S.N, (long long)S.K,
                    interp::policyName(P).str().c_str(), (long long)O.Identical,
                    (long long)O.Elements, (long long)O.Mismatches,
                    (long long)O.NaiveMismatches, (long long)O.Stats.Ctas,
                    (long long)O.Stats.Wgmmas,
                    (long long)O.Stats.MaxTilesPerWalker);
      // 133 tiles of 128 x 256 (n128's 128 x 128 tiles: 265): some CTA
      // runs more than one.
      if (std::string(S.Name) == "PersistentCtasLoop") {
        EXPECT_GE(O.Stats.MaxTilesPerWalker, 2);
      }
    }
}

INSTANTIATE_TEST_SUITE_P(Shapes, GemmExample,
                         ::testing::ValuesIn(exampleShapes()),
                         [](const ::testing::TestParamInfo<Shape> &P) {
                           return std::string(P.param.Name);
                         });

//===- Mutant LIR ---------------------------------------------------------===//

/// Calls \p Visit(Id, InRole) for every statement in program order, InRole
/// saying whether a role encloses it.
void forEachStmt(const Kernel &K,
                 const std::function<void(InstId, bool)> &Visit) {
  std::function<void(const std::vector<InstId> &, bool)> Walk =
      [&](const std::vector<InstId> &Body, bool InRole) {
        for (InstId Id : Body) {
          const Stmt &S = K.Insts[Id];
          Visit(Id, InRole);
          Walk(S.Body, InRole || S.is<lower::RoleStmt>());
        }
      };
  Walk(K.Body, false);
}

/// Statement \p S as a \p T (a core payload or an sm90 class), or null.
template <class T> T *payload(Stmt &S) {
  if constexpr (std::is_base_of_v<lower::ExtensionInst, T>)
    return lower::as<T>(S);
  else
    return S.getIf<T>();
}

/// The statements inside roles that are \p T, in program order, for which
/// \p Pred holds.
template <class T>
std::vector<InstId> find(
    Kernel &K, const std::function<bool(const T &)> &Pred = [](const T &) {
      return true;
    }) {
  std::vector<InstId> Out;
  forEachStmt(K, [&](InstId Id, bool InRole) {
    if (const T *X = payload<T>(K.Insts[Id]); X && InRole && Pred(*X))
      Out.push_back(Id);
  });
  return Out;
}

/// Statement \p Id of \p K as a \p T.
template <class T> T &at(Kernel &K, InstId Id) {
  return *payload<T>(K.Insts[Id]);
}

/// The TMA loads (or stores), in program order.
std::vector<InstId> tmaCopies(Kernel &K, bool Store) {
  return find<ext::Tma>(
      K, [&](const ext::Tma &T) { return T.Store == Store; });
}

/// The operand of TMA call \p Id at \p Place (its global box or its
/// shared-memory view).
OperandView &tmaOperand(Kernel &K, InstId Id, lower::OperandPlace Place) {
  for (OperandView &O : at<lower::AtomCallStmt>(K, Id).Operands)
    if (O.Place == Place)
      return O;
  std::abort();
}
OperandView &sharedOf(Kernel &K, InstId Id) {
  return tmaOperand(K, Id, lower::OperandPlace::Shared);
}
OperandView &globalOf(Kernel &K, InstId Id) {
  return tmaOperand(K, Id, lower::OperandPlace::Global);
}

/// Removes statement \p Id from the body that holds it.
void erase(Kernel &K, InstId Id) {
  llvm::erase(K.Body, Id);
  for (Stmt &S : K.Insts)
    llvm::erase(S.Body, Id);
}

/// The body that holds statement \p Id (the kernel's, or a structured
/// statement's).
std::vector<InstId> &bodyOf(Kernel &K, InstId Id) {
  if (llvm::is_contained(K.Body, Id))
    return K.Body;
  for (Stmt &S : K.Insts)
    if (llvm::is_contained(S.Body, Id))
      return S.Body;
  std::abort();
}

/// The role whose body (or a loop in it) holds statement \p Id.
const lower::RoleStmt &roleOf(const Kernel &K, InstId Id) {
  const lower::RoleStmt *Found = nullptr;
  std::function<bool(const std::vector<InstId> &)> Holds =
      [&](const std::vector<InstId> &Body) {
        return llvm::any_of(
            Body, [&](InstId X) { return X == Id || Holds(K.Insts[X].Body); });
      };
  for (InstId X : K.Body)
    if (const auto *R = K.Insts[X].getIf<lower::RoleStmt>();
        R && Holds(K.Insts[X].Body))
      Found = R;
  if (!Found)
    std::abort();
  return *Found;
}

/// The multicast TMA loads, in program order.
std::vector<InstId> multicastLoads(Kernel &K) {
  return find<ext::Tma>(
      K, [](const ext::Tma &T) { return !T.Store && T.Multicast > 1; });
}

/// The statements \p T on the barrier array named \p Name.
template <class T>
std::vector<InstId> onBarrier(Kernel &K, llvm::StringRef Name) {
  return find<T>(K, [&](const T &X) {
    return X.Bar < K.Barriers.size() && K.Barriers[X.Bar].Name == Name;
  });
}

/// Replaces the fused op \p From of every fragment store by \p To (drops
/// it when \p To is empty); false when no store has \p From.
bool replaceEpilogueOp(Kernel &K, lower::ElementwiseOp From,
                       std::optional<lower::ElementwiseOp> To) {
  bool Changed = false;
  for (InstId Id : find<lower::StoreFragmentStmt>(K)) {
    std::vector<lower::FragmentOp> &E =
        at<lower::StoreFragmentStmt>(K, Id).Epilogue;
    for (auto It = E.begin(); It != E.end();) {
      if (It->Op != From) {
        ++It;
        continue;
      }
      Changed = true;
      if (To) {
        It->Op = *To;
        ++It;
      } else {
        It = E.erase(It);
      }
    }
  }
  return Changed;
}

struct Mutant {
  const char *Name;
  /// How the bug must show under at least one policy: "mismatch",
  /// "deadlock" or "error" (any other refusal), or alternatives joined by
  /// "/".
  const char *Expect;
  /// Changes the LIR; false when it found nothing to change.
  std::function<bool(Kernel &)> Mutate;
  Shape At;
  /// The examples whose LIR it mutates, joined by "/". The LIR's structure
  /// -- boxes, descriptors, barriers, loops -- is the same in the three, so
  /// the structural mutants run on optimal.cpp's only; the variants' own
  /// mutants change what they add.
  const char *Examples = "optimal";
};

// Shapes for the mutants: small; five K steps where a ring must wrap, two
// tiles per CTA where a buffer must be reused.
const Shape Small{200, 300, 100, "small"};
const Shape LongK{128, 256, 320, "five K steps"};
const Shape TwoTiles{1, 256 * 132 + 1, 16, "two tiles per CTA"};

const Mutant Mutants[] = {
    // Also on the tile variants, whose B slot and staged tile have two or
    // three 64-column panels instead of four.
    {"DropBoxViewOffset", "mismatch",
     [](Kernel &K) {
       for (InstId Id : tmaCopies(K, false))
         if (sharedOf(K, Id).Offset != 0) {
           sharedOf(K, Id).Offset = 0;
           return true;
         }
       return false;
     },
     Small, "optimal/n128/n192"},
    {"SwapTwoBoxesCoordinates", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> Loads = tmaCopies(K, false);
       for (std::size_t I = 0; I + 1 < Loads.size(); ++I) {
         OperandView &X = globalOf(K, Loads[I]), &Y = globalOf(K, Loads[I + 1]);
         if (X.Map == Y.Map) {
           std::swap(X.Coords, Y.Coords);
           return true;
         }
       }
       return false;
     },
     Small},
    {"ReverseBoxOrder", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> Loads = tmaCopies(K, false);
       std::vector<std::int64_t> Offsets;
       std::vector<InstId> Same;
       for (InstId Id : Loads)
         if (globalOf(K, Id).Map == globalOf(K, Loads.back()).Map)
           Same.push_back(Id);
       for (InstId Id : Same)
         Offsets.push_back(sharedOf(K, Id).Offset);
       for (std::size_t I = 0; I < Same.size(); ++I)
         sharedOf(K, Same[I]).Offset = Offsets[Same.size() - 1 - I];
       return Same.size() > 1;
     },
     Small},
    // nt.cpp: B's map is in box order {1, 0} (tn.cpp: A's; tt.cpp: both).
    // Its copies' coordinates listed in the tensor's order, and the map without its
    // order (TMA would read the strided dimension as the contiguous one),
    // must show.
    {"CoordinatesInTensorOrder", "mismatch/error",
     [](Kernel &K) {
       bool Changed = false;
       for (InstId Id : tmaCopies(K, false)) {
         OperandView &G = globalOf(K, Id);
         if (K.Maps[G.Map].Order == std::vector<int>{1, 0}) {
           std::reverse(G.Coords.begin(), G.Coords.end());
           Changed = true;
         }
       }
       return Changed;
     },
     Small, "nt/tn/tt"},
    {"MapWithoutBoxOrder", "mismatch/error",
     [](Kernel &K) {
       for (lower::TensorMap &M : K.Maps)
         if (M.Order == std::vector<int>{1, 0}) {
           M.Order = {0, 1};
           return true;
         }
       return false;
     },
     Small, "nt/tn/tt"},
    // tn.cpp, tt.cpp: WGMMA reading its M-major A as K-major (the transpose bit
    // dropped from the instruction): the descriptor's strides then reach
    // past the slot, or read the wrong elements.
    {"ATransposeDropped", "mismatch/error",
     [](Kernel &K) {
       bool Changed = false;
       for (InstId Id : find<ext::Wgmma>(K))
         Changed |= std::exchange(at<ext::Wgmma>(K, Id).TransA, false);
       return Changed;
     },
     Small, "tn/tt"},
    {"DescriptorStrideByteOffset", "mismatch/error",
     [](Kernel &K) {
       std::vector<InstId> W = find<ext::Wgmma>(K);
       if (W.empty())
         return false;
       at<ext::Wgmma>(K, W.front()).A.StrideBytes /= 2;
       return true;
     },
     Small},
    {"DescriptorStart", "mismatch",
     [](Kernel &K) {
       for (InstId Id : find<ext::Wgmma>(K))
         if (at<ext::Wgmma>(K, Id).KStep == 1) {
           at<ext::Wgmma>(K, Id).A.Start -= 32; // k-step 0's columns again
           return true;
         }
       return false;
     },
     Small},
    {"DescriptorLeadingByteOffset", "mismatch/error",
     [](Kernel &K) {
       for (InstId Id : find<ext::Wgmma>(K))
         if (at<ext::Wgmma>(K, Id).B.LeadingUsed) {
           at<ext::Wgmma>(K, Id).B.LeadingBytes /= 2;
           return true;
         }
       return false;
     },
     Small},
    {"DescriptorSwizzleMode", "mismatch/error",
     [](Kernel &K) {
       std::vector<InstId> W = find<ext::Wgmma>(K);
       if (W.empty())
         return false;
       at<ext::Wgmma>(K, W.front()).B.Swizzle = SwizzleMode::bytes64;
       return true;
     },
     Small},
    {"RemoveConsumerArrive", "deadlock",
     [](Kernel &K) {
       std::vector<InstId> A = onBarrier<ext::Arrive>(K, "lhs_ring.empty");
       for (InstId Id : A)
         erase(K, Id);
       return !A.empty();
     },
     LongK},
    {"RemoveArriveExpectTx", "deadlock",
     [](Kernel &K) {
       std::vector<InstId> A = find<ext::ArriveExpectTx>(K);
       if (A.empty())
         return false;
       erase(K, A.front());
       return true;
     },
     Small},
    {"KLoopOneStepShort", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> Loops = find<lower::KLoopStmt>(K);
       for (InstId Id : Loops) {
         lower::KLoopStmt &L = at<lower::KLoopStmt>(K, Id);
         L.Bound = K.binary(lower::ExprKind::Sub, L.Bound, K.constant(L.Step));
       }
       return !Loops.empty();
     },
     Small},
    {"TileLoopOneTileShort", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> Loops = find<lower::TileLoopStmt>(K);
       for (InstId Id : Loops) {
         lower::TileLoopStmt &L = at<lower::TileLoopStmt>(K, Id);
         L.Bound = K.binary(lower::ExprKind::Sub, L.Bound, K.constant(1));
       }
       return !Loops.empty();
     },
     Small},
    {"RemoveNamedBarrier", "mismatch/deadlock",
     [](Kernel &K) {
       std::vector<InstId> B = find<ext::NamedBarrier>(K);
       for (InstId Id : B)
         erase(K, Id);
       return !B.empty();
     },
     Small},
    {"RemoveConsumerWaitOnFull", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> W = onBarrier<ext::Wait>(K, "rhs_ring.full");
       for (InstId Id : W)
         erase(K, Id);
       return !W.empty();
     },
     Small},
    {"RemoveWgmmaWait", "error",
     [](Kernel &K) {
       std::vector<InstId> W = find<ext::WgmmaWait>(K);
       for (InstId Id : W)
         erase(K, Id);
       return !W.empty();
     },
     Small},
    {"RemoveZeroAcc", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> Z = find<lower::ZeroFragmentStmt>(K);
       for (InstId Id : Z)
         erase(K, Id);
       return !Z.empty();
     },
     Small},
    {"ProducerParityNotFlipped", "deadlock",
     [](Kernel &K) {
       for (InstId Id : find<ext::Wait>(K)) {
         ext::Wait &W = at<ext::Wait>(K, Id);
         if (W.ProducerParity &&
             K.Exprs[W.Phase].Kind == lower::ExprKind::Xor) {
           W.Phase = K.Exprs[W.Phase].Lhs;
           return true;
         }
       }
       return false;
     },
     Small},
    {"StoreBoxViewOffset", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> S = tmaCopies(K, true);
       if (S.size() < 2)
         return false;
       sharedOf(K, S[0]).Offset = sharedOf(K, S[1]).Offset;
       return true;
     },
     Small},
    {"RemoveBulkWaitRead", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> W = find<ext::BulkWaitRead>(K);
       for (InstId Id : W)
         erase(K, Id);
       return !W.empty();
     },
     TwoTiles},
    // relu.cpp: the fragment store without its epilogue stores the negative
    // sums unclamped (about half the elements).
    {"DropReluEpilogue", "mismatch",
     [](Kernel &K) {
       bool Changed = false;
       for (InstId Id : find<lower::StoreFragmentStmt>(K)) {
         std::vector<lower::FragmentOp> &E =
             at<lower::StoreFragmentStmt>(K, Id).Epilogue;
         if (llvm::any_of(E, [](const lower::FragmentOp &F) {
               return F.Op == lower::ElementwiseOp::Relu;
             })) {
           E.clear();
           Changed = true;
         }
       }
       return Changed;
     },
     Small, "relu"},
    // gelu.cpp: the store without its activation (negative sums stored
    // instead of their small GELU), and the erf form for the tanh one
    // (equal to about 2^-11: caught by the bit-for-bit comparison).
    {"DropGeluEpilogue", "mismatch",
     [](Kernel &K) {
       return replaceEpilogueOp(K, lower::ElementwiseOp::GeluTanh,
                                std::nullopt);
     },
     Small, "gelu"},
    {"GeluErfForTanh", "mismatch",
     [](Kernel &K) {
       return replaceEpilogueOp(K, lower::ElementwiseOp::GeluTanh,
                                lower::ElementwiseOp::GeluErf);
     },
     Small, "gelu"},
    // bias_gelu.cpp: the bias read along the other axis (one value per row
    // instead of one per column).
    {"BiasAlongColumns", "mismatch",
     [](Kernel &K) {
       bool Changed = false;
       for (InstId Id : find<lower::StoreFragmentStmt>(K))
         for (lower::FragmentOp &F :
              at<lower::StoreFragmentStmt>(K, Id).Epilogue)
           for (lower::FragmentOperand &X : F.Operand)
             if (X.Load.Dims == std::vector<int>{1}) {
               X.Load.Dims = {0};
               Changed = true;
             }
       return Changed;
     },
     Small, "bias_gelu"},
    // alpha_beta.cpp: beta dropped (c added unscaled).
    {"BetaDropped", "mismatch",
     [](Kernel &K) {
       bool Changed = false;
       for (InstId Id : find<lower::StoreFragmentStmt>(K))
         for (lower::FragmentOp &F :
              at<lower::StoreFragmentStmt>(K, Id).Epilogue)
           for (lower::FragmentOperand &X : F.Operand) {
             Changed |= !X.Ops.empty();
             X.Ops.clear();
           }
       return Changed;
     },
     Small, "alpha_beta"},
    // residual.cpp: the add dropped.
    {"ResidualDropped", "mismatch",
     [](Kernel &K) {
       return replaceEpilogueOp(K, lower::ElementwiseOp::Add, std::nullopt);
     },
     Small, "residual"},
    // f16.cpp: the WGMMA atom reading its f16 operands as bf16
    // (m64n256k16.f32.bf16.bf16 where the rings hold f16).
    {"AtomInputsBf16", "mismatch/error",
     [](Kernel &K) {
       bool Changed = false;
       for (InstId Id : find<ext::Wgmma>(K)) {
         lower::MmaAtom &A = at<ext::Wgmma>(K, Id).Atom;
         if (A.A == DType::f16 && A.B == DType::f16) {
           A.A = A.B = DType::bf16;
           Changed = true;
         }
       }
       return Changed;
     },
     Small, "f16"},
    // fp8.cpp: the WGMMA atom reading its e4m3 operands as e5m2.
    {"AtomInputsE5m2", "mismatch/error",
     [](Kernel &K) {
       bool Changed = false;
       for (InstId Id : find<ext::Wgmma>(K)) {
         lower::MmaAtom &A = at<ext::Wgmma>(K, Id).Atom;
         if (A.A == DType::fp8e4m3) {
           A.A = A.B = DType::fp8e5m2;
           Changed = true;
         }
       }
       return Changed;
     },
     Small, "fp8"},
    // f32_out.cpp and the variants f16_f32, fp8_f32: the output tile is eight panels
    // of 32 floats (128 bytes, one swizzle row), one TMA store each; a store
    // that sends the panel of 64 bf16 columns' width (its shared offset two
    // panels on) must show.
    {"StorePanelOfBf16Width", "mismatch/error",
     [](Kernel &K) {
       for (InstId Id : tmaCopies(K, true))
         if (sharedOf(K, Id).Offset != 0) {
           sharedOf(K, Id).Offset *= 2;
           return true;
         }
       return false;
     },
     Small, "f32_out/f16_f32/fp8_f32"},
    // The variant fp8_e5m2: the WGMMA atom reading its e5m2 operands as
    // e4m3.
    {"AtomInputsE4m3", "mismatch/error",
     [](Kernel &K) {
       bool Changed = false;
       for (InstId Id : find<ext::Wgmma>(K)) {
         lower::MmaAtom &A = at<ext::Wgmma>(K, Id).Atom;
         if (A.A == DType::fp8e5m2) {
           A.A = A.B = DType::fp8e4m3;
           Changed = true;
         }
       }
       return Changed;
     },
     Small, "fp8_e5m2"},
    // The variants m256 and nsplit: two accumulator blocks per warpgroup.
    // WGMMAs accumulating into each other's block (block 0's rows or
    // columns stored where block 1's belong) must show.
    {"SwapAccumulatorBlocks", "mismatch",
     [](Kernel &K) {
       bool Changed = false;
       for (InstId Id : find<ext::Wgmma>(K)) {
         OperandView &C = *at<lower::AtomCallStmt>(K, Id).operand("C");
         if (C.Block < 2) {
           C.Block = 1 - C.Block;
           Changed = true;
         }
       }
       return Changed;
     },
     Small, "m256/nsplit"},
    // batched.cpp: every load reading batch 0's matrices (the batch
    // coordinate of its rank-3 box dropped) must show.
    {"LoadsIgnoreTheBatch", "mismatch",
     [](Kernel &K) {
       bool Changed = false;
       for (InstId Id : tmaCopies(K, false)) {
         OperandView &G = globalOf(K, Id);
         if (G.Coords.size() == 3) {
           G.Coords.front() = K.constant(0);
           Changed = true;
         }
       }
       return Changed;
     },
     Small, "batched"},
    // cluster2 (clusters of two CTAs along M, B's boxes shared out between
    // the two ranks and multicast into both CTAs' rings).
    //
    // Each box's multicast reaching only its issuer's CTA (a plain load that
    // only the issuing rank performs: the LIR has no such load, so the
    // mutant wraps it in a loop that runs once in that rank and not at all
    // in the other): each CTA's rhs_ring fills with half of its 32768
    // expected bytes, and its consumers wait forever.
    {"MulticastReachesOneCta", "deadlock",
     [](Kernel &K) {
       std::vector<InstId> Loads = multicastLoads(K);
       for (InstId Id : Loads) {
         ext::Tma &T = at<ext::Tma>(K, Id);
         const std::int64_t Issuer = T.Issuer;
         T.Multicast = 1;
         // for issuer_only in range(0, 1 - ((cta.x % cluster) ^ Issuer), 1)
         lower::ExprId Rank = K.binary(lower::ExprKind::Mod, K.var("cta.x"),
                                       K.constant(K.ClusterCtas));
         lower::ExprId Bound =
             K.binary(lower::ExprKind::Sub, K.constant(1),
                      K.binary(lower::ExprKind::Xor, Rank, K.constant(Issuer)));
         Stmt Once(lower::KLoopStmt{"issuer_only", K.constant(0), Bound, 1});
         Once.Body.push_back(Id);
         const InstId Guard = K.addInst(std::move(Once));
         std::vector<InstId> &Body = bodyOf(K, Id);
         *llvm::find(Body, Id) = Guard;
       }
       return !Loads.empty();
     },
     Small, "cluster2"},
    // The consumers releasing a slot of the multicast ring in their own CTA
    // only (each warpgroup's first thread arriving locally instead of
    // thread r on rank r's object): the empty barrier, initialised for both
    // CTAs' warpgroups, gets half of its arrivals per phase and never
    // completes one, and the producer's wait on the slot's next round
    // blocks (five K steps on a ring of three).
    {"LocalReleaseOfMulticastRing", "deadlock",
     [](Kernel &K) {
       std::vector<InstId> Releases =
           find<ext::Arrive>(K, [](const ext::Arrive &A) { return A.Cluster; });
       for (InstId Id : Releases) {
         const lower::RoleStmt Role = roleOf(K, Id);
         const Stmt Original = K.Insts[Id];
         std::vector<InstId> Local;
         for (std::int64_t First = Role.Begin; First < Role.End; First += 128) {
           Stmt Copy = Original;
           ext::Arrive &A = *lower::as<ext::Arrive>(Copy);
           A.Cluster = false;
           A.Threads = 1;
           A.Elected = First;
           Local.push_back(K.addInst(std::move(Copy)));
         }
         std::vector<InstId> &Body = bodyOf(K, Id);
         auto At = Body.erase(llvm::find(Body, Id));
         Body.insert(At, Local.begin(), Local.end());
       }
       return !Releases.empty();
     },
     LongK, "cluster2"},
    // The share-out lost: every rank issues every box (the rank guard of the
    // multicast dropped), so each box lands twice in each CTA and completes
    // its bytes twice -- a phase completes early, the next one starts with
    // bytes completed beyond what it expects.
    {"EveryRankIssuesEveryBox", "error/mismatch",
     [](Kernel &K) {
       std::vector<InstId> Loads = multicastLoads(K);
       for (InstId Id : Loads) {
         const Stmt Original = K.Insts[Id];
         const std::int64_t Ranks = lower::as<ext::Tma>(Original)->Multicast;
         std::vector<InstId> Copies;
         for (std::int64_t R = 1; R < Ranks; ++R) {
           Stmt Copy = Original;
           ext::Tma &T = *lower::as<ext::Tma>(Copy);
           T.Issuer = (T.Issuer + R) % Ranks;
           Copies.push_back(K.addInst(std::move(Copy)));
         }
         std::vector<InstId> &Body = bodyOf(K, Id);
         Body.insert(llvm::find(Body, Id) + 1, Copies.begin(), Copies.end());
       }
       return !Loads.empty();
     },
     Small, "cluster2"},
};

/// The mutants of this example's LIR.
std::vector<Mutant> exampleMutants() {
  std::vector<Mutant> Out;
  for (const Mutant &M : Mutants)
    if (llvm::is_contained(llvm::split(llvm::StringRef(M.Examples), '/'),
                           llvm::StringRef(Example.data(), Example.size())))
      Out.push_back(M);
  return Out;
}

class MutantLir : public ::testing::TestWithParam<Mutant> {};
// The f16 variants of nt, tn and tt and fp8 with an f16 output have no
// mutant of their own: their examples' mutants cover their structure.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(MutantLir);

TEST_P(MutantLir, IsCaught) {
  std::string Why;
  const Kernel *Original = exampleLir(Why);
  ASSERT_NE(Original, nullptr) << Why;
  const Mutant &M = GetParam();
  Kernel K = *Original;
  ASSERT_TRUE(M.Mutate(K)) << M.Name << " found nothing to change";
  const Gemm &G = gemmAt(M.At.M, M.At.N, M.At.K);
  // The unchanged kernel passes at this shape (so that what follows is the
  // mutation's doing).
  EXPECT_FALSE(runGemm(*Original, G, SchedulePolicy::RoundRobin).caught());
  // relu's epilogue has something to clamp here.
  if (Relu) {
    EXPECT_GT(G.NegativeSums, 0);
  }
  bool Caught = false, AsExpected = false;
  for (SchedulePolicy P : interp::AllPolicies) {
    const Outcome O = runGemm(K, G, P);
    Caught |= O.caught();
    const char *Kind =
        !O.Error.empty()
            ? (O.Error.find("deadlock") != std::string::npos ? "deadlock"
                                                             : "error")
        : O.Mismatches > 0 ? "mismatch"
                           : "";
    if (*Kind)
      AsExpected |= llvm::is_contained(
          llvm::split(llvm::StringRef(M.Expect), '/'), llvm::StringRef(Kind));
    std::printf("  %s, %s: %s\n", M.Name, interp::policyName(P).str().c_str(),
                O.caught() ? O.summary().c_str() : "not caught");
  }
  EXPECT_TRUE(Caught) << M.Name << " passes under every policy";
  EXPECT_TRUE(AsExpected) << M.Name << " never shows as a " << M.Expect;
}

INSTANTIATE_TEST_SUITE_P(Mutants, MutantLir,
                         ::testing::ValuesIn(exampleMutants()),
                         [](const ::testing::TestParamInfo<Mutant> &P) {
                           return std::string(P.param.Name);
                         });

} // namespace
