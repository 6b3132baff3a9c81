// Arguments that depend on template parameters are evaluated per
// instantiation; errors appear only for the instantiation that has them.
// RUN: %tf-cc1 -verify %s
// RUN: not %tf-cc1 -plugin-arg-tf report %s 2>/dev/null | FileCheck %s
#include "tf/layout/mesh.hpp"
#include "tf/layout/topology.hpp"

template <int N> constexpr tf::Mesh lanes = tf::mesh("thread", tf::IntTuple{N});

// CHECK: kernel scale<4> at {{.*}}templates.cpp:[[@LINE+4]]:6
// CHECK-NEXT:  argument 1: Topology(thread, 4)
// CHECK-NEXT:  mesh at {{.*}}templates.cpp:[[@LINE+3]]:5 on compound statement: Mesh(thread, (4):(1))
template <int N> [[tf::kernel(tf::topology("thread", N))]]
void scale(int *x) {
  [[tf::mesh(lanes<N>)]] { x[0] *= N; }
  [[tf::mesh(M)]] x[1] = 0; // M is a member of no one: checked at parse time
  // expected-error@-1 {{use of undeclared identifier 'M'}}
}
// CHECK: kernel scale<8> at {{.*}}templates.cpp:[[@LINE-5]]:6
// CHECK-NEXT:  argument 1: Topology(thread, 8)
// CHECK-NEXT:  mesh at {{.*}}templates.cpp:[[@LINE-6]]:5 on compound statement: Mesh(thread, (8):(1))

// A pattern that is wrong only for some arguments: no error until then.
template <class T> void place(int *x) {
  [[tf::mesh(T::mesh)]] x[0] = 1; // expected-error {{argument of 'tf::mesh' must be a tf::Mesh, found 'const int'}}
  [[tf::mesh(T::mesh)]] int y = 2; // expected-error {{argument of 'tf::mesh' must be a tf::Mesh, found 'const int'}}
  (void)y;
}

// A substituted argument that is not constant: Sema reports it for a
// declaration (as for clang::annotate), tf for a statement.
template <class T> void place_at_run_time(int *x) {
  [[tf::mesh(T::mesh)]] int y = 2; // expected-error {{'tf::mesh' attribute requires parameter 1 to be a constant expression}} expected-note {{read of non-constexpr variable 'mesh'}}
  [[tf::mesh(T::mesh)]] x[0] = y; // expected-error {{argument of 'tf::mesh' is not a constant expression}} expected-note {{read of non-constexpr variable 'mesh'}}
}
struct AtRunTime { static inline tf::Mesh mesh{}; }; // expected-note 2 {{declared here}}
struct Good { static constexpr tf::Mesh mesh = tf::mesh("thread", tf::IntTuple{2, 16}); };
struct Bad { static constexpr int mesh = 3; };
template <class T> void never_used() { [[tf::mesh(T::nothing)]] {} }

void use(int *x) {
  scale<4>(x);
  scale<8>(x);
  place<Good>(x);
  place<Bad>(x); // expected-note 2 {{in instantiation of 'place<Bad>' requested here}}
  place_at_run_time<AtRunTime>(x); // expected-note 2 {{in instantiation of}}
}
