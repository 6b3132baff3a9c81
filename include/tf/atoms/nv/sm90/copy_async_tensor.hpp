//===- tf/atoms/nv/sm90/copy_async_tensor.hpp - TMA contract --------------===//
//
// nv.sm90.CopyAsyncTensor: the Tensor Memory Accelerator copies of sm_90,
// one contract with a `direction` parameter:
//   direction = load   cp.async.bulk.tensor.Nd.shared::cluster.global
//                      (gmem box -> smem, optional .multicast::cluster)
//   direction = store  cp.async.bulk.tensor.Nd.global.shared::cta
//                      (smem box -> gmem; no multicast)
// One contract, because one atom type, `tf::nv::CopyAsyncTensor`, names
// both the loads and the epilogue store; the operands switch on the
// direction (src is gmem for a load, smem for a store), and so do the limits.
// A site's storages say which direction it is.
//
// One thread issues a TMA (PTX ISA, "cp.async.bulk.tensor": the instruction
// is per-thread, not .sync.aligned), so the execution mesh is one thread;
// a mesh of more threads is refused -- elect one first (elect.sync).
//
// The box is described by shape alone (the tensor map's boxDim): TMA writes
// it into shared memory in row-major box order, innermost box dimension
// fastest, under the tensor map's swizzle, which acts on the byte address
// (as tf's swizzles do). So the smem operand must be the compact
// row-major layout of the box composed with swizzle_for(mode).
//
// Every number here is an ISA constant, so it belongs to the contract (device
// capacities and rates live only in targets/*.toml, with unit and origin):
//  - rank 1..5, boxDim[i] <= 256, boxDim[0] * elementSize % 16 == 0,
//    globalStrides[i] % 16 == 0: CUDA Driver API, cuTensorMapEncodeTiled;
//  - with swizzling (interleave NONE), boxDim[0] * elementSize <= the
//    swizzle span (32, 64 or 128 bytes): cuTensorMapEncodeTiled;
//  - the smem destination is 128-byte aligned: PTX ISA, "Tensor Memory
//    Access: restrictions on shared memory" / cp.async.bulk.tensor; a
//    swizzled box must start on its swizzle pattern's period (8 rows of
//    16 << B bytes: 256, 512, 1024) so that the address-bit swizzle of the
//    hardware equals the layout's offset swizzle -- CUTLASS aligns SW128
//    stages to 1024 bytes for this reason (cute/atom/copy_traits_sm90_tma.hpp,
//    "the smem layout is ... aligned to 1024B"; CUTLASS sm90 collective
//    mainloops declare `alignas(1024)` smem for SW128);
//  - multicast: .multicast::cluster with a 16-bit ctaMask, so at most 16
//    CTAs of the cluster receive the box (PTX ISA, cp.async.bulk.tensor).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/detail/copy_patterns.hpp"

