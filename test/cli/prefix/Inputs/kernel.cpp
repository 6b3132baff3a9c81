// A kernel whose tile height comes from <tf/tile.hpp> (written by
// cache.test): lines from `namespace` on are appended to its includes.
#include <tf/tf.hpp>

namespace prefix {

inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(?)">, "tile");

using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", tf::dyn))]]
void copy_rows(Matrix a) {
  for (auto [m, k] : tf::grid_tiles(cta, tf::ceil_div(a.extent(0), tile::M),
                                    tf::ceil_div(a.extent(1), 64))) {
    auto t = tf::empty<tile::Tile>();
    tf::copy(a.tile<tile::M, 64>(m * tile::M, k * 64), t);
  }
}

} // namespace prefix
