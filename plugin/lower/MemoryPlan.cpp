//===- plugin/lower/MemoryPlan.cpp - The shared-memory map ----------------===//
//
// See MemoryPlan.h.
//
//===----------------------------------------------------------------------===//
#include "lower/MemoryPlan.h"

#include "analysis/Capacity.h"
#include "analysis/Site.h"
#include "backend/Backend.h"

#include "tf/layout/text/print.hpp"

#include <algorithm>
#include <map>

namespace tf::lower {

namespace {

std::int64_t alignTo(std::int64_t X, std::int64_t A) {
  return (X + A - 1) / A * A;
}

/// The ring or buffer an op's result lives in: a copy into a ring yields a
/// slot of it, a copy into a shared-memory buffer yields the buffer.
void recordBacking(LoweringContext &Ctx) {
  const hir::Kernel &H = Ctx.H;
  // The op that fills each ring and buffer first.
  std::map<hir::ValueId, hir::StmtId> Producer;
  for (hir::StmtId Id : H.preorder()) {
    const hir::Stmt &S = H.Stmts[Id];
    if (S.Kind != hir::StmtKind::Op || !S.Sched || S.Operands.size() != 2 ||
        S.Result == hir::None)
      continue;
    const hir::ValueId Dst = S.Operands[1];
    const hir::Value &D = H.Values[Dst];
    const bool IntoRing = D.Kind == hir::ValueKind::Ring;
    const bool IntoBuffer = D.Kind == hir::ValueKind::Tensor &&
                            D.Type.Where == Storage::smem &&
                            D.TileOf == hir::None;
    if (!IntoRing && !IntoBuffer)
      continue;
    if (auto [First, New] = Producer.try_emplace(Dst, Id); !New)
      Ctx.refuse(plugin::DiagId::err_tf_lower_two_producers,
                 LoweringContext::at(S), {Ctx.valueName(Dst)},
                 {{plugin::DiagId::note_tf_lower_first_fill,
                   LoweringContext::at(H.Stmts[First->second]),
                   {Ctx.valueName(Dst)},
                   {},
                   {}}});
    Ctx.Backing[S.Result] = Dst;
  }
}

} // namespace

void planViews(LoweringContext &Ctx) {
  recordBacking(Ctx);
  const hir::Kernel &H = Ctx.H;
  std::int64_t Cursor = 0;
  for (const analysis::SharedAllocation &A : analysis::sharedAllocations(H)) {
    const hir::Value &V = H.Values[A.V];
    if (!A.SlotBytes) {
      Ctx.refuse(plugin::DiagId::err_tf_lower_view, V.Range,
                 {"'" + A.Name + "'",
                  "its extents are run-time values; every shared-memory "
                  "view is placed at a fixed offset"});
      continue;
    }
    const LayoutText &T = V.Type.Layout;
    const backend::ViewAlignment Align = Ctx.Backend.viewAlignment(T);
    if (Align.Align <= 0) {
      Ctx.refuse(plugin::DiagId::err_tf_lower_view, V.Range,
                 {"'" + A.Name + "'", Align.Why});
      continue;
    }
    std::vector<std::int64_t> Shape;
    IntTuple S = V.Type.shape();
    for (int I = 0; I < S.rank(); ++I)
      Shape.push_back(product(S.mode(I)).ok() ? *product(S.mode(I)) : -1);
    const int Stages = A.Stages > 0 ? A.Stages : 1;
    for (int Stage = 0; Stage < Stages; ++Stage) {
      Region R;
      R.Kind = A.Stages > 0 ? RegionKind::RingStage : RegionKind::Buffer;
      R.Name = A.Stages > 0 ? A.Name + "[" + std::to_string(Stage) + "]"
                            : A.Name;
      R.Align = Align.Align;
      R.AlignReason = Align.AlignReason;
      R.Offset = alignTo(Cursor, Align.Align);
      R.Bytes = *A.SlotBytes;
      R.Value = A.V;
      R.Stage = Stage;
      R.Element = V.Type.Element;
      R.Layout = to_string(T);
      R.Shape = Shape;
      Cursor = R.Offset + R.Bytes;
      Ctx.L.Regions.push_back(std::move(R));
      if (Stage == 0)
        Ctx.Views[A.V] = static_cast<RegionId>(Ctx.L.Regions.size() - 1);
    }
  }
}

RegionId scratchRegion(LoweringContext &Ctx, int Role, unsigned Turn,
                       std::int64_t Bytes) {
  Kernel &L = Ctx.L;
  auto [It, New] = Ctx.Scratch.try_emplace({Role, Turn}, None);
  // A region too small grows while it is the last one; else the role
  // takes a new one.
  if (New || (L.Regions[It->second].Bytes < Bytes &&
              It->second + 1 != L.Regions.size())) {
    std::int64_t Cursor = 0;
    for (const Region &R : L.Regions)
      Cursor = std::max(Cursor, R.Offset + R.Bytes);
    Region R;
    R.Kind = RegionKind::Scratch;
    // The role's mesh name up to any template arguments (`cta_threads` of
    // `cta_threads<Threads>`).
    const std::string &Mesh = Ctx.Roles[Role].Name;
    const std::string Base =
        Mesh.substr(0, std::min(Mesh.find('<'), Mesh.size())) + "_partials";
    R.Name = Base;
    for (int N = 2; llvm::any_of(L.Regions, [&](const Region &X) {
           return X.Name == R.Name;
         });
         ++N)
      R.Name = Base + "_" + std::to_string(N);
    // 16 bytes: a partial is read as one float, and a view's base needs
    // no more.
    R.Align = 16;
    R.AlignReason = "reduction partials";
    R.Offset = alignTo(Cursor, R.Align);
    R.Element = DType::f32;
    L.Regions.push_back(std::move(R));
    It->second = static_cast<RegionId>(L.Regions.size() - 1);
  }
  Region &R = L.Regions[It->second];
  R.Bytes = std::max(R.Bytes, Bytes);
  R.Shape = {R.Bytes / static_cast<std::int64_t>(sizeof(float))};
  R.Layout = "(" + std::to_string(R.Shape[0]) + "):(1)";
  return It->second;
}

void placeBarriers(LoweringContext &Ctx) {
  Kernel &L = Ctx.L;
  std::int64_t Cursor = 0;
  for (const Region &R : L.Regions) {
    Cursor = std::max(Cursor, R.Offset + R.Bytes);
    L.SharedAlign = std::max(L.SharedAlign, R.Align);
  }
  const BarrierObject Object = Ctx.Protocol->barrierObject();
  for (Barrier &B : L.Barriers)
    for (int I = 0; I < B.Count; ++I) {
      Region R;
      R.Kind = RegionKind::Barrier;
      R.Name = B.Name + "[" + std::to_string(I) + "]";
      R.Object = Object.Name;
      R.Align = Object.Align;
      R.AlignReason = Object.AlignReason;
      R.Offset = alignTo(Cursor, Object.Align);
      R.Bytes = Object.Bytes;
      Cursor = R.Offset + R.Bytes;
      L.Regions.push_back(std::move(R));
      B.Regions.push_back(static_cast<RegionId>(L.Regions.size() - 1));
    }
  L.SharedBytes = Cursor;
  // The capacity check warns at compile time; a kernel that does not fit
  // cannot be launched, so lowering refuses it.
  if (L.SharedBytes > L.SharedLimit)
    Ctx.refuse(plugin::DiagId::err_tf_lower_shared_memory,
               [&] {
                 hir::SourceRange At = Ctx.H.Range;
                 At.End = 0;
                 return At;
               }(),
               {Ctx.H.Name, std::to_string(L.SharedBytes),
                std::to_string(L.SharedLimit), Ctx.H.Target});
}

} // namespace tf::lower
