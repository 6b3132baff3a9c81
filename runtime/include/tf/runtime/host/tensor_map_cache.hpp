//===- tf/runtime/host/tensor_map_cache.hpp - Tensor maps kept between launches ===//
//
// A generated launcher needs one CUtensorMap per TMA-copied tensor. Encoding
// one (cuTensorMapEncodeTiled, after cudaPointerGetAttributes) costs
// microseconds of host time on every launch; a model launches the same
// kernel on the same buffers over and over. cached_tensor_map keeps each
// map, keyed by everything the encoding reads -- the address, element type,
// extents, strides, box, box order and swizzle -- so a launch on buffers
// seen before copies a map instead of encoding one, and a pointer reused
// with other extents (or strides, or another box) gets a map of its own.
//
//   const CUtensorMap a_map = tf::runtime::cached_tensor_map(
//       a, a_map_box, a_map_order, tf::runtime::TmaSwizzle::bytes128, check);
//
// The cache is one per program, shared by every launcher and thread
// (a mutex around the lookup; the encoding runs outside it), and bounded:
// at most tensor_map_cache_capacity maps, the least recently used dropped
// first (LruCache). A map holds an address, not the memory: reusing an
// address after cudaFree is as correct as the map was, since the map
// describes only the address and shape. The device-memory check is made
// when a map is encoded; a launch that hits the cache skips it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/runtime/host/check.hpp"
#include "tf/runtime/host/lru_cache.hpp"
#include "tf/runtime/host/tensor_map.hpp"
#include "tf/runtime/kernel_args.hpp"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>

namespace tf::runtime {

/// The most dimensions a tensor map has (TMA's limit).
inline constexpr int max_tensor_map_rank = 5;

/// How many maps the program-wide cache keeps.
inline constexpr std::size_t tensor_map_cache_capacity = 256;

/// Everything cuTensorMapEncodeTiled's result depends on.
struct TensorMapKey {
  const void *data = nullptr;
  DType dtype = DType::f32;
  int rank = 0;
  TmaSwizzle swizzle = TmaSwizzle::none;
  std::int64_t extents[max_tensor_map_rank] = {};
  std::int64_t strides[max_tensor_map_rank] = {};
  std::uint32_t box[max_tensor_map_rank] = {};
  std::uint32_t order[max_tensor_map_rank] = {};

  friend bool operator==(const TensorMapKey &, const TensorMapKey &) = default;
};

struct TensorMapKeyHash {
  std::size_t operator()(const TensorMapKey &k) const {
    // FNV-1a over the fields (the struct's padding is not hashed).
    std::uint64_t h = 1469598103934665603ull;
    auto mix = [&h](std::uint64_t v) {
      h ^= v;
      h *= 1099511628211ull;
    };
    mix(reinterpret_cast<std::uintptr_t>(k.data));
    mix(static_cast<std::uint64_t>(k.dtype));
    mix(static_cast<std::uint64_t>(k.rank));
    mix(static_cast<std::uint64_t>(k.swizzle));
    for (int d = 0; d < k.rank; ++d) {
      mix(static_cast<std::uint64_t>(k.extents[d]));
      mix(static_cast<std::uint64_t>(k.strides[d]));
      mix(k.box[d]);
      mix(k.order[d]);
    }
    return static_cast<std::size_t>(h);
  }
};

/// The key of the map of `t` boxed by `box` in `order`; none when the
/// arguments are not a map's (ranks differ or exceed TMA's 5, memory other
/// than global): encoding them fails with a message, which is not cached.
inline std::optional<TensorMapKey>
tensor_map_key(const TensorArg &t, std::span<const std::uint32_t> box,
               std::span<const std::uint32_t> order, TmaSwizzle swizzle) {
  if (t.storage != Storage::gmem || t.rank < 1 ||
      t.rank > max_tensor_map_rank ||
      box.size() != static_cast<std::size_t>(t.rank) ||
      order.size() != box.size())
    return std::nullopt;
  TensorMapKey k;
  k.data = t.data;
  k.dtype = t.dtype;
  k.rank = t.rank;
  k.swizzle = swizzle;
  for (int d = 0; d < t.rank; ++d) {
    k.extents[d] = t.extents[d];
    k.strides[d] = t.strides[d];
    k.box[d] = box[d];
    k.order[d] = order[d];
  }
  return k;
}

/// Encoded tensor maps by TensorMapKey, bounded, safe to use from several
/// threads.
class TensorMapCache {
public:
  explicit TensorMapCache(std::size_t capacity = tensor_map_cache_capacity)
      : maps_(capacity) {}

  /// The map of `t` boxed by `box` in `order`: cached, or made by `make()`
  /// (which returns a CUtensorMap or stops the program) and then cached.
  template <class Make>
  CUtensorMap get(const TensorArg &t, std::span<const std::uint32_t> box,
                  std::span<const std::uint32_t> order, TmaSwizzle swizzle,
                  Make make) {
    const std::optional<TensorMapKey> key =
        tensor_map_key(t, box, order, swizzle);
    if (!key)
      return make();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (const CUtensorMap *map = maps_.find(*key))
        return *map;
    }
    // Encoded unlocked: another thread may encode the same map meanwhile;
    // both results are equal and the second insert replaces the first.
    const CUtensorMap map = make();
    std::lock_guard<std::mutex> lock(mutex_);
    maps_.insert(*key, map);
    return map;
  }

  std::size_t size() {
    std::lock_guard<std::mutex> lock(mutex_);
    return maps_.size();
  }

private:
  std::mutex mutex_;
  LruCache<TensorMapKey, CUtensorMap, TensorMapKeyHash> maps_;
};

/// The program's tensor-map cache, shared by every generated launcher.
inline TensorMapCache &tensor_map_cache() {
  static TensorMapCache cache;
  return cache;
}

/// make_tensor_map through the program's cache: encoded (and checked) on
/// the first launch with these arguments, copied on the next ones.
inline CUtensorMap cached_tensor_map(const TensorArg &t,
                                     std::span<const std::uint32_t> box,
                                     std::span<const std::uint32_t> order,
                                     TmaSwizzle swizzle,
                                     const CudaCheck &check) {
  return tensor_map_cache().get(t, box, order, swizzle, [&] {
    return make_tensor_map(t, box, order, swizzle, check);
  });
}

} // namespace tf::runtime
