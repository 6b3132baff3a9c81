// RUN: %tf-cc1 -verify %s
#include "tf/layout/mesh.hpp"

constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
constexpr tf::Layout l = tf::make_layout(tf::IntTuple{4, 32});

// expected-note@+1 {{previous 'tf::mesh' attribute is here}}
[[tf::mesh(m)]] [[tf::mesh(m)]] int a = 1; // expected-error {{'tf::mesh' attribute written twice on the same declaration}}

// expected-note@+1 {{previous 'tf::kernel' attribute is here}}
[[tf::kernel, tf::kernel(1)]] void k(); // expected-error {{'tf::kernel' attribute written twice on the same declaration}}

void f(int x) {
  // expected-note@+1 {{previous 'tf::layout' attribute is here}}
  [[tf::layout(l), tf::layout(l)]] x = 1; // expected-error {{'tf::layout' attribute written twice on the same statement}}
  // A mesh and a layout on one statement are fine.
  [[tf::mesh(m), tf::layout(l)]] x = 2;
}

// Reported once for a template, not per instantiation.
template <int N> void g(int x) {
  // expected-note@+1 {{previous 'tf::mesh' attribute is here}}
  [[tf::mesh(m)]] [[tf::mesh(m)]] { x += N; } // expected-error {{'tf::mesh' attribute written twice on the same statement}}
}
void use() { g<1>(0); g<2>(0); }
