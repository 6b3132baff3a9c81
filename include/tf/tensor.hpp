//===- tf/tensor.hpp - Tensors: typed views with layouts in their type -----===//
//
//   tf::Tensor<tf::bf16, "(?,?)">                                   gmem M x K
//   tf::Tensor<tf::bf16, "((2,8,8),(4,16)):((4096,512,64),(16,1))"
//                        " | Swizzle(3,4,3)", tf::smem>             smem tile
//   tf::Tensor<float, "((2@group,4@warp,2,8@lane8),(32,4@lane4,2))"
//                     ":((16384,16,8,1),(512,128,64))", tf::rmem>   accumulator
//
// The layout text is parsed once, at compile time, into the static member
// `text`; a malformed text does not compile. A Tensor is a view: it holds
// the pointer and the run-time values of the `?` extents and strides. Its
// top-level modes are its dimensions; a coordinate of a hierarchical mode is
// a linear index into that mode, read lexicographically. An element's offset
// is swizzle((offset + L(c)) * sizeof(T)) / sizeof(T) (swizzles act on
// bytes). Axis bindings (`@warp`) say which unit holds an element;
// header-only execution ignores them and indexes the codomain directly.
//
// `t.tile<BM, BK>(m0, k0)` is a Window: a BM x BK view at (m0, k0) with
// bounds, so reads beyond the parent's extents give 0 and writes there are
// dropped (tiles at the edges of M, N, K that are not multiples of the tile).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/dtype.hpp"
#include "tf/element.hpp"
#include "tf/layout/text/literal.hpp"
#include "tf/layout/text/parse.hpp"
#include "tf/support/error.hpp"
#include "tf/support/fixed_string.hpp"

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace tf {

/// Storage of a tensor, as written in its type.
inline constexpr Storage gmem = Storage::gmem;
inline constexpr Storage smem = Storage::smem;
inline constexpr Storage rmem = Storage::rmem;
inline constexpr Storage amx_tile = Storage::amx_tile;

namespace detail {

/// A run-time failure of a tensor operation: the message on stderr, abort.
[[noreturn]] inline void tensor_fatal(const char *what, std::int64_t a = 0,
                                      std::int64_t b = 0, std::int64_t c = 0) {
  fatal(make_error(Errc::mismatch, what, a, b, c));
}

/// The parsed layout text of a tensor type.
template <FixedString Text>
inline constexpr LayoutText parsed_text =
    parsed_literal<Text, parse_layout_text>::value;

/// Marker for an extent only known at run time.
inline constexpr std::int64_t dynamic_extent = -1;

/// `X` and `Y` may be equal: one is dynamic, or they are.
template <std::int64_t X, std::int64_t Y>
inline constexpr bool extents_agree = X < 0 || Y < 0 || X == Y;

/// Digits of `v` (>= 0) in decimal.
constexpr std::size_t decimal_digits(std::int64_t v) {
  std::size_t n = 1;
  for (; v >= 10; v /= 10)
    ++n;
  return n;
}

template <std::size_t R>
constexpr std::size_t shape_text_length(const std::array<std::int64_t, R> &e) {
  std::size_t n = 2 + (R > 0 ? R - 1 : 0);
  for (std::int64_t v : e)
    n += v < 0 ? 1 : decimal_digits(v);
  return n;
}

/// The compact row-major layout text of extents `E`: {128, -1} -> "(128,?)".
template <auto E> constexpr auto shape_text() {
  constexpr std::size_t n = shape_text_length(E);
  char buf[n + 1] = {};
  std::size_t at = 0;
  buf[at++] = '(';
  for (std::size_t i = 0; i < E.size(); ++i) {
    if (i > 0)
      buf[at++] = ',';
    std::int64_t v = E[i];
    if (v < 0) {
      buf[at++] = '?';
      continue;
    }
    std::size_t d = decimal_digits(v);
    for (std::size_t k = 0; k < d; ++k, v /= 10)
      buf[at + d - 1 - k] = static_cast<char>('0' + v % 10);
    at += d;
  }
  buf[at++] = ')';
  return FixedString<n + 1>(buf);
}

} // namespace detail

/// A reference to one element of a view, or to none (an element outside a
/// window's bounds): reading gives 0, writing does nothing.
template <Element T> class ElementRef {
public:
  constexpr explicit ElementRef(T *p) : p_(p) {}
  constexpr ElementRef(const ElementRef &) = default;
  constexpr bool in_bounds() const { return p_ != nullptr; }
  constexpr T get() const { return p_ ? *p_ : T{}; }
  constexpr operator T() const { return get(); }
  /// float for the narrow float types: `float x = t(i, j);`.
  template <class U>
    requires(std::is_same_v<U, compute_type<T>> && !std::is_same_v<U, T>)
  constexpr operator U() const {
    return widen(get());
  }
  constexpr const ElementRef &operator=(const T &v) const {
    if (p_)
      *p_ = v;
    return *this;
  }
  constexpr const ElementRef &operator=(const ElementRef &o) const {
    return *this = o.get();
  }
  /// Assigns a number of another type, converted with tf::convert.
  template <class U>
    requires(!std::is_same_v<U, T> && std::is_arithmetic_v<U>)
  constexpr const ElementRef &operator=(U v) const {
    return *this = convert<T>(v);
  }
  constexpr const ElementRef &operator+=(compute_type<T> v) const {
    return *this = convert<T>(widen(get()) + v);
  }
  constexpr const ElementRef &operator-=(compute_type<T> v) const {
    return *this = convert<T>(widen(get()) - v);
  }
  constexpr const ElementRef &operator*=(compute_type<T> v) const {
    return *this = convert<T>(widen(get()) * v);
  }

private:
  T *p_;
};

template <class Base, std::int64_t... E> class Window;

/// A view of `T`s laid out by the layout text `Text`, in storage `S`.
template <class T, FixedString Text, Storage S = Storage::gmem> class Tensor {
  static_assert(Element<T>,
                "tf::Tensor: the element type must be one of tf::bf16, "
                "tf::f16, tf::tf32, tf::fp8e4m3, tf::fp8e5m2, float, double, "
                "std::int8_t, std::uint8_t, std::int32_t");

public:
  using element_type = T;
  static constexpr Storage storage = S;
  /// The parsed layout text: layout, axes, offset, swizzle.
  static constexpr LayoutText text = detail::parsed_text<Text>;
  static constexpr Layout static_layout = text.layout;
  static constexpr int rank = static_layout.shape.rank();
  static constexpr int leaves = static_layout.shape.leaf_count();

private:
  static constexpr int count_dynamic(const IntTuple &t) {
    int n = 0;
    for (int i = 0; i < t.leaf_count(); ++i)
      n += t.leaf_at(i).is_constant() ? 0 : 1;
    return n;
  }
  /// First leaf of each top-level mode, and leaves in all: mode i has the
  /// leaves [first_leaf[i], first_leaf[i + 1]).
  static constexpr std::array<int, rank + 1> first_leaf = [] {
    std::array<int, rank + 1> out{};
    for (int i = 0; i < rank; ++i)
      out[i + 1] = out[i] + static_layout.shape.mode(i).leaf_count();
    return out;
  }();

  static_assert(text.offset.is_constant(),
                "tf::Tensor: the layout's offset must be a number, not '?' or "
                "a name; give the view's start as its pointer instead");
  static_assert(check_element_swizzle(text.swizzle, sizeof(T)).ok(),
                "tf::Tensor: the swizzle's base bit M splits elements (2^M "
                "must be at least the element size in bytes); use "
                "Swizzle(b, m, s) with a larger m");
  static_assert(!static_layout.overflow(),
                "tf::Tensor: the layout has too many modes");

public:
  /// `?` entries of the shape and of the stride, in written order.
  static constexpr int dynamic_extents = count_dynamic(static_layout.shape);
  static constexpr int dynamic_strides = count_dynamic(static_layout.stride);

  /// The extent of mode `i` when every leaf of it is static, else -1.
  static constexpr std::int64_t static_extent(int i) {
    std::int64_t p = 1;
    for (int l = first_leaf[i]; l < first_leaf[i + 1]; ++l) {
      const Int &v = static_layout.shape.leaf_at(l);
      if (!v.is_constant())
        return detail::dynamic_extent;
      p *= v.value;
    }
    return p;
  }
  /// Whether every extent and stride is known at compile time.
  static constexpr bool is_static = dynamic_extents == 0 && dynamic_strides == 0;

  /// A view of nothing.
  constexpr Tensor() {
    for (int l = 0; l < leaves; ++l) {
      shape_[l] = static_layout.shape.leaf_at(l).value;
      stride_[l] = static_layout.stride.leaf_at(l).value;
    }
  }

  /// A view of `data` for a layout without `?`.
  constexpr explicit Tensor(T *data) : Tensor() {
    static_assert(dynamic_extents == 0,
                  "tf::Tensor: the layout has '?' extents; construct the "
                  "view as Tensor(ptr, {extents...}), one value per '?'");
    ptr_ = data;
    fill_strides(nullptr, 0);
  }

  /// A view of `data` whose `?` extents are `extents`, in written order;
  /// `?` strides are those of the compact row-major layout.
  template <std::size_t N>
  constexpr Tensor(T *data, const std::int64_t (&extents)[N]) : Tensor() {
    static_assert(N == dynamic_extents,
                  "tf::Tensor: give one extent per '?' in the layout's shape");
    ptr_ = data;
    fill_extents(extents);
    fill_strides(nullptr, 0);
  }

  /// A view of `data` whose `?` extents and `?` strides are given, each in
  /// written order.
  template <std::size_t N, std::size_t M>
  constexpr Tensor(T *data, const std::int64_t (&extents)[N],
                   const std::int64_t (&strides)[M])
      : Tensor() {
    static_assert(N == dynamic_extents,
                  "tf::Tensor: give one extent per '?' in the layout's shape");
    static_assert(M == dynamic_strides,
                  "tf::Tensor: give one stride per '?' in the layout's stride");
    ptr_ = data;
    fill_extents(extents);
    fill_strides(strides, M);
  }

  /// A view from every leaf's value (the form Buffer and ops use).
  static constexpr Tensor from_leaves(T *data,
                                      const std::array<std::int64_t, leaves> &shape,
                                      const std::array<std::int64_t, leaves> &stride) {
    Tensor t;
    t.ptr_ = data;
    t.shape_ = shape;
    t.stride_ = stride;
    return t;
  }
  /// A view from the values of the shape's leaves; `?` strides compact.
  static constexpr Tensor from_shape(T *data,
                                     const std::array<std::int64_t, leaves> &shape) {
    Tensor t;
    t.ptr_ = data;
    t.shape_ = shape;
    t.fill_strides(nullptr, 0);
    return t;
  }

  constexpr T *data() const { return ptr_; }
  /// The extent of top-level mode `i`.
  constexpr std::int64_t extent(int i) const {
    std::int64_t p = 1;
    for (int l = first_leaf[i]; l < first_leaf[i + 1]; ++l)
      p *= shape_[l];
    return p;
  }
  /// Number of elements.
  constexpr std::int64_t size() const {
    std::int64_t p = 1;
    for (int l = 0; l < leaves; ++l)
      p *= shape_[l];
    return p;
  }
  /// The layout with the run-time values filled in.
  constexpr Layout layout() const {
    Layout out = static_layout;
    for (int l = 0; l < leaves; ++l) {
      if (!out.shape.leaf_at(l).is_constant())
        out.shape.set_leaf(l, Int::dynamic(shape_[l]));
      if (!out.stride.leaf_at(l).is_constant())
        out.stride.set_leaf(l, Int::dynamic(stride_[l]));
    }
    return out;
  }
  constexpr const std::array<std::int64_t, leaves> &leaf_extents() const {
    return shape_;
  }
  constexpr const std::array<std::int64_t, leaves> &leaf_strides() const {
    return stride_;
  }

  /// One past the largest element offset any coordinate reaches (swizzle
  /// included): how many elements storage for this view needs.
  constexpr std::int64_t cosize() const {
    std::int64_t hi = text.offset.value;
    for (int l = 0; l < leaves; ++l) {
      if (shape_[l] == 0)
        return 0;
      if (stride_[l] > 0)
        hi += (shape_[l] - 1) * stride_[l];
    }
    std::int64_t n = hi + 1;
    if (!text.swizzle.is_identity()) {
      // A swizzle permutes offsets within aligned blocks of this many bytes.
      int sh = text.swizzle.shift < 0 ? -text.swizzle.shift : text.swizzle.shift;
      std::int64_t block =
          (std::int64_t(1) << (text.swizzle.base + sh + text.swizzle.bits)) /
          static_cast<std::int64_t>(sizeof(T));
      if (block > 0)
        n = (n + block - 1) / block * block;
    }
    return n;
  }

  /// The element offset of coordinate `c` (one linear index per mode).
  constexpr std::int64_t offset(const std::array<std::int64_t, rank> &c) const {
    std::int64_t off = text.offset.value;
    for (int i = 0; i < rank; ++i) {
      std::int64_t rest = c[i];
      if (rest < 0 || rest >= extent(i))
        detail::tensor_fatal("tf::Tensor: coordinate {} of mode {} is outside "
                             "its extent {}",
                             c[i], i, extent(i));
      for (int l = first_leaf[i + 1] - 1; l >= first_leaf[i]; --l) {
        off += (rest % shape_[l]) * stride_[l];
        rest /= shape_[l];
      }
    }
    if constexpr (!text.swizzle.is_identity()) {
      constexpr std::int64_t bytes = sizeof(T);
      return text.swizzle(off * bytes) / bytes;
    }
    return off;
  }

  constexpr ElementRef<T> at(const std::array<std::int64_t, rank> &c) const {
    return ElementRef<T>(ptr_ + offset(c));
  }
  template <std::integral... I>
  constexpr ElementRef<T> operator()(I... c) const {
    static_assert(sizeof...(I) == rank,
                  "tf::Tensor: give one coordinate per mode of the tensor");
    return at({static_cast<std::int64_t>(c)...});
  }

  /// The E0 x E1 x ... window starting at `origin`, one extent and one
  /// origin per mode; elements outside this view read 0 and are not written.
  template <std::int64_t... E, std::integral... I>
  constexpr Window<Tensor, E...> tile(I... origin) const {
    static_assert(sizeof...(E) == rank,
                  "tf::Tensor::tile: give one tile extent per mode of the "
                  "tensor, e.g. t.tile<BM, BK>(m0, k0) for a matrix");
    static_assert(sizeof...(I) == rank,
                  "tf::Tensor::tile: give one origin per mode of the tensor");
    std::array<std::int64_t, rank> o{static_cast<std::int64_t>(origin)...};
    std::array<std::int64_t, rank> valid{};
    for (int i = 0; i < rank; ++i)
      valid[i] = extent(i) - o[i];
    return Window<Tensor, E...>(*this, o, valid);
  }

  /// This layout text for another element type in registers (results of
  /// element-wise ops on rmem tensors keep their distribution).
  template <class D> using rebind_rmem = Tensor<D, Text, Storage::rmem>;

private:
  T *ptr_ = nullptr;
  std::array<std::int64_t, leaves> shape_{};
  std::array<std::int64_t, leaves> stride_{};

  constexpr void fill_extents(const std::int64_t *values) {
    int next = 0;
    for (int l = 0; l < leaves; ++l)
      if (!static_layout.shape.leaf_at(l).is_constant()) {
        if (values[next] < 0)
          detail::tensor_fatal("tf::Tensor: extent {} is negative",
                               values[next]);
        shape_[l] = values[next++];
      }
  }
  /// `?` strides from `values` if given, else compact row-major.
  constexpr void fill_strides(const std::int64_t *values, std::size_t n) {
    std::int64_t compact = 1;
    std::array<std::int64_t, leaves> row_major{};
    for (int l = leaves - 1; l >= 0; --l) {
      row_major[l] = compact;
      compact *= shape_[l];
    }
    std::size_t next = 0;
    for (int l = 0; l < leaves; ++l)
      if (!static_layout.stride.leaf_at(l).is_constant())
        stride_[l] = n ? values[next++] : row_major[l];
  }
};

/// A window of a view: E0 x E1 x ... elements starting at an origin, with
/// the number of valid ones per mode kept at run time.
template <class Base, std::int64_t... E> class Window {
public:
  using element_type = typename Base::element_type;
  using base_type = Base;
  static constexpr Storage storage = Base::storage;
  static constexpr int rank = sizeof...(E);
  static_assert(rank == Base::rank,
                "tf::Tensor::tile: give one tile extent per mode of the tensor");
  static constexpr std::array<std::int64_t, rank> extents{E...};
  static constexpr std::int64_t static_extent(int i) { return extents[i]; }
  static constexpr bool is_static = true;

  constexpr Window(const Base &base, const std::array<std::int64_t, rank> &origin,
                   const std::array<std::int64_t, rank> &valid)
      : base_(base), origin_(origin) {
    for (int i = 0; i < rank; ++i) {
      if (origin[i] < 0)
        detail::tensor_fatal("tf::Tensor::tile: origin {} of mode {} is "
                             "negative",
                             origin[i], i);
      valid_[i] = valid[i] < 0 ? 0 : valid[i] > extents[i] ? extents[i] : valid[i];
    }
  }

  constexpr std::int64_t extent(int i) const { return extents[i]; }
  constexpr std::int64_t size() const {
    std::int64_t p = 1;
    for (std::int64_t e : extents)
      p *= e;
    return p;
  }
  /// How many elements of mode `i` lie inside the parent.
  constexpr std::int64_t valid_extent(int i) const { return valid_[i]; }
  constexpr const std::array<std::int64_t, rank> &origin() const { return origin_; }
  constexpr const Base &base() const { return base_; }

  constexpr ElementRef<element_type>
  at(const std::array<std::int64_t, rank> &c) const {
    std::array<std::int64_t, rank> p{};
    for (int i = 0; i < rank; ++i) {
      if (c[i] < 0 || c[i] >= extents[i])
        detail::tensor_fatal("tf::Tensor::tile: coordinate {} of mode {} is "
                             "outside the tile's extent {}",
                             c[i], i, extents[i]);
      if (c[i] >= valid_[i])
        return ElementRef<element_type>(nullptr);
      p[i] = origin_[i] + c[i];
    }
    return base_.at(p);
  }
  template <std::integral... I>
  constexpr ElementRef<element_type> operator()(I... c) const {
    static_assert(sizeof...(I) == rank,
                  "tf::Tensor: give one coordinate per mode of the tensor");
    return at({static_cast<std::int64_t>(c)...});
  }

  /// A window of this window (a window of the same base, bounds combined).
  template <std::int64_t... F, std::integral... I>
  constexpr Window<Base, F...> tile(I... origin) const {
    static_assert(sizeof...(F) == rank,
                  "tf::Tensor::tile: give one tile extent per mode of the "
                  "tensor, e.g. t.tile<BM, BK>(m0, k0) for a matrix");
    static_assert(sizeof...(I) == rank,
                  "tf::Tensor::tile: give one origin per mode of the tensor");
    std::array<std::int64_t, rank> o{static_cast<std::int64_t>(origin)...};
    std::array<std::int64_t, rank> at{}, valid{};
    for (int i = 0; i < rank; ++i) {
      at[i] = origin_[i] + o[i];
      valid[i] = valid_[i] - o[i];
    }
    return Window<Base, F...>(base_, at, valid);
  }

private:
  Base base_;
  std::array<std::int64_t, rank> origin_{};
  std::array<std::int64_t, rank> valid_{};
};

/// A view tf's ops read and write: a Tensor, a Window, or a Buffer.
template <class V>
concept TensorLike = requires(const V &v) {
  typename V::element_type;
  { V::rank } -> std::convertible_to<int>;
  { V::storage } -> std::convertible_to<Storage>;
  { v.extent(0) } -> std::convertible_to<std::int64_t>;
  v.at(std::array<std::int64_t, V::rank>{});
};

namespace detail {

/// Whether the layout text of view type `V` parsed. A malformed one is one
/// error already (tf/layout/text/literal.hpp) and leaves a default layout
/// behind; the checks of what is built from it stay silent rather than
/// repeat it.
template <class V> inline constexpr bool layout_text_parsed = true;
template <class T, FixedString Text, Storage S>
inline constexpr bool layout_text_parsed<Tensor<T, Text, S>> =
    parse_layout_text(Text.view()).ok();
template <class Base, std::int64_t... E>
inline constexpr bool layout_text_parsed<Window<Base, E...>> =
    layout_text_parsed<Base>;

} // namespace detail

} // namespace tf