namespace tf::atoms::nv::sm90 {

/// ISA constants of TMA (cuTensorMapEncodeTiled, PTX cp.async.bulk.tensor).
inline constexpr int tma_max_rank = 5;
inline constexpr int tma_max_box_extent = 256;
inline constexpr int tma_inner_bytes_multiple = 16;
inline constexpr int tma_global_stride_multiple = 16;
inline constexpr int tma_smem_align = 128;
inline constexpr int tma_max_multicast = 16;

/// The alignment of a TMA box in shared memory under `mode`: 128 bytes, or
/// the swizzle pattern's period when larger (SW128: 1024).
constexpr int tma_smem_alignment(SwizzleMode mode) {
  int period = mode == SwizzleMode::none ? 0 : swizzle_period_bytes(mode);
  return period > tma_smem_align ? period : tma_smem_align;
}

/// The largest innermost box extent in bytes under `mode`: the swizzle span
/// (32, 64, 128), or unlimited but for boxDim <= 256 when unswizzled.
constexpr int tma_max_inner_bytes(SwizzleMode mode) {
  return mode == SwizzleMode::none ? 0 : swizzle_row_bytes(mode);
}

/// The choice value naming `mode` in the `swizzle` parameter.
constexpr Name swizzle_mode_name(SwizzleMode mode) {
  switch (mode) {
  case SwizzleMode::none: return "none";
  case SwizzleMode::bytes32: return "bytes32";
  case SwizzleMode::bytes64: return "bytes64";
  case SwizzleMode::bytes128: return "bytes128";
  }
  return "none";
}

inline constexpr SwizzleMode tma_swizzle_modes[] = {
    SwizzleMode::none, SwizzleMode::bytes32, SwizzleMode::bytes64,
    SwizzleMode::bytes128};

namespace tma_detail {
using namespace tf::atoms::detail;

constexpr Condition swizzle_is(SwizzleMode m) {
  return when_choice("swizzle", swizzle_mode_name(m));
}
constexpr Conditions when_swizzle(SwizzleMode m) { return {swizzle_is(m)}; }

constexpr ParamDef swizzle_param() {
  ParamDef p;
  p.name = "swizzle";
  p.kind = ParamKind::choice;
  p.choice_type = "SwizzleMode";
  for (SwizzleMode m : tma_swizzle_modes)
    p.allowed.push_back(ParamValue::choose(swizzle_mode_name(m)));
  p.has_default = true;
  p.default_value = ParamValue::choose("none");
  return p;
}

constexpr ParamDef multicast_param() {
  ParamDef p;
  p.name = "multicast"; // CTAs receiving the box; 1: no .multicast::cluster
  p.kind = ParamKind::integer;
  p.has_range = true;
  p.lo = 1;
  p.hi = tma_max_multicast; // 16-bit ctaMask
  p.has_default = true;
  p.default_value = ParamValue::of(1);
  return p;
}

constexpr ParamDef direction_param() {
  ParamDef p;
  p.name = "direction";
  p.kind = ParamKind::choice;
  p.choice_type = "Direction";
  p.allowed = {ParamValue::choose("load"), ParamValue::choose("store")};
  p.has_default = true;
  p.default_value = ParamValue::choose("load");
  return p;
}

constexpr Condition when_direction(Name d) {
  return when_choice("direction", d);
}

/// A store has no multicast: multicast = 1. For a load no case holds and
/// the range 1..16 alone decides.
inline constexpr ParamCase multicast_cases[] = {
    {{when_direction("store")}, {ParamValue::of(1)}, true, ParamValue::of(1)}};

inline constexpr ParamDef params[] = {
    // dtype: any element type, CUtensorMapDataType covers them all.
    direction_param(), ParamDef::dtype("dtype"), swizzle_param(), [] {
      ParamDef p = multicast_param();
      p.cases = multicast_cases;
      return p;
    }()};

/// gmem side: any strides, the innermost one 1 (cuTensorMapEncodeTiled takes
/// the innermost dimension as contiguous; the others as globalStrides).
inline constexpr LayoutPattern gmem_layouts[] = {layout_pattern(
    pattern_composed("(*e,w):(*d,1)"), cite("cuTensorMapEncodeTiled"))};

/// smem side: the compact row-major box under the mode's byte swizzle.
constexpr LayoutPattern smem_box(SwizzleMode m) {
  LayoutPattern p;
  p.kind = LayoutPatternKind::row_major;
  p.when = when_swizzle(m);
  p.layout = ComposedLayout{swizzle_for(m), Int::symbolic("o"), Layout{}};
  p.source = cite("PTX tensor swizzling");
  return p;
}
inline constexpr LayoutPattern smem_layouts[] = {
    smem_box(SwizzleMode::none), smem_box(SwizzleMode::bytes32),
    smem_box(SwizzleMode::bytes64), smem_box(SwizzleMode::bytes128)};

constexpr OperandPattern operand(Name name, Name direction, Access access,
                                 Storage storage, List<LayoutPattern> layouts) {
  OperandPattern o;
  o.name = name;
  o.when = {when_direction(direction)};
  o.access = access;
  o.shape = pattern_shape("(*box)");
  o.dtype = dtype_of("dtype");
  o.storage = storage;
  o.layouts = layouts;
  return o;
}

inline constexpr OperandPattern operands[] = {
    operand("src", "load", Access::read, Storage::gmem, gmem_layouts),
    operand("src", "store", Access::read, Storage::smem, smem_layouts),
    operand("dst", "load", Access::write, Storage::smem, smem_layouts),
    operand("dst", "store", Access::write, Storage::gmem, gmem_layouts)};

/// The limits of the box, on its gmem side (src of a load, dst of a store)
/// and its smem side.
constexpr FixedVector<OperandLimit, 22> box_limits() {
  using K = OperandLimit::Kind;
  FixedVector<OperandLimit, 22> out;
  for (Name d : {Name("load"), Name("store")}) {
    Name gmem = d == "load" ? "src" : "dst";
    Name smem = d == "load" ? "dst" : "src";
    Conditions w{when_direction(d)};
    out.push_back(limit(gmem, K::rank_max, tma_max_rank,
                        cite("cuTensorMapEncodeTiled"), w));
    out.push_back(limit(gmem, K::every_mode_extent_max, tma_max_box_extent,
                        cite("cuTensorMapEncodeTiled"), w));
    out.push_back(limit(gmem, K::inner_bytes_mult, tma_inner_bytes_multiple,
                        cite("cuTensorMapEncodeTiled"), w));
    out.push_back(limit(gmem, K::outer_stride_bytes_mult,
                        tma_global_stride_multiple,
                        cite("cuTensorMapEncodeTiled"), w));
    for (SwizzleMode m : tma_swizzle_modes) {
      Conditions ws{when_direction(d), swizzle_is(m)};
      if (m != SwizzleMode::none)
        out.push_back(limit(gmem, K::inner_bytes_max, tma_max_inner_bytes(m),
                            cite("cuTensorMapEncodeTiled"), ws));
      out.push_back(limit(smem, K::base_align_bytes, tma_smem_alignment(m),
                          cite("PTX bulk tensor copy"), ws));
    }
  }
  return out;
}
inline constexpr auto limit_storage = box_limits();

inline constexpr MeshPattern one_thread{pattern_mesh("thread", "(1):(1)"), {}};

} // namespace tma_detail

/// nv.sm90.CopyAsyncTensor: TMA copy of a box, gmem <-> smem.
inline constexpr Contract copy_async_tensor{
    .id = "nv.sm90.CopyAsyncTensor",
    .kind = AtomKind::copy,
    .capability = "cp.async.bulk.tensor",
    .execution_mesh = tma_detail::one_thread,
    .params = tma_detail::params,
    .operands = tma_detail::operands,
    .limits = List<OperandLimit>(tma_detail::limit_storage.items,
                                 tma_detail::limit_storage.size()),
    .atom_shape = {},
};

} // namespace tf::atoms::nv::sm90
