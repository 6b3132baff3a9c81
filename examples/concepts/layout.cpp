// Layout: a shape and strides; coordinate -> offset. (docs/concepts.md)
#include <tf/tf.hpp>

// A 4 x 8 row-major tile: the last mode varies fastest.
constexpr tf::Layout tile = tf::layout<"(4,8):(8,1)">;
static_assert(*tf::size(tile) == 32);
static_assert(*tf::evaluate(tile, tf::IntTuple{1, 2}) == 10); // row 1, column 2
// The same tile read column by column (strides (1,4)) is a different layout.
static_assert(*tf::evaluate(tf::layout<"(4,8):(1,4)">, tf::IntTuple{1, 2}) == 9);
