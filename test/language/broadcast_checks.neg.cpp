// Header-level checks of epilogue operands: a bias broadcast to the wrong
// shape -- a vector of the wrong length, or along the wrong axis -- meets the
// accumulator tile in tf::add, which fails to compile with both extents in
// the message (clang prints the requirement's extents; g++ the literal
// message); tf::broadcast takes vectors only, tf::scale floating types only.
//
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=LENGTH
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=LENGTH-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=AXIS
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=AXIS-GXX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=MATRIX
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=MATRIX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=SCALEINT
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=SCALEINT
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=0 %s
#include <tf/tf.hpp>

using Acc = tf::Tensor<float, "(128,256)", tf::rmem>;
using Vector = tf::Tensor<tf::bf16, "(?)">;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;

void epilogue(Vector bias, Matrix c, float alpha) {
  auto acc = tf::zeros<Acc>();
#if CASE == 0
  // The right shape: one bias value per column, broadcast along the 128 rows.
  auto ok = tf::add(tf::scale(acc, alpha),
                    tf::broadcast<0, 128>(tf::cast<float>(bias.tile<256>(0))));
  (void)ok;
  (void)c;
#elif CASE == 1
  // A vector of 128 values (one per row) broadcast along the rows.
  auto r = tf::add(acc, tf::broadcast<0, 128>(tf::cast<float>(bias.tile<128>(0))));
  // LENGTH: error: static assertion failed due to requirement 'detail::extents_agree_v<std::integer_sequence<long, 128, 256>, std::integer_sequence<long, 128, 128>>': tf::add: the operands' extents differ
  // LENGTH: note: in instantiation of
  // LENGTH-SAME: requested here
  // LENGTH-GXX: tf::add: the operands' extents differ
#elif CASE == 2
  // The 256 column values broadcast along the columns (the wrong axis).
  auto r = tf::add(acc, tf::broadcast<1, 128>(tf::cast<float>(bias.tile<256>(0))));
  // AXIS: error: static assertion failed due to requirement 'detail::extents_agree_v<std::integer_sequence<long, 128, 256>, std::integer_sequence<long, 256, 128>>': tf::add: the operands' extents differ
  // AXIS-GXX: tf::add: the operands' extents differ
#elif CASE == 3
  auto r = tf::broadcast<0, 128>(c.tile<128, 256>(0, 0));
  // MATRIX: tf::broadcast: broadcasts a vector (rank 1)
#elif CASE == 4
  auto r = tf::scale(tf::zeros<tf::Tensor<std::int32_t, "(4)", tf::rmem>>(), alpha);
  // SCALEINT: tf::scale: needs a floating-point element type
#endif
#if CASE != 0
  (void)r;
  (void)c;
  (void)alpha;
#endif
}
