// tf attributes on what they do not apply to, inside and around kernels:
// each an error at the attribute, exit status 1, never a signal.
// RUN: %tf-cc1 -verify %s
// RUN: not %tf-cc1 %s
#include <tf/tf.hpp>

using Tile = tf::Tensor<float, "(64,32)", tf::rmem>;
using Matrix = tf::Tensor<float, "(?,?)">;
inline constexpr tf::Mesh threads = tf::mesh("thread", tf::layout<"(4,32)">);

[[tf::kernel(tf::topology("cta", 4))]] Matrix global_tensor; // expected-error {{'tf::kernel' attribute only applies to functions}}
struct [[tf::kernel(tf::topology("cta", 4))]] Kernels {}; // expected-error {{'tf::kernel' attribute only applies to functions}}
namespace [[tf::mesh(threads)]] ns {} // expected-error {{'tf::mesh' attribute only applies to compound statements, variable declarations and expression statements}}
enum [[tf::layout("(4,4)")]] E { e }; // expected-error {{'tf::layout' attribute only applies to variables, parameters, fields and expression statements}}

[[tf::kernel(tf::topology("cta", 4), tf::topology("thread", 128))]]
void body(Matrix x, int n) {
  [[tf::kernel]] { } // expected-error {{'tf::kernel' attribute only applies to functions}}
  [[tf::mesh(threads)]] if (n) {} // expected-error {{'tf::mesh' attribute only applies to compound statements, variable declarations and expression statements}}
  [[tf::mesh(threads)]] for (std::int64_t k : tf::tile_offsets(x.extent(1), 32)) {} // expected-error {{'tf::mesh' attribute only applies to}}
  [[tf::layout("(64,32)")]] return; // expected-error {{'tf::layout' attribute only applies to variables, parameters, fields and expression statements}}
}
