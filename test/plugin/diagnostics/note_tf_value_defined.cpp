// note_tf_value_defined: where a register value used on the wrong mesh was
// defined, and on which mesh. Here a value computed by the loader thread is
// read by the compute threads.
// RUN: %tf-cc1 -verify %s
#include "../Inputs/gemm_meshes.hpp"

namespace defined {

using namespace gemm_test; // loader, compute
using Scale = tf::Tensor<float, "(8)", tf::rmem>;

[[tf::kernel(tf::target("nvidia.h200_sxm"), tf::topology("cta", 132),
             tf::topology("thread", 384))]]
void handoff(tf::Tensor<tf::bf16, "(?,?)"> out) {
  // expected-note@+1 {{'scale' is defined here, on mesh Mesh(thread, (1):(1), participant)}}
  [[tf::mesh(loader)]] auto scale = tf::zeros<Scale>();
  // expected-note@+2 {{'scale' is used here}}
  // expected-error@+1 {{'scale' lives in the registers of mesh}}
  [[tf::mesh(compute)]] auto half = tf::cast<tf::bf16>(scale);
  (void)out;
  (void)half;
}

} // namespace defined
