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
// the next tile at m * 128 + 128); one error per loop index. An offset of any other form, or one whose terms are not
// compile-time constants, is not checked.
//
//===----------------------------------------------------------------------===//

#include "analysis/Analysis.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace tf::analysis {
namespace {

using hir::ExprId;
using hir::ExprKind;
using hir::None;
using hir::StmtId;
using hir::ValueId;

/// An offset `Index * Scale + Start`.
struct AffineOffset {
  std::int64_t Scale = 1;
  std::int64_t Start = 0;
};

class CoverageChecker {
public:
  CoverageChecker(const hir::Kernel &K, std::vector<Finding> &Out)
      : K(K), Out(Out) {}

  void run() {
    for (StmtId S = 0; S < K.Stmts.size(); ++S) {
      const hir::Stmt &L = K.Stmts[S];
      if (L.Kind != hir::StmtKind::Loop)
        continue;
      for (std::size_t I = 0; I < L.Indices.size(); ++I)
        checkIndex(L, I);
    }
  }

private:
  const hir::Kernel &K;
  std::vector<Finding> &Out;

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

  void checkIndex(const hir::Stmt &L, std::size_t I) {
    ValueId Index = L.Indices[I];
    bool TileOffsets = L.Loop == hir::LoopKind::TileOffsets;
    std::optional<std::int64_t> Step =
        TileOffsets && L.Bounds.size() == 2 ? constant(L.Bounds[1])
                                            : std::nullopt;
    if (TileOffsets && !Step)
      return;
    // (tensor, dimension) -> the advance and the windows at this index.
    std::map<std::pair<ValueId, unsigned>,
             std::pair<std::int64_t, std::vector<Window>>>
        Groups;
    for (ValueId V = 0; V < K.Values.size(); ++V) {
      const hir::Value &T = K.Values[V];
      if (T.TileOf == None ||
          T.TileOffsets.size() != T.Type.WindowExtents.size())
        continue;
      for (unsigned D = 0; D < T.TileOffsets.size(); ++D) {
        std::optional<AffineOffset> A = affine(T.TileOffsets[D], Index);
        if (!A || A->Scale <= 0)
          continue;
        std::int64_t Advance = TileOffsets ? *Step * A->Scale : A->Scale;
        auto [It, New] = Groups.try_emplace({T.TileOf, D}, Advance,
                                            std::vector<Window>{});
        if (It->second.first != Advance) {
          It->second.first = 0; // mixed advances: not checked
          continue;
        }
        It->second.second.push_back({V, A->Start, T.Type.WindowExtents[D]});
      }
    }
    // One mistake, one error: the first tensor whose windows do not tile
    // stands for the others at the same index (a K loop's wrong step shows
    // in A's and B's windows alike).
    std::size_t Reported = Out.size();
    for (auto &[Key, Group] : Groups)
      if (Group.first > 0 && Out.size() == Reported)
        checkGroup(L, Index, Key.first, Key.second, Group.first, Group.second);
    if (!TileOffsets && Out.size() == Reported)
      checkTileCount(L, I, Groups);
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
  void checkTileCount(
      const hir::Stmt &L, std::size_t I,
      const std::map<std::pair<ValueId, unsigned>,
                     std::pair<std::int64_t, std::vector<Window>>> &Groups) {
    if (I >= L.Bounds.size())
      return;
    const hir::Expr &Count = resolve(L.Bounds[I]);
    if (Count.Kind != ExprKind::CeilDiv)
      return;
    std::optional<std::int64_t> Q = constant(Count.Rhs);
    if (!Q)
      return;
    for (const auto &[Key, Group] : Groups) {
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

} // namespace tf::analysis
