// A program that uses tf's header library alone: tensors over its own memory
// and an element-wise op, run on the CPU. Every adoption project builds it
// (find_package, add_subdirectory, a plain Makefile) with warnings as errors:
// tf's headers are C++20 and must not warn in a user's build.
#include <tf/tf.hpp>

#include <cstdio>
#include <vector>

int main() {
  std::vector<float> a(2 * 3), b(2 * 3);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 10.0f * static_cast<float>(i);
  }
  tf::Tensor<float, "(?,3)"> lhs(a.data(), {2}), rhs(b.data(), {2});
  auto sum = tf::add(lhs, rhs);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      if (sum(i, j).get() != 11.0f * static_cast<float>(i * 3 + j)) {
        std::printf("hello: sum(%d, %d) is %g\n", i, j, double(sum(i, j).get()));
        return 1;
      }
  std::printf("hello: tf's headers work\n");
  return 0;
}
