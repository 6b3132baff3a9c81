// A tile loop's windows tile the tensor exactly: along each dimension one
// iteration's windows cover what the index advances by, with no gap (never
// read: a K loop stepping by BM over BK-wide tiles sums half of K) and no
// overlap (read twice). One error per loop index, where the mistake is
// written: a tile_offsets step (the window in a note), a window's offset (the
// loop in a note), a tile count; windows split by hand (k and k + 32) are
// taken together.
// RUN: %tf-cc1 -verify %s
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, LhsSlot (128 x 64), Matrix
constexpr int BM = 128, BK = 64;
using Slot = LhsSlot;
using Half = tf::Tensor<tf::bf16, "(128,32):(32,1) | Swizzle(2,4,3)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 128))]]
void k_steps_by_bm(Matrix a) {
  tf::Ring<Slot, 2> ring;
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, 1)) {
    (void)n;
    // expected-error@+1 {{window of 'a' along dimension 1 is 64 elements wide at offset 0 from 'k', which advances by 128: elements 64..127 of every 128 are never touched [tf:loop-coverage]}}
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BM)) {
      [[tf::mesh(loader)]] auto x =
          // expected-note@+1 {{the window along dimension 1 is 64 elements wide here}}
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(m * BM, k), ring);
      (void)x;
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 128))]]
void windows_overlap(Matrix a) {
  tf::Ring<Half, 2> ring;
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, 1)) {
    (void)n;
    // expected-note@+1 {{'k' advances by 64 elements of that dimension per tile here}}
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      [[tf::mesh(loader)]] auto lo =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, 32>(m * BM, k), ring);
      [[tf::mesh(loader)]] auto hi =
          // expected-error@+1 {{window of 'a' along dimension 1 is 32 elements wide at offset 16 from 'k', which advances by 64: it overlaps the window before it by 16 elements, which are touched twice}}
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, 32>(m * BM, k + 16), ring);
      (void)lo;
      (void)hi;
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 128))]]
void tile_count_divides_by_bk(Matrix a) {
  tf::Ring<Slot, 2> ring;
  // expected-error@+1 {{window of 'a' along dimension 0 is 128 elements wide at offset 0 from 'm', which advances by 128: the loop's tile count divides by 64 (ceil_div), so its tiles run past the end; divide by 128}}
  const std::int64_t GM = tf::ceil_div(a.extent(0), BK);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, 1)) {
    (void)n;
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      [[tf::mesh(loader)]] auto x =
          // expected-note@+1 {{the window along dimension 0 is 128 elements wide here}}
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(m * BM, k), ring);
      (void)x;
    }
  }
}

// Two windows of 32 at k and k + 32 cover a step of 64 exactly.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 128))]]
void split_by_hand(Matrix a) {
  tf::Ring<Half, 2> ring;
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, 1)) {
    (void)n;
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      [[tf::mesh(loader)]] auto lo =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, 32>(m * BM, k), ring);
      [[tf::mesh(loader)]] auto hi =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, 32>(m * BM, k + 32), ring);
      (void)lo;
      (void)hi;
    }
  }
}
} // namespace t

namespace t2 {
using namespace t;
// Tiles twice as wide as the step: every element is read by two iterations.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 128))]]
void step_half_the_tile(Matrix a) {
  tf::Ring<Slot, 2> ring;
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, 1)) {
    (void)n;
    // expected-error@+1 {{window of 'a' along dimension 1 is 64 elements wide at offset 0 from 'k', which advances by 32: it reaches 32 elements into the next iteration's windows, which are touched twice}}
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 32)) {
      [[tf::mesh(loader)]] auto x =
          // expected-note@+1 {{the window along dimension 1 is 64 elements wide here}}
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(m * BM, k), ring);
      (void)x;
    }
  }
}

// The next row of tiles prefetched at m * 128 + 128 is the window of the next
// iteration: no error.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 128))]]
void prefetch_next(Matrix a) {
  tf::Ring<Slot, 2> ring;
  tf::Ring<Slot, 2> next_ring;
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, 1)) {
    (void)n;
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      [[tf::mesh(loader)]] auto x =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(m * BM, k), ring);
      [[tf::mesh(loader)]] auto y =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(m * BM + BM, k), next_ring);
      (void)x;
      (void)y;
    }
  }
}

// A window's offsets in the wrong order: dimension 0 advances with k by 64
// but is 128 wide, dimension 1 with m by 128 but is 64 wide. One error at
// the window, not one per dimension.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 128))]]
void offsets_swapped(Matrix a) {
  tf::Ring<Slot, 2> ring;
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, 1)) {
    (void)n;
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      [[tf::mesh(loader)]] auto x =
          // expected-error@+1 {{window of 'a' along dimension 0 is 128 elements wide at offset 0 from 'k', which advances by 64: its offsets are in the wrong order: dimension 1 (64 wide) advances with 'm' by 128; swapped, each dimension advances by its own extent: write the offsets in the order of 'a''s dimensions}}
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(k, m * BM), ring);
      (void)x;
    }
  }
}

// The tile counts in the wrong order: m counts tiles of BK, n tiles of BM.
// One error at the counts, the swap as a fix-it.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 128))]]
void counts_swapped(Matrix a) {
  tf::Ring<Slot, 2> ring;
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(a.extent(1), BK);
  // expected-error@+1 {{window of 'a' along dimension 0 is 128 elements wide at offset 0 from 'm', which advances by 128: the loop's tile counts are in the wrong order: the count of 'm' (GN) divides by 64 (ceil_div) and that of 'n' (GM) by 128; swap them}}
  for (auto [m, n] : tf::persistent_tiles(cta, GN, GM)) {
    [[tf::mesh(loader)]] auto x =
        tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(m * BM, n * BK), ring);
    (void)x;
  }
}
} // namespace t2
// RUN: not %tf-cc1 -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s --check-prefix=FIXIT
// FIXIT: fix-it:"{{.*}}err_tf_loop_coverage.cpp":{152:48-152:50}:"GM"
// FIXIT: fix-it:"{{.*}}err_tf_loop_coverage.cpp":{152:52-152:54}:"GN"
