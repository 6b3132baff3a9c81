// Ill-formed tf::kernel arguments: each an error at the argument, exit
// status 1, never a signal. Values that are not constants (a target or
// topology the headers refuse) are attribute errors, which stop the
// translation unit before kernels are read: a run of their own (-DVALUES).
// RUN: %tf-cc1 -verify %s
// RUN: not %tf-cc1 %s
// RUN: %tf-cc1 -verify -verify-ignore-unexpected=note -DVALUES %s
// RUN: not %tf-cc1 -DVALUES %s
#include <tf/tf.hpp>

using Matrix = tf::Tensor<float, "(?,?)">;
inline constexpr tf::Mesh threads = tf::mesh("thread", tf::layout<"(4,32)">);

#ifndef VALUES
// expected-error@+1 {{argument of 'tf::kernel' must be tf::target(ID), tf::topology(LEVEL, EXTENT) or tf::resident_ctas(N), found 'int'}}
[[tf::kernel(42)]] void number(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' must be tf::target(ID), tf::topology(LEVEL, EXTENT) or tf::resident_ctas(N), found 'const char *'}}
[[tf::kernel("cta")]] void text(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' must be tf::target(ID), tf::topology(LEVEL, EXTENT) or tf::resident_ctas(N), found 'tf::Mesh'}}
[[tf::kernel(threads)]] void mesh(Matrix x) {}
// expected-error@+1 {{'tf::kernel' names a target twice}}
[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::target("nvidia.h200_sxm"))]] void twice(Matrix x) {}
// expected-error@+1 {{'tf::kernel' names the topology of level 'thread' twice}}
[[tf::kernel(tf::topology("thread", 128), tf::topology("thread", 128))]] void levels(Matrix x) {}
#else
// expected-error@+1 {{argument of 'tf::kernel' is not a constant expression}}
[[tf::kernel(tf::target(""))]] void empty_target(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' is not a constant expression}}
[[tf::kernel(tf::topology("cta", -4))]] void negative(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' is not a constant expression}}
[[tf::kernel(tf::topology("cta", 0))]] void zero(Matrix x) {}
// expected-error@+1 {{argument of 'tf::kernel' is not a constant expression}}
[[tf::kernel(tf::topology("", 4))]] void unnamed(Matrix x) {}
// expected-error@+2 {{'tf::kernel' attribute written twice on the same declaration}}
// expected-note@+1 {{previous 'tf::kernel' attribute is here}}
[[tf::kernel(tf::topology("cta", 4))]] [[tf::kernel]] void attributes(Matrix x) {}
#endif
