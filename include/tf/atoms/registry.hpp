//===- tf/atoms/registry.hpp - Every instruction contract, by id ----------===//
//
// The list of every atom contract declared under include/tf/atoms/, so that
// `tf facts`, the matching engine's callers and the plugin see one set.
// Adding an atom means declaring its constexpr Contract in its own header,
// including the header here and adding one line to `contracts`, in id order
// (a static_assert below keeps the ids sorted and unique);
// docs/adding_a_target.md walks through it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/contract/contract.hpp"

#include "tf/atoms/generic/copy.hpp"
#include "tf/atoms/generic/elementwise.hpp"
#include "tf/atoms/intel/amx/tdpbf16ps.hpp"
#include "tf/atoms/intel/amx/tile_config.hpp"
#include "tf/atoms/intel/amx/tile_memory.hpp"
#include "tf/atoms/nv/sm80/cp_async.hpp"
#include "tf/atoms/nv/sm80/ldmatrix.hpp"
#include "tf/atoms/nv/sm80/mma.hpp"
#include "tf/atoms/nv/sm89/mma.hpp"
#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/atoms/nv/sm90/reduce.hpp"
#include "tf/atoms/nv/sm90/register_math.hpp"
#include "tf/atoms/nv/sm90/stmatrix.hpp"
#include "tf/atoms/nv/sm90/vector_global.hpp"
#include "tf/atoms/nv/sm90/wgmma.hpp"

#include <cstddef>
#include <span>
#include <string_view>

namespace tf {

namespace detail {

/// Every contract, sorted by id.
inline constexpr const Contract *contracts[] = {
    &atoms::generic::binary,
    &atoms::generic::cast,
    &atoms::generic::copy,
    &atoms::intel::amx::tdpbf16ps,
    &atoms::intel::amx::tile_config,
    &atoms::intel::amx::tile_load,
    &atoms::intel::amx::tile_store,
    &atoms::nv::sm80::cp_async,
    &atoms::nv::sm80::ldmatrix,
    &atoms::nv::sm80::mma,
    &atoms::nv::sm89::mma,
    &atoms::nv::sm90::copy_async_tensor,
    &atoms::nv::sm90::cta_reduce,
    &atoms::nv::sm90::fast_math,
    &atoms::nv::sm90::packed_bf16,
    &atoms::nv::sm90::stmatrix,
    &atoms::nv::sm90::vector_load,
    &atoms::nv::sm90::vector_store,
    &atoms::nv::sm90::warp_reduce,
    &atoms::nv::sm90::wgmma,
};

/// Whether the ids are strictly increasing (sorted, no duplicates).
constexpr bool ids_sorted() {
  for (std::size_t i = 1; i < std::size(contracts); ++i)
    if (!(contracts[i - 1]->id.view() < contracts[i]->id.view()))
      return false;
  return true;
}

static_assert(ids_sorted(),
              "registry: keep `contracts` sorted by id, each id once");

} // namespace detail

/// Every atom contract, sorted by id.
constexpr std::span<const Contract *const> all_contracts() {
  return detail::contracts;
}

/// The contract whose id is `id` ("nv.sm90.Wgmma"), or null.
constexpr const Contract *find_contract(std::string_view id) {
  for (const Contract *c : all_contracts())
    if (c->id == id)
      return c;
  return nullptr;
}

} // namespace tf
