// Compiled (not run) by ctest with clang 22, g++ and nvcc, without
// exceptions and RTTI where the compiler allows: every op instantiated once
// on the H200 GEMM's types, warning-free (g++ with -Wno-attributes).
#include "tf/tf.hpp"

namespace check {
using LhsSlot = tf::Tensor<tf::bf16, "((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)", tf::smem>;
using RhsSlot = tf::Tensor<tf::bf16, "((4,2,8),(4,64)):((4096,512,64),(1024,1)) | Swizzle(3,4,3)", tf::smem>;
using Acc = tf::Tensor<float, "((2@group,4@warp,2,8@lane8),(32,4@lane4,2)):((16384,16,8,1),(512,128,64))", tf::rmem>;
using Staged = tf::Tensor<tf::bf16, "(128,(4,64)):(64,(8192,1)) | Swizzle(3,4,3)", tf::smem>;

void tile(tf::Tensor<tf::bf16, "(?,?)"> a, tf::Tensor<tf::bf16, "(?,?)"> b,
          tf::Tensor<tf::bf16, "(?,?)"> out, tf::Tensor<tf::bf16, "(?)"> bias,
          float alpha, int m, int n) {
  tf::Ring<LhsSlot, 3> lhs_ring;
  tf::Ring<RhsSlot, 3> rhs_ring;
  auto acc = tf::zeros<Acc>();
  for (std::int64_t k = 0; k < a.extent(1); k += 64) {
    LhsSlot lhs = lhs_ring.next();
    RhsSlot rhs = rhs_ring.next();
    tf::copy(a.tile<128, 64>(m * 128, k), lhs);
    tf::copy(b.tile<64, 256>(k, n * 256), rhs);
    tf::matmul(acc, lhs, rhs);
  }
  auto staged = tf::empty<Staged>();
  tf::copy(tf::cast<tf::bf16>(acc), staged);
  tf::insert_slice(out, staged, m * 128, n * 256);
  auto s = tf::add(tf::sub(acc, acc), tf::mul(acc, acc));
  auto r = tf::silu(tf::gelu_erf(tf::gelu_tanh(
      tf::relu(tf::neg(tf::exp(tf::maximum(s, tf::minimum(s, acc))))))));
  auto sum = tf::reduce_sum<1>(r);
  auto mx = tf::reduce_max<0>(sum);
  (void)mx;
  auto biased = tf::add(
      tf::scale(acc, alpha),
      tf::broadcast<0>(tf::cast<float>(bias.tile<256>(n * 256)), acc));
  (void)biased;
}
} // namespace check
