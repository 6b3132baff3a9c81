// note_tf_type_used: a failed check of an atom type's own (at its class
// scope, here Wgmma's n), reached from a reference outside every kernel,
// stands where the user wrote the type -- the alias -- and the reference
// that instantiated it is this note.
// RUN: %tf-cc1 -verify %s
#include <tf/tf.hpp>

using Wgmma264 = tf::nv::sm90::Wgmma<264, tf::bf16, tf::Form::SS, tf::Major::K>; // expected-error {{tf::nv::sm90::Wgmma<264, ...>: n must satisfy 8 <= n <= 256 and n % 8 == 0 (contract nv.sm90.Wgmma, parameter n); use e.g. Wgmma<256, ...>}}
using Acc = tf::Tensor<float, "(128,264)", tf::rmem>;
using Lhs = tf::Tensor<tf::bf16, "(128,64)", tf::smem>;
using Rhs = tf::Tensor<tf::bf16, "(64,264)", tf::smem>;

void on_the_host(Acc acc, Lhs lhs, Rhs rhs) {
  // expected-note@+1 {{tf::nv::sm90::Wgmma<264, tf::bf16, tf::Form::SS, tf::Major::K> is used here}}
  tf::schedule<tf::TiledMma<Wgmma264>>(acc, lhs, rhs);
}
