//===- plugin/analysis/Coverage.cpp - Tiled loops cover their extents -----===//
//
// checkCoverage (Analysis.h): a tile loop visits tiles, and the windows the
// body takes at its index must tile the tensor exactly -- one iteration's
// windows along a dimension cover what the index advances by, with no gap
// (elements never read or written: a K loop stepping by BM over tiles BK
// wide sums half of K) and no overlap (elements read twice: summed twice).
//
//   for (k : tf::tile_offsets(K, STEP))      a.tile<BM, BK>(m * BM, k)
//     the index advances by STEP; the windows at k + c (c constant) along
//     that dimension must cover [0, STEP) exactly;
//   for ([m, n] : tf::persistent_tiles(mesh, GM, GN)) / grid_tiles
//     m advances by 1; a window at m * C + c advances by C, and the windows
//     at m * C + c must cover [0, C) exactly; a tile count written
//     GM = ceil_div(E, Q) must divide by that C (Q != C visits tiles past
//     the end or stops short of it).
//
// Windows of one tensor along one dimension are taken together (a body may
// split one step into two windows, k and k + 64), the same window taken
// twice counts once, and so does another iteration's window (a prefetch of
// the next tile at m * 128 + 128); one error per loop index. An offset of
// any other form, or one whose terms are not compile-time constants, is not
// checked; nor is a window whose copy refuses its extents (a box narrower
// than its slot: the contract check's error says so).
//
// One mistake, one error, where two orders are swapped:
//   a.tile<BM, BK>(k, m * BM)            each of two dimensions advances by
//                                        the other's extent: one error at
//                                        the window (its offsets' order);
//   tf::persistent_tiles(cta, GN, GM)    each index's tile count divides by
//                                        the other index's advance: one
//                                        error at the counts, the swap as a
//                                        fix-it when both are named.
//
//===----------------------------------------------------------------------===//

#include "analysis/Analysis.h"
#include "analysis/Site.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace tf::analysis {
namespace {

using hir::ExprId;
using hir::ExprKind;
using hir::None;
using hir::ValueId;

/// An offset `Index * Scale + Start`.
struct AffineOffset {
  std::int64_t Scale = 1;
  std::int64_t Start = 0;
};

class CoverageChecker {
public:
  CoverageChecker(const hir::Kernel &K, std::vector<Finding> &Out)
      : K(K), Out(Out) {
    for (const hir::Stmt &L : K.Stmts)
      if (L.Kind == hir::StmtKind::Loop)
        for (std::size_t I = 0; I < L.Indices.size(); ++I)
          LoopOf.emplace(L.Indices[I], &L);
  }

  void run() {
    for (const hir::Stmt &Op : K.Stmts)
      if (Op.Kind == hir::StmtKind::Op && Op.Sched && refusesExtents(Op))
        Refused.insert(Refused.end(), Op.Operands.begin(), Op.Operands.end());
    for (ValueId V = 0; V < K.Values.size(); ++V)
      checkOffsetOrder(V);
    for (const hir::Stmt &L : K.Stmts) {
      if (L.Kind != hir::StmtKind::Loop)
        continue;
      const bool CountsSwapped = checkCountOrder(L);
      for (std::size_t I = 0; I < L.Indices.size(); ++I)
        checkIndex(L, I, CountsSwapped);
    }
  }

private:
  const hir::Kernel &K;
  std::vector<Finding> &Out;
  /// Windows whose copy refuses their extents, or whose offsets are
  /// written in the wrong order (one error at the window says so).
  std::vector<ValueId> Refused;
  /// The loop of each loop index.
  std::map<ValueId, const hir::Stmt *> LoopOf;

  /// The expression \p E stands for, through index values bound by a Let.
  const hir::Expr &resolve(ExprId E) const {
    for (unsigned Depth = 0; Depth < 64; ++Depth) {
      const hir::Expr &X = K.Exprs[E];
      if (X.Kind != ExprKind::Ref || X.Ref >= K.Values.size() ||
          K.Values[X.Ref].Init == None)
        return X;
      E = K.Values[X.Ref].Init;
    }
    return K.Exprs[E];
  }

  std::optional<std::int64_t> constant(ExprId E) const {
    return E == None ? std::nullopt : K.Exprs[E].Static;
  }

