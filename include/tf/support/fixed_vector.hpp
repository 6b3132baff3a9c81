//===- tf/support/fixed_vector.hpp - Inline vector for constexpr values ---===//
//
// A vector with inline storage and a fixed capacity. Every member is public so
// that values holding it are structural types and can be template arguments;
// every operation is constexpr so the layout algebra runs in constant
// evaluation, in the plugin and in the CLI alike.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <initializer_list>

namespace tf {

/// Storage for at most `Capacity` elements of `T`, without heap allocation.
/// @pre T is default-constructible and copyable (a structural type if the
///      vector is used as a template argument).
template <class T, std::size_t Capacity> struct FixedVector {
  T items[Capacity] = {};
  std::size_t count = 0;

  constexpr FixedVector() = default;
  constexpr FixedVector(std::initializer_list<T> init) {
    for (const T &item : init)
      push_back(item);
  }

  static constexpr std::size_t capacity() { return Capacity; }
  constexpr std::size_t size() const { return count; }
  constexpr bool empty() const { return count == 0; }
  constexpr bool full() const { return count == Capacity; }

  /// Appends `item`; returns false (and changes nothing) when full.
  constexpr bool push_back(const T &item) {
    if (count == Capacity)
      return false;
    items[count++] = item;
    return true;
  }
  constexpr void pop_back() { --count; }
  constexpr void clear() { count = 0; }

  constexpr T &operator[](std::size_t i) { return items[i]; }
  constexpr const T &operator[](std::size_t i) const { return items[i]; }
  constexpr T &back() { return items[count - 1]; }
  constexpr const T &back() const { return items[count - 1]; }
  constexpr T *begin() { return items; }
  constexpr T *end() { return items + count; }
  constexpr const T *begin() const { return items; }
  constexpr const T *end() const { return items + count; }

  friend constexpr bool operator==(const FixedVector &a,
                                   const FixedVector &b) {
    if (a.count != b.count)
      return false;
    for (std::size_t i = 0; i < a.count; ++i)
      if (!(a.items[i] == b.items[i]))
        return false;
    return true;
  }
};

} // namespace tf
