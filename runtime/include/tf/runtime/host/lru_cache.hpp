//===- tf/runtime/host/lru_cache.hpp - A bounded least-recently-used map --===//
//
// What a launcher keeps between launches (tensor maps, tensor_map_cache.hpp)
// must not grow without bound in a program that allocates new buffers
// forever: LruCache holds at most `capacity` entries and, when full, drops
// the one used longest ago. Lookups and inserts are O(1) on average.
//
// Not synchronised: its owner locks around it. Needs no CUDA, so its
// keying and eviction are tested on any machine (test/runtime).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <functional>
#include <list>
#include <unordered_map>
#include <utility>

namespace tf::runtime {

template <class Key, class Value, class Hash = std::hash<Key>>
class LruCache {
public:
  explicit LruCache(std::size_t capacity) : capacity_(capacity ? capacity : 1) {
    index_.reserve(capacity_);
  }

  /// The value cached under `key`, now the most recently used; null if none.
  /// The pointer is valid until the next insert.
  Value *find(const Key &key) {
    auto it = index_.find(key);
    if (it == index_.end())
      return nullptr;
    entries_.splice(entries_.begin(), entries_, it->second);
    return &it->second->second;
  }

  /// Caches `value` under `key` (replacing what was there) as the most
  /// recently used entry; evicts the least recently used one when full.
  Value &insert(const Key &key, Value value) {
    if (Value *existing = find(key))
      return *existing = std::move(value);
    if (entries_.size() == capacity_) {
      index_.erase(entries_.back().first);
      entries_.pop_back();
    }
    entries_.emplace_front(key, std::move(value));
    index_.emplace(key, entries_.begin());
    return entries_.front().second;
  }

  std::size_t size() const { return entries_.size(); }
  std::size_t capacity() const { return capacity_; }

private:
  using Entry = std::pair<Key, Value>;
  std::size_t capacity_;
  std::list<Entry> entries_; ///< most recently used first
  std::unordered_map<Key, typename std::list<Entry>::iterator, Hash> index_;
};

} // namespace tf::runtime
