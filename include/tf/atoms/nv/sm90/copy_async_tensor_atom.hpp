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
// tf::nv::CopyAsyncTensorMulticast<C> is the same load delivered to the C
// CTAs of a cluster (`.multicast::cluster`), for a tile every CTA of the
// cluster reads -- the GEMM's B tile when a cluster of C CTAs takes C
// neighbouring tiles along M (persistent_tiles' `.cluster = C`):
//
//   [[tf::mesh(loader)]] auto rhs = tf::schedule<tf::nv::CopyAsyncTensorMulticast<2>>(
//       b.tile<BK, BN>(k, n * BN), rhs_ring);
//
// Each CTA of the cluster issues a share of the tile's boxes and every CTA
// receives all of them; header-only execution copies the tile as a
// CopyAsyncTensor does (each CTA has the whole tile).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/schedule/contract_facts.hpp"

#include <cstdint>
#include <string_view>

namespace tf::nv {

/// TMA: cp.async.bulk.tensor, a gmem box to smem (load) or back (store).
struct CopyAsyncTensor {
  static constexpr auto &contract =
      tf::atoms::nv::sm90::copy_async_tensor;
  static constexpr std::string_view spelling = "tf::nv::CopyAsyncTensor";
};

/// TMA load multicast to the CTAs CTAs of a cluster: the contract's
/// parameter `multicast` = CTAs.
template <int CTAs> struct CopyAsyncTensorMulticast {
  static_assert(CTAs >= 1 && CTAs <= tf::atoms::nv::sm90::tma_max_multicast,
                "tf::nv::CopyAsyncTensorMulticast<C>: C must satisfy 1 <= C "
                "<= 16, the CTAs a 16-bit ctaMask names (contract "
                "nv.sm90.CopyAsyncTensor, parameter multicast)");
  static constexpr auto &contract =
      tf::atoms::nv::sm90::copy_async_tensor;
  static constexpr std::string_view spelling =
      "tf::nv::CopyAsyncTensorMulticast";
  static constexpr int ctas = CTAs;
  static constexpr detail::AtomParams params{
      {"multicast", ParamValue::of(std::int64_t(CTAs))}};
  // Instantiates `params` with the class, so that the plugin reads its value
  // (a static member of a class template is instantiated where it is used).
  static_assert(params.size() == 1);
};

namespace sm90 {
using CopyAsyncTensor = tf::nv::CopyAsyncTensor;
template <int CTAs>
using CopyAsyncTensorMulticast = tf::nv::CopyAsyncTensorMulticast<CTAs>;
} // namespace sm90

} // namespace tf::nv
