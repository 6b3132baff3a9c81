// A kernel naming a target the fact tree does not have is refused at the
// target argument, listing the targets there; its other kernels still check.
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
#include <tf/tf.hpp>

// expected-error-re@+1 {{kernel 'unknown': unknown target 'nvidia.h999_sxm'; the fact tree {{.*}}targets has intel.amx, {{.*}}nvidia.h200_sxm [tf:kernel-target]}}
[[tf::kernel(tf::target("nvidia.h999_sxm"), tf::topology("cta", 1))]]
void unknown() {}

// An architecture is a target too; a kernel without one is not checked
// against any.
[[tf::kernel(tf::target("nvidia.sm90"), tf::topology("cta", 1))]]
void architecture() {}

[[tf::kernel(tf::topology("cta", 1))]]
void none() {}