  bool isIndex(ExprId E, ValueId Index) const {
    const hir::Expr &X = resolve(E);
    return X.Kind == ExprKind::Ref && X.Ref == Index;
  }

  /// \p E as Index * Scale + Start with constant Scale and Start, if it is.
  std::optional<AffineOffset> affine(ExprId E, ValueId Index) const {
    if (isIndex(E, Index))
      return AffineOffset{};
    const hir::Expr &X = resolve(E);
    if (X.Kind == ExprKind::Mul)
      for (auto [Var, Factor] : {std::pair(X.Lhs, X.Rhs), std::pair(X.Rhs, X.Lhs)})
        if (isIndex(Var, Index))
          if (std::optional<std::int64_t> C = constant(Factor))
            return AffineOffset{*C, 0};
    if (X.Kind == ExprKind::Add)
      for (auto [Var, Term] : {std::pair(X.Lhs, X.Rhs), std::pair(X.Rhs, X.Lhs)})
        if (std::optional<std::int64_t> C = constant(Term))
          if (std::optional<AffineOffset> A = affine(Var, Index))
            return AffineOffset{A->Scale, A->Start + *C};
    return std::nullopt;
  }

  struct Window {
    ValueId Tile;
    std::int64_t Start, Extent;
  };
  /// (tensor, dimension) -> the advance and the windows at one index (an
  /// advance of 0: the windows advance differently, not checked).
  using Groups = std::map<std::pair<ValueId, unsigned>,
                          std::pair<std::int64_t, std::vector<Window>>>;

  /// How far an offset Scale * Index moves per iteration of Index's loop
  /// \p L: the step times Scale for tile_offsets, Scale for a tile loop
  /// (its index counts tiles); none when the step is not a constant.
  std::optional<std::int64_t> advance(const hir::Stmt &L,
                                      std::int64_t Scale) const {
    if (L.Loop != hir::LoopKind::TileOffsets)
      return Scale;
    std::optional<std::int64_t> Step =
        L.Bounds.size() == 2 ? constant(L.Bounds[1]) : std::nullopt;
    if (!Step)
      return std::nullopt;
    return *Step * Scale;
  }

  /// The windows the body takes at index \p I of \p L, by tensor and
  /// dimension.
  Groups groupsAt(const hir::Stmt &L, std::size_t I) const {
    const ValueId Index = L.Indices[I];
    Groups Out;
    for (ValueId V = 0; V < K.Values.size(); ++V) {
      const hir::Value &T = K.Values[V];
      if (T.TileOf == None ||
          T.TileOffsets.size() != T.Type.WindowExtents.size() ||
          llvm::is_contained(Refused, V))
        continue;
      for (unsigned D = 0; D < T.TileOffsets.size(); ++D) {
        std::optional<AffineOffset> A = affine(T.TileOffsets[D], Index);
        if (!A || A->Scale <= 0)
          continue;
        std::optional<std::int64_t> Advance = advance(L, A->Scale);
        if (!Advance)
          continue;
        auto [It, New] =
            Out.try_emplace({T.TileOf, D}, *Advance, std::vector<Window>{});
        if (It->second.first != *Advance) {
          It->second.first = 0; // mixed advances: not checked
          continue;
        }
        It->second.second.push_back({V, A->Start, T.Type.WindowExtents[D]});
      }
    }
    return Out;
  }

  void checkIndex(const hir::Stmt &L, std::size_t I, bool CountsSwapped) {
    Groups At = groupsAt(L, I);
    // One mistake, one error: the first tensor whose windows do not tile
    // stands for the others at the same index (a K loop's wrong step shows
    // in A's and B's windows alike).
    std::size_t Reported = Out.size();
    for (auto &[Key, Group] : At)
      if (Group.first > 0 && Out.size() == Reported)
        checkGroup(L, L.Indices[I], Key.first, Key.second, Group.first,
                   Group.second);
    if (L.Loop != hir::LoopKind::TileOffsets && !CountsSwapped &&
        Out.size() == Reported)
      checkTileCount(L, I, At);
  }

public:
  /// Whether window \p V advances along each dimension whose offset steps
  /// with a loop index by its own extent (the windows of one iteration
  /// tile the loop's advance alone).
  bool fitsItsLoops(ValueId V) const {
    const hir::Value &T = K.Values[V];
    if (T.TileOf == None || T.TileOffsets.size() != T.Type.WindowExtents.size())
      return false;
    for (std::size_t D = 0; D < T.TileOffsets.size(); ++D) {
      const Step S = stepOf(T.TileOffsets[D]);
      if (S.Index != None && (S.Advance != T.Type.WindowExtents[D] ||
                              S.Start % S.Advance != 0))
        return false;
    }
    return true;
  }

private:
  struct Step {
    ValueId Index = None;
    std::int64_t Advance = 0, Start = 0;
  };

