// RUN: %tf-cc1 -verify %s
#include "tf/layout/mesh.hpp"

tf::Mesh runtime_mesh; // expected-note 2 {{declared here}}
int runtime_int;       // expected-note {{declared here}}

// expected-error@+2 {{argument of 'tf::mesh' is not a constant expression}}
// expected-note@+1 {{read of non-constexpr variable 'runtime_mesh' is not allowed in a constant expression}}
[[tf::mesh(runtime_mesh)]] int a = 1;

// expected-error@+2 {{argument of 'tf::kernel' is not a constant expression}}
// expected-note@+1 {{read of non-const variable 'runtime_int' is not allowed in a constant expression}}
[[tf::kernel(1, runtime_int)]] void k();

void f(int x) { // expected-note {{declared here}}
  // expected-error@+2 {{argument of 'tf::mesh' is not a constant expression}}
  // expected-note@+1 {{read of non-constexpr variable 'runtime_mesh' is not allowed in a constant expression}}
  [[tf::mesh(runtime_mesh)]] { ++x; }
  // expected-error@+1 {{argument of 'tf::kernel' is not a constant expression}}
  [[tf::kernel(x)]] void g(); // expected-note {{function parameter 'x' with unknown value cannot be used in a constant expression}}
}
