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

llvm::Expected<AccumulatorStore> accumulatorStore(const lower::Region &View,
                                                  std::int64_t N,
                                                  std::int64_t Groups) {
  Result<LayoutText> Text = parse_layout_text(View.Layout);
  if (!Text)
    return fail(View, "its layout '" + View.Layout + "' does not parse");
  if (Text->has_offset || Text->has_axes)
    return fail(View, "its layout '" + View.Layout + "' is not a plain view");
  if (View.Shape.size() != 2 || View.Shape[0] != 64 * Groups ||
      View.Shape[1] != N)
    return fail(View, "the view is not the " + llvm::Twine(64 * Groups) +
                          " x " + llvm::Twine(N) + " accumulator tile");
  const Layout &L = Text->layout;
  const std::int64_t Element = bytes(View.Element);
  bool Bad = false;
  // The pre-swizzle byte offset of element (Row, Col): the layout reads a
  // linear index of the (rows, columns) shape lexicographically.
  auto At = [&](std::int64_t Row, std::int64_t Col) -> std::int64_t {
    Result<std::int64_t> E = evaluate(L, Row * N + Col);
    if (!E) {
      Bad = true;
      return 0;
    }
    return *E * Element;
  };

  AccumulatorStore S;
  S.Sw = Text->has_swizzle ? Text->swizzle : Swizzle{};
  S.GroupBytes = At(64, 0);
  S.WarpBytes = At(16, 0);
  S.RowBytes = At(1, 0);
  S.QuadBytes = At(0, 2);
  // PTX's D fragment: register 4j + 2h + e of thread (warp, lane8, lane4)
  // holds row 16 warp + 8 h + lane8, column 8 j + 2 lane4 + e; a pair is
  // (j, h) with e = 0, 1.
  for (std::int64_t P = 0; P < N / 4; ++P)
    S.PairBytes.push_back(At(8 * (P % 2), 8 * (P / 2)));
  if (Bad || At(0, 0) != 0)
    return fail(View, "its layout does not map the tile from offset 0");

  const std::int64_t Word = 2 * Element;
  for (std::int64_t G = 0; G < Groups; ++G)
    for (std::int64_t W = 0; W < 4; ++W)
      for (std::int64_t R = 0; R < 8; ++R)
        for (std::int64_t Q = 0; Q < 4; ++Q) {
          const std::int64_t Base = G * S.GroupBytes + W * S.WarpBytes +
                                    R * S.RowBytes + Q * S.QuadBytes;
          for (std::int64_t P = 0; P < N / 4; ++P) {
            const std::int64_t Row = 64 * G + 16 * W + 8 * (P % 2) + R;
            const std::int64_t Col = 8 * (P / 2) + 2 * Q;
            const std::int64_t Bytes = Base + S.PairBytes[P];
            if (At(Row, Col) != Bytes || At(Row, Col + 1) != Bytes + Element)
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
