// RUN: %tf-cc1 -verify %s
#include "tf/layout/mesh.hpp"

constexpr tf::Layout l = tf::make_layout(tf::IntTuple{4, 32});

struct S {
  // expected-note@+1 {{previous 'tf::layout' attribute is here}}
  [[tf::layout(l)]] [[tf::layout(l)]] int field; // expected-error {{'tf::layout' attribute written twice on the same declaration}}
};
