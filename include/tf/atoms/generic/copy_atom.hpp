//===- tf/atoms/generic/copy_atom.hpp - The generic Copy atom type --------===//
//
// tf::Copy chooses generic.Copy: ordinary loads and stores by every thread
// of the mesh, between any two of gmem, smem and rmem -- the staged epilogue,
// decision (7) of examples/gemm/optimal.cpp:
//
//   [[tf::mesh(compute)]] auto staged =
//       tf::schedule<tf::Copy>(tf::cast<tf::bf16>(acc), staged_tile);
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/generic/copy.hpp"
#include "tf/schedule/contract_facts.hpp"

#include <string_view>

namespace tf {

/// generic.Copy: same dtype, same shape, gmem/smem/rmem in any pair.
struct Copy {
  static constexpr auto &contract = tf::atoms::generic::copy;
  static constexpr std::string_view spelling = "tf::Copy";
};

} // namespace tf
