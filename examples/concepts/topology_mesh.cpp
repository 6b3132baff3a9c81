// Topology and Mesh: units of one level, and a view of some of them.
// (docs/concepts.md)
#include <tf/tf.hpp>

// A topology: 384 threads per CTA.
constexpr tf::Topology cta_threads = tf::topology("thread", 384);

// A mesh: those threads as 3 warpgroups of 128, with named axes.
constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");
// A sub-mesh: warpgroups 1 and 2 (threads 128..383).
constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_);

static_assert(*threads.size() == 384 && *compute.size() == 256);
static_assert(*compute.unit(0) == 128);             // its first unit is thread 128
static_assert(*tf::fits(compute, cta_threads));     // every unit exists in the topology
