//===- test/interp/GemmOptimalTest.cpp - The lowered GEMM on the CPU ------===//
//
// End to end: examples/gemm/optimal.cpp lowered in this process as
// `tf finalize` lowers it (plugin/cli/ToolRunner.h, lower/Lower.h, verified),
// its LIR interpreted (interp/Interpreter.h) on random inputs at awkward
// shapes under every schedule policy, and the result compared element by
// element with the same kernel run header-only (OptimalHeaderOnly.cpp) and
// with a naive fp32 product. Then the LIR is mutated the ways a lowering or
// backend bug would (a dropped box offset, swapped boxes, a wrong
// descriptor field, a missing arrival, wait or barrier, a loop one step
// short) and each mutant must be caught -- a mismatch, a deadlock or an
// error -- under at least one policy.
//
// One ctest entry runs this whole binary (test/interp/CMakeLists.txt), so
// the example is compiled once.
//
//===----------------------------------------------------------------------===//
#include "GemmReference.h"

#include "Pipeline.h"
#include "cli/ToolRunner.h"
#include "hir/HIR.h"
#include "interp/Interpreter.h"
#include "lower/Lower.h"
#include "lower/Verify.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <tuple>

#ifndef TF_SOURCE_DIR
#error "TF_SOURCE_DIR (the source tree) must be defined"
#endif

