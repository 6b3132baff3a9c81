// Header-level checks of ops: each CASE fails to compile with a message
// that names the fix, with clang and with g++. Extent messages come from
// static extents; dynamic extents are checked when the op runs.
//
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=COPYTYPE
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=1 %s 2>&1 | FileCheck %s --check-prefix=COPYTYPE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=COPYRANK
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=2 %s 2>&1 | FileCheck %s --check-prefix=COPYRANK
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=COPYEXT
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=3 %s 2>&1 | FileCheck %s --check-prefix=COPYEXT
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=CASTTO
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=4 %s 2>&1 | FileCheck %s --check-prefix=CASTTO
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=ADDTYPE
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=5 %s 2>&1 | FileCheck %s --check-prefix=ADDTYPE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=6 %s 2>&1 | FileCheck %s --check-prefix=SUBRANK
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=6 %s 2>&1 | FileCheck %s --check-prefix=SUBRANK
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=7 %s 2>&1 | FileCheck %s --check-prefix=MULEXT
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=7 %s 2>&1 | FileCheck %s --check-prefix=MULEXT
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=8 %s 2>&1 | FileCheck %s --check-prefix=MAXEXT
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=8 %s 2>&1 | FileCheck %s --check-prefix=MAXEXT
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=9 %s 2>&1 | FileCheck %s --check-prefix=MINTYPE
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=9 %s 2>&1 | FileCheck %s --check-prefix=MINTYPE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=10 %s 2>&1 | FileCheck %s --check-prefix=EXPINT
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=10 %s 2>&1 | FileCheck %s --check-prefix=EXPINT
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=11 %s 2>&1 | FileCheck %s --check-prefix=REDSUM
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=11 %s 2>&1 | FileCheck %s --check-prefix=REDSUM
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=12 %s 2>&1 | FileCheck %s --check-prefix=REDMAX
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=12 %s 2>&1 | FileCheck %s --check-prefix=REDMAX
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=13 %s 2>&1 | FileCheck %s --check-prefix=MMACC
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=13 %s 2>&1 | FileCheck %s --check-prefix=MMACC
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=14 %s 2>&1 | FileCheck %s --check-prefix=MMSTORE
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=14 %s 2>&1 | FileCheck %s --check-prefix=MMSTORE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=15 %s 2>&1 | FileCheck %s --check-prefix=MMTYPES
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=15 %s 2>&1 | FileCheck %s --check-prefix=MMTYPES
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=16 %s 2>&1 | FileCheck %s --check-prefix=MMRANK
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=16 %s 2>&1 | FileCheck %s --check-prefix=MMRANK
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=17 %s 2>&1 | FileCheck %s --check-prefix=MMK
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=17 %s 2>&1 | FileCheck %s --check-prefix=MMK
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=18 %s 2>&1 | FileCheck %s --check-prefix=MMM
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=18 %s 2>&1 | FileCheck %s --check-prefix=MMM
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=19 %s 2>&1 | FileCheck %s --check-prefix=MMN
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=19 %s 2>&1 | FileCheck %s --check-prefix=MMN
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=20 %s 2>&1 | FileCheck %s --check-prefix=INSTYPE
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=20 %s 2>&1 | FileCheck %s --check-prefix=INSTYPE
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=21 %s 2>&1 | FileCheck %s --check-prefix=INSRANK
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=21 %s 2>&1 | FileCheck %s --check-prefix=INSRANK
// RUN: not %clangxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=22 %s 2>&1 | FileCheck %s --check-prefix=INSORIGIN
// RUN: not %gxx -std=c++20 -fsyntax-only -I %tf_include -DCASE=22 %s 2>&1 | FileCheck %s --check-prefix=INSORIGIN

#include "tf/ops/buffer.hpp"
#include "tf/ops/elementwise.hpp"
#include "tf/ops/matmul.hpp"
#include "tf/ops/reduce.hpp"
#include "tf/ops/slice.hpp"

using F = tf::Tensor<float, "(8,16)">;
using F2 = tf::Tensor<float, "(8,32)">;
using F3 = tf::Tensor<float, "(8,16,2)">;
using Bf = tf::Tensor<tf::bf16, "(8,16)">;
using Bf16x16 = tf::Tensor<tf::bf16, "(16,16)">;
using I = tf::Tensor<std::int32_t, "(8,16)">;
using Acc = tf::Tensor<float, "(8,16)", tf::rmem>;

