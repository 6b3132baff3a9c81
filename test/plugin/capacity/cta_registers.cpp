// Registers per thread count only what a thread-level mesh holds. An
// accumulator defined outside every mesh scope sits on the CTA mesh, its
// distribution over the threads undecided: it costs no thread anything yet,
// however large (examples/gemm/grid.cpp, persistent.cpp). The same
// accumulator in a mesh scope of 256 threads, unbound (every thread holds
// all of it), is over the limit. (The CUDA backend also refuses to stage a
// register tile no WGMMA computes: that error is expected beside the warning.)
// RUN: %tf-cc1 -verify=cta %s
// RUN: %tf-cc1 -verify=threads -DTHREADS %s
// cta-no-diagnostics
#include <tf/tf.hpp>

namespace t {
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
inline constexpr tf::Mesh threads = tf::mesh("thread", tf::layout<"(256)">);
using Acc = tf::Tensor<float, "(128,256)", tf::rmem>;
using Tile = tf::Tensor<float, "(128,256)", tf::smem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             tf::topology("thread", 256))]]
void fill(tf::Tensor<float, "(?,?)"> out) {
  auto staged = tf::empty<Tile>();
  for (auto [m, n] : tf::persistent_tiles(cta, 8, 8)) {
#ifdef THREADS
    [[tf::mesh(threads)]] auto acc = tf::zeros<Acc>(); // threads-warning {{the register tensors live here need 32768 registers per thread}} threads-note {{'acc' holds 32768 f32 per thread: 32768 registers}}
    [[tf::mesh(threads)]] tf::schedule<tf::Copy>(acc, staged); // threads-error {{'acc' is accumulated by no nv.sm90.Wgmma}}
#else
    auto acc = tf::zeros<Acc>();
    tf::copy(acc, staged);
#endif
  }
}
} // namespace t
