//===- tf/scheduler/tile_offsets.hpp - Offsets of the tiles of an extent --===//
//
// The K loop of a GEMM:
//
//   for (int k : tf::tile_offsets(a.extent(1), BK)) ...   // 0, BK, 2*BK, ... < K
//
// yields the first element of every tile of `step` elements along an extent
// of `extent` elements: 0, step, 2*step, ... while < extent. The extent may
// be a run-time value; the step is a run-time value or a static one,
// `tf::tile_offsets<BK>(K)`. When step does not divide extent the last tile
// is partial (it starts before extent and ends after it): bounded tiles
// (`Tensor::tile`) read its missing elements as zero and do not write them.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/support/error.hpp"

#include <concepts>
#include <cstdint>
#include <type_traits>

namespace tf {

/// The range 0, step, 2*step, ... < extent, of values of type T.
template <std::integral T> class TileOffsets {
public:
  using value_type = T;

  class iterator {
  public:
    using value_type = T;
    using difference_type = std::ptrdiff_t;

    constexpr iterator() = default;
    constexpr iterator(T value, T step) : Value(value), Step(step) {}

    constexpr T operator*() const { return Value; }
    constexpr iterator &operator++() {
      Value += Step;
      return *this;
    }
    constexpr iterator operator++(int) {
      iterator old = *this;
      ++*this;
      return old;
    }
    friend constexpr bool operator==(const iterator &a, const iterator &b) {
      return a.Value == b.Value;
    }

  private:
    T Value = 0;
    T Step = 1;
  };

  constexpr TileOffsets() = default;
  /// @pre extent >= 0, step > 0 (make_tile_offsets checks)
  constexpr TileOffsets(T extent, T step)
      : Extent(extent), Step(step),
        Count(extent > 0 ? (extent + step - 1) / step : 0) {}

  constexpr iterator begin() const { return {T(0), Step}; }
  /// One step past the last offset: Count * step.
  constexpr iterator end() const { return {static_cast<T>(Count * Step), Step}; }

  /// The number of tiles, ceil(extent / step).
  constexpr T size() const { return Count; }
  constexpr bool empty() const { return Count == 0; }
  /// The offset of tile `i`. @pre 0 <= i < size()
  constexpr T operator[](T i) const { return i * Step; }
  constexpr T extent() const { return Extent; }
  constexpr T step() const { return Step; }

private:
  T Extent = 0;
  T Step = 1;
  T Count = 0;
};

/// tile_offsets(extent, step), or the error of a negative extent or a step
/// that is not positive.
template <std::integral E, std::integral S>
constexpr Result<TileOffsets<std::common_type_t<E, S>>>
make_tile_offsets(E extent, S step) {
  using T = std::common_type_t<E, S>;
  if constexpr (std::is_signed_v<S>)
    if (step <= 0)
      return make_error(Errc::out_of_range,
                        "tf::tile_offsets(extent, step) needs a positive step; "
                        "{} given",
                        static_cast<std::int64_t>(step));
  if constexpr (!std::is_signed_v<S>)
    if (step == 0)
      return make_error(Errc::out_of_range,
                        "tf::tile_offsets(extent, step) needs a positive step; "
                        "0 given");
  if constexpr (std::is_signed_v<E>)
    if (extent < 0)
      return make_error(Errc::out_of_range,
                        "tf::tile_offsets(extent, step) needs an extent >= 0; "
                        "{} given",
                        static_cast<std::int64_t>(extent));
  return TileOffsets<T>(static_cast<T>(extent), static_cast<T>(step));
}

/// The offsets 0, step, 2*step, ... < extent of the tiles of `step` elements
/// along an extent of `extent` elements (the last tile may be partial).
/// A step <= 0 or an extent < 0 stops the program (or the compilation).
template <std::integral E, std::integral S>
[[clang::annotate("tf.op.tile_offsets")]] constexpr TileOffsets<
    std::common_type_t<E, S>>
tile_offsets(E extent, S step) {
  return make_tile_offsets(extent, step).value();
}

/// tile_offsets with a static step: `tf::tile_offsets<BK>(K)`.
template <auto Step, std::integral E>
[[clang::annotate("tf.op.tile_offsets")]] constexpr TileOffsets<
    std::common_type_t<E, decltype(Step)>>
tile_offsets(E extent) {
  static_assert(std::is_integral_v<decltype(Step)> && Step > 0,
                "tf::tile_offsets<Step>(extent): the static step must be a "
                "positive integer");
  return make_tile_offsets(extent, Step).value();
}

} // namespace tf
