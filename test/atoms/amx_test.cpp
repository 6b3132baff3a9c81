//===- test/atoms/amx_test.cpp - AMX tile load/store, TDPBF16PS, config ---===//
#include "atom_checks.hpp"

#include "tf/atoms/intel/amx/tdpbf16ps.hpp"
#include "tf/atoms/intel/amx/tile_config.hpp"
#include "tf/atoms/intel/amx/tile_memory.hpp"
#include "tf/layout/text/literal.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace {
using namespace tf;
using namespace tf::test;
namespace amx = tf::atoms::intel::amx;
using atoms::detail::when_int;

static_assert(amx::tdpbf16ps.id == "intel.amx.Tdpbf16ps");
static_assert(amx::tile_load.id == "intel.amx.TileLoad");
static_assert(amx::tile_store.id == "intel.amx.TileStore");
static_assert(amx::tile_config.id == "intel.amx.TileConfig");
// The VNNI layout is a constant expression: B[3][2] of a 4 x 3 tile is
// element (3/2)*6 + 2*2 + 1 = 11.
static_assert(*evaluate(amx::vnni_layout(4, 3), IntTuple{3, 2}) == 11);

const Contract *const all_amx_contracts[] = {&amx::tile_load, &amx::tile_store,
                                             &amx::tdpbf16ps, &amx::tile_config};

TEST(Amx, CapabilitiesAndOneCoreMesh) {
  EXPECT_EQ(amx::tile_load.capability, "amx.tile");
  EXPECT_EQ(amx::tile_store.capability, "amx.tile");
  EXPECT_EQ(amx::tile_config.capability, "amx.tile");
  EXPECT_EQ(amx::tdpbf16ps.capability, "amx.bf16");
  for (const Contract *c : all_amx_contracts) {
    Mesh core3 = mesh("core", layout<"(16)">).sub(range(3, 4));
    EXPECT_TRUE(match(c->execution_mesh, core3)) << c->id.view();
    EXPECT_TRUE(match(c->execution_mesh, mesh("core", layout<"(1)">)))
        << c->id.view();
    EXPECT_FALSE(match(c->execution_mesh, mesh("core", layout<"(2)">)))
        << c->id.view() << ": two cores";
    EXPECT_FALSE(match(c->execution_mesh, mesh("thread", layout<"(1)">)))
        << c->id.view() << ": a GPU thread";
  }
}

TEST(Amx, VnniLayoutMatchesTheSdmFormula) {
  for (std::int64_t K = 2; K <= 32; K += 2)
    for (std::int64_t N = 1; N <= 16; ++N) {
      Layout l = amx::vnni_layout(K, N);
      std::vector<int> seen(static_cast<std::size_t>(K * N), 0);
      for (std::int64_t k = 0; k < K; ++k)
        for (std::int64_t n = 0; n < N; ++n) {
          std::int64_t e = *evaluate(l, IntTuple{k, n});
          ASSERT_EQ(e, (k / 2) * (2 * N) + 2 * n + (k % 2))
              << "K " << K << " N " << N << " k " << k << " n " << n;
          ++seen[static_cast<std::size_t>(e)];
        }
      for (int s : seen)
        ASSERT_EQ(s, 1) << "a bijection onto the K*N elements of the tile";
    }
}

TEST(Amx, VnniPatternInstantiatesToTheLayout) {
  const OperandPattern *b = find_operand(amx::tdpbf16ps, "B");
  ASSERT_NE(b, nullptr);
  ASSERT_EQ(b->layouts.size(), 1u);
  for (int K : {2, 16, 32})
    for (int N : {1, 8, 16}) {
      Layout l = instantiate(b->layouts[0].layout.layout,
                             bind({{"kh", K / 2}, {"n2", 2 * N}, {"n", N}}));
      EXPECT_EQ(l, amx::vnni_layout(K, N));
    }
}

/// TDPBF16PS as the SDM's operation reads its tiles (src1 = A, src2 = B),
/// with B stored through the contract's VNNI layout; it must equal C + A.B.
TEST(Amx, Tdpbf16psSemanticsWithTheVnniLayout) {
  const int M = 16, N = 16, K = 32;
  Layout vnni = amx::vnni_layout(K, N);
  std::vector<float> A(M * K), B(K * N), tile_b(K * N), C(M * N, 1.0f);
  for (int i = 0; i < M * K; ++i)
    A[i] = static_cast<float>((i * 7) % 5 - 2);
  for (int i = 0; i < K * N; ++i)
    B[i] = static_cast<float>((i * 3) % 7 - 3);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n)
      tile_b[*evaluate(vnni, IntTuple{k, n})] = B[k * N + n];
  // for m, for kk < src1.colsb/4, for n < dst.colsb/4:
  //   C[m][n] += A.row[m][2kk+h] * B.row[kk][2n+h], h = 0, 1
  std::vector<float> sdm = C;
  for (int m = 0; m < M; ++m)
    for (int kk = 0; kk < K / 2; ++kk)
      for (int n = 0; n < N; ++n)
        for (int h = 0; h < 2; ++h)
          sdm[m * N + n] +=
              A[m * K + 2 * kk + h] * tile_b[kk * (2 * N) + 2 * n + h];
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n) {
      float ref = C[m * N + n];
      for (int k = 0; k < K; ++k)
        ref += A[m * K + k] * B[k * N + n];
      EXPECT_EQ(sdm[m * N + n], ref) << m << "," << n;
    }
}

