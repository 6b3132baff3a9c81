//===- tf/atoms/intel/amx/atoms.hpp - The AMX atom types ------------------===//
//
// The C++ types users name in tf::schedule to choose Intel AMX instructions,
// as tf::nv::sm90::Wgmma and tf::nv::CopyAsyncTensor choose Hopper's
// (examples/amx/gemm.cpp):
//
//   using Dot = tf::intel::amx::Tdpbf16ps<16, 16, 32>;
//   auto lhs = tf::schedule<tf::intel::amx::TileLoad>(a.tile<BM, BK>(m0, k0),
//                                                     tf::empty<LhsTiles>());
//   acc = tf::schedule<tf::TiledMma<Dot>, tf::Repeat<2, 2, 1>>(acc, lhs, rhs);
//   tf::schedule<tf::intel::amx::TileStore>(acc, out.tile<BM, BN>(m0, n0));
//
// Tile registers are the storage tf::amx_tile: a tensor there spans one or
// more of the core's eight tiles (16 rows of 64 bytes each), its layout
// saying which tile and row each element is in. TileLoad / TileStore move a
// memory tile into such a tensor and back, one TILELOADD / TILESTORED per
// tile register; Tdpbf16ps<M, N, K> is one TDPBF16PS on an M x K bf16 tile
// and a K x N VNNI-packed bf16 tile into an M x N f32 tile. Every fact (the
// parameters' ranges, the operands' dtypes, storages and layouts, palette
// 1's limits) is read from the constexpr contracts in this folder; `tf facts
// intel.amx.Tdpbf16ps` prints them.
//
// Header-only execution runs them as tf::Copy and tf::matmul do (the
// reference the generated code is checked against): a load reads the tile's
// elements (0 outside the tensor), a store writes those inside the tensor,
// and TDPBF16PS tiles compute exactly the tile's matmul in float, k
// increasing. The hardware's rounding (pairs summed apart, DAZ/FTZ) differs
// from that by float rounding only.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/intel/amx/tdpbf16ps.hpp"
#include "tf/atoms/intel/amx/tile_memory.hpp"
#include "tf/schedule/contract_facts.hpp"

#include <cstdint>
#include <string_view>

namespace tf::intel::amx {

/// TILELOADD: a memory tile (rows of unit stride) into tile registers.
struct TileLoad {
  static constexpr auto &contract = tf::atoms::intel::amx::tile_load;
  static constexpr std::string_view spelling = "tf::intel::amx::TileLoad";
};

/// TILESTORED: tile registers into a memory tile.
struct TileStore {
  static constexpr auto &contract = tf::atoms::intel::amx::tile_store;
  static constexpr std::string_view spelling = "tf::intel::amx::TileStore";
};

/// TDPBF16PS: C (f32, M x N) += A (bf16, M x K) . B (bf16, K x N, VNNI
/// pairs), one instruction of at most 16 x 16 x 32 (palette 1).
template <int M, int N, int K> struct Tdpbf16ps {
  static constexpr auto &contract = tf::atoms::intel::amx::tdpbf16ps;
  static constexpr std::string_view spelling = "tf::intel::amx::Tdpbf16ps";
  using element_type = tf::bf16;
  static constexpr DType dtype = DType::bf16;

  /// The parameters as the contract names them, with the derived ones.
  static constexpr detail::AtomParams params = detail::with_derived(
      contract, detail::AtomParams{{"m", ParamValue::of(std::int64_t(M))},
                                   {"n", ParamValue::of(std::int64_t(N))},
                                   {"k", ParamValue::of(std::int64_t(K))}});

  static constexpr std::int64_t atom_m = detail::atom_extent(contract, params, 0);
  static constexpr std::int64_t atom_n = detail::atom_extent(contract, params, 1);
  static constexpr std::int64_t atom_k = detail::atom_extent(contract, params, 2);

  /// The operands of the MMA contract.
  static constexpr Name lhs_operand = "A", rhs_operand = "B", acc_operand = "C";

  TF_CONTRACT_REQUIRE(detail::param_ok(contract, params, "m"),
                      "tf::intel::amx::Tdpbf16ps<M, N, K>: M is a tile's rows, "
                      "1 to 16 (contract intel.amx.Tdpbf16ps, palette 1)")
  TF_CONTRACT_REQUIRE(detail::param_ok(contract, params, "n"),
                      "tf::intel::amx::Tdpbf16ps<M, N, K>: N is the f32 "
                      "columns of a 64-byte row, 1 to 16 (contract "
                      "intel.amx.Tdpbf16ps)")
  TF_CONTRACT_REQUIRE(detail::param_ok(contract, params, "k"),
                      "tf::intel::amx::Tdpbf16ps<M, N, K>: K is the bf16 of a "
                      "64-byte row of A, even, 2 to 32 (contract "
                      "intel.amx.Tdpbf16ps)")
};

} // namespace tf::intel::amx
