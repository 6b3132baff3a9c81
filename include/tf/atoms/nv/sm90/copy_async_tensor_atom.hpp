//===- tf/atoms/nv/sm90/copy_async_tensor_atom.hpp - The TMA atom type ----===//
//
// tf::nv::CopyAsyncTensor chooses TMA (nv.sm90.CopyAsyncTensor) for a copy
// between global and shared memory, decisions (5) and (7) of
// examples/gemm/optimal.cpp:
//
//   [[tf::mesh(loader)]] auto lhs =
//       tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BK>(m0, k0), lhs_ring);
//   [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(
//       staged, out.tile<BM, BN>(m0, n0));
//
// The direction follows the storages, as in the contract: gmem -> smem is a
// load, smem -> gmem a store. One thread issues a TMA (the contract's
// execution mesh is one thread), so the loader mesh is a single thread.
// tf::nv::sm90::CopyAsyncTensor is the same type.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/schedule/contract_facts.hpp"

#include <string_view>

namespace tf::nv {

/// TMA: cp.async.bulk.tensor, a gmem box to smem (load) or back (store).
struct CopyAsyncTensor {
  static constexpr auto &contract =
      tf::atoms::nv::sm90::copy_async_tensor;
  static constexpr std::string_view spelling = "tf::nv::CopyAsyncTensor";
};

namespace sm90 {
using CopyAsyncTensor = tf::nv::CopyAsyncTensor;
} // namespace sm90

} // namespace tf::nv
