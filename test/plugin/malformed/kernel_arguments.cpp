// Ill-formed tf::kernel arguments: each an error at the argument, exit
// status 1, never a signal.
// RUN: %tf-cc1 -verify %s
// RUN: not %tf-cc1 %s
#include <tf/tf.hpp>

using Matrix = tf::Tensor<float, "(?,?)">;
inline constexpr tf::Mesh threads = tf::mesh("thread", tf::layout<"(4,32)">);

// expected-error@+1 {{argument of 'tf::kernel' is not a constant expression}}
[[tf::kernel(tf::target(""))]] void empty_target(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' is not a constant expression}}
[[tf::kernel(tf::topology("cta", -4))]] void negative(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' is not a constant expression}}
[[tf::kernel(tf::topology("cta", 0))]] void zero(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' is not a constant expression}}
[[tf::kernel(tf::topology("", 4))]] void unnamed(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' must be tf::target(ID) or tf::topology(LEVEL, EXTENT), found 'int'}}
[[tf::kernel(42)]] void number(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' must be tf::target(ID) or tf::topology(LEVEL, EXTENT), found 'const char[4]'}}
[[tf::kernel("cta")]] void text(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' must be tf::target(ID) or tf::topology(LEVEL, EXTENT), found 'const tf::Mesh'}}
[[tf::kernel(threads)]] void mesh(Matrix x) {}
// expected-error@+1 {{'tf::kernel' names a target twice}}
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::target("nvidia.h200_sxm"))]] void twice(Matrix x) {}
// expected-error@+1 {{'tf::kernel' names the topology of level 'thread' twice}}
[[tf::kernel(tf::topology("thread", 128), tf::topology("thread", 128))]] void levels(Matrix x) {}
// expected-error@+1 {{'tf::kernel' attribute written twice on the same declaration}}
[[tf::kernel(tf::topology("cta", 4))]] [[tf::kernel]] void attributes(Matrix x) {} // expected-note {{previous 'tf::kernel' attribute is here}}
