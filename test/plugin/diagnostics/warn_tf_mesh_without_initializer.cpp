// RUN: %tf-cc1 -verify %s
// RUN: %tf-cc1 -verify=silenced -Wno-ignored-attributes %s
// RUN: %tf-cc1 -verify=werror -Werror=ignored-attributes %s
#include "tf/layout/mesh.hpp"

// silenced-no-diagnostics
constexpr tf::Mesh m = tf::mesh("thread", tf::IntTuple{4, 32});

void f() {
  // expected-warning@+2 {{'tf::mesh' attribute on a declaration without an initializer has no effect}}
  // werror-error@+1 {{'tf::mesh' attribute on a declaration without an initializer has no effect}}
  [[tf::mesh(m)]] int x;
  x = 1;
  [[tf::mesh(m)]] int y = x;
  (void)y;
}
