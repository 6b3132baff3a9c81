// Header-level checks of tf::broadcast<Mode>(t, like) and the epilogue
// operands that use it: a vector added to a matrix without a broadcast, a
// broadcast of a tensor of like's rank, a mode that is no mode of `like`,
// and a broadcast over another tile than the one it meets fail to compile
// (the last with both extents: clang prints the requirement's extents, g++
// the literal message); tf::scale takes floating types only. A vector of the
// wrong length, or broadcast along the wrong mode, gives no compile error in
// the header (its extents may be dynamic): the tf plugin reports it at the
// call (err_tf_op_extents), the header when it runs.
//
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=MATRIX
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=MATRIX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=LIKE
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=LIKE-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=SCALEINT
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=SCALEINT
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=0 %s
#include <tf/tf.hpp>

using Acc = tf::Tensor<float, "(128,256)", tf::rmem>;
using Square = tf::Tensor<float, "(128,128)", tf::rmem>;
using Vector = tf::Tensor<tf::bf16, "(?)">;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

void epilogue(Vector bias, Matrix c, float alpha) {
  auto acc = tf::zeros<Acc>();
#if CASE == 0
  // One bias value per column, repeated down the 128 rows; one per row,
  // repeated along the 256 columns.
  auto per_column = tf::add(
      tf::scale(acc, alpha),
      tf::broadcast<0>(tf::cast<float>(bias.tile<256>(0)), acc));
  auto per_row = tf::add(
      acc, tf::broadcast<1>(tf::cast<float>(bias.tile<128>(0)), acc));
  (void)per_column;
  (void)per_row;
  (void)c;
#elif CASE == 1
  auto r = tf::add(acc, tf::cast<float>(bias.tile<256>(0)));
  // RANK: tf::add: the operands' ranks differ; repeat the smaller one with tf::broadcast<Mode>(t, like)
#elif CASE == 2
  auto r = tf::broadcast<0>(tf::cast<float>(c.tile<128, 256>(0, 0)), acc);
  // MATRIX: tf::broadcast: the tensor needs one mode less than `like`
#elif CASE == 3
  auto r = tf::broadcast<2>(tf::cast<float>(bias.tile<256>(0)), acc);
  // MODE: tf::broadcast: the mode is not a mode of `like`
#elif CASE == 4
  // The broadcast takes the shape of a 128 x 128 tile, not the accumulator's.
  auto r = tf::add(acc, tf::broadcast<0>(tf::cast<float>(bias.tile<128>(0)),
                                         tf::zeros<Square>()));
  // LIKE: error: static assertion failed due to requirement 'detail::extents_agree_v<std::integer_sequence<long, 128, 256>, std::integer_sequence<long, 128, 128>>': tf::add: the operands' extents differ
  // LIKE: note: in instantiation of
  // LIKE-SAME: requested here
  // LIKE-GXX: tf::add: the operands' extents differ
#elif CASE == 5
  auto r = tf::scale(tf::zeros<tf::Tensor<std::int32_t, "(4)", tf::rmem>>(), alpha);
  // SCALEINT: tf::scale: needs a floating-point element type
#endif
#if CASE != 0
  (void)r;
  (void)c;
  (void)alpha;
#endif
}
