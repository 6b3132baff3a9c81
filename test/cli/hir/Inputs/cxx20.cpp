// Needs nothing but -std=c++20: what `tf hir FILE` (no --, no -p) compiles
// with.
#include <concepts>

static_assert(__cplusplus == 202002L);
static_assert(__has_cpp_attribute(tf::mesh) == 1);

template <std::integral T> T twice(T X) { return 2 * X; }
int Four = twice(2);
