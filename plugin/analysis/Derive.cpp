//===- plugin/analysis/Derive.cpp - What follows from a decision ----------===//
//
// Derive.h: candidates the checks offer as fix-its.
//
//===----------------------------------------------------------------------===//

#include "analysis/Derive.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <cstdlib>

namespace tf::analysis {

Swizzle inBytes(const Swizzle &InElements, DType Element) {
  int Shift = 0;
  while ((8 << Shift) < bits(Element))
    ++Shift;
  return {InElements.bits, InElements.base + Shift, InElements.shift};
}

std::vector<Swizzle> swizzlesMeant(const Swizzle &Written, DType Element) {
  std::vector<Swizzle> Out;
  if (bits(Element) >= 16 && !Written.is_identity())
    Out.push_back(inBytes(Written, Element));
  for (int B = 3; B >= 1; --B)
    if (Swizzle S{B, 4, 3}; S != Written && !llvm::is_contained(Out, S))
      Out.push_back(S);
  return Out;
}

std::optional<ParamValue> nearest(const Reason &R, const Contract &C,
                                  std::int64_t Tile) {
  if (R.index < 0 || R.index >= static_cast<int>(C.params.size()))
    return std::nullopt;
  const ParamDef &D = C.params[R.index];
  if (R.kind == ReasonKind::param_derived)
    return R.expected_value;
  const ParamValues *Set = nullptr;
  if (R.kind == ReasonKind::param_case && R.variant >= 0 &&
      R.variant < static_cast<int>(D.cases.size()))
    Set = &D.cases[R.variant].allowed;
  else if (R.kind == ReasonKind::param_predicate &&
           R.predicate == ParamPredicate::allowed)
    Set = &D.allowed;
  if (Set) {
    if (Set->size() == 1)
      return (*Set)[0];
    if (R.value.kind != ParamKind::integer || Set->empty())
      return std::nullopt;
    const ParamValue *Best = nullptr;
    for (const ParamValue &V : *Set) {
      if (V.kind != ParamKind::integer)
        return std::nullopt;
      std::int64_t Dist = V.integer > R.value.integer
                              ? V.integer - R.value.integer
                              : R.value.integer - V.integer;
      if (!Best || Dist < (Best->integer > R.value.integer
                               ? Best->integer - R.value.integer
                               : R.value.integer - Best->integer))
        Best = &V;
    }
    return *Best;
  }
  if (R.kind != ReasonKind::param_predicate || !D.has_range ||
      R.value.kind != ParamKind::integer)
    return std::nullopt;
  const std::int64_t Step = D.step > 1 ? D.step : 1;
  // The multiples of Step in [Lo, Hi].
  std::int64_t Lo = (D.lo + Step - 1) / Step * Step;
  if (D.lo <= 0)
    Lo = D.lo / Step * Step;
  std::int64_t Hi = D.hi >= 0 ? D.hi / Step * Step : -((-D.hi + Step - 1) / Step * Step);
  if (Lo > Hi)
    return std::nullopt;
  std::int64_t V = R.value.integer;
  if (Tile > 0) {
    std::optional<std::int64_t> Best;
    for (std::int64_t X = std::max<std::int64_t>(Lo, Step); X <= Hi; X += Step)
      if (Tile % X == 0 && (!Best || std::abs(X - V) <= std::abs(*Best - V)))
        Best = X;
    if (Best)
      return ParamValue::of(*Best);
  }
  std::int64_t Down = V >= 0 ? V / Step * Step : -((-V + Step - 1) / Step * Step);
  std::int64_t Up = Down == V ? V : Down + Step;
  std::int64_t Pick = V - Down <= Up - V ? Down : Up;
  Pick = std::clamp(Pick, Lo, Hi);
  return ParamValue::of(Pick);
}

std::int64_t tileSizedBy(const Contract &C, const MatchReport &R,
                         const Name &P) {
  if (C.atom_shape.is_leaf() || C.atom_shape.rank() != 3)
    return 0;
  for (int D = 0; D < 3; ++D) {
    const IntTuple &M = C.atom_shape.mode(D);
    if (M.is_leaf() && M.leaf().is_symbolic() && M.leaf().symbol == P)
      return R.repeat.tile[D];
  }
  return 0;
}

std::optional<int> contiguousMode(const Layout &L) {
  if (L.shape.is_leaf())
    return std::nullopt;
  std::optional<int> Found;
  for (int I = 0; I < L.rank(); ++I) {
    IntTuple S = L.shape.mode(I), D = L.stride.mode(I);
    for (int J = 0; J < S.leaf_count() && J < D.leaf_count(); ++J) {
      const Int &E = S.leaf_at(J), &T = D.leaf_at(J);
      if (E.is_constant() && E.value > 1 && T.is_constant() && T.value == 1) {
        if (Found && *Found != I)
          return std::nullopt;
        Found = I;
      }
    }
  }
  return Found;
}

std::vector<std::int64_t> staticExtents(const IntTuple &Shape) {
  std::vector<std::int64_t> Out;
  const int Rank = Shape.is_leaf() ? 1 : Shape.rank();
  for (int I = 0; I < Rank; ++I) {
    Result<std::int64_t> E = product(Shape.is_leaf() ? Shape : Shape.mode(I));
    if (!E)
      return {};
    Out.push_back(*E);
  }
  return Out;
}

std::optional<ComposedLayout> panelLayout(const std::vector<std::int64_t> &Box,
                                          int Bytes, Swizzle Written,
                                          int Contiguous) {
  if (Box.size() != 2 || Bytes <= 0 || Box[0] <= 0 || Box[1] <= 0)
    return std::nullopt;
  if (Contiguous == 0) {
    std::optional<ComposedLayout> Rows =
        panelLayout({Box[1], Box[0]}, Bytes, Written);
    if (!Rows)
      return std::nullopt;
    Layout &L = Rows->layout;
    L.shape = IntTuple{L.shape.mode(1), L.shape.mode(0)};
    L.stride = IntTuple{L.stride.mode(1), L.stride.mode(0)};
    return Rows;
  }
  const std::int64_t R = Box[0], Cols = Box[1];
  auto leaf = [](std::int64_t X) { return IntTuple(Int(X)); };
  ComposedLayout Out;
  const std::int64_t Span = Written.is_identity() ? 0 : 16 << Written.bits;
  if (Span == 0 || Cols * Bytes <= Span) {
    Out.layout.shape = IntTuple{leaf(R), leaf(Cols)};
    Out.layout.stride = IntTuple{leaf(Cols), leaf(1)};
    if (Span != 0)
      for (int B = 3; B >= 1; --B)
        if (Cols * Bytes == (16 << B))
          Out.swizzle = Swizzle{B, 4, 3};
    return Out;
  }
  const std::int64_t P = Span / Bytes;
  if (Cols % P != 0)
    return std::nullopt;
  Out.swizzle = Written;
  Out.layout.shape = IntTuple{leaf(R), IntTuple{leaf(Cols / P), leaf(P)}};
  Out.layout.stride = IntTuple{leaf(P), IntTuple{leaf(R * P), leaf(1)}};
  return Out;
}

std::int64_t leadingGroups(const ShardLayout &Pattern, const Mesh &Where) {
  // Units: the pattern mesh's leaves are Where's trailing top-level modes.
  const int Units = Pattern.mesh.layout.shape.leaf_count();
  const int Lead = Where.rank() - Units;
  if (Lead < 0 || Where.axes.size() != static_cast<std::size_t>(Where.rank()))
    return 0;
  for (int U = 0; U < Units; ++U) {
    Result<std::int64_t> Have = size(Where.layout.mode(Lead + U));
    const Int &Want = Pattern.mesh.layout.shape.leaf_at(U);
    if (!Have || !Want.is_constant() || *Have != *Want.get())
      return 0;
  }
  std::int64_t Groups = 1;
  for (int G = 0; G < Lead; ++G) {
    Result<std::int64_t> E = size(Where.layout.mode(G));
    if (!E)
      return 0;
    Groups *= *E;
  }
  return Groups;
}

std::optional<ShardLayout>
tiledAccumulator(const ShardLayout &Pattern, const Mesh &Where, std::int64_t AM,
                 std::int64_t AN, std::int64_t TM, std::int64_t TN) {
  const Layout &P = Pattern.layout;
  const int Leaves = P.shape.leaf_count();
  if (Leaves < 2 || Pattern.axes.size() != static_cast<std::size_t>(Leaves) ||
      AM <= 0 || AN <= 0 || TM % AM != 0 || TN % AN != 0)
    return std::nullopt;
  const std::int64_t Groups = leadingGroups(Pattern, Where);
  const int Units = Pattern.mesh.layout.shape.leaf_count();
  const int Lead = Where.rank() - Units;
  if (Groups == 0 || TM % (AM * Groups) != 0)
    return std::nullopt;
  // The fragment's leaves, split into M and N where the products are the
  // atom's extents; one symbolic leaf per mode is solved.
  struct Leaf {
    std::int64_t Extent = 1, Stride = 0;
    AxisRef Axis{};
  };
  std::vector<Leaf> M, N;
  for (int Split = 1; Split < Leaves && M.empty(); ++Split) {
    std::vector<Leaf> Modes[2];
    bool Ok = true;
    for (int Part = 0; Part < 2 && Ok; ++Part) {
      const int Begin = Part == 0 ? 0 : Split, End = Part == 0 ? Split : Leaves;
      const std::int64_t Want = Part == 0 ? AM : AN;
      std::int64_t Known = 1;
      int Symbol = -1;
      for (int I = Begin; I < End && Ok; ++I) {
        const Int &E = P.shape.leaf_at(I), &S = P.stride.leaf_at(I);
        Ok = S.is_constant();
        if (E.is_constant())
          Known *= *E.get();
        else if (Symbol < 0)
          Symbol = I;
        else
          Ok = false;
        Modes[Part].push_back(
            {E.is_constant() ? *E.get() : 0, Ok ? *S.get() : 0,
             Pattern.axes[static_cast<std::size_t>(I)]});
      }
      if (!Ok)
        break;
      if (Symbol >= 0) {
        Ok = Want % Known == 0;
        Modes[Part][static_cast<std::size_t>(Symbol - Begin)].Extent =
            Ok ? Want / Known : 0;
      } else {
        Ok = Known == Want;
      }
    }
    if (Ok) {
      M = Modes[0];
      N = Modes[1];
    }
  }
  if (M.empty() || N.empty())
    return std::nullopt;
  const std::int64_t Atom = AM * AN;
  const std::int64_t RN = TN / AN, T = TM / (AM * Groups);
  // Outside the fragment: N's atoms, then M's sequential rows of atoms,
  // then the groups.
  std::int64_t Span = Atom;
  auto outer = [&](std::vector<Leaf> &Mode, std::int64_t Count, AxisRef Axis) {
    if (Count == 1)
      return;
    Leaf &First = Mode.front();
    if (!First.Axis.bound() && !Axis.bound() &&
        Span == First.Extent * First.Stride)
      First.Extent *= Count; // continues the fragment's outermost leaf
    else
      Mode.insert(Mode.begin(), Leaf{Count, Span, Axis});
    Span *= Count;
  };
  outer(N, RN, AxisRef{});
  outer(M, T, AxisRef{});
  for (int G = Lead - 1; G >= 0; --G)
    outer(M, *size(Where.layout.mode(G)), axis(Where.axes[G]));
  // Fragment leaves bound to the pattern mesh's leaf U are bound to Where's
  // top-level mode Lead + U, by name.
  ShardLayout Out;
  Out.mesh = Where;
  for (std::vector<Leaf> *Mode : {&M, &N}) {
    IntTuple Shape, Stride;
    for (const Leaf &L : *Mode) {
      Shape.push_back(IntTuple(Int(L.Extent)));
      Stride.push_back(IntTuple(Int(L.Stride)));
      AxisRef A = L.Axis;
      if (A.index >= 0)
        A = A.index < Units ? axis(Where.axes[Lead + A.index]) : AxisRef{};
      Out.axes.push_back(A);
    }
    Out.layout.shape.push_back(Shape);
    Out.layout.stride.push_back(Stride);
  }
  return Out;
}

} // namespace tf::analysis
