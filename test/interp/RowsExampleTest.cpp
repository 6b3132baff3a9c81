//===- test/interp/RowsExampleTest.cpp - Lowered row kernels on the CPU ---===//
//
// End to end, for one examples/rows/*.cpp (TF_ROWS_EXAMPLE_PATH): every
// kernel lowered in this process as `tf finalize` lowers it (register
// programs, lower/RegisterProgram.h), its LIR interpreted on random bf16
// inputs at awkward shapes (one row, rows not a multiple of the CTA's four,
// columns 1, 7, 1000, one row tile exactly, several tiles with a partial
// last one, the longest CTA tile exactly) -- those whose rows the kernel
// takes -- the output poisoned, and every tensor compared with the same
// kernel run header-only (RowsHeaderOnly.cpp). Reductions sum in another
// order (each thread its registers, then the lanes' butterfly; the header
// along the row), so outputs may differ by the rounding of that: two bf16
// ulps. Then the LIR is mutated as a lowering or backend bug would -- a
// register coordinate off by one, a butterfly round dropped, a warp's
// partial read twice, a meet of the warps dropped (a race), a vector claim
// on registers that are not consecutive, the wrong tile stored -- and each
// mutant must be caught.
//
//===----------------------------------------------------------------------===//
#include "LowerExample.h"
#include "RowsHeaderOnly.h"

#include "interp/Interpreter.h"
#include "lower/Lower.h"

#include "tf/dtype.hpp"
#include "tf/element.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <random>

#ifndef TF_SOURCE_DIR
#error "TF_SOURCE_DIR (the source tree) must be defined"
#endif
#ifndef TF_ROWS_EXAMPLE_PATH
#error "TF_ROWS_EXAMPLE_PATH (the example's source) must be defined"
#endif

