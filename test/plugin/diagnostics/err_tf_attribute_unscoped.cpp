// RUN: %tf-cc1 -verify %s
// RUN: not %tf-cc1 -fdiagnostics-parseable-fixits %s 2>&1 | FileCheck %s
#include "tf/layout/mesh.hpp"

constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
constexpr tf::Layout l = tf::make_layout(tf::IntTuple{4, 32});

[[mesh(m)]] int a = 1;   // expected-error {{attribute 'mesh' must be written 'tf::mesh'}}
// CHECK: fix-it:"{{.*}}err_tf_attribute_unscoped.cpp":{[[@LINE-1]]:3-[[@LINE-1]]:3}:"tf::"
[[kernel]] void k();     // expected-error {{attribute 'kernel' must be written 'tf::kernel'}}
[[layout(l)]] int b = 1; // expected-error {{attribute 'layout' must be written 'tf::layout'}}

void f(int x) {
  [[mesh(m)]] { ++x; }   // expected-error {{attribute 'mesh' must be written 'tf::mesh'}}
  [[layout(l)]] x = 1;   // expected-error {{attribute 'layout' must be written 'tf::layout'}}
}
