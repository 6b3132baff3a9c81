//===- plugin/analysis/Storage.cpp - One place per element ----------------===//
//
// checkStorage (Analysis.h): a tensor with storage of its own -- what
// tf::zeros, tf::empty and tf::full allocate, the slots of a tf::Ring -- is
// written element by element, so its layout must give each coordinate its
// own offset. A layout that puts two coordinates at one offset (an
// accumulator whose warpgroup stride is half what it must be) makes every
// write to one of them overwrite the other: the header-only run and the
// generated code compute garbage, and nothing else refuses it, since each
// atom's fragment of it is still well-formed. Views (tiles, broadcasts,
// parameters) may repeat offsets and are not checked.
//
// The check is exact on static layouts: sorted by stride, leaves whose
// strides each clear the span of the smaller ones are one place per element;
// otherwise the offsets are enumerated (up to MaxEnumerated elements) and
// the first two coordinates that meet are reported. The error stands at the
// first stride, in that order, that falls inside the span of the smaller
// ones, with the span as a fix-it when raising that one stride is enough
// (an accumulator's 8192 -> 16384); else at the layout text.
//
//===----------------------------------------------------------------------===//

#include "analysis/Analysis.h"

#include "tf/layout/text/print.hpp"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>
#include <string>

namespace tf::analysis {

using namespace hir;
using plugin::DiagId;

namespace {

/// Layouts with more elements are not enumerated (none of a kernel's
/// register or shared-memory tensors comes near).
constexpr std::int64_t MaxEnumerated = std::int64_t(1) << 22;

struct Leaf {
  std::int64_t Extent, Stride;
  /// Its index among the layout's leaves.
  int Index = 0;
};

/// The leaves of a static layout, or nothing when an extent or stride is
/// not a compile-time number.
std::optional<std::vector<Leaf>> staticLeaves(const Layout &L) {
  std::vector<Leaf> Out;
  for (int I = 0; I < L.shape.leaf_count(); ++I) {
    const Int &E = L.shape.leaf_at(I), &S = L.stride.leaf_at(I);
    if (!E.is_constant() || !S.is_constant())
      return std::nullopt;
    Out.push_back({*E.get(), *S.get(), I});
  }
  return Out;
}

/// A leaf whose stride falls inside the span of the leaves with smaller
/// strides, and that span: the least stride that would clear it.
struct Inside {
  Leaf At;
  std::int64_t Span = 0;
};

/// The first leaf, sorted by stride, that starts inside the span of the
/// smaller ones; none: every coordinate has an offset of its own.
std::optional<Inside> firstInside(std::vector<Leaf> Leaves) {
  llvm::erase_if(Leaves, [](const Leaf &L) { return L.Extent == 1; });
  llvm::stable_sort(Leaves, [](const Leaf &A, const Leaf &B) {
    return A.Stride < B.Stride;
  });
  std::int64_t Span = 1; // one past the largest offset so far
  for (const Leaf &L : Leaves) {
    if (L.Stride < Span)
      return Inside{L, Span};
    Span += (L.Extent - 1) * L.Stride;
  }
  return std::nullopt;
}

struct Collision {
  std::int64_t First, Second, Offset;
};

/// The first index whose offset an earlier index already has.
std::optional<Collision> firstCollision(const Layout &L, std::int64_t Size) {
  llvm::DenseMap<std::int64_t, std::int64_t> Seen;
  for (std::int64_t I = 0; I < Size; ++I) {
    Result<IntTuple> Crd = idx2crd(I, L.shape);
    if (!Crd)
      return std::nullopt;
    Result<std::int64_t> Offset = evaluate(L, *Crd);
    if (!Offset)
      return std::nullopt;
    auto [It, New] = Seen.try_emplace(*Offset, I);
    if (!New)
      return Collision{It->second, I, *Offset};
  }
  return std::nullopt;
}

/// Whether \p V has storage of its own: a ring's slots, what an allocating
/// op returns.
bool ownsStorage(const Kernel &K, const Value &V) {
  if (V.Kind == ValueKind::Ring)
    return true;
  if (V.Kind != ValueKind::Tensor || V.Def == None)
    return false;
  const Stmt &S = K.Stmts[V.Def];
  return S.Kind == StmtKind::Op && opInfo(S.Op).Class == OpClass::Allocate;
}

void checkValue(const Kernel &K, ValueId Id, std::vector<Finding> &Out) {
  const Value &V = K.Values[Id];
  const TensorType &T = V.Type;
  if (T.Where != Storage::rmem && T.Where != Storage::smem)
    return;
  const Layout &L = T.Layout.layout;
  std::optional<std::vector<Leaf>> Leaves = staticLeaves(L);
  if (!Leaves ||
      llvm::any_of(*Leaves, [](const Leaf &Lf) { return Lf.Stride < 0; }))
    return;
  std::optional<Inside> In = firstInside(*Leaves);
  if (!In)
    return;
  Result<std::int64_t> Size = size(L);
  if (!Size || *Size > MaxEnumerated)
    return;
  std::optional<Collision> C = firstCollision(L, *Size);
  if (!C)
    return;
  auto coordinate = [&](std::int64_t I) {
    Result<IntTuple> Crd = idx2crd(I, L.shape);
    return Crd ? to_string(*Crd) : std::to_string(I);
  };
  // Raising the one stride to the span: offered when that alone gives each
  // element its place.
  std::vector<Leaf> Raised = *Leaves;
  Raised[In->At.Index].Stride = In->Span;
  const bool Fixable = !firstInside(Raised) &&
                       In->At.Index < static_cast<int>(T.StrideRanges.size());
  const SourceRange &At = Fixable                  ? T.StrideRanges[In->At.Index]
                          : T.LayoutRange.valid() ? T.LayoutRange
                                                  : V.Range;
  Finding F{DiagId::err_tf_layout_overlap,
            At,
            {"'" + V.Name + "'", std::string(name(T.Where)),
             coordinate(C->First), coordinate(C->Second),
             std::to_string(C->Offset)},
            {},
            {}};
  if (Fixable)
    F.FixIts.push_back({At, std::to_string(In->Span)});
  if (At.Begin != V.Range.Begin && V.Range.valid())
    F.Notes.push_back({DiagId::note_tf_allocated,
                       V.Range,
                       {"'" + V.Name + "'"},
                       {},
                       {}});
  Out.push_back(std::move(F));
}

} // namespace

std::vector<Finding> checkStorage(const Kernel &K) {
  std::vector<Finding> Findings;
  for (ValueId Id = 0; Id < K.Values.size(); ++Id)
    if (ownsStorage(K, K.Values[Id]))
      checkValue(K, Id, Findings);
  return Findings;
}

} // namespace tf::analysis