TEST(Amx, Tdpbf16psParamsAndOperands) {
  const Contract &c = amx::tdpbf16ps;
  const ParamDef *m = find_param(c, "m");
  const ParamDef *n = find_param(c, "n");
  const ParamDef *k = find_param(c, "k");
  ASSERT_TRUE(m && n && k);
  EXPECT_EQ(m->hi, 16);
  EXPECT_EQ(n->hi, 16);
  EXPECT_EQ(k->lo, 2);
  EXPECT_EQ(k->hi, 32);
  EXPECT_EQ(k->step, 2); // bf16 pairs
  // Derived kh = k / 2 and n2 = 2 n, one case per value.
  const ParamDef *kh = find_param(c, "kh");
  const ParamDef *n2 = find_param(c, "n2");
  ASSERT_TRUE(kh && n2 && kh->derived && n2->derived);
  for (int kv = 2; kv <= 32; kv += 2) {
    int hits = 0;
    for (const ParamCase &pc : kh->cases)
      if (conditions_hold(pc.when, {when_int("k", kv)})) {
        ++hits;
        EXPECT_EQ(pc.allowed[0].integer, kv / 2);
      }
    EXPECT_EQ(hits, 1);
  }
  for (int nv = 1; nv <= 16; ++nv) {
    int hits = 0;
    for (const ParamCase &pc : n2->cases)
      if (conditions_hold(pc.when, {when_int("n", nv)})) {
        ++hits;
        EXPECT_EQ(pc.allowed[0].integer, 2 * nv);
      }
    EXPECT_EQ(hits, 1);
  }
  const OperandPattern *C = find_operand(c, "C");
  const OperandPattern *A = find_operand(c, "A");
  const OperandPattern *B = find_operand(c, "B");
  ASSERT_TRUE(C && A && B);
  EXPECT_EQ(C->dtype.dtype, DType::f32);
  EXPECT_EQ(A->dtype.dtype, DType::bf16);
  EXPECT_EQ(B->dtype.dtype, DType::bf16);
  EXPECT_EQ(C->access, Access::read_write);
  for (const OperandPattern *o : {C, A, B})
    EXPECT_EQ(o->storage, Storage::amx_tile);
  // C and A are row-major tiles: (m,n):(n,1), (m,k):(k,1).
  Bindings b = bind({{"m", 16}, {"n", 16}, {"k", 32}});
  EXPECT_EQ(instantiate(C->layouts[0].layout.layout, b), layout<"(16,16)">);
  EXPECT_EQ(instantiate(A->layouts[0].layout.layout, b), layout<"(16,32)">);
  EXPECT_EQ(c.atom_shape, (IntTuple{Int::symbolic("m"), Int::symbolic("n"),
                                    Int::symbolic("k")}));
}

/// Whether every limit of `c` on `operand` holds for `op`.
bool limits_hold(const Contract &c, std::string_view operand,
                 const Operand &op) {
  for (const OperandLimit &l : c.limits)
    if (l.operand == operand && !limit_holds(l, op))
      return false;
  return true;
}

TEST(Amx, TileLimits) {
  // 16 rows of 32 bf16 = 64 bytes: a full tile.
  Operand full{layout<"(16,32)">, DType::bf16, 0};
  Operand tall{layout<"(17,32)">, DType::bf16, 0};
  Operand wide{layout<"(16,33)">, DType::bf16, 0};
  Operand f32_row{layout<"(16,16)">, DType::f32, 0};
  Operand f32_wide{layout<"(16,17)">, DType::f32, 0};
  Operand cube{layout<"(2,8,32)">, DType::bf16, 0};
  for (const Contract *c : {&amx::tile_load, &amx::tile_store}) {
    const char *tile = c == &amx::tile_load ? "dst" : "src";
    EXPECT_TRUE(limits_hold(*c, tile, full));
    EXPECT_FALSE(limits_hold(*c, tile, tall));
    EXPECT_FALSE(limits_hold(*c, tile, wide));
    EXPECT_TRUE(limits_hold(*c, tile, f32_row));
    EXPECT_FALSE(limits_hold(*c, tile, f32_wide));
    EXPECT_FALSE(limits_hold(*c, tile, cube));
  }
  EXPECT_TRUE(limits_hold(amx::tdpbf16ps, "A", full));
  EXPECT_FALSE(limits_hold(amx::tdpbf16ps, "A", wide));
  EXPECT_TRUE(limits_hold(amx::tdpbf16ps, "C", f32_row));
  EXPECT_FALSE(limits_hold(amx::tdpbf16ps, "C", f32_wide));
}