  /// The loop index offset \p E steps with and by how much per iteration;
  /// Index None when \p E is no affine offset of one.
  Step stepOf(ExprId E) const {
    for (const auto &[Index, L] : LoopOf) {
      std::optional<AffineOffset> A = affine(E, Index);
      std::optional<std::int64_t> Advance =
          A && A->Scale > 0 ? advance(*L, A->Scale) : std::nullopt;
      if (Advance)
        return {Index, *Advance, A->Start};
    }
    return {};
  }

  /// A window whose offsets are written in the wrong order
  /// (a.tile<BM, BK>(k, m * BM) for (m * BM, k)): two of its dimensions
  /// each advance by the other's extent, and neither by its own. One error
  /// at the window, which the loops' checks then leave out.
  void checkOffsetOrder(ValueId V) {
    const hir::Value &T = K.Values[V];
    const std::vector<std::int64_t> &Extents = T.Type.WindowExtents;
    if (T.TileOf == None || T.TileOffsets.size() != Extents.size() ||
        llvm::is_contained(Refused, V))
      return;
    std::vector<Step> Steps;
    for (ExprId E : T.TileOffsets)
      Steps.push_back(stepOf(E));
    auto startsAt = [](std::int64_t Start, std::int64_t Advance) {
      return Start % Advance == 0;
    };
    for (std::size_t I = 0; I < Steps.size(); ++I)
      for (std::size_t J = I + 1; J < Steps.size(); ++J) {
        const Step &A = Steps[I], &B = Steps[J];
        if (A.Index == None || B.Index == None || A.Index == B.Index ||
            Extents[I] == A.Advance || Extents[J] == B.Advance ||
            Extents[I] != B.Advance || Extents[J] != A.Advance ||
            !startsAt(A.Start, B.Advance) || !startsAt(B.Start, A.Advance))
          continue;
        Finding F;
        F.Id = plugin::DiagId::err_tf_loop_coverage;
        F.Args = {"'" + K.Values[T.TileOf].Name + "'", std::to_string(I),
                  std::to_string(Extents[I]), std::to_string(A.Start),
                  "'" + K.Values[A.Index].Name + "'",
                  std::to_string(A.Advance),
                  "its offsets are in the wrong order: dimension " +
                      std::to_string(J) + " (" + std::to_string(Extents[J]) +
                      " wide) advances with '" + K.Values[B.Index].Name +
                      "' by " + std::to_string(B.Advance) +
                      "; swapped, each dimension advances by its own "
                      "extent: write the offsets in the order of '" +
                      K.Values[T.TileOf].Name + "''s dimensions"};
        F.Range = T.Range.valid() ? T.Range : K.Stmts[T.Def].Range;
        Out.push_back(std::move(F));
        Refused.push_back(V);
        return;
      }
  }

