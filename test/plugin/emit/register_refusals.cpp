// Register programs (row kernels) are lowered from their layouts; what a
// layout does not allow is refused at the op once the kernel is lowered
// (emit=), never dropped: a reduction over warps that are no power of two,
// a statistic combined with nothing laid out over the threads, a scalar tf
// cannot read, and a broadcast of a statistic the reading threads do not
// hold. The check alone accepts every kernel. Nothing is written.
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify=check %s
// RUN: rm -rf %t && mkdir -p %t
// RUN: %clangxx %{tf} -fplugin-arg-tf-emit=%t -Xclang -verify %s
// RUN: ls %t | count 0
// check-no-diagnostics
#include <tf/tf.hpp>

namespace t {

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "rows");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(4,32)">, "warp", "lane");
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;
/// One row per warp, 8 bf16 per lane.
using RowTile = tf::Tensor<tf::bf16, "(4@warp,(32@lane,8)):(256,(8,1))", tf::rmem>;
/// A row per lane, the columns over three warps: a reduction along the
/// columns spans warps that are no power of two.
using Spread = tf::Tensor<tf::bf16, "(32@lane,(3@warp,8)):(24,(8,1))", tf::rmem>;
using Stats = tf::Tensor<float, "(4)", tf::rmem>;

inline constexpr tf::Mesh three_warps =
    tf::mesh("thread", tf::layout<"(3,32)">, "warp", "lane");

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 96))]]
void three_warps_across(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), 32), 1)) {
    [[tf::mesh(three_warps)]] {
      auto regs = tf::empty<Spread>();
      tf::copy(x.tile<32, 24>(m * 32, 0), regs);
      auto sum = tf::reduce_sum<1>(tf::cast<float>(regs)); // expected-error {{tf.reduce_sum cannot be lowered by the cuda_sm90 backend: its tile's threads are not laid out in powers of two, which the exchange of partials needs [tf:lower-op]}}
      auto out = tf::div(tf::cast<float>(regs), tf::broadcast<1>(sum, regs));
      tf::copy(tf::cast<tf::bf16>(out), y.tile<32, 24>(m * 32, 0));
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128))]]
void statistic_alone(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), 4), 1)) {
    [[tf::mesh(threads)]] {
      auto count = tf::zeros<Stats>();
      auto scale = tf::rsqrt(count); // expected-error {{tf.rsqrt cannot be lowered by the cuda_sm90 backend: none of its operands is a register tile laid out over the threads [tf:lower-op]}}
      auto regs = tf::empty<RowTile>();
      tf::copy(x.tile<4, 256>(m * 4, 0), regs);
      tf::copy(regs, y.tile<4, 256>(m * 4, 0));
    }
  }
}

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128))]]
void local_scalar(Matrix x, Matrix y) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), 4), 1)) {
    [[tf::mesh(threads)]] {
      float half = 0.5f;
      auto regs = tf::empty<RowTile>();
      tf::copy(x.tile<4, 256>(m * 4, 0), regs);
      auto scaled = tf::mul(tf::cast<float>(regs), half); // expected-error {{tf.mul cannot be lowered by the cuda_sm90 backend: tf cannot read the scalar 'half': write a constant expression, a float parameter, an extent, or + - * / on them [tf:lower-op]}}
      tf::copy(tf::cast<tf::bf16>(scaled), y.tile<4, 256>(m * 4, 0));
    }
  }
}

} // namespace t
