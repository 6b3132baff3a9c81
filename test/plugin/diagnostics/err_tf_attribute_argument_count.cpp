// RUN: %tf-cc1 -verify %s
#include "tf/layout/mesh.hpp"

constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
constexpr tf::Layout l = tf::make_layout(tf::IntTuple{4, 32});

[[tf::mesh]] int a = 1;         // expected-error {{'tf::mesh' attribute takes one argument, found 0}}
[[tf::mesh(m, m)]] int b = 1;   // expected-error {{'tf::mesh' attribute takes one argument, found 2}}
[[tf::layout()]] int c = 1;     // expected-error {{'tf::layout' attribute takes one argument, found 0}}
[[tf::layout(l, l)]] int d = 1; // expected-error {{'tf::layout' attribute takes one argument, found 2}}

void f(int x) {
  [[tf::mesh(m, m)]] { ++x; }   // expected-error {{'tf::mesh' attribute takes one argument, found 2}}
  [[tf::layout]] x = 2;         // expected-error {{'tf::layout' attribute takes one argument, found 0}}
}

// tf::kernel takes any number of arguments.
[[tf::kernel]] void k0();
[[tf::kernel(1, 2, 3)]] void k3();