  /// The tile counts of a persistent or grid loop written in the wrong
  /// order (tf::persistent_tiles(cta, GN, GM)): each index's count divides
  /// by the other index's advance, and neither by its own. One error at the
  /// counts, with the swap as a fix-it when both are named; returns whether
  /// it was reported (the counts are then not checked one by one).
  bool checkCountOrder(const hir::Stmt &L) {
    if (L.Loop == hir::LoopKind::TileOffsets || L.Indices.size() < 2 ||
        L.Bounds.size() < L.Indices.size())
      return false;
    struct Count {
      std::optional<std::int64_t> Divisor;
      std::int64_t Advance = 0;
      std::pair<ValueId, unsigned> Key;
      const Window *First = nullptr;
    };
    std::vector<Groups> At;
    std::vector<Count> Counts;
    for (std::size_t I = 0; I < L.Indices.size(); ++I)
      At.push_back(groupsAt(L, I));
    for (std::size_t I = 0; I < L.Indices.size(); ++I) {
      Count C;
      const hir::Expr &E = resolve(L.Bounds[I]);
      if (E.Kind == ExprKind::CeilDiv)
        C.Divisor = constant(E.Rhs);
      for (const auto &[Key, Group] : At[I])
        if (Group.first > 0 && !Group.second.empty()) {
          C.Advance = Group.first;
          C.Key = Key;
          C.First = &Group.second.front();
          break;
        }
      Counts.push_back(C);
    }
    auto countName = [&](std::size_t I) -> std::string {
      const hir::Expr &E = K.Exprs[L.Bounds[I]];
      if (E.Kind == ExprKind::Ref && E.Ref < K.Values.size() &&
          !K.Values[E.Ref].Name.empty())
        return K.Values[E.Ref].Name;
      return {};
    };
    for (std::size_t I = 0; I < Counts.size(); ++I)
      for (std::size_t J = I + 1; J < Counts.size(); ++J) {
        const Count &A = Counts[I], &B = Counts[J];
        if (!A.Divisor || !B.Divisor || !A.First || !B.First ||
            *A.Divisor == A.Advance || *B.Divisor == B.Advance ||
            *A.Divisor != B.Advance || *B.Divisor != A.Advance)
          continue;
        const std::string NameA = countName(I), NameB = countName(J);
        auto spelled = [](const std::string &Name) {
          return Name.empty() ? std::string() : " (" + Name + ")";
        };
        Finding F;
        F.Id = plugin::DiagId::err_tf_loop_coverage;
        F.Args = {"'" + K.Values[A.Key.first].Name + "'",
                  std::to_string(A.Key.second), std::to_string(A.First->Extent),
                  std::to_string(A.First->Start),
                  "'" + K.Values[L.Indices[I]].Name + "'",
                  std::to_string(A.Advance),
                  "the loop's tile counts are in the wrong order: the count "
                  "of '" + K.Values[L.Indices[I]].Name + "'" + spelled(NameA) +
                      " divides by " + std::to_string(*A.Divisor) +
                      " (ceil_div) and that of '" +
                      K.Values[L.Indices[J]].Name + "'" + spelled(NameB) +
                      " by " + std::to_string(*B.Divisor) + "; swap them"};
        const hir::SourceRange &First = K.Exprs[L.Bounds[I]].Range;
        const hir::SourceRange &Second = K.Exprs[L.Bounds[J]].Range;
        F.Range = First.valid() ? First : L.Range;
        if (!NameA.empty() && !NameB.empty() && First.valid() &&
            Second.valid()) {
          F.FixIts.push_back({First, NameB});
          F.FixIts.push_back({Second, NameA});
        }
        Out.push_back(std::move(F));
        return true;
      }
    return false;
  }

  /// The windows along one dimension cover [0, Advance) exactly.
  void checkGroup(const hir::Stmt &L, ValueId Index, ValueId Tensor,
                  unsigned Dim, std::int64_t Advance,
                  std::vector<Window> &Windows) {
    // A window at Start >= Advance (or < 0) is another iteration's: the
    // prefetch of the next tile at m * 128 + 128 is the window at m * 128
    // one iteration early. Compare windows within one iteration.
    for (Window &W : Windows)
      W.Start = ((W.Start % Advance) + Advance) % Advance;
    std::stable_sort(Windows.begin(), Windows.end(),
                     [](const Window &A, const Window &B) {
                       return std::pair(A.Start, A.Extent) <
                              std::pair(B.Start, B.Extent);
                     });
    std::int64_t Covered = 0;
    const Window *Last = nullptr;
    for (const Window &W : Windows) {
      if (Last && W.Start == Last->Start && W.Extent == Last->Extent)
        continue; // the same window again
      std::string Problem;
      if (W.Start > Covered)
        Problem = "elements " + std::to_string(Covered) + ".." +
                  std::to_string(W.Start - 1) + " of every " +
                  std::to_string(Advance) + " are never touched";
      else if (W.Start < Covered)
        Problem = "it overlaps the window before it by " +
                  std::to_string(Covered - W.Start) +
                  " elements, which are touched twice";
      else if (W.Start + W.Extent > Advance)
        Problem = "it reaches " + std::to_string(W.Start + W.Extent - Advance) +
                  " elements into the next iteration's windows, which are "
                  "touched twice";
      if (!Problem.empty())
        return report(L, Index, Tensor, Dim, Advance, W, Problem);
      Covered = W.Start + W.Extent;
      Last = &W;
    }
    if (Last && Covered < Advance)
      report(L, Index, Tensor, Dim, Advance, *Last,
             "elements " + std::to_string(Covered) + ".." +
                 std::to_string(Advance - 1) + " of every " +
                 std::to_string(Advance) + " are never touched");
  }

