// ShardLayout: which unit of a mesh holds which element. (docs/concepts.md)
#include <tf/tf.hpp>

// A warp (32 lanes) holds a 32 x 4 fragment: lane i holds row i; each lane
// keeps its 4 elements at local indices 0..3 ('@lane' binds the mode to the
// mesh axis "lane").
constexpr tf::Mesh warp = tf::mesh("thread", tf::layout<"(32)">, "lane");
using Fragment = tf::Tensor<float, "(32@lane,4):(4,1)", tf::rmem>;

int main() {
  Fragment f = tf::zeros<Fragment>();        // header-only: runs on the CPU
  return f.extent(0) == 32 && f.extent(1) == 4 ? 0 : 1;
}