void f(float *p, tf::bf16 *q, std::int32_t *ip) {
  (void)p;
  (void)q;
  (void)ip;
#if CASE == 1
  // COPYTYPE: error:{{.*}}tf::copy: source and destination element types differ; convert the source first
  tf::copy(F(p), Bf(q));
#elif CASE == 2
  // COPYRANK: error:{{.*}}tf::copy: source and destination ranks differ
  tf::copy(F(p), F3(p));
#elif CASE == 3
  // COPYEXT: error:{{.*}}tf::copy: source and destination extents differ; copy a tile of the larger one
  tf::copy(F(p), F2(p));
#elif CASE == 4
  // CASTTO: error:{{.*}}tf::cast: the target must be an element type
  auto r = tf::cast<long>(F(p));
#elif CASE == 5
  // ADDTYPE: error:{{.*}}tf::add: the operands' element types differ; convert one with tf::cast
  auto r = tf::add(F(p), Bf(q));
#elif CASE == 6
  // SUBRANK: error:{{.*}}tf::sub: the operands' ranks differ
  auto r = tf::sub(F(p), F3(p));
#elif CASE == 7
  // MULEXT: error:{{.*}}tf::mul: the operands' extents differ
  auto r = tf::mul(F(p), F2(p));
#elif CASE == 8
  // MAXEXT: error:{{.*}}tf::maximum: the operands' extents differ
  auto r = tf::maximum(F(p), F2(p));
#elif CASE == 9
  // MINTYPE: error:{{.*}}tf::minimum: the operands' element types differ
  auto r = tf::minimum(F(p), Bf(q));
#elif CASE == 10
  // EXPINT: error:{{.*}}tf::exp: needs a floating-point element type; convert integers first
  auto r = tf::exp(I(ip));
#elif CASE == 11
  // REDSUM: error:{{.*}}tf::reduce_sum: the mode is not a mode of the tensor
  auto r = tf::reduce_sum<2>(F(p));
#elif CASE == 12
  // REDMAX: error:{{.*}}tf::reduce_max: the mode is not a mode of the tensor
  auto r = tf::reduce_max<-1>(F(p));
#elif CASE == 13
  // MMACC: error:{{.*}}tf::matmul: the accumulator must hold float (f32)
  auto acc = tf::zeros<tf::Tensor<tf::bf16, "(8,16)", tf::rmem>>(); tf::matmul(acc, Bf(q), Bf16x16(q));
#elif CASE == 14
  // MMSTORE: error:{{.*}}tf::matmul: the accumulator must live in registers
  tf::matmul(tf::Tensor<float, "(8,16)", tf::smem>(p), Bf(q), Bf16x16(q));
#elif CASE == 15
  // MMTYPES: error:{{.*}}tf::matmul: lhs and rhs element types differ
  tf::matmul(Acc(p), F(p), Bf16x16(q));
#elif CASE == 16
  // MMRANK: error:{{.*}}tf::matmul: acc, lhs and rhs must be matrices (rank 2)
  tf::matmul(Acc(p), F3(p), Bf16x16(q));
#elif CASE == 17
  // MMK: error:{{.*}}tf::matmul: the K extents of lhs (mode 1) and rhs (mode 0) differ
  tf::matmul(Acc(p), Bf(q), Bf(q));
#elif CASE == 18
  // MMM: error:{{.*}}tf::matmul: the M extents of acc (mode 0) and lhs (mode 0) differ
  tf::matmul(Acc(p), Bf16x16(q), Bf16x16(q));
#elif CASE == 19
  // MMN: error:{{.*}}tf::matmul: the N extents of acc (mode 1) and rhs (mode 1) differ
  tf::matmul(Acc(p), Bf(q), tf::Tensor<tf::bf16, "(16,8)">(q));
#elif CASE == 20
  // INSTYPE: error:{{.*}}tf::insert_slice: out and tile element types differ
  tf::insert_slice(F(p), Bf(q), 0, 0);
#elif CASE == 21
  // INSRANK: error:{{.*}}tf::insert_slice: out and tile ranks differ
  tf::insert_slice(F(p), F3(p), 0, 0);
#elif CASE == 22
  // INSORIGIN: error:{{.*}}tf::insert_slice: give one origin per mode of out
  tf::insert_slice(F(p), F(p), 0);
#endif
}
