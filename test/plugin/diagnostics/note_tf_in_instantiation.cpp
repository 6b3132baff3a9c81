// RUN: %tf-cc1 -verify %s
#include "tf/layout/mesh.hpp"

// Arguments that depend on template parameters are checked per
// instantiation; the note says which one.
template <auto M> void run(int x) {
  [[tf::mesh(M)]] x = 1; // expected-error {{argument of 'tf::mesh' must be a tf::Mesh, found 'int'}}
}

void use() {
  run<tf::mesh("thread", tf::IntTuple{32})>(0);
  run<7>(0); // expected-note {{in instantiation of 'run<7>' requested here}}
}
