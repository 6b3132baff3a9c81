// RUN: %tf-cc1 -verify %s
// RUN: %tf-cc1 -verify -DKERNEL %s
#include "tf/layout/mesh.hpp"

constexpr tf::Layout l = tf::make_layout(tf::IntTuple{4, 32});
constexpr tf::Topology t = tf::topology("cta", 132);

#ifndef KERNEL
[[tf::mesh(3)]] int a = 1;  // expected-error {{argument of 'tf::mesh' must be a tf::Mesh, found 'int'}}
[[tf::mesh(l)]] int b = 1;  // expected-error {{argument of 'tf::mesh' must be a tf::Mesh, found 'const tf::Layout'}}
[[tf::layout(t)]] int c = 1; // expected-error {{argument of 'tf::layout' must be a tf::Layout, tf::ComposedLayout, tf::ShardLayout or a layout string, found 'const tf::Topology'}}

void f(int x) {
  [[tf::mesh("(4,32)")]] { ++x; } // expected-error {{argument of 'tf::mesh' must be a tf::Mesh, found 'const char[7]'}}
  [[tf::layout(2.0)]] x = 1;      // expected-error {{argument of 'tf::layout' must be a tf::Layout, tf::ComposedLayout, tf::ShardLayout or a layout string, found 'double'}}
}

// In a template the type is known per instantiation, and so is the error.
template <class T> void g() {
  [[tf::mesh(T::value)]] {} // expected-error {{argument of 'tf::mesh' must be a tf::Mesh, found 'const int'}}
}
struct Three { static constexpr int value = 3; };
void use() { g<Three>(); } // expected-note {{in instantiation of 'g<Three>' requested here}}
#endif

#ifdef KERNEL
// A kernel's arguments are targets and topologies, checked where its body is
// read: once the attributes are well-formed, hence a run of its own.
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
[[tf::kernel(42)]] void h() {}  // expected-error {{argument of 'tf::kernel' must be tf::target(ID), tf::topology(LEVEL, EXTENT) or tf::resident_ctas(N), found 'int'}}
[[tf::kernel(t, m)]] void i() {} // expected-error {{argument of 'tf::kernel' must be tf::target(ID), tf::topology(LEVEL, EXTENT) or tf::resident_ctas(N), found 'tf::Mesh'}}
#endif
