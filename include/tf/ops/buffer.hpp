//===- tf/ops/buffer.hpp - Owning storage: Buffer, Ring, zeros, empty ------===//
//
// Tensors are views. In header-only execution the values a kernel creates
// (an smem tile, an rmem accumulator, the result of tf::cast) live in a
// tf::Buffer<TensorType>: owning storage of the view's cosize elements with
// value semantics (copying a Buffer copies its elements), convertible to the
// view. A tf::Ring<Slot, N> is N such buffers and a write counter: the k-th
// tile written into it goes to slot k % N.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/tensor.hpp"

#include <array>
#include <concepts>
#include <cstdint>
#include <limits>
#include <memory>
#include <utility>
#include <vector>

namespace tf {

namespace detail {
/// Aborts unless the leaves (`extents`, `strides`) give every coordinate an
/// offset of its own below `cosize`: a buffer is written element by element,
/// and a layout that puts two coordinates at one offset (an accumulator
/// whose warpgroup stride is half what it must be) makes every write to one
/// overwrite the other. Sorted by stride, leaves whose strides each clear
/// the span of the smaller ones are one place per element; otherwise (an
/// interleaving such as (3,2):(2,3)) the offsets are enumerated -- as many
/// steps as the buffer's zero fill.
template <std::size_t N>
void check_one_place_per_element(const std::array<std::int64_t, N> &extents,
                                 const std::array<std::int64_t, N> &strides,
                                 std::int64_t cosize) {
  std::array<std::size_t, N> order{};
  std::size_t n = 0;
  for (std::size_t i = 0; i < N; ++i)
    if (extents[i] > 1)
      order[n++] = i;
  for (std::size_t i = 1; i < n; ++i) // insertion sort by stride: N is small
    for (std::size_t j = i; j > 0 && strides[order[j]] < strides[order[j - 1]];
         --j)
      std::swap(order[j], order[j - 1]);
  std::int64_t span = 1; // one past the largest offset so far
  std::size_t inside = n;
  for (std::size_t i = 0; i < n && inside == n; ++i) {
    const std::size_t l = order[i];
    if (strides[l] < span)
      inside = i;
    else
      span = strides[l] * (extents[l] - 1) + span;
  }
  if (inside == n)
    return;
  std::vector<bool> taken(static_cast<std::size_t>(cosize > 0 ? cosize : 1));
  std::array<std::int64_t, N> coord{};
  std::int64_t size = 1;
  for (std::size_t i = 0; i < N; ++i)
    size *= extents[i];
  for (std::int64_t flat = 0; flat < size; ++flat) {
    std::int64_t offset = 0;
    for (std::size_t i = 0; i < N; ++i)
      offset += coord[i] * strides[i];
    if (offset < 0 || offset >= cosize || taken[static_cast<std::size_t>(offset)])
      tensor_fatal("tf::Buffer: the layout puts two coordinates at offset {} "
                   "(a stride of {} falls inside the span {} of the smaller "
                   "strides); storage of its own (tf::zeros, tf::empty, "
                   "tf::full, a tf::Ring slot) needs one place per element",
                   offset, strides[order[inside]], span);
    taken[static_cast<std::size_t>(offset)] = true;
    for (std::size_t i = N; i-- > 0;) // the last leaf fastest
      if (++coord[i] < extents[i])
        break;
      else
        coord[i] = 0;
  }
}
} // namespace detail

/// Owning storage for a view of type `TT` (a tf::Tensor in smem, rmem or
/// AMX tile registers).
template <class TT> class Buffer {
  static_assert(TT::storage == Storage::smem || TT::storage == Storage::rmem ||
                    TT::storage == Storage::amx_tile,
                "tf::Buffer: buffers hold smem, rmem or amx_tile tensors; a "
                "gmem tensor is a view of memory allocated outside the "
                "kernel, so declare the tensor type with tf::smem, tf::rmem "
                "or tf::amx_tile");

public:
  using tensor_type = TT;
  using element_type = typename TT::element_type;
  static constexpr Storage storage = TT::storage;
  static constexpr int rank = TT::rank;
  static constexpr std::int64_t static_extent(int i) {
    return TT::static_extent(i);
  }
  static constexpr bool is_static = TT::is_static;

  /// Storage for a view without `?` extents, zero-filled.
  Buffer()
    requires(TT::dynamic_extents == 0)
      : Buffer(TT().leaf_extents()) {}

  /// Storage for the view whose shape leaves are `shape` (`?` strides
  /// compact row-major), zero-filled.
  explicit Buffer(const std::array<std::int64_t, TT::leaves> &shape) {
    TT probe = TT::from_shape(nullptr, shape);
    count_ = probe.cosize();
    data_ = std::make_unique<element_type[]>(
        static_cast<std::size_t>(count_ > 0 ? count_ : 1));
    view_ = TT::from_leaves(data_.get(), probe.leaf_extents(),
                            probe.leaf_strides());
    detail::check_one_place_per_element(probe.leaf_extents(),
                                        probe.leaf_strides(), count_);
  }

  Buffer(const Buffer &o)
      : count_(o.count_),
        data_(std::make_unique<element_type[]>(
            static_cast<std::size_t>(o.count_ > 0 ? o.count_ : 1))) {
    for (std::int64_t i = 0; i < count_; ++i)
      data_[i] = o.data_[i];
    view_ = TT::from_leaves(data_.get(), o.view_.leaf_extents(),
                            o.view_.leaf_strides());
  }
  Buffer(Buffer &&) = default;
  Buffer &operator=(const Buffer &o) {
    if (this != &o)
      *this = Buffer(o);
    return *this;
  }
  Buffer &operator=(Buffer &&) = default;

  /// The view of this storage.
  const TT &view() const { return view_; }
  operator TT() const { return view_; }

  element_type *data() const { return data_.get(); }
  /// Elements of storage (the view's cosize).
  std::int64_t cosize() const { return count_; }
  std::int64_t extent(int i) const { return view_.extent(i); }
  std::int64_t size() const { return view_.size(); }
  Layout layout() const { return view_.layout(); }
  ElementRef<element_type> at(const std::array<std::int64_t, rank> &c) const {
    return view_.at(c);
  }
  template <std::integral... I> ElementRef<element_type> operator()(I... c) const {
    return view_(c...);
  }
  template <std::int64_t... E, std::integral... I> auto tile(I... origin) const {
    return view_.template tile<E...>(origin...);
  }

  /// Sets every element of storage to `v`.
  void fill(element_type v) {
    for (std::int64_t i = 0; i < count_; ++i)
      data_[i] = v;
  }

private:
  std::int64_t count_ = 0;
  std::unique_ptr<element_type[]> data_;
  TT view_{};
};

namespace detail {
/// The shape leaves of `TT` with its `?` extents set to `extents`.
template <class TT, std::size_t N>
std::array<std::int64_t, TT::leaves>
shape_leaves(const std::int64_t (&extents)[N]) {
  return TT(nullptr, extents).leaf_extents();
}

/// The value tf::empty fills with: NaN for floating types, so that reading
/// an element before writing it shows; 0 for integers.
template <class T> T poison() {
  if constexpr (is_floating_element<T>)
    return convert<T>(std::numeric_limits<float>::quiet_NaN());
  else
    return T(0);
}
} // namespace detail

/// A zero-filled buffer for tensor type `TT` (without `?` extents).
template <class TT>
[[clang::annotate("tf.op.zeros")]] Buffer<TT> zeros() {
  static_assert(TT::dynamic_extents == 0,
                "tf::zeros: the tensor type has '?' extents; give them: "
                "tf::zeros<T>({extents...})");
  return Buffer<TT>();
}

/// A zero-filled buffer for tensor type `TT` whose `?` extents are `extents`.
template <class TT, std::size_t N>
[[clang::annotate("tf.op.zeros")]] Buffer<TT>
zeros(const std::int64_t (&extents)[N]) {
  return Buffer<TT>(detail::shape_leaves<TT>(extents));
}

/// A buffer for tensor type `TT` whose contents are unspecified (header-only
/// execution fills floating types with NaN so that reads before writes show).
template <class TT>
[[clang::annotate("tf.op.empty")]] Buffer<TT> empty() {
  static_assert(TT::dynamic_extents == 0,
                "tf::empty: the tensor type has '?' extents; give them: "
                "tf::empty<T>({extents...})");
  Buffer<TT> b;
  b.fill(detail::poison<typename TT::element_type>());
  return b;
}

template <class TT, std::size_t N>
[[clang::annotate("tf.op.empty")]] Buffer<TT>
empty(const std::int64_t (&extents)[N]) {
  Buffer<TT> b(detail::shape_leaves<TT>(extents));
  b.fill(detail::poison<typename TT::element_type>());
  return b;
}

/// A buffer of tensor type `TT` with every element `value` (rounded once to
/// the element type): the start of a running reduction, e.g. a running
/// maximum at -inf. `value` is a floating-point scalar (a constant or a
/// kernel parameter).
template <class TT, std::floating_point S>
[[clang::annotate("tf.op.full")]] Buffer<TT> full(S value) {
  static_assert(TT::dynamic_extents == 0,
                "tf::full: the tensor type has '?' extents; tf::full needs a "
                "tensor type with static extents");
  Buffer<TT> b;
  b.fill(convert<typename TT::element_type>(value));
  return b;
}

/// N buffers of tensor type `Slot` used in rotation (an N-stage pipeline):
/// the k-th call of next() returns slot k % N, so the producer of the k-th
/// tile writes slot k % N and its consumer reads the same slot, N - 1 tiles
/// behind at most.
template <class Slot, int N> class [[clang::annotate("tf.type.ring")]] Ring {
  static_assert(N >= 1, "tf::Ring: a ring needs at least one buffer (N >= 1)");
  static_assert(Slot::dynamic_extents == 0,
                "tf::Ring: ring slots need a tensor type without '?' extents");

public:
  using slot_type = Slot;
  static constexpr int buffers = N;

  /// The slot for the next tile written, slot(count()); advances the counter.
  [[clang::annotate("tf.op.ring_next")]] Slot next() {
    return slot(count_++);
  }
  /// The slot the k-th written tile goes to: slot k % N.
  [[clang::annotate("tf.op.ring_slot")]] Slot slot(std::int64_t k) const {
    return slots_[static_cast<std::size_t>(((k % N) + N) % N)].view();
  }
  /// How many times next() was called.
  std::int64_t count() const { return count_; }
  Buffer<Slot> &buffer(int i) { return slots_[static_cast<std::size_t>(i)]; }

private:
  std::array<Buffer<Slot>, N> slots_{};
  std::int64_t count_ = 0;
};

} // namespace tf
