//===- tf/layout/composed_layout.hpp - Swizzle ∘ (offset + Layout) --------===//
//
// The layout of a shared-memory tile: a Layout of elements, an offset, and a
// Swizzle applied to the resulting byte offset. Written
// `((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)` or, as in the
// seed, `ComposedLayout(Swizzle(3,4,3), p0, Layout(...))`.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/layout.hpp"
#include "tf/layout/swizzle.hpp"

namespace tf {

struct ComposedLayout {
  Swizzle swizzle{};
  Int offset{};
  Layout layout{};

  friend constexpr bool operator==(const ComposedLayout &,
                                   const ComposedLayout &) = default;
};

} // namespace tf
