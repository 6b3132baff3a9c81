//===- test/atoms/copy_test.cpp - TMA, cp.async, ldmatrix, stmatrix -------===//
#include "atom_checks.hpp"

#include "tf/atoms/nv/sm80/cp_async.hpp"
#include "tf/atoms/nv/sm80/ldmatrix.hpp"
#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/atoms/nv/sm90/stmatrix.hpp"
#include "tf/layout/mesh_literal.hpp"
#include "tf/layout/text/literal.hpp"

#include <gtest/gtest.h>

namespace {
using namespace tf;
using namespace tf::test;
namespace sm80 = tf::atoms::nv::sm80;
namespace sm90 = tf::atoms::nv::sm90;
using atoms::detail::when_choice;
using atoms::detail::when_int;

const Contract *const all_copy_contracts[] = {
    &sm90::copy_async_tensor, &sm80::cp_async,
    &sm80::ldmatrix, &sm90::stmatrix};

// Contracts are constant expressions.
static_assert(sm90::copy_async_tensor.id == "nv.sm90.CopyAsyncTensor");
static_assert(sm80::cp_async.id == "nv.sm80.CpAsync");
static_assert(sm80::ldmatrix.id == "nv.sm80.Ldmatrix");
static_assert(sm90::stmatrix.id == "nv.sm90.Stmatrix");

TEST(CopyAsyncTensor, CapabilityAndOneThreadMesh) {
  for (const Contract *c : {&sm90::copy_async_tensor}) {
    EXPECT_EQ(c->capability, "cp.async.bulk.tensor");
    EXPECT_EQ(c->execution_mesh.mesh.level, "thread");
    // One unit: a single leaf of extent 1, any first thread p0.
    EXPECT_EQ(c->execution_mesh.mesh.layout, layout<"(1):(1)">);
    EXPECT_TRUE(c->execution_mesh.mesh.offset.is_symbolic());
    Mesh one = mesh("thread", layout<"(3,128)">).sub(1, range(5, 6));
    EXPECT_TRUE(match(c->execution_mesh, one)) << "thread 133 alone";
    Mesh warp = mesh("thread", layout<"(3,128)">).sub(0, range(0, 32));
    EXPECT_FALSE(match(c->execution_mesh, warp)) << "a warp issuing TMA";
    Mesh ctas = mesh("cta", layout<"(1)">);
    EXPECT_FALSE(match(c->execution_mesh, ctas)) << "wrong level";
  }
}

TEST(CopyAsyncTensor, SwizzleModesAreByteSwizzles) {
  const Condition load = when_choice("direction", "load");
  const Condition store = when_choice("direction", "store");
  const OperandPattern *dst =
      find_operand(sm90::copy_async_tensor, "dst", {load});
  ASSERT_NE(dst, nullptr);
  EXPECT_EQ(dst->storage, Storage::smem);
  const Swizzle expected[] = {{}, {1, 4, 3}, {2, 4, 3}, {3, 4, 3}};
  for (int i = 0; i < 4; ++i) {
    SwizzleMode m = sm90::tma_swizzle_modes[i];
    const LayoutPattern *p = find_layout(
        *dst, {when_choice("swizzle", sm90::swizzle_mode_name(m))});
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(p->kind, LayoutPatternKind::row_major);
    EXPECT_EQ(p->layout.swizzle, expected[i]);
  }
  // 128-byte mode on the H200 GEMM's bf16 A slot: row 1, column 0 is byte 128,
  // whose bits 7..9 (=1) go into 4..6: byte 144.
  ComposedLayout slot{
      swizzle_for(SwizzleMode::bytes128), Int(0),
      layout<"((2,8,8),(4,16)):((4096,512,64),(16,1))">};
  EXPECT_EQ(*byte_offset(slot, IntTuple{1, 0}, 2), 144);
  // The store reads the same smem patterns.
  const OperandPattern *src =
      find_operand(sm90::copy_async_tensor, "src", {store});
  ASSERT_NE(src, nullptr);
  EXPECT_EQ(src->storage, Storage::smem);
  EXPECT_EQ(src->layouts.size(), 4u);
}

TEST(CopyAsyncTensor, GmemSideHasUnitInnerStride) {
  const OperandPattern *src = find_operand(
      sm90::copy_async_tensor, "src", {when_choice("direction", "load")});
  ASSERT_NE(src, nullptr);
  EXPECT_EQ(src->storage, Storage::gmem);
  ASSERT_EQ(src->layouts.size(), 1u);
  const OperandPattern *dst = find_operand(
      sm90::copy_async_tensor, "dst", {when_choice("direction", "store")});
  ASSERT_NE(dst, nullptr);
  EXPECT_EQ(dst->storage, Storage::gmem);
  const Layout &l = src->layouts[0].layout.layout;
  // (*e, w):(*d, 1): any outer modes, innermost stride 1.
  EXPECT_TRUE(l.stride.leaf_at(l.stride.leaf_count() - 1) == Int(1));
  EXPECT_TRUE(l.shape.leaf_at(0).variadic);
}

TEST(CopyAsyncTensor, ParamsDomains) {
  const ParamDef *sw = find_param(sm90::copy_async_tensor, "swizzle");
  ASSERT_NE(sw, nullptr);
  EXPECT_EQ(sw->allowed.size(), 4u);
  const ParamDef *mc = find_param(sm90::copy_async_tensor, "multicast");
  ASSERT_NE(mc, nullptr);
  EXPECT_EQ(mc->lo, 1);
  EXPECT_EQ(mc->hi, 16); // 16-bit ctaMask
  // A store has no multicast: its only case pins multicast to 1.
  ASSERT_EQ(mc->cases.size(), 1u);
  EXPECT_TRUE(conditions_hold(mc->cases[0].when,
                              {when_choice("direction", "store")}));
  EXPECT_FALSE(conditions_hold(mc->cases[0].when,
                               {when_choice("direction", "load")}));
  EXPECT_EQ(mc->cases[0].allowed[0].integer, 1);
  const ParamDef *dir = find_param(sm90::copy_async_tensor, "direction");
  ASSERT_NE(dir, nullptr);
  EXPECT_EQ(dir->default_value.choice, "load");
}

/// The limit of `c` of kind `k` on `operand` applying under `params`.
const OperandLimit *find_limit(const Contract &c, std::string_view operand,
                               OperandLimit::Kind k,
                               std::initializer_list<Condition> params = {}) {
  for (const OperandLimit &l : c.limits)
    if (l.operand == operand && l.kind == k && conditions_hold(l.when, params))
      return &l;
  return nullptr;
}

TEST(CopyAsyncTensor, LimitValues) {
  using K = OperandLimit::Kind;
  const Contract &c = sm90::copy_async_tensor;
  auto sw = [](const char *m) { return when_choice("swizzle", m); };
  const Condition load = when_choice("direction", "load");
  const Condition store = when_choice("direction", "store");
  EXPECT_EQ(find_limit(c, "src", K::rank_max, {load})->value, 5);
  EXPECT_EQ(find_limit(c, "src", K::every_mode_extent_max, {load})->value, 256);
  EXPECT_EQ(find_limit(c, "src", K::inner_bytes_mult, {load})->value, 16);
  EXPECT_EQ(find_limit(c, "src", K::outer_stride_bytes_mult, {load})->value, 16);
  EXPECT_EQ(find_limit(c, "src", K::inner_bytes_max, {load, sw("none")}), nullptr);
  EXPECT_EQ(find_limit(c, "src", K::inner_bytes_max, {load, sw("bytes32")})->value, 32);
  EXPECT_EQ(find_limit(c, "src", K::inner_bytes_max, {load, sw("bytes64")})->value, 64);
  EXPECT_EQ(find_limit(c, "src", K::inner_bytes_max, {load, sw("bytes128")})->value, 128);
  EXPECT_EQ(find_limit(c, "dst", K::base_align_bytes, {load, sw("none")})->value, 128);
  EXPECT_EQ(find_limit(c, "dst", K::base_align_bytes, {load, sw("bytes32")})->value, 256);
  EXPECT_EQ(find_limit(c, "dst", K::base_align_bytes, {load, sw("bytes64")})->value, 512);
  EXPECT_EQ(find_limit(c, "dst", K::base_align_bytes, {load, sw("bytes128")})->value, 1024);
  // The store puts the gmem limits on dst and the smem ones on src.
  EXPECT_EQ(find_limit(c, "dst", K::every_mode_extent_max, {store})->value, 256);
  EXPECT_EQ(find_limit(c, "src", K::base_align_bytes, {store, sw("bytes128")})
                ->value,
            1024);
  EXPECT_EQ(find_limit(c, "dst", K::base_align_bytes, {store, sw("none")}),
            nullptr); // gmem has no smem alignment
}

/// Whether every limit of `c` on `operand` that applies under `params`
/// holds for `op`.
bool limits_hold(const Contract &c, std::string_view operand, const Operand &op,
                 std::initializer_list<Condition> params) {
  for (const OperandLimit &l : c.limits)
    if (l.operand == operand && conditions_hold(l.when, params) &&
        !limit_holds(l, op))
      return false;
  return true;
}

TEST(CopyAsyncTensor, SeedTilesAgainstLimits) {
  const Contract &c = sm90::copy_async_tensor;
  auto sw = [](const char *m) { return when_choice("swizzle", m); };
  const Condition load = when_choice("direction", "load");
  // The H200 GEMM's A tile: 128 x 64 bf16 of a K-major matrix with K = 4096.
  Operand a{Layout{IntTuple{128, 64}, IntTuple{4096, 1}}, DType::bf16, 0};
  EXPECT_TRUE(limits_hold(c, "src", a, {load, sw("bytes128")}));
  // 64 x 128 bf16 rows are 256 bytes: more than the 128-byte span...
  Operand wide{Layout{IntTuple{64, 128}, IntTuple{4096, 1}}, DType::bf16, 0};
  EXPECT_FALSE(limits_hold(c, "src", wide, {load, sw("bytes128")}));
  // ... but fine unswizzled.
  EXPECT_TRUE(limits_hold(c, "src", wide, {load, sw("none")}));
  // A box mode of 512 exceeds boxDim <= 256.
  Operand tall{Layout{IntTuple{512, 64}, IntTuple{4096, 1}}, DType::bf16, 0};
  EXPECT_FALSE(limits_hold(c, "src", tall, {load, sw("bytes128")}));
  // 8 f16 columns = 16 bytes pass; 4 columns = 8 bytes do not.
  Operand narrow{Layout{IntTuple{64, 4}, IntTuple{4096, 1}}, DType::f16, 0};
  EXPECT_FALSE(limits_hold(c, "src", narrow, {load, sw("none")}));
  // A row stride of 4100 bf16 (8200 bytes) is no multiple of 16 bytes.
  Operand odd{Layout{IntTuple{128, 64}, IntTuple{4100, 1}}, DType::bf16, 0};
  EXPECT_FALSE(limits_hold(c, "src", odd, {load, sw("bytes128")}));
  // Rank 6 boxes do not exist.
  Operand deep{make_layout(IntTuple{2, 2, 2, 2, 2, 8}), DType::bf16, 0};
  EXPECT_FALSE(limits_hold(c, "src", deep, {load, sw("none")}));
  // smem: a SW128 stage at 1024 passes, at 512 fails; unswizzled 128 passes.
  Operand stage{make_layout(IntTuple{128, 64}), DType::bf16, 1024};
  EXPECT_TRUE(limits_hold(c, "dst", stage, {load, sw("bytes128")}));
  stage.base = 512;
  EXPECT_FALSE(limits_hold(c, "dst", stage, {load, sw("bytes128")}));
  stage.base = 128;
  EXPECT_TRUE(limits_hold(c, "dst", stage, {load, sw("none")}));
  stage.base = 64;
  EXPECT_FALSE(limits_hold(c, "dst", stage, {load, sw("none")}));
}

TEST(CopyContracts, EveryLimitHasAPassingAndAFailingCase) {
  int checked = 0;
  for (const Contract *c : all_copy_contracts)
    for (const OperandLimit &l : c->limits) {
      LimitCases cases = limit_cases(l);
      EXPECT_TRUE(limit_holds(l, cases.pass))
          << c->id.view() << " " << l.operand.view();
      EXPECT_FALSE(limit_holds(l, cases.fail))
          << c->id.view() << " " << l.operand.view();
      EXPECT_FALSE(l.source.empty()) << c->id.view() << ": cite the ISA";
      ++checked;
    }
  EXPECT_EQ(checked, 22 + 18 + 2 + 2);
}

TEST(CpAsync, SizesAndCacheOperator) {
  const Contract &c = sm80::cp_async;
  EXPECT_EQ(c.capability, "cp.async");
  const ParamDef *bytes = find_param(c, "bytes");
  ASSERT_NE(bytes, nullptr);
  ASSERT_EQ(bytes->allowed.size(), 3u);
  EXPECT_EQ(bytes->allowed[0].integer, 4);
  EXPECT_EQ(bytes->allowed[1].integer, 8);
  EXPECT_EQ(bytes->allowed[2].integer, 16);
  const ParamDef *cache = find_param(c, "cache");
  ASSERT_NE(cache, nullptr);
  // .cg only with cp-size 16: the first case whose conditions hold decides.
  auto domain = [&](std::int64_t b) -> const ParamCase & {
    for (const ParamCase &pc : cache->cases)
      if (conditions_hold(pc.when, {when_int("bytes", b)}))
        return pc;
    return cache->cases[0];
  };
  EXPECT_EQ(domain(16).allowed.size(), 2u);
  EXPECT_EQ(domain(8).allowed.size(), 1u);
  EXPECT_EQ(domain(8).allowed[0].choice, "ca");
  EXPECT_EQ(domain(4).allowed[0].choice, "ca");
}

TEST(CpAsync, AnyThreadMeshOneVectorEach) {
  const Contract &c = sm80::cp_async;
  EXPECT_TRUE(match(c.execution_mesh, mesh("thread", layout<"(128)">)));
  EXPECT_TRUE(match(c.execution_mesh,
                    mesh("thread", layout<"(3,128)">).sub(range(1, 3), _)));
  EXPECT_FALSE(match(c.execution_mesh, mesh("cta", layout<"(132)">)));
  // 8 bf16 = 16 bytes with bytes = 16; 16 bf16 is two vectors.
  Operand v8{row(8), DType::bf16, 32};
  Operand v16{row(16), DType::bf16, 32};
  Operand misaligned{row(8), DType::bf16, 8};
  EXPECT_TRUE(limits_hold(c, "src", v8, {when_int("bytes", 16)}));
  EXPECT_FALSE(limits_hold(c, "src", v16, {when_int("bytes", 16)}));
  EXPECT_FALSE(limits_hold(c, "dst", misaligned, {when_int("bytes", 16)}));
  EXPECT_TRUE(limits_hold(c, "dst", misaligned, {when_int("bytes", 8)}) ==
              false); // 8 bf16 are 16 bytes, not 8
  Operand v4{row(4), DType::bf16, 8};
  EXPECT_TRUE(limits_hold(c, "dst", v4, {when_int("bytes", 8)}));
}

/// The element of the logical (num, 8, 8) tensor that register `reg`, half
/// `half` of lane `lane` holds after ldmatrix (PTX ISA, ldmatrix fragment).
std::int64_t ldmatrix_element(int lane, int reg, int half, bool trans) {
  int row = lane / 4, col = 2 * (lane % 4) + half;
  if (trans) {
    int r = row;
    row = col;
    col = r;
  }
  return 64 * reg + 8 * row + col;
}

void check_fragment(const Contract &c, const char *operand) {
  for (int num : {1, 2, 4})
    for (int trans : {0, 1}) {
      SCOPED_TRACE(testing::Message() << c.id.view() << " num " << num
                                      << " trans " << trans);
      const OperandPattern *o = find_operand(c, operand);
      ASSERT_NE(o, nullptr);
      EXPECT_EQ(o->storage, Storage::rmem);
      const LayoutPattern *p = find_layout(*o, {when_int("trans", trans)});
      ASSERT_NE(p, nullptr);
      ASSERT_EQ(p->kind, LayoutPatternKind::shard);
      ShardLayout s = p->shard;
      Bindings b = bind({{"num", num}, {"p0", 0}});
      s.layout = instantiate(s.layout, b);
      s.mesh.offset = Int(0);
      ASSERT_TRUE(check_coverage(s).ok());
      for (int lane = 0; lane < 32; ++lane)
        for (int reg = 0; reg < num; ++reg)
          for (int half = 0; half < 2; ++half) {
            std::int64_t e = ldmatrix_element(lane, reg, half, trans);
            Result<HolderList> h = holders(s, e);
            ASSERT_TRUE(h.ok());
            ASSERT_EQ(h->size(), 1u) << "element " << e;
            EXPECT_EQ((*h)[0].unit, lane) << "element " << e;
            EXPECT_EQ((*h)[0].local, 2 * reg + half) << "element " << e;
          }
    }
}

TEST(Ldmatrix, FragmentMatchesPtxElementByElement) {
  check_fragment(sm80::ldmatrix, "dst");
}

TEST(Stmatrix, FragmentMatchesPtxElementByElement) {
  check_fragment(sm90::stmatrix, "src");
}

TEST(Ldmatrix, WarpMeshAndParams) {
  const Contract &c = sm80::ldmatrix;
  EXPECT_EQ(c.capability, "ldmatrix");
  EXPECT_EQ(sm90::stmatrix.capability, "stmatrix");
  Mesh compute = mesh("thread", layout<"(3,128)">)
                     .sub(range(1, 3), _)
                     .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");
  // Eight whole warps of the compute mesh.
  EXPECT_TRUE(match(c.execution_mesh, compute));
  // One warp written (8,4).
  Mesh warp = mesh("thread", layout<"(8,4)">);
  EXPECT_TRUE(match(c.execution_mesh, warp));
  // Lanes 16..47 straddle two warps: p0 % 32 fails.
  Mesh straddle = mesh("thread", layout<"(2,8,4):(32,4,1)">);
  straddle.offset = Int(16);
  EXPECT_FALSE(match(c.execution_mesh, straddle));
  // 16 threads are no warp.
  EXPECT_FALSE(match(c.execution_mesh, mesh("thread", layout<"(4,4)">)));
  const ParamDef *num = find_param(c, "num");
  ASSERT_NE(num, nullptr);
  EXPECT_EQ(num->allowed.size(), 3u);
  const ParamDef *dtype = find_param(c, "dtype");
  ASSERT_NE(dtype, nullptr);
  EXPECT_EQ(dtype->allowed.size(), 2u); // .b16
}

TEST(Ldmatrix, SharedRowsAndLimits) {
  const OperandPattern *src = find_operand(sm80::ldmatrix, "src");
  ASSERT_NE(src, nullptr);
  EXPECT_EQ(src->storage, Storage::smem);
  EXPECT_EQ(src->layouts.size(), 4u); // none, 32B, 64B, 128B swizzles
  // Rows 64 bf16 apart (128 bytes) or padded to 72 (144 bytes): fine; 66
  // (132 bytes) leaves rows off 16-byte alignment.
  Operand ok{Layout{IntTuple{4, 8, 8}, IntTuple{512, 64, 1}}, DType::bf16, 0};
  Operand padded{Layout{IntTuple{4, 8, 8}, IntTuple{576, 72, 1}}, DType::bf16,
                 0};
  Operand odd{Layout{IntTuple{4, 8, 8}, IntTuple{544, 66, 1}}, DType::bf16, 0};
  EXPECT_TRUE(limits_hold(sm80::ldmatrix, "src", ok, {}));
  EXPECT_TRUE(limits_hold(sm80::ldmatrix, "src", padded, {}));
  EXPECT_FALSE(limits_hold(sm80::ldmatrix, "src", odd, {}));
  EXPECT_FALSE(limits_hold(sm90::stmatrix, "dst", odd, {}));
}

} // namespace
