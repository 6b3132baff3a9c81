// A launch over a hard limit of the target never starts, so it is an error
// at the decision that asks for it: threads per CTA (the innermost topology)
// against cta.threads.max (1024 on the H200), CTAs per cluster against
// cluster.ctas.portable_max (8). tf::resident_ctas(n) asks that n CTAs fit
// on one SM: n against sm.ctas.max (32), its threads against sm.threads.max
// (2048) and its shared memory against sm.shared_memory.capacity (233472).
// RUN: %tf-cc1 -verify %s
#include "../Inputs/gemm_meshes.hpp"

namespace t {
using namespace gemm_test; // cta, loader, LhsSlot, Matrix

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             // expected-error@+1 {{kernel 't::too_many_threads' asks for 1152 thread units per CTA, but nvidia.h200_sxm allows at most 1024 (cta.threads.max) [tf:launch-limit]}}
             tf::topology("thread", 1152))]]
void too_many_threads() {}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             tf::topology("thread", 1024))]]
void as_many_as_allowed() {}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 128))]]
void clusters_of_sixteen(Matrix a) {
  tf::Ring<LhsSlot, 2> ring;
  const std::int64_t GM = tf::ceil_div(a.extent(0), 128);
  // expected-error@+1 {{the tile loop asks for clusters of 16 CTAs, but nvidia.h200_sxm allows at most 8 (cluster.ctas.portable_max)}}
  for (auto [m, n] : tf::persistent_tiles(cta, GM, 1, {.cluster = 16})) {
    (void)n;
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto x =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), ring);
      (void)x;
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128),
             // expected-error@+1 {{kernel 't::too_many_threads_resident' asks for 32 resident CTAs per SM of 128 threads (4096 threads), but nvidia.h200_sxm allows at most 2048 (sm.threads.max)}}
             tf::resident_ctas(32))]]
void too_many_threads_resident() {}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 32),
             // expected-error@+1 {{kernel 't::too_many_ctas_resident' asks for 33 resident CTAs per SM, but nvidia.h200_sxm allows at most 32 (sm.ctas.max)}}
             tf::resident_ctas(33))]]
void too_many_ctas_resident() {}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 64), tf::resident_ctas(32))]]
void as_many_resident_as_allowed() {}

// Two stages of a 128 x 64 bf16 slot: 32 KiB of shared memory per CTA.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             tf::topology("thread", 128),
             // expected-error@+1 {{kernel 't::too_much_shared_resident' asks for 8 resident CTAs per SM of 32768 bytes of shared memory (262144 bytes), but nvidia.h200_sxm allows at most 233472 (sm.shared_memory.capacity)}}
             tf::resident_ctas(8))]]
void too_much_shared_resident(Matrix a) {
  tf::Ring<LhsSlot, 2> ring;
  const std::int64_t GM = tf::ceil_div(a.extent(0), 128);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, 1)) {
    (void)n;
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto x =
          tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), ring);
      (void)x;
    }
  }
}

// Without a target nothing is known of its limits.
[[tf::kernel(tf::topology("cta", 132), tf::topology("thread", 4096))]]
void no_target() {}
} // namespace t
