//===- test/atoms/refusal_test.cpp - The engine refusing these atoms ------===//
//
// Each refusal kind of contract/match.hpp on the copy, element-wise and AMX
// atoms: mesh, capability, parameter predicate, operand storage/dtype/shape,
// limit.
//
//===----------------------------------------------------------------------===//
#include "tf/atoms/generic/elementwise.hpp"
#include "tf/atoms/intel/amx/tdpbf16ps.hpp"
#include "tf/atoms/intel/amx/tile_memory.hpp"
#include "tf/atoms/nv/sm80/cp_async.hpp"
#include "tf/atoms/nv/sm80/ldmatrix.hpp"
#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/atoms/nv/sm90/stmatrix.hpp"
#include "tf/contract/match.hpp"
#include "tf/layout/text/literal.hpp"

#include <gtest/gtest.h>

namespace {
using namespace tf;
namespace sm80 = tf::atoms::nv::sm80;
namespace sm90 = tf::atoms::nv::sm90;
namespace amx = tf::atoms::intel::amx;
namespace generic = tf::atoms::generic;

Mesh one_thread() { return mesh("thread", layout<"(128)">).sub(range(0, 1)); }
Mesh one_core() { return mesh("core", layout<"(1)">); }

TEST(Refusal, TmaFromAWarpIsAMeshMismatch) {
  Site s;
  s.mesh = mesh("thread", layout<"(128)">).sub(range(0, 32));
  s.operands.push_back(site_operand("src", IntTuple{128, 64}, DType::bf16,
                                    Storage::gmem));
  s.operands.push_back(site_operand("dst", IntTuple{128, 64}, DType::bf16,
                                    Storage::smem));
  s.params.push_back(arg("dtype", DType::bf16));
  MatchReport r = match(sm90::copy_async_tensor, s);
  EXPECT_FALSE(r);
  EXPECT_TRUE(r.has(ReasonKind::mesh));
}

TEST(Refusal, CapabilityMissing) {
  static constexpr Name sm80_caps[] = {"mma.sync", "cp.async", "ldmatrix"};
  Site s;
  s.mesh = one_thread();
  s.check_capabilities = true;
  s.capabilities = sm80_caps;
  s.params.push_back(arg("dtype", DType::bf16));
  s.operands.push_back(site_operand("src", IntTuple{128, 64}, DType::bf16,
                                    Storage::gmem));
  s.operands.push_back(site_operand("dst", IntTuple{128, 64}, DType::bf16,
                                    Storage::smem));
  EXPECT_TRUE(match(sm90::copy_async_tensor, s).has(ReasonKind::capability));
  Site warp;
  warp.mesh = mesh("thread", layout<"(8,4)">);
  warp.check_capabilities = true;
  warp.capabilities = sm80_caps;
  warp.params.push_back(arg("dtype", DType::bf16));
  EXPECT_TRUE(match(sm90::stmatrix, warp).has(ReasonKind::capability));
  EXPECT_FALSE(match(sm80::ldmatrix, warp).has(ReasonKind::capability));
}

TEST(Refusal, ParameterPredicates) {
  Site s;
  s.mesh = mesh("thread", layout<"(32)">);
  s.params.push_back(arg("dtype", DType::bf16));
  s.params.push_back(arg("bytes", 12));
  EXPECT_TRUE(match(sm80::cp_async, s).has(ReasonKind::param_predicate));
  // .cg with an 8-byte copy: outside the case bytes != 16.
  Site cg;
  cg.mesh = mesh("thread", layout<"(32)">);
  cg.params.push_back(arg("dtype", DType::bf16));
  cg.params.push_back(arg("bytes", 8));
  cg.params.push_back(arg("cache", choice("cg")));
  EXPECT_TRUE(match(sm80::cp_async, cg).has(ReasonKind::param_case));
  Site x3;
  x3.mesh = mesh("thread", layout<"(8,4)">);
  x3.params.push_back(arg("dtype", DType::bf16));
  x3.params.push_back(arg("num", 3));
  EXPECT_TRUE(match(sm80::ldmatrix, x3).has(ReasonKind::param_predicate));
  Site f32;
  f32.mesh = mesh("thread", layout<"(8,4)">);
  f32.params.push_back(arg("dtype", DType::f32));
  EXPECT_TRUE(match(sm80::ldmatrix, f32).has(ReasonKind::param_predicate));
  Site k;
  k.mesh = one_core();
  k.params.push_back(arg("k", 31));
  EXPECT_TRUE(match(amx::tdpbf16ps, k).has(ReasonKind::param_predicate));
  Site op;
  op.mesh = mesh("thread", layout<"(32)">);
  op.params.push_back(arg("op", choice("div")));
  op.params.push_back(arg("dtype", DType::f32));
  EXPECT_TRUE(match(generic::binary, op).has(ReasonKind::param_predicate));
}

TEST(Refusal, OperandStorageAndDtype) {
  // Tile load into a tile register from ... a tile register.
  Site s;
  s.mesh = one_core();
  s.params.push_back(arg("dtype", DType::bf16));
  s.operands.push_back(
      site_operand("src", IntTuple{16, 32}, DType::bf16, Storage::amx_tile));
  s.operands.push_back(
      site_operand("dst", IntTuple{16, 32}, DType::bf16, Storage::amx_tile));
  EXPECT_TRUE(match(amx::tile_load, s).has(ReasonKind::operand_storage));
  // TDPBF16PS with an f16 A.
  Site d;
  d.mesh = one_core();
  d.operands.push_back(
      site_operand("C", IntTuple{16, 16}, DType::f32, Storage::amx_tile));
  d.operands.push_back(
      site_operand("A", IntTuple{16, 32}, DType::f16, Storage::amx_tile));
  d.operands.push_back(
      site_operand("B", IntTuple{32, 16}, DType::bf16, Storage::amx_tile));
  EXPECT_TRUE(match(amx::tdpbf16ps, d).has(ReasonKind::operand_dtype));
  // Cast into a dtype other than `to`.
  Site c;
  c.mesh = mesh("thread", layout<"(32)">);
  c.params.push_back(arg("from", DType::f32));
  c.params.push_back(arg("to", DType::bf16));
  c.operands.push_back(site_operand("src", IntTuple{8}, DType::f32, Storage::rmem));
  c.operands.push_back(site_operand("dst", IntTuple{8}, DType::f16, Storage::rmem));
  EXPECT_TRUE(match(generic::cast, c).has(ReasonKind::operand_dtype));
}

TEST(Refusal, AmxTileLimits) {
  Site s;
  s.mesh = one_core();
  s.params.push_back(arg("dtype", DType::bf16));
  s.operands.push_back(site_operand("src", IntTuple{17, 32}, DType::bf16,
                                    Storage::gmem));
  s.operands.push_back(site_operand("dst", IntTuple{17, 32}, DType::bf16,
                                    Storage::amx_tile));
  EXPECT_TRUE(match(amx::tile_load, s).has(ReasonKind::operand_limit));
  Site w = s;
  w.operands[0].shape = IntTuple{16, 33};
  w.operands[1].shape = IntTuple{16, 33};
  EXPECT_TRUE(match(amx::tile_load, w).has(ReasonKind::operand_limit));
}

} // namespace
