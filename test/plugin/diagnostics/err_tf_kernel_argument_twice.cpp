// A kernel has one target, one topology per level and one resident CTA
// count: a second one is an error at the second, not a silent choice of one
// of them.
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
#include <tf/tf.hpp>

using Matrix = tf::Tensor<float, "(?,?)">;

[[tf::kernel(tf::target("nvidia.h200_sxm"),
             tf::target("nvidia.h100_sxm"))]] // expected-error {{'tf::kernel' names a target twice; a kernel has one target, one topology per level and one tf::resident_ctas}}
void two_targets(Matrix x) {}

[[tf::kernel(tf::topology("cta", 4),
             tf::topology("thread", 128),
             tf::topology("cta", 8))]] // expected-error {{'tf::kernel' names the topology of level 'cta' twice}}
void two_extents(Matrix x) {}

[[tf::kernel(tf::topology("cta", 4), tf::topology("thread", 128),
             tf::resident_ctas(4),
             tf::resident_ctas(8))]] // expected-error {{'tf::kernel' names tf::resident_ctas twice}}
void two_counts(Matrix x) {}

// Different levels are fine.
[[tf::kernel(tf::topology("cta", 4), tf::topology("thread", 128))]]
void levels(Matrix x) {}
