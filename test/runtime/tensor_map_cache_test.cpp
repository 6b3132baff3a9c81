//===- test/runtime/tensor_map_cache_test.cpp - Tensor maps between launches ===//
//
// TensorMapCache (tf/runtime/host/tensor_map_cache.hpp) without a driver:
// the encoder is a stand-in that counts its calls and stamps each map, so
// these tests see when a launch would encode a map and which map it gets.
// Every field the encoding reads -- address, element type, extents,
// strides, box, box order, swizzle -- must give another map when it
// changes (a pointer reused with other extents above all); equal arguments
// must hit; the cache stays bounded; threads may share it. And
// PerDeviceOnce's record of the devices a setting was made on.
//
//===----------------------------------------------------------------------===//
#include "tf/runtime/host/per_device_once.hpp"
#include "tf/runtime/host/tensor_map_cache.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace {

using tf::runtime::TensorArg;
using tf::runtime::TensorMapCache;
using tf::runtime::TmaSwizzle;

TensorArg matrix(std::uintptr_t address, std::int64_t rows,
                 std::int64_t cols) {
  TensorArg t;
  t.data = reinterpret_cast<void *>(address);
  t.rank = 2;
  t.dtype = tf::DType::bf16;
  t.extents[0] = rows;
  t.extents[1] = cols;
  t.strides[0] = cols;
  t.strides[1] = 1;
  return t;
}

/// A stand-in encoder: each map it makes carries a serial number.
struct CountingEncoder {
  int calls = 0;
  CUtensorMap operator()() {
    CUtensorMap map{};
    ++calls;
    std::memcpy(&map, &calls, sizeof calls);
    return map;
  }
};

int serial(const CUtensorMap &map) {
  int s = 0;
  std::memcpy(&s, &map, sizeof s);
  return s;
}

struct Args {
  TensorArg t = matrix(1 << 20, 512, 256);
  std::uint32_t box[2] = {128, 64};
  std::uint32_t order[2] = {0, 1};
  TmaSwizzle swizzle = TmaSwizzle::bytes128;
};

int get(TensorMapCache &cache, CountingEncoder &encoder, const Args &a) {
  return serial(cache.get(a.t, a.box, a.order, a.swizzle,
                          [&] { return encoder(); }));
}

TEST(TensorMapCache, EqualArgumentsHit) {
  TensorMapCache cache;
  CountingEncoder encoder;
  const Args a;
  EXPECT_EQ(get(cache, encoder, a), 1);
  EXPECT_EQ(get(cache, encoder, a), 1);
  Args same = a; // another TensorArg describing the same buffer
  EXPECT_EQ(get(cache, encoder, same), 1);
  EXPECT_EQ(encoder.calls, 1);
  EXPECT_EQ(cache.size(), 1u);
}

TEST(TensorMapCache, EveryFieldTheEncodingReadsIsInTheKey) {
  TensorMapCache cache;
  CountingEncoder encoder;
  const Args base;
  get(cache, encoder, base);
  std::vector<Args> variants(8, base);
  variants[0].t.data = reinterpret_cast<void *>(std::uintptr_t{2} << 20);
  variants[1].t.dtype = tf::DType::f16;
  variants[2].t.extents[0] = 384; // the same pointer, fewer rows
  variants[3].t.extents[1] = 192; // ... fewer columns, same row stride
  variants[4].t.strides[0] = 264; // ... padded rows
  variants[5].box[0] = 64;
  variants[6].order[0] = 1, variants[6].order[1] = 0;
  variants[7].swizzle = TmaSwizzle::bytes64;
  for (std::size_t i = 0; i < variants.size(); ++i)
    EXPECT_EQ(get(cache, encoder, variants[i]), static_cast<int>(i) + 2)
        << "variant " << i << " hit the base's map";
  EXPECT_EQ(encoder.calls, 9);
  // Each is cached under its own key; the base is still there.
  EXPECT_EQ(get(cache, encoder, variants[2]), 4);
  EXPECT_EQ(get(cache, encoder, base), 1);
  EXPECT_EQ(encoder.calls, 9);
}

