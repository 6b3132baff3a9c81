//===- test/runtime/lru_cache_test.cpp - The launchers' bounded cache -----===//
//
// LruCache (tf/runtime/host/lru_cache.hpp) keeps a generated launcher's
// tensor maps: hits, replacement, and eviction of the least recently used
// entry (a lookup counts as a use) when full.
//
//===----------------------------------------------------------------------===//
#include "tf/runtime/host/lru_cache.hpp"

#include <gtest/gtest.h>

#include <string>

namespace {

using Cache = tf::runtime::LruCache<int, std::string>;

TEST(LruCache, FindsWhatWasInserted) {
  Cache c(4);
  EXPECT_EQ(c.find(1), nullptr);
  c.insert(1, "one");
  c.insert(2, "two");
  ASSERT_NE(c.find(1), nullptr);
  EXPECT_EQ(*c.find(1), "one");
  EXPECT_EQ(*c.find(2), "two");
  EXPECT_EQ(c.size(), 2u);
}

TEST(LruCache, InsertReplacesTheValueUnderAKey) {
  Cache c(4);
  c.insert(1, "one");
  c.insert(1, "uno");
  EXPECT_EQ(*c.find(1), "uno");
  EXPECT_EQ(c.size(), 1u);
}

TEST(LruCache, EvictsTheLeastRecentlyUsedWhenFull) {
  Cache c(3);
  c.insert(1, "one");
  c.insert(2, "two");
  c.insert(3, "three");
  // 1 is used again, so 2 is now the least recently used.
  ASSERT_NE(c.find(1), nullptr);
  c.insert(4, "four");
  EXPECT_EQ(c.size(), 3u);
  EXPECT_EQ(c.find(2), nullptr);
  EXPECT_NE(c.find(1), nullptr);
  EXPECT_NE(c.find(3), nullptr);
  EXPECT_NE(c.find(4), nullptr);
  // Now 1 is the oldest use (3 and 4 were found after it).
  c.insert(5, "five");
  EXPECT_EQ(c.find(1), nullptr);
  EXPECT_EQ(c.size(), 3u);
}

TEST(LruCache, NeverHoldsMoreThanItsCapacity) {
  Cache c(8);
  for (int i = 0; i < 1000; ++i) {
    c.insert(i, std::to_string(i));
    EXPECT_LE(c.size(), 8u);
  }
  for (int i = 992; i < 1000; ++i)
    EXPECT_NE(c.find(i), nullptr) << i;
  EXPECT_EQ(c.find(991), nullptr);
}

TEST(LruCache, AZeroCapacityKeepsOneEntry) {
  Cache c(0);
  EXPECT_EQ(c.capacity(), 1u);
  c.insert(1, "one");
  c.insert(2, "two");
  EXPECT_EQ(c.find(1), nullptr);
  EXPECT_EQ(*c.find(2), "two");
}

} // namespace
