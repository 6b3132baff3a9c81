//===- test/gpu/refusals/wgmma_refused.cu - What wgmma::mma refuses -------===//
//
// Each -DCASE=n is one use of wgmma::mma that the dispatch must stop with
// its static_assert (ctest gpu-wgmma-refuses-*, test/gpu/CMakeLists.txt,
// match the message): a form without a wrapper, A and B types that do not
// mix, an MN-major fp8 operand (PTX has imm-trans for bf16/f16 only), an
// operand scale other than 1 or -1. Not in test/gpu/ itself: that folder's
// files must compile.
//
//===----------------------------------------------------------------------===//
#include "tf/runtime/sm90/wgmma.cuh"

namespace wgmma = tf::sm90::wgmma;
using wgmma::Major;
using wgmma::Type;

#if CASE == 1 // N outside 8..256 in steps of 8
constexpr int N = 200 + 4;
#define FORM N, Type::bf16, Type::bf16, Major::k, Major::k
#elif CASE == 2 // bf16 x f16: only e4m3 and e5m2 mix
constexpr int N = 64;
#define FORM N, Type::bf16, Type::f16, Major::k, Major::k
#elif CASE == 3 // fp8 A MN-major
constexpr int N = 128;
#define FORM N, Type::e4m3, Type::e4m3, Major::mn, Major::k
#elif CASE == 4 // fp8 B MN-major
constexpr int N = 128;
#define FORM N, Type::e5m2, Type::e4m3, Major::k, Major::mn
#elif CASE == 5 // a scale of 2
constexpr int N = 64;
#define FORM N, Type::f16, Type::f16, Major::k, Major::k, 2
#else
#error "CASE must be 1..5"
#endif

__global__ void refused(float *out, tf::sm90::SmemDescriptor a,
                        tf::sm90::SmemDescriptor b) {
  float d[N / 2] = {};
  wgmma::mma<FORM>(d, a, b, wgmma::ScaleD::accumulate);
  out[threadIdx.x] = d[0];
}
