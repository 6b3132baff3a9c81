// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
#include <tf/tf.hpp>

using Tile = tf::Tensor<float, "(64,32)", tf::rmem>;
using Matrix = tf::Tensor<float, "(?,?)">;
inline constexpr tf::Mesh warp = tf::mesh("thread", tf::layout<"(32)">, "lane");

void log_tile(int);
constexpr int twice(int v) { return 2 * v; }

[[tf::kernel(tf::topology("cta", 4), tf::topology("thread", 32))]]
void calls(Matrix x) {
  const std::int64_t rows = twice(3) + x.extent(0); // constexpr functions are fine
  log_tile(1); // expected-error {{call to 'log_tile' inside a tf kernel: only tf ops and constant expressions can be represented; make it a constexpr function, or a tf op}}
  [[tf::mesh(warp)]] {
    auto acc = tf::zeros<Tile>();
    log_tile(static_cast<int>(rows)); // expected-error {{call to 'log_tile' inside a tf kernel: only tf ops and constant expressions can be represented; inside a mesh scope only tf ops run}}
  }
}
