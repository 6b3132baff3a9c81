// Recursion is a call the HIR cannot represent: a kernel calling itself or
// a recursive helper is refused at the call; unbounded template recursion
// is Clang's fatal error. Exit status 1, never a signal or a hang.
// RUN: %tf-cc1 -verify %s
// RUN: not %tf-cc1 %s
// RUN: not %tf-cc1 -DTEMPLATE %s 2>&1 | FileCheck %s --check-prefix=TEMPLATE
// TEMPLATE: fatal error: recursive template instantiation exceeded maximum depth
#include <tf/tf.hpp>

using Matrix = tf::Tensor<float, "(?,?)">;

int depth(int n) { return n ? depth(n - 1) : 0; }
constexpr int fold(int n) { return n ? fold(n - 1) + 1 : 0; }

[[tf::kernel(tf::topology("cta", 4))]]
void self(int n) {
  self(n - 1); // expected-error {{call to 'self' inside a tf kernel: only tf ops and constant expressions can be represented}}
}

[[tf::kernel(tf::topology("cta", 4))]]
void helper(Matrix x, int n) {
  (void)depth(n); // expected-error {{call to 'depth' inside a tf kernel}}
}

// A constexpr recursion evaluated at compile time is a constant.
[[tf::kernel(tf::topology("cta", fold(4)))]]
void constant(Matrix x) {}

#ifdef TEMPLATE
template <int N> [[tf::kernel(tf::topology("cta", 4))]] void unbounded(Matrix x) {
  unbounded<N - 1>(x);
}
template void unbounded<3>(Matrix);
#endif