namespace {

using namespace tf;
using interp::SchedulePolicy;
using lower::Inst;
using lower::InstId;
using lower::InstKind;
using lower::Kernel;

//===- The LIR ------------------------------------------------------------===//

/// The verified LIR of examples/gemm/optimal.cpp, lowered on first use;
/// null (with the reason in \p Why) when it could not be.
const Kernel *optimalLir(std::string &Why) {
  static std::optional<Kernel> Lir;
  static std::string Problem;
  static bool Tried = false;
  if (!Tried) {
    Tried = true;
    static const char *const Argv[] = {"tf_interp_gemm_optimal", "--",
                                       "-std=c++20",
                                       "-I" TF_SOURCE_DIR "/include"};
    cli::takeCompilerFlags(4, Argv);
    cli::ToolOptions Opts;
    Opts.Command = "finalize";
    Opts.Files = {TF_SOURCE_DIR "/examples/gemm/optimal.cpp"};
    // The plugin's pipeline lowers and verifies, as for `tf finalize`; its
    // refusals are diagnostics (the run then fails).
    Opts.LoweredSink = [](llvm::ArrayRef<plugin::LoweredKernel> Kernels) {
      if (!Lir && !Kernels.empty())
        Lir = Kernels.front().LIR;
    };
    if (cli::runOnFiles(Opts) != 0)
      Problem += "the example did not compile\n";
    if (!Lir && Problem.empty())
      Problem = "the example has no kernel";
  }
  Why = Problem;
  return Lir ? &*Lir : nullptr;
}

//===- Inputs and references ----------------------------------------------===//

/// bf16 values uniform in [-1, -1/8] u [1/8, 1]: random, never zero (as
/// examples/gemm/check.hpp draws them).
std::vector<bf16> randomBf16(std::int64_t N, std::uint32_t Seed) {
  std::mt19937 Gen(Seed);
  std::uniform_real_distribution<float> Magnitude(0.125f, 1.0f);
  std::bernoulli_distribution Sign(0.5);
  std::vector<bf16> Out(static_cast<std::size_t>(N));
  for (bf16 &X : Out)
    X = bf16(Sign(Gen) ? Magnitude(Gen) : -Magnitude(Gen));
  return Out;
}

/// A bf16 NaN: what every output element holds before a run.
const bf16 Poison = bf16::from_bits(0xFFFF);

/// One problem: inputs, the header-only result, the naive fp32 product and,
/// per element, sum_k |a_mk| |b_kn| (for the error bounds).
struct Gemm {
  std::int64_t M = 0, N = 0, K = 0;
  std::vector<bf16> A, B, HeaderOnly;
  std::vector<float> Naive;
  std::vector<double> AbsSum;
};

Gemm makeGemm(std::int64_t M, std::int64_t N, std::int64_t K,
              std::uint32_t Seed = 7) {
  Gemm G;
  G.M = M;
  G.N = N;
  G.K = K;
  G.A = randomBf16(M * K, Seed);
  G.B = randomBf16(K * N, Seed + 1000);
  G.HeaderOnly.assign(static_cast<std::size_t>(M * N), Poison);
  std::vector<bf16> A = G.A, B = G.B;
  tf_interp_test::gemmHeaderOnly(A, B, G.HeaderOnly, M, N, K);
  G.Naive.resize(static_cast<std::size_t>(M * N));
  G.AbsSum.resize(static_cast<std::size_t>(M * N));
  for (std::int64_t I = 0; I < M; ++I)
    for (std::int64_t J = 0; J < N; ++J) {
      float Sum = 0;
      double Abs = 0;
      for (std::int64_t L = 0; L < K; ++L) {
        const float X = float(G.A[I * K + L]), Y = float(G.B[L * N + J]);
        Sum += X * Y;
        Abs += std::fabs(double(X) * double(Y));
      }
      G.Naive[I * N + J] = Sum;
      G.AbsSum[I * N + J] = Abs;
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

/// The spacing of bf16 values at |X| (7 stored mantissa bits).
double ulpBf16(double X) {
  X = std::fabs(X);
  if (X == 0 || !std::isfinite(X))
    return std::ldexp(1.0, -133);
  int Exp = 0;
  std::frexp(X, &Exp); // X = f 2^Exp, f in [0.5, 1)
  return std::ldexp(1.0, Exp - 8);
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
/// The bounds: every f32 sum of K products of bf16 inputs (exact in f32)
/// is within gamma_K * S of the exact sum, S = sum_k |a b|, gamma_K =
/// K u / (1 - K u), u = 2^-24, whatever the order. The interpreter and the
/// header-only run both sum k ascending and should agree bit for bit; two
/// orders may differ by 2 gamma_K S before rounding to bf16, and after it
/// by that plus one bf16 ulp (each side rounds by at most half an ulp).
/// Against the naive product: 2 gamma_K S plus half an ulp of the output.
Outcome runGemm(const Kernel &K, const Gemm &G, SchedulePolicy Policy,
                std::uint64_t Seed = 1) {
  Outcome O;
  std::vector<bf16> A = G.A, B = G.B;
  std::vector<bf16> Out(static_cast<std::size_t>(G.M * G.N), Poison);
  const std::vector<interp::TensorArg> Args = {
      {"a", A.data(), DType::bf16, {G.M, G.K}, {G.K, 1}},
      {"b", B.data(), DType::bf16, {G.K, G.N}, {G.N, 1}},
      {"out", Out.data(), DType::bf16, {G.M, G.N}, {G.N, 1}},
  };
  interp::InterpOptions Opts;
  Opts.Policy = Policy;
  Opts.Seed = Seed;
  if (llvm::Error E = interp::interpret(K, Args, Opts, &O.Stats)) {
    O.Error = llvm::toString(std::move(E));
    return O;
  }
  const double U = std::ldexp(1.0, -24);
  const double Gamma = G.K * U / (1 - G.K * U);
  O.Elements = G.M * G.N;
  for (std::int64_t I = 0; I < O.Elements; ++I) {
    const double Got = float(Out[I]), Want = float(G.HeaderOnly[I]);
    const double Orders = 2 * Gamma * G.AbsSum[I];
    O.Identical += Out[I].bits == G.HeaderOnly[I].bits;
    const bool Near =
        std::isfinite(Got) && std::isfinite(Want) &&
        std::fabs(Got - Want) <=
            Orders + ulpBf16(std::max(std::fabs(Got), std::fabs(Want)));
    const bool NearNaive = std::isfinite(Got) && std::fabs(Got - G.Naive[I]) <=
                                                     Orders + ulpBf16(Got) / 2;
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
};

class OptimalGemm : public ::testing::TestWithParam<Shape> {};

TEST_P(OptimalGemm, MatchesHeaderOnlyUnderEveryPolicy) {
  std::string Why;
  const Kernel *K = optimalLir(Why);
  ASSERT_NE(K, nullptr) << Why;
  const Shape S = GetParam();
  const Gemm &G = gemmAt(S.M, S.N, S.K);
  // The header-only run itself is near the naive product.
  for (std::int64_t I = 0; I < S.M * S.N; ++I)
    ASSERT_TRUE(std::isfinite(float(G.HeaderOnly[I]))) << "header-only " << I;
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
      if (std::string(S.Name) == "PersistentCtasLoop") {
        EXPECT_EQ(O.Stats.MaxTilesPerWalker, 2);
      }
    }
}

// BM x BN x BK = 128 x 256 x 64, 132 persistent CTAs.
INSTANTIATE_TEST_SUITE_P(
    Shapes, OptimalGemm,
    ::testing::Values(Shape{200, 300, 100, "NoExtentATileMultiple"},
                      Shape{129, 257, 65, "EveryExtentOnePastAMultiple"},
                      Shape{64, 256, 64, "HalfATileOneKStep"},
                      Shape{128, 256, 64, "OneTile"},
                      Shape{1, 1, 1, "OneElement"},
                      Shape{72, 40, 16, "KBelowOneStep"},
                      Shape{136, 300, 200, "FourKSteps"},
                      // 133 tiles on 132 CTAs: CTA 0 runs two, its ring's clock
                      // and the staged tile's carrying on across them.
                      Shape{1, 256 * 132 + 1, 16, "PersistentCtasLoop"}),
    [](const ::testing::TestParamInfo<Shape> &P) {
      return std::string(P.param.Name);
    });

//===- Mutant LIR ---------------------------------------------------------===//

/// Calls \p Visit(Id, Role) for every instruction in program order, Role
/// being the enclosing role (null at kernel level).
void forEachInst(const Kernel &K,
                 const std::function<void(InstId, const Inst *)> &Visit) {
  std::function<void(const std::vector<InstId> &, const Inst *)> Walk =
      [&](const std::vector<InstId> &Body, const Inst *Role) {
        for (InstId Id : Body) {
          const Inst &I = K.Insts[Id];
          Visit(Id, Role);
          Walk(I.Body, I.Kind == InstKind::Role ? &I : Role);
        }
      };
  Walk(K.Body, nullptr);
}

/// The instructions of \p Kind in program order for which \p Pred holds.
std::vector<InstId> find(
    const Kernel &K, InstKind Kind,
    const std::function<bool(const Inst &, const Inst &Role)> &Pred =
        [](const Inst &, const Inst &) { return true; }) {
  std::vector<InstId> Out;
  forEachInst(K, [&](InstId Id, const Inst *Role) {
    if (K.Insts[Id].Kind == Kind && Role && Pred(K.Insts[Id], *Role))
      Out.push_back(Id);
  });
  return Out;
}

/// Removes instruction \p Id from the body that holds it.
void erase(Kernel &K, InstId Id) {
  llvm::erase(K.Body, Id);
  for (Inst &I : K.Insts)
    llvm::erase(I.Body, Id);
}

std::string barrierName(const Kernel &K, const Inst &I) {
  return I.Bar < K.Barriers.size() ? K.Barriers[I.Bar].Name : "";
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
};

// Shapes for the mutants: small; five K steps where a ring must wrap, two
// tiles per CTA where a buffer must be reused.
const Shape Small{200, 300, 100, "small"};
const Shape LongK{128, 256, 320, "five K steps"};
const Shape TwoTiles{1, 256 * 132 + 1, 16, "two tiles per CTA"};

const Mutant Mutants[] = {
    {"DropBoxViewOffset", "mismatch",
     [](Kernel &K) {
       for (InstId Id : find(K, InstKind::TmaLoad))
         if (K.Insts[Id].ViewOffset != 0) {
           K.Insts[Id].ViewOffset = 0;
           return true;
         }
       return false;
     },
     Small},
    {"SwapTwoBoxesCoordinates", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> Loads = find(K, InstKind::TmaLoad);
       for (std::size_t I = 0; I + 1 < Loads.size(); ++I) {
         Inst &X = K.Insts[Loads[I]], &Y = K.Insts[Loads[I + 1]];
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
       std::vector<InstId> Loads = find(K, InstKind::TmaLoad);
       std::vector<std::int64_t> Offsets;
       std::vector<InstId> Same;
       for (InstId Id : Loads)
         if (K.Insts[Id].Map == K.Insts[Loads.back()].Map)
           Same.push_back(Id);
       for (InstId Id : Same)
         Offsets.push_back(K.Insts[Id].ViewOffset);
       for (std::size_t I = 0; I < Same.size(); ++I)
         K.Insts[Same[I]].ViewOffset = Offsets[Same.size() - 1 - I];
       return Same.size() > 1;
     },
     Small},
    {"DescriptorStrideByteOffset", "mismatch/error",
     [](Kernel &K) {
       std::vector<InstId> W = find(K, InstKind::Wgmma);
       if (W.empty())
         return false;
       K.Insts[W.front()].A.StrideBytes /= 2;
       return true;
     },
     Small},
    {"DescriptorStart", "mismatch",
     [](Kernel &K) {
       for (InstId Id : find(K, InstKind::Wgmma))
         if (K.Insts[Id].KStep == 1) {
           K.Insts[Id].A.Start -= 32; // k-step 0's columns again
           return true;
         }
       return false;
     },
     Small},
    {"DescriptorLeadingByteOffset", "mismatch/error",
     [](Kernel &K) {
       for (InstId Id : find(K, InstKind::Wgmma))
         if (K.Insts[Id].B.LeadingUsed) {
           K.Insts[Id].B.LeadingBytes /= 2;
           return true;
         }
       return false;
     },
     Small},
    {"DescriptorSwizzleMode", "mismatch/error",
     [](Kernel &K) {
       std::vector<InstId> W = find(K, InstKind::Wgmma);
       if (W.empty())
         return false;
       K.Insts[W.front()].B.Swizzle = SwizzleMode::bytes64;
       return true;
     },
     Small},
    {"RemoveConsumerArrive", "deadlock",
     [](Kernel &K) {
       std::vector<InstId> A =
           find(K, InstKind::Arrive, [&](const Inst &I, const Inst &) {
             return barrierName(K, I) == "lhs_ring.empty";
           });
       for (InstId Id : A)
         erase(K, Id);
       return !A.empty();
     },
     LongK},
    {"RemoveArriveExpectTx", "deadlock",
     [](Kernel &K) {
       std::vector<InstId> A = find(K, InstKind::ArriveExpectTx);
       if (A.empty())
         return false;
       erase(K, A.front());
       return true;
     },
     Small},
    {"KLoopOneStepShort", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> Loops = find(K, InstKind::KLoop);
       for (InstId Id : Loops) {
         Inst &L = K.Insts[Id];
         L.Bound = K.binary(lower::ExprKind::Sub, L.Bound, K.constant(L.Step));
       }
       return !Loops.empty();
     },
     Small},
    {"TileLoopOneTileShort", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> Loops = find(K, InstKind::TileLoop);
       for (InstId Id : Loops) {
         Inst &L = K.Insts[Id];
         L.Bound = K.binary(lower::ExprKind::Sub, L.Bound, K.constant(1));
       }
       return !Loops.empty();
     },
     Small},
    {"RemoveNamedBarrier", "mismatch/deadlock",
     [](Kernel &K) {
       std::vector<InstId> B = find(K, InstKind::NamedBarrier);
       for (InstId Id : B)
         erase(K, Id);
       return !B.empty();
     },
     Small},
    {"RemoveConsumerWaitOnFull", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> W =
           find(K, InstKind::Wait, [&](const Inst &I, const Inst &) {
             return barrierName(K, I) == "rhs_ring.full";
           });
       for (InstId Id : W)
         erase(K, Id);
       return !W.empty();
     },
     Small},
    {"RemoveWgmmaWait", "error",
     [](Kernel &K) {
       std::vector<InstId> W = find(K, InstKind::WgmmaWait);
       for (InstId Id : W)
         erase(K, Id);
       return !W.empty();
     },
     Small},
    {"RemoveZeroAcc", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> Z = find(K, InstKind::ZeroAcc);
       for (InstId Id : Z)
         erase(K, Id);
       return !Z.empty();
     },
     Small},
    {"ProducerParityNotFlipped", "deadlock",
     [](Kernel &K) {
       for (InstId Id : find(K, InstKind::Wait)) {
         Inst &W = K.Insts[Id];
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
       std::vector<InstId> S = find(K, InstKind::TmaStore);
       if (S.size() < 2)
         return false;
       K.Insts[S[0]].ViewOffset = K.Insts[S[1]].ViewOffset;
       return true;
     },
     Small},
    {"RemoveBulkWaitRead", "mismatch",
     [](Kernel &K) {
       std::vector<InstId> W = find(K, InstKind::BulkWaitRead);
       for (InstId Id : W)
         erase(K, Id);
       return !W.empty();
     },
     TwoTiles},
};

class MutantLir : public ::testing::TestWithParam<Mutant> {};

TEST_P(MutantLir, IsCaught) {
  std::string Why;
  const Kernel *Original = optimalLir(Why);
  ASSERT_NE(Original, nullptr) << Why;
  const Mutant &M = GetParam();
  Kernel K = *Original;
  ASSERT_TRUE(M.Mutate(K)) << M.Name << " found nothing to change";
  const Gemm &G = gemmAt(M.At.M, M.At.N, M.At.K);
  // The unchanged kernel passes at this shape (so that what follows is the
  // mutation's doing).
  EXPECT_FALSE(runGemm(*Original, G, SchedulePolicy::RoundRobin).caught());
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

INSTANTIATE_TEST_SUITE_P(Mutants, MutantLir, ::testing::ValuesIn(Mutants),
                         [](const ::testing::TestParamInfo<Mutant> &P) {
                           return std::string(P.param.Name);
                         });

} // namespace