TEST(TensorMapCache, APointerReusedWithOtherExtentsGetsItsOwnMap) {
  // A buffer freed and reallocated at the same address for a smaller
  // tensor: the old map would let the TMA read past the new extents.
  TensorMapCache cache;
  CountingEncoder encoder;
  Args big;
  Args small = big;
  small.t = matrix(1 << 20, 100, 256);
  EXPECT_EQ(get(cache, encoder, big), 1);
  EXPECT_EQ(get(cache, encoder, small), 2);
  EXPECT_EQ(get(cache, encoder, big), 1);
  EXPECT_EQ(get(cache, encoder, small), 2);
}

TEST(TensorMapCache, IsBoundedAndKeepsTheRecentlyUsed) {
  TensorMapCache cache(4);
  CountingEncoder encoder;
  auto at = [](int i) {
    Args a;
    a.t.data = reinterpret_cast<void *>(std::uintptr_t(i + 1) << 20);
    return a;
  };
  for (int i = 0; i < 4; ++i)
    get(cache, encoder, at(i));
  EXPECT_EQ(get(cache, encoder, at(0)), 1); // 0 used again
  get(cache, encoder, at(4));               // evicts 1, the oldest
  EXPECT_EQ(cache.size(), 4u);
  EXPECT_EQ(encoder.calls, 5);
  EXPECT_EQ(get(cache, encoder, at(0)), 1);
  EXPECT_EQ(get(cache, encoder, at(1)), 6); // encoded again
  EXPECT_EQ(cache.size(), 4u);
}

TEST(TensorMapCache, ArgumentsNoMapDescribesAreNotCached) {
  // A box of another rank than the tensor's: encoding reports it (here the
  // stand-in is called) and nothing is kept.
  TensorMapCache cache;
  CountingEncoder encoder;
  Args a;
  const std::uint32_t box[] = {128}, order[] = {0};
  (void)cache.get(a.t, box, order, a.swizzle, [&] { return encoder(); });
  (void)cache.get(a.t, box, order, a.swizzle, [&] { return encoder(); });
  EXPECT_EQ(encoder.calls, 2);
  EXPECT_EQ(cache.size(), 0u);
  a.t.storage = tf::Storage::smem;
  (void)get(cache, encoder, a);
  EXPECT_EQ(cache.size(), 0u);
}

TEST(TensorMapCache, ThreadsShareIt) {
  // Eight threads launch on 16 buffers, 2000 times each: every map they get
  // is the one for their buffer, and each buffer is encoded at most once
  // per thread that missed it concurrently (at least once).
  TensorMapCache cache(64);
  std::atomic<int> encodes{0};
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < 8; ++w)
    threads.emplace_back([&, w] {
      for (int i = 0; i < 2000; ++i) {
        const int buffer = (i * 7 + w) % 16;
        const TensorArg t =
            matrix(std::uintptr_t(buffer + 1) << 20, 64 + buffer, 64);
        const std::uint32_t box[] = {64, 64}, order[] = {0, 1};
        const CUtensorMap map =
            cache.get(t, box, order, TmaSwizzle::bytes128, [&] {
              ++encodes;
              CUtensorMap m{};
              std::memcpy(&m, &buffer, sizeof buffer);
              return m;
            });
        wrong += serial(map) != buffer;
      }
    });
  for (std::thread &t : threads)
    t.join();
  EXPECT_EQ(wrong.load(), 0);
  EXPECT_GE(encodes.load(), 16);
  EXPECT_LE(encodes.load(), 16 * 8);
  EXPECT_EQ(cache.size(), 16u);
}

TEST(PerDeviceOnce, RemembersEachDeviceApart) {
  tf::runtime::PerDeviceOnce once;
  EXPECT_FALSE(once.done(0));
  once.mark(0);
  EXPECT_TRUE(once.done(0));
  EXPECT_FALSE(once.done(1));
  once.mark(63);
  EXPECT_TRUE(once.done(63));
  EXPECT_FALSE(once.done(5));
}

TEST(PerDeviceOnce, DevicesBeyondItsRecordAreNeverDone) {
  tf::runtime::PerDeviceOnce once;
  once.mark(64);
  once.mark(-1);
  EXPECT_FALSE(once.done(64));
  EXPECT_FALSE(once.done(-1));
  EXPECT_FALSE(once.done(0));
}

} // namespace