  /// A tile count ceil_div(E, Q) of a persistent or grid loop agrees with
  /// the windows' advance.
  void checkTileCount(const hir::Stmt &L, std::size_t I,
                      const Groups &At) {
    if (I >= L.Bounds.size())
      return;
    const hir::Expr &Count = resolve(L.Bounds[I]);
    if (Count.Kind != ExprKind::CeilDiv)
      return;
    std::optional<std::int64_t> Q = constant(Count.Rhs);
    if (!Q)
      return;
    for (const auto &[Key, Group] : At) {
      if (Group.first <= 0 || Group.first == *Q || Group.second.empty())
        continue;
      const Window &W = Group.second.front();
      report(L, L.Indices[I], Key.first, Key.second, Group.first, W,
             "the loop's tile count divides by " + std::to_string(*Q) +
                 " (ceil_div), so its tiles " +
                 (*Q > Group.first ? "stop short of the end"
                                   : "run past the end") +
                 "; divide by " + std::to_string(Group.first),
             Count.Range);
      return;
    }
  }

  /// The error is where the mistake is written: \p Written when the caller
  /// knows (a tile count), at a tile_offsets loop's step when the window
  /// sits at the bare index (`k`), else at the window, whose offset
  /// (`m * BM`, `k + 16`) states it; a note points at the other place.
  void report(const hir::Stmt &L, ValueId Index, ValueId Tensor, unsigned Dim,
              std::int64_t Advance, const Window &W, const std::string &Why,
              hir::SourceRange Written = {}) {
    const hir::Value &Tile = K.Values[W.Tile];
    const hir::Value &Idx = K.Values[Index];
    hir::SourceRange Step = Written;
    if (!Step.valid() && L.Loop == hir::LoopKind::TileOffsets &&
        L.Bounds.size() == 2 && isIndex(Tile.TileOffsets[Dim], Index))
      Step = K.Exprs[L.Bounds[1]].Range;
    Finding F;
    F.Id = plugin::DiagId::err_tf_loop_coverage;
    F.Args = {"'" + K.Values[Tensor].Name + "'", std::to_string(Dim),
              std::to_string(W.Extent), std::to_string(W.Start),
              "'" + Idx.Name + "'", std::to_string(Advance), Why};
    hir::SourceRange Window = Tile.Range.valid() ? Tile.Range : L.Range;
    if (Step.valid()) {
      F.Range = Step;
      F.Notes.push_back({plugin::DiagId::note_tf_derived,
                         Window,
                         {"the window along dimension " + std::to_string(Dim) +
                          " is " + std::to_string(W.Extent) +
                          " elements wide here"},
                         {},
                         {}});
    } else {
      F.Range = Window;
      hir::SourceRange Loop = L.Range;
      Loop.End = Loop.Begin;
      F.Notes.push_back({plugin::DiagId::note_tf_derived,
                         Loop,
                         {"'" + Idx.Name + "' advances by " +
                          std::to_string(Advance) +
                          " elements of that dimension per tile here"},
                         {},
                         {}});
    }
    Out.push_back(std::move(F));
  }
};

} // namespace

std::vector<Finding> checkCoverage(const hir::Kernel &K) {
  std::vector<Finding> Out;
  CoverageChecker(K, Out).run();
  return Out;
}

bool windowFitsItsLoops(const hir::Kernel &K, hir::ValueId Window) {
  std::vector<Finding> Unused;
  return Window < K.Values.size() &&
         CoverageChecker(K, Unused).fitsItsLoops(Window);
}

} // namespace tf::analysis