namespace {

using namespace tf;
using lower::Kernel;

/// The example's kernels, lowered and verified on first use.
const std::vector<Kernel> &exampleKernels() {
  static const std::vector<Kernel> Kernels = tf_interp_test::lowerExample(
      TF_ROWS_EXAMPLE_PATH, TF_SOURCE_DIR "/examples/rows");
  return Kernels;
}

constexpr std::int64_t RowTile = 1024; // examples/rows/rows.hpp's BN

struct Shape {
  std::int64_t Rows = 0, Cols = 0;
};

/// The longest row kernel \p K takes: a warp's row tile (`*_rows`), a
/// CTA's (`*_cta<Cols, Threads>`), any (a loop).
std::int64_t longestRow(const Kernel &K) {
  llvm::StringRef Name = K.Name;
  if (Name.ends_with("_rows"))
    return RowTile;
  std::int64_t Cols = 0;
  if (std::size_t At = Name.find("_cta<"); At != llvm::StringRef::npos &&
      !Name.drop_front(At + 5).consumeInteger(10, Cols))
    return Cols;
  return std::numeric_limits<std::int64_t>::max();
}

/// The shapes a kernel runs: those whose rows it takes.
std::vector<Shape> shapesOf(const Kernel &K) {
  std::vector<Shape> Out;
  for (Shape S : {Shape{1, 1}, Shape{5, 7}, Shape{37, 1000}, Shape{4, 1024},
                  Shape{6, 2500}, Shape{3, 4101}, Shape{2, 32768}})
    if (S.Cols <= longestRow(K))
      Out.push_back(S);
  return Out;
}

/// bf16 values uniform in [-2, 2] (never 0), or [0.5, 1.5] for a weight:
/// what examples/rows/check.hpp draws.
std::vector<tf::bf16> randomBf16(std::int64_t N, std::uint32_t Seed,
                                 bool Weight) {
  std::mt19937 Gen(Seed);
  std::uniform_real_distribution<float> Value(Weight ? 0.5f : -2.0f,
                                              Weight ? 1.5f : 2.0f);
  std::vector<tf::bf16> Out(static_cast<std::size_t>(N));
  for (tf::bf16 &X : Out) {
    float V = Value(Gen);
    X = tf::bf16(V == 0.0f ? 0.25f : V);
  }
  return Out;
}

/// One run's buffers: per tensor parameter, its elements.
struct Buffers {
  std::vector<std::vector<tf::bf16>> Tensors;
};

/// The tensors of \p K at \p S: a matrix Rows x Cols or a vector of Cols;
/// `y` (the output) poisoned, the others random (a residual is read and
/// written back).
Buffers inputs(const Kernel &K, Shape S) {
  Buffers B;
  std::uint32_t Seed = 1;
  for (const lower::Parameter &P : K.Parameters) {
    if (P.What != lower::Parameter::Kind::Tensor)
      continue;
    const std::int64_t N = P.Rank == 1 ? S.Cols : S.Rows * S.Cols;
    if (P.Name == "y")
      B.Tensors.emplace_back(static_cast<std::size_t>(N),
                             tf::bf16::from_bits(0xFFFF));
    else
      B.Tensors.push_back(randomBf16(N, Seed++, P.Rank == 1));
  }
  return B;
}

constexpr float Eps = 1e-5f;

/// Interprets \p K on \p B; the CTAs it ran (the grid), or the error.
llvm::Expected<std::int64_t> interpret(const Kernel &K, Shape S, Buffers &B) {
  std::vector<interp::TensorArg> Args;
  std::size_t T = 0;
  for (const lower::Parameter &P : K.Parameters) {
    interp::TensorArg A;
    A.Name = P.Name;
    if (P.What == lower::Parameter::Kind::Float) {
      A.Float = Eps;
    } else {
      A.Data = B.Tensors[T++].data();
      A.Element = DType::bf16;
      if (P.Rank == 1) {
        A.Extents = {S.Cols};
        A.Strides = {1};
      } else {
        A.Extents = {S.Rows, S.Cols};
        A.Strides = {S.Cols, 1};
      }
    }
    Args.push_back(std::move(A));
  }
  interp::InterpStats Stats;
  if (llvm::Error E = interp::interpret(K, Args, interp::InterpOptions{}, &Stats))
    return E;
  return Stats.Ctas;
}

void headerOnly(const Kernel &K, Shape S, std::int64_t Grid, Buffers &B) {
  std::vector<tf_interp_rows::Argument> Args;
  std::size_t T = 0;
  for (const lower::Parameter &P : K.Parameters) {
    tf_interp_rows::Argument A;
    if (P.What == lower::Parameter::Kind::Float) {
      A.Float = Eps;
    } else {
      A.Data = B.Tensors[T++].data();
      A.Extents = P.Rank == 1 ? std::vector<std::int64_t>{S.Cols}
                              : std::vector<std::int64_t>{S.Rows, S.Cols};
    }
    Args.push_back(std::move(A));
  }
  ASSERT_TRUE(tf_interp_rows::runHeaderOnly(K.Name, Grid, Args)) << K.Name;
}

/// The first element where \p Got and \p Want differ by more than two bf16
/// ulps and more than 2^-16 (an output near zero, a cancellation, carries
/// the reductions' absolute rounding), or one is not finite and the other
/// is, as a message; empty when none does.
std::string firstDifference(const Kernel &K, const Buffers &Got,
                            const Buffers &Want) {
  std::size_t T = 0;
  for (const lower::Parameter &P : K.Parameters) {
    if (P.What != lower::Parameter::Kind::Tensor)
      continue;
    const auto &G = Got.Tensors[T], &W = Want.Tensors[T];
    ++T;
    for (std::size_t I = 0; I < G.size(); ++I) {
      const float A = float(G[I]), B = float(W[I]);
      const bool Same = std::bit_cast<std::uint16_t>(G[I]) ==
                        std::bit_cast<std::uint16_t>(W[I]);
      const float Ulp = std::ldexp(1.0f, std::ilogb(std::max(
                                             std::fabs(A), std::fabs(B))) - 7);
      if (!Same && !(std::isfinite(A) && std::isfinite(B) &&
                     std::fabs(A - B) <= std::max(2 * Ulp, 0x1p-16f)))
        return P.Name + "[" + std::to_string(I) + "] = " + std::to_string(A) +
               ", header-only " + std::to_string(B);
    }
  }
  return "";
}

/// Runs \p K at \p S both ways; the difference (empty: none) or the
/// interpreter's error.
std::string compare(const Kernel &K, Shape S) {
  Buffers Interp = inputs(K, S), Header = Interp;
  llvm::Expected<std::int64_t> Grid = interpret(K, S, Interp);
  if (!Grid)
    return "interpreter: " + llvm::toString(Grid.takeError());
  headerOnly(K, S, *Grid, Header);
  // Every output element written: the poison is gone.
  std::size_t T = 0;
  for (const lower::Parameter &P : K.Parameters) {
    if (P.What != lower::Parameter::Kind::Tensor)
      continue;
    if (P.Name == "y")
      for (tf::bf16 X : Interp.Tensors[T])
        if (!std::isfinite(float(X)))
          return "y keeps an element that is not finite: " +
                 std::to_string(float(X));
    ++T;
  }
  return firstDifference(K, Interp, Header);
}

TEST(RowsExample, LowersEveryKernel) {
  ASSERT_FALSE(exampleKernels().empty())
      << TF_ROWS_EXAMPLE_PATH " did not lower (see the diagnostics above)";
}

TEST(RowsExample, InterpreterMatchesHeaderOnly) {
  for (const Kernel &K : exampleKernels())
    for (Shape S : shapesOf(K)) {
      SCOPED_TRACE(K.Name + " at " + std::to_string(S.Rows) + " x " +
                   std::to_string(S.Cols));
      EXPECT_EQ(compare(K, S), "");
    }
}

/// The statements of \p K of kind \p T, in order.
template <class T> std::vector<T *> statementsOf(Kernel &K) {
  std::vector<T *> Out;
  for (lower::Stmt &S : K.Insts)
    if (T *X = S.getIf<T>())
      Out.push_back(X);
  return Out;
}

/// Drops the statement after the first RegisterShareStmt (the meet before
/// the partials are read) or after the first RegisterGatherStmt (the meet
/// before they are written again) of \p K; false when it has none.
bool dropMeet(Kernel &K, bool AfterRead) {
  auto Drop = [&](std::vector<lower::InstId> &Body) {
    for (std::size_t I = 0; I + 1 < Body.size(); ++I)
      if (AfterRead ? K.Insts[Body[I]].is<lower::RegisterGatherStmt>()
                    : K.Insts[Body[I]].is<lower::RegisterShareStmt>()) {
        Body.erase(Body.begin() + static_cast<std::ptrdiff_t>(I) + 1);
        return true;
      }
    return false;
  };
  for (lower::Stmt &S : K.Insts)
    if (Drop(S.Body))
      return true;
  return Drop(K.Body);
}

/// Whether mutant \p M of kernel \p K differs from the header-only run (or
/// fails) at some shape.
bool caught(const Kernel &M) {
  for (Shape S : shapesOf(M))
    if (!compare(M, S).empty())
      return true;
  return false;
}

TEST(RowsExample, MutantsAreCaught) {
  int Mutants = 0;
  for (const Kernel &K : exampleKernels()) {
    SCOPED_TRACE(K.Name);
    // A register's column one off.
    {
      Kernel M = K;
      ASSERT_FALSE(M.Tiles.empty());
      lower::RegisterTile &T = M.Tiles.front();
      T.RegisterCoord.back()[1] += 1;
      EXPECT_TRUE(caught(M)) << "a register coordinate off by one";
      ++Mutants;
    }
    // The first butterfly round of the first sum dropped (a maximum may
    // not notice a partial lost: the one lost is rarely the largest).
    {
      Kernel M = K;
      auto Reduces = statementsOf<lower::RegisterReduceStmt>(M);
      auto Sum = llvm::find_if(Reduces, [](const lower::RegisterReduceStmt *R) {
        return R->Op == lower::RegisterOp::Add && !R->LaneMasks.empty();
      });
      if (Sum != Reduces.end()) {
        (*Sum)->LaneMasks.erase((*Sum)->LaneMasks.begin());
        EXPECT_TRUE(caught(M)) << "a butterfly round dropped";
        ++Mutants;
      }
    }
    // Across warps: one warp's partial of the first sum read twice,
    // another's never.
    {
      Kernel M = K;
      auto Gathers = statementsOf<lower::RegisterGatherStmt>(M);
      auto Sum = llvm::find_if(Gathers, [](const lower::RegisterGatherStmt *G) {
        return G->Op == lower::RegisterOp::Add && G->Offsets.size() > 1;
      });
      if (Sum != Gathers.end()) {
        (*Sum)->Offsets[1] = (*Sum)->Offsets[0];
        EXPECT_TRUE(caught(M)) << "a warp's partial read twice";
        ++Mutants;
      }
    }
    // Across warps: the meet after the partials are written, or the one
    // after they are read, dropped -- a race the interpreter reports. (The
    // second matters where the scratch is written again: a kernel with
    // more than one reduction across warps, or one in a loop.)
    for (bool AfterRead : {false, true}) {
      Kernel M = K;
      if ((!AfterRead || statementsOf<lower::RegisterShareStmt>(M).size() > 1) &&
          dropMeet(M, AfterRead)) {
        EXPECT_TRUE(caught(M)) << "the meet after the partials are "
                               << (AfterRead ? "read" : "written")
                               << " dropped";
        ++Mutants;
      }
    }
    // A vector claim on registers that are not consecutive (where a
    // thread's registers are not one run).
    {
      Kernel M = K;
      auto Loads = statementsOf<lower::RegisterLoadStmt>(M);
      ASSERT_FALSE(Loads.empty());
      const std::int64_t Registers = M.Tiles[Loads.front()->Dst].Registers;
      if (Loads.front()->Vector < Registers) {
        Loads.front()->Vector = Registers;
        EXPECT_TRUE(caught(M)) << "a vector of non-consecutive registers";
        ++Mutants;
      }
    }
    // A store of the wrong tile.
    {
      Kernel M = K;
      auto Stores = statementsOf<lower::RegisterStoreStmt>(M);
      auto Loads = statementsOf<lower::RegisterLoadStmt>(M);
      if (!Stores.empty() && !Loads.empty() &&
          M.Tiles[Loads.front()->Dst].Element ==
              M.Tiles[Stores.back()->Src].Element &&
          Loads.front()->Dst != Stores.back()->Src) {
        Stores.back()->Src = Loads.front()->Dst;
        EXPECT_TRUE(caught(M)) << "the stored tile replaced by the loaded one";
        ++Mutants;
      }
    }
  }
  EXPECT_GT(Mutants, 0);
}

} // namespace
