// `tf hir` finds the C++ standard library and Clang's builtin headers as
// clang++ does, and tf's attributes are registered as with the plugin.
#include <cstddef>
#include <vector>

#include <tf/tf.hpp>

static_assert(__has_cpp_attribute(tf::kernel) == 1);
static_assert(__has_cpp_attribute(tf::mesh) == 1);
static_assert(__has_cpp_attribute(tf::layout) == 1);

std::vector<int> Sizes = {1, 2, 3};
std::size_t Count = sizeof(Sizes);
