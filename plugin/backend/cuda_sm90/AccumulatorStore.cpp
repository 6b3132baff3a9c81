//===- plugin/backend/cuda_sm90/AccumulatorStore.cpp - Pairs ------------===//
//
// See AccumulatorStore.h. The decomposition is not assumed: every
// (thread, register) of the fragment is evaluated through the view's layout
// and compared with base + pair constant, so a layout this scheme cannot
// serve is refused here instead of storing to the wrong address.
//
//===----------------------------------------------------------------------===//
#include "backend/cuda_sm90/AccumulatorStore.h"

#include "tf/layout/text/parse.hpp"

#include "llvm/ADT/Twine.h"

namespace tf::backend::sm90 {

namespace {

llvm::Error fail(const lower::Region &View, const llvm::Twine &Why) {
  return llvm::createStringError("cannot store the accumulator into '" +
                                 View.Name + "': " + Why);
}

} // namespace

llvm::Expected<AccumulatorStore>
accumulatorStore(const lower::Region &View, const lower::RegisterFragment &Acc,
                 const lower::AccumulatorBlocks &Blocks, std::int64_t Groups) {
  const std::int64_t M = Acc.rows(), N = Acc.columns();
  if (Acc.threads() != 128 || Acc.registers() % 2 != 0)
    return fail(View, "the accumulator is not a warpgroup's fragment of "
                      "register pairs");
  if (Blocks.Rows < 1 || Blocks.Columns < 1)
    return fail(View, "the accumulator has no atom blocks");
  Result<LayoutText> Text = parse_layout_text(View.Layout);
  if (!Text)
    return fail(View, "its layout '" + View.Layout + "' does not parse");
  if (Text->has_offset || Text->has_axes)
    return fail(View, "its layout '" + View.Layout + "' is not a plain view");
  const std::int64_t Rows = M * Blocks.Rows * Groups,
                     Columns = N * Blocks.Columns;
  if (View.Shape.size() != 2 || View.Shape[0] != Rows ||
      View.Shape[1] != Columns)
    return fail(View, "the view is not the " + llvm::Twine(Rows) + " x " +
                          llvm::Twine(Columns) + " accumulator tile");
  const Layout &L = Text->layout;
  const std::int64_t Element = bytes(View.Element);
  bool Bad = false;
  // The pre-swizzle byte offset of element (Row, Col): the layout reads a
  // linear index of the (rows, columns) shape lexicographically.
  auto At = [&](std::int64_t Row, std::int64_t Col) -> std::int64_t {
    Result<std::int64_t> E = evaluate(L, Row * Columns + Col);
    if (!E) {
      Bad = true;
      return 0;
    }
    return *E * Element;
  };
  auto Place = [&](std::int64_t G, std::int64_t B, std::int64_t T,
                   std::int64_t Reg) {
    return Blocks.at(Acc, G, B, T, Reg);
  };

  // Where register Reg of block B of warpgroup 0's thread T lies.
  auto Of = [&](std::int64_t B, std::int64_t T, std::int64_t Reg) {
    const lower::FragmentCoord C = Place(0, B, T, Reg);
    return At(C.Row, C.Col);
  };
  AccumulatorStore S;
  S.Sw = Text->has_swizzle ? Text->swizzle : Swizzle{};
  S.GroupBytes = At(M * Blocks.Rows, 0);
  // A thread's base moves with its warp, lane / 4 and lane % 4.
  S.WarpBytes = Of(0, 32, 0) - Of(0, 0, 0);
  S.RowBytes = Of(0, 4, 0) - Of(0, 0, 0);
  S.QuadBytes = Of(0, 1, 0) - Of(0, 0, 0);
  // A pair is registers (2p, 2p + 1) of a block, two adjacent columns.
  S.Pairs = Acc.registers() / 2;
  for (std::int64_t B = 0; B < Blocks.count(); ++B)
    for (std::int64_t P = 0; P < S.Pairs; ++P)
      S.PairBytes.push_back(Of(B, 0, 2 * P));
  // The same decomposition of the elements' (row, column).
  auto Delta = [&](std::int64_t T) {
    const lower::FragmentCoord A = Place(0, 0, T, 0), B = Place(0, 0, 0, 0);
    return AccumulatorStore::Coord{A.Row - B.Row, A.Col - B.Col};
  };
  S.Group = {M * Blocks.Rows, 0};
  S.Warp = Delta(32);
  S.Lane8 = Delta(4);
  S.Lane4 = Delta(1);
  for (std::int64_t B = 0; B < Blocks.count(); ++B)
    for (std::int64_t P = 0; P < S.Pairs; ++P) {
      const lower::FragmentCoord C = Place(0, B, 0, 2 * P);
      S.Pair.push_back({C.Row, C.Col});
    }
  if (Bad || At(0, 0) != 0)
    return fail(View, "its layout does not map the tile from offset 0");

  const std::int64_t Word = 2 * Element;
  for (std::int64_t G = 0; G < Groups; ++G)
    for (std::int64_t W = 0; W < 4; ++W)
      for (std::int64_t R = 0; R < 8; ++R)
        for (std::int64_t Q = 0; Q < 4; ++Q) {
          const std::int64_t T = 32 * W + 4 * R + Q;
          const std::int64_t Base = G * S.GroupBytes + W * S.WarpBytes +
                                    R * S.RowBytes + Q * S.QuadBytes;
          const AccumulatorStore::Coord Origin{
              G * S.Group.Row + W * S.Warp.Row + R * S.Lane8.Row +
                  Q * S.Lane4.Row,
              W * S.Warp.Col + R * S.Lane8.Col + Q * S.Lane4.Col};
          for (std::int64_t B = 0; B < Blocks.count(); ++B)
            for (std::int64_t P = 0; P < S.Pairs; ++P) {
              const std::size_t I = static_cast<std::size_t>(B * S.Pairs + P);
              const lower::FragmentCoord C = Place(G, B, T, 2 * P);
              const lower::FragmentCoord Next{C.Row, C.Col + 1};
              if (Place(G, B, T, 2 * P + 1) != Next)
                return fail(View, "the accumulator's registers " +
                                      llvm::Twine(2 * P) + " and " +
                                      llvm::Twine(2 * P + 1) +
                                      " are not adjacent columns");
              if (C.Row != Origin.Row + S.Pair[I].Row ||
                  C.Col != Origin.Col + S.Pair[I].Col)
                return fail(View, "the accumulator's elements are not at a "
                                  "thread base plus a constant per register "
                                  "pair");
              const std::int64_t Bytes = Base + S.PairBytes[I];
              if (At(C.Row, C.Col) != Bytes ||
                  At(C.Row, C.Col + 1) != Bytes + Element)
                return fail(View, "its layout is not a thread base plus a "
                                  "constant per register pair");
              if (S.Sw(Bytes) % Word != 0 ||
                  S.Sw(Bytes + Element) != S.Sw(Bytes) + Element)
                return fail(View, "its swizzle splits a pair of columns");
            }
        }
  if (Bad)
    return fail(View, "its layout does not cover the tile");
  return S;
}

} // namespace tf::backend::sm90
