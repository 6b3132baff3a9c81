// RUN: %tf-cc1 -verify %s
#include "tf/layout/mesh.hpp"

constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});
constexpr tf::Layout l = tf::make_layout(tf::IntTuple{4, 32});

[[tf::kernel]] int a = 1;     // expected-error {{'tf::kernel' attribute only applies to functions}}
[[tf::mesh(m)]] void f();     // expected-error {{'tf::mesh' attribute only applies to compound statements, variable declarations and expression statements}}
[[tf::layout(l)]] void g();   // expected-error {{'tf::layout' attribute only applies to variables, parameters, fields and expression statements}}
void h([[tf::mesh(m)]] int p); // expected-error {{'tf::mesh' attribute only applies to compound statements, variable declarations and expression statements}}
struct [[tf::layout(l)]] S {}; // expected-error {{'tf::layout' attribute only applies to variables, parameters, fields and expression statements}}

void f(int x) {
  [[tf::kernel]] { ++x; }            // expected-error {{'tf::kernel' attribute only applies to functions}}
  [[tf::mesh(m)]] for (;;) {}        // expected-error {{'tf::mesh' attribute only applies to compound statements, variable declarations and expression statements}}
  [[tf::mesh(m)]] return;            // expected-error {{'tf::mesh' attribute only applies to compound statements, variable declarations and expression statements}}
  [[tf::layout(l)]] { ++x; }         // expected-error {{'tf::layout' attribute only applies to variables, parameters, fields and expression statements}}
}
