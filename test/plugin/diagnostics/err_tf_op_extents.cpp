// tf::broadcast<Mode>(t, like): t's modes are like's without Mode. A row
// statistic (one value per row) broadcast along the wrong mode is reported
// at the call with both extents and the mode that fits; so is a bias whose
// extent is not the row's. A broadcast that fits is not reported.
// RUN: %tf-cc1 -verify %s
#include <tf/tf.hpp>

namespace t {
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "rows");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(4,32)">, "warp", "lane");
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;
using Vector = tf::Tensor<tf::bf16, "(?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn),
             tf::topology("thread", 128))]]
void k(Matrix x, Vector bias) {
  for (auto [m, n] : tf::grid_tiles(cta, tf::ceil_div(x.extent(0), 4), 1)) {
    [[tf::mesh(threads)]] {
      auto row = tf::cast<float>(x.tile<4, 8>(m * 4, n * 8));
      auto top = tf::reduce_max<1>(row);
      auto fits = tf::sub(row, tf::broadcast<1>(top, row));
      // expected-error@+1 {{tf::broadcast<0>: mode 0 of 'top' (4) has extent 4, but mode 1 of 'row' (4,8) has 8; tf::broadcast<1> fits [tf:op-extents]}}
      auto wrong_mode = tf::broadcast<0>(top, row);
      auto b = tf::cast<float>(bias.tile<6>(n * 6));
      // expected-error@+1 {{tf::broadcast<0>: mode 0 of 'b' (6) has extent 6, but mode 1 of 'row' (4,8) has 8 [tf:op-extents]}}
      auto wrong_extent = tf::broadcast<0>(b, row);
      (void)fits;
      (void)wrong_mode;
      (void)wrong_extent;
    }
  }
}
} // namespace t
