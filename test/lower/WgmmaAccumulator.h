//===- test/lower/WgmmaAccumulator.h - A recorded accumulator -*- C++ -*-===//
//
// The fragment of C that the contract engine records for one warpgroup's
// m64nNk WGMMA (both operands K-major in shared memory, 128-byte swizzle),
// as lower::RegisterFragment reads it: what lowering hands the CUDA
// backend's staged store and the interpreter, built here without a kernel.
// Used by test/lower/RegisterFragmentTest.cpp and test/emit/.
//
//===----------------------------------------------------------------------===//
#ifndef TF_TEST_LOWER_WGMMAACCUMULATOR_H
#define TF_TEST_LOWER_WGMMAACCUMULATOR_H

#include "lower/RegisterFragment.h"

#include "tf/atoms/nv/sm90/wgmma.hpp"
#include "tf/contract/describe.hpp"
#include "tf/layout/text.hpp"

#include <string>

namespace tf_test {

/// One warpgroup's WGMMA site of \p N columns on \p Type inputs.
inline tf::Site wgmmaSite(std::int64_t N, tf::DType Type) {
  const tf::Mesh Warpgroup =
      tf::mesh("thread", tf::IntTuple{4, 8, 4}, "warp", "lane8", "lane4");
  // One 16-byte core-matrix row holds T elements; K is 2T.
  const std::int64_t T = 16 / tf::bytes(Type), K = 2 * T;
  const std::string C = std::to_string(N / 8);
  auto Smem = [](const std::string &Text) {
    return tf::parse_composed_layout(Text).value();
  };
  tf::LayoutText Acc =
      tf::parse_layout_text("(4@warp,2,8@lane8," + C +
                            ",4@lane4,2):(16,8,1,512,128,64)")
          .value();
  tf::Site S;
  S.mesh = Warpgroup;
  S.params = {tf::arg("n", N), tf::arg("dtype", Type),
              tf::arg("a_major", tf::choice("K")),
              tf::arg("b_major", tf::choice("K"))};
  // K-major with the 128-byte swizzle: rows of K 8T elements apart, eight
  // rows per swizzle atom.
  S.operands = {
      tf::site_operand("A", {64, K}, Type, tf::Storage::smem,
                       Smem("((8,8)," + std::to_string(K) + "):((" +
                            std::to_string(64 * T) + "," +
                            std::to_string(8 * T) + "),1) | Swizzle(3,4,3)")),
      tf::site_operand("B", {K, N}, Type, tf::Storage::smem,
                       Smem("(" + std::to_string(K) + ",(" + C + ",8)):(1,(" +
                            std::to_string(64 * T) + "," +
                            std::to_string(8 * T) + ")) | Swizzle(3,4,3)")),
      tf::site_operand("C", {64, N}, tf::DType::f32, tf::Storage::rmem,
                       tf::make_shard(Acc.layout, Acc.axes, Warpgroup).value()),
  };
  return S;
}

/// The contract engine's match of that site.
inline tf::MatchReport wgmmaMatch(std::int64_t N, tf::DType Type) {
  return tf::match(tf::atoms::nv::sm90::wgmma, wgmmaSite(N, Type));
}

/// The accumulator's registers of that WGMMA, or the reason there are none.
inline llvm::Expected<tf::lower::RegisterFragment>
wgmmaAccumulator(std::int64_t N, tf::DType Type) {
  const tf::MatchReport R = wgmmaMatch(N, Type);
  if (!R.accepted)
    return llvm::createStringError(
        tf::describe(R, tf::atoms::nv::sm90::wgmma));
  return tf::lower::RegisterFragment::fromMatch(tf::atoms::nv::sm90::wgmma, R,
                                                "C");
}

} // namespace tf_test

#endif // TF_TEST_LOWER_WGMMAACCUMULATOR_H
