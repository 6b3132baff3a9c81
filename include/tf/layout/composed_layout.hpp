//===- tf/layout/composed_layout.hpp - Swizzle ∘ (offset + Layout) --------===//
//
// The layout of a shared-memory tile: a Layout of elements, an offset, and a
// Swizzle applied to the resulting byte offset. Written
// `((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)` or, in call
// style, `ComposedLayout(Swizzle(3,4,3), p0, Layout(...))`. The layout and the
// offset count elements while the swizzle acts on bytes (as the hardware's
// do), so evaluating needs the element size.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/layout.hpp"
#include "tf/layout/swizzle.hpp"

#include <cstdint>

namespace tf {

struct ComposedLayout {
  Swizzle swizzle{};
  Int offset{};
  Layout layout{};

  friend constexpr bool operator==(const ComposedLayout &,
                                   const ComposedLayout &) = default;
};

/// Why `sw` cannot act on `element_bytes`-byte elements, or nothing: the
/// element size must be a power of two and the swizzle must leave the bits
/// inside one element alone (1 << M >= element_bytes), so that a swizzled
/// element offset is again a whole element.
constexpr Result<bool> check_element_swizzle(const Swizzle &sw,
                                             int element_bytes) {
  if (element_bytes <= 0 || (element_bytes & (element_bytes - 1)) != 0)
    return make_error(Errc::precondition,
                      "element size {} is not a power of two bytes",
                      element_bytes);
  Result<Swizzle> valid = check_swizzle(sw);
  if (!valid)
    return valid.error();
  if (!sw.is_identity() && (std::int64_t(1) << sw.base) < element_bytes)
    return make_error(Errc::precondition,
                      "swizzle base bit {} splits {}-byte elements", sw.base,
                      element_bytes);
  return true;
}

/// The swizzled byte offset of coordinate `crd`:
/// swizzle((offset + L(crd)) * element_bytes). For
/// `(8,64):(64,1) | Swizzle(3,4,3)` on 2-byte elements, crd (1,0) is byte 144.
constexpr Result<std::int64_t> byte_offset(const ComposedLayout &c,
                                           const IntTuple &crd,
                                           int element_bytes) {
  Result<bool> fits = check_element_swizzle(c.swizzle, element_bytes);
  if (!fits)
    return fits.error();
  Result<std::int64_t> offset = c.offset.get();
  if (!offset)
    return offset.error();
  Result<std::int64_t> inner = evaluate(c.layout, crd);
  if (!inner)
    return inner.error();
  std::int64_t bytes = (*offset + *inner) * element_bytes;
  if (bytes < 0)
    return make_error(Errc::out_of_range,
                      "byte offset {} is negative; a swizzle needs an "
                      "address",
                      bytes);
  return c.swizzle(bytes);
}

/// The swizzled byte offset of linear index `idx`.
constexpr Result<std::int64_t> byte_offset(const ComposedLayout &c,
                                           std::int64_t idx,
                                           int element_bytes) {
  return byte_offset(c, IntTuple(idx), element_bytes);
}

/// The element offset of coordinate `crd`: byte_offset / element_bytes. For
/// `(8,64):(64,1) | Swizzle(3,4,3)` on 2-byte elements, crd (1,0) is 72.
constexpr Result<std::int64_t> evaluate(const ComposedLayout &c,
                                        const IntTuple &crd,
                                        int element_bytes) {
  Result<std::int64_t> bytes = byte_offset(c, crd, element_bytes);
  if (!bytes)
    return bytes;
  return *bytes / element_bytes;
}

/// The element offset of linear index `idx`.
constexpr Result<std::int64_t> evaluate(const ComposedLayout &c,
                                        std::int64_t idx, int element_bytes) {
  return evaluate(c, IntTuple(idx), element_bytes);
}

} // namespace tf
