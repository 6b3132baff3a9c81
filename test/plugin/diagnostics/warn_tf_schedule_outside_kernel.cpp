// warn_tf_schedule_outside_kernel: with the plugin loaded, the header leaves
// tf::schedule's contract checks to the plugin, which checks [[tf::kernel]]
// functions; a schedule anywhere else would be checked by no one, so the
// plugin says so at the call (once for a template, whatever its
// instantiations). Schedules in kernels, in lambdas inside kernels and in
// kernel templates are checked and not reported.
// RUN: %tf-cc1 -verify %s
// RUN: %tf-cc1 -verify=silenced -plugin-arg-tf Wno-unchecked %s
// RUN: %tf-cc1 -verify=werror -plugin-arg-tf Werror=unchecked %s
// silenced-no-diagnostics
#include <tf/tf.hpp>

inline constexpr tf::Mesh warp = tf::mesh("thread", tf::layout<"(32)">, "lane");
using Fragment = tf::Tensor<float, "(32@lane,4):(4,1)", tf::rmem>;
using Staged = tf::Tensor<float, "(32,4):(4,1)", tf::smem>;

void stage_on_the_host() {
  auto staged_tile = tf::empty<Staged>();
  auto x = tf::zeros<Fragment>();
  // expected-warning@+2 {{tf::schedule outside a [[tf::kernel]] function is not checked with the tf plugin loaded: the header leaves its contract checks to the plugin, which checks kernels; write it in a kernel, or compile this file without the plugin to have the header check it}}
  // werror-error@+1 {{tf::schedule outside a [[tf::kernel]] function is not checked}}
  auto staged = tf::schedule<tf::Copy>(x, staged_tile);
  (void)staged;
}

template <class T> void stage_template() {
  auto staged_tile = tf::empty<tf::Tensor<T, "(32,4):(4,1)", tf::smem>>();
  auto x = tf::zeros<tf::Tensor<T, "(32@lane,4):(4,1)", tf::rmem>>();
  // expected-warning@+2 {{tf::schedule outside a [[tf::kernel]] function is not checked}}
  // werror-error@+1 {{tf::schedule outside a [[tf::kernel]] function is not checked}}
  auto staged = tf::schedule<tf::Copy>(x, staged_tile);
  (void)staged;
}
template void stage_template<float>();
template void stage_template<int>();

[[tf::kernel(tf::topology("thread", 32))]]
void stage() {
  auto staged_tile = tf::empty<Staged>();
  [[tf::mesh(warp)]] {
    auto x = tf::zeros<Fragment>();
    auto staged = tf::schedule<tf::Copy>(x, staged_tile);
  }
}
