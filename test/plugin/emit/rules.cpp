// What the cuda_sm90 backend cannot write but only the lowered kernel shows
// (the memory plan's views, the ops each role runs) its lowering rules refuse
// when the kernel is lowered (emit= or tf finalize), at the op, as
// err_tf_lower_op: nothing is left for the emitter to refuse. The check alone
// accepts these kernels; with emit= each is refused and nothing is written.
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify=check %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
// check-no-diagnostics
#include "../Inputs/gemm_meshes.hpp"
// The staged tile interleaves its rows in groups of four: a thread's rows
// (lane / 4, eight apart) are then no constant stride apart, and the epilogue
// computes each register pair's address as a per-thread base plus a constant.
// Lowering finds it once the memory plan has placed the view.
namespace interleaved {
using namespace gemm_test;
using Acc = Acc128x64<>;
using Staged = tf::Tensor<tf::bf16, "((4,32),64):((64,256),1)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void gemm(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>(); // expected-note {{'staged_tile' is laid out as ((4,32),64):((64,256),1)}}
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensor>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile); // expected-error {{tf.schedule as generic.Copy cannot be lowered by the cuda_sm90 backend: cannot store the accumulator into 'staged_tile': its layout is not a thread base plus a constant per register pair [tf:lower-op]}}
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace interleaved

// Multicast loads (tf::nv::CopyAsyncTensorMulticast<C>) deliver a tile to
// the C CTAs of a cluster, each of which issues a share of its boxes: the
// tile loop must run clusters of exactly C CTAs, and every CTA of a cluster
// must read the same tile -- the clusters take neighbouring rows m, so a
// tile whose offsets read m (A's) differs between them.
// (test/cli/finalize/cluster.test lowers B multicast to clusters of two.)
namespace multicast {
using namespace gemm_test;
using Acc = Acc128x64<>;
using Staged = tf::Tensor<tf::bf16, "(128,64):(64,1) | Swizzle(3,4,3)", tf::smem>;

// Without clusters.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void unclustered(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64))) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensorMulticast<2>>(b.tile<64, 64>(k, n * 64), rhs_ring); // expected-error {{tf.schedule with multicast=2 cannot be lowered by the cuda_sm90 backend: a multicast load reaches the CTAs of one cluster, and its tile loop runs one CTA per cluster; write persistent_tiles' option .cluster = 2 [tf:lower-op]}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}

// Clusters of two, B multicast to four CTAs.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void wider(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64), {.cluster = 2})) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<128, 64>(m * 128, k), lhs_ring);
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensorMulticast<4>>(b.tile<64, 64>(k, n * 64), rhs_ring); // expected-error {{tf.schedule with multicast=4 cannot be lowered by the cuda_sm90 backend: a multicast load reaches the CTAs of one cluster, and its tile loop runs clusters of 2 CTAs; multicast to all of them [tf:lower-op]}}
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}

// A's tile, whose row offset m * 128 differs between the CTAs of a cluster.
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132), tf::topology("thread", 384))]]
void rowwise(Matrix a, Matrix b, Matrix out) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto staged_tile = tf::empty<Staged>();
  for (auto [m, n] : tf::persistent_tiles(cta, tf::ceil_div(a.extent(0), 128), tf::ceil_div(b.extent(1), 64), {.cluster = 2})) {
    [[tf::mesh(compute)]] auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 64)) {
      [[tf::mesh(loader)]] auto lhs = tf::schedule<tf::nv::CopyAsyncTensorMulticast<2>>(a.tile<128, 64>(m * 128, k), lhs_ring); // expected-error {{tf.schedule with multicast=2 cannot be lowered by the cuda_sm90 backend: its tile's offsets read the tile row 'm', which differs between the CTAs of a cluster (they take neighbouring rows); multicast a tile every CTA of the cluster reads, such as B's (k, n * BN) [tf:lower-op]}}
      [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensorMulticast<2>>(b.tile<64, 64>(k, n * 64), rhs_ring);
      [[tf::mesh(compute)]] acc = tf::schedule<tf::TiledMma<Wgmma>>(acc, lhs, rhs);
    }
    [[tf::mesh(compute)]] auto staged = tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<128, 64>(m * 128, n * 64));
  }
}
} // namespace multicast