TEST(Amx, EveryLimitHasAPassingAndAFailingCase) {
  int checked = 0;
  for (const Contract *c : all_amx_contracts)
    for (const OperandLimit &l : c->limits) {
      LimitCases cases = limit_cases(l);
      EXPECT_TRUE(limit_holds(l, cases.pass)) << c->id.view();
      EXPECT_FALSE(limit_holds(l, cases.fail)) << c->id.view();
      EXPECT_FALSE(l.source.empty());
      ++checked;
    }
  EXPECT_EQ(checked, 4 + 4 + 7);
}

TEST(Amx, TileLoadStoreLayouts) {
  const OperandPattern *mem = find_operand(amx::tile_load, "src");
  const OperandPattern *reg = find_operand(amx::tile_load, "dst");
  ASSERT_TRUE(mem && reg);
  EXPECT_EQ(mem->storage, Storage::gmem);
  EXPECT_EQ(reg->storage, Storage::amx_tile);
  // Memory rows anywhere (the stride register), unit inner stride; the tile
  // row-major.
  EXPECT_EQ(instantiate(mem->layouts[0].layout.layout,
                        bind({{"r", 16}, {"c", 32}, {"s", 4096}})),
            layout<"(16,32):(4096,1)">);
  EXPECT_EQ(instantiate(reg->layouts[0].layout.layout,
                        bind({{"r", 16}, {"c", 32}})),
            layout<"(16,32)">);
  EXPECT_EQ(find_operand(amx::tile_store, "src")->storage, Storage::amx_tile);
  EXPECT_EQ(find_operand(amx::tile_store, "dst")->storage, Storage::gmem);
}

TEST(Amx, TileConfigBlockLayout) {
  const amx::TileShape shapes[] = {{16, 64}, {16, 64}, {8, 32}, {1, 4}};
  Result<amx::TileConfigBlock> cfg = amx::encode_tile_config(shapes, 4);
  ASSERT_TRUE(cfg.ok());
  const std::uint8_t *b = cfg->bytes;
  EXPECT_EQ(b[0], 1); // palette_id
  EXPECT_EQ(b[1], 0); // start_row
  for (int i = 2; i < 16; ++i)
    EXPECT_EQ(b[i], 0) << "reserved byte " << i;
  // colsb[i]: u16 little-endian at 16 + 2i.
  EXPECT_EQ(b[16], 64);
  EXPECT_EQ(b[17], 0);
  EXPECT_EQ(b[20], 32);
  EXPECT_EQ(b[22], 4);
  // rows[i]: u8 at 48 + i.
  EXPECT_EQ(b[48], 16);
  EXPECT_EQ(b[50], 8);
  EXPECT_EQ(b[51], 1);
  for (int i = 4; i < 16; ++i) {
    EXPECT_EQ(b[16 + 2 * i], 0);
    EXPECT_EQ(b[48 + i], 0);
  }
  const amx::TileShape too_tall[] = {{17, 64}};
  const amx::TileShape too_wide[] = {{16, 65}};
  EXPECT_FALSE(amx::encode_tile_config(too_tall, 1).ok());
  EXPECT_FALSE(amx::encode_tile_config(too_wide, 1).ok());
  amx::TileShape nine[9] = {};
  EXPECT_TRUE(amx::encode_tile_config(nine, 8).ok());
  EXPECT_FALSE(amx::encode_tile_config(nine, 9).ok());
}

TEST(Amx, TileConfigParams) {
  const Contract &c = amx::tile_config;
  EXPECT_EQ(c.kind, AtomKind::config);
  const ParamDef *palette = find_param(c, "palette");
  ASSERT_NE(palette, nullptr);
  ASSERT_EQ(palette->allowed.size(), 1u);
  EXPECT_EQ(palette->allowed[0].integer, 1);
  EXPECT_EQ(find_param(c, "tiles")->hi, 8);
  EXPECT_EQ(find_param(c, "rows")->hi, 16);
  EXPECT_EQ(find_param(c, "colsb")->hi, 64);
  const OperandPattern *cfg = find_operand(c, "config");
  ASSERT_NE(cfg, nullptr);
  EXPECT_EQ(cfg->shape, IntTuple{64});
}

} // namespace
