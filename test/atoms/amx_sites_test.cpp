//===- test/atoms/amx_sites_test.cpp - AMX atoms at sites -----------------===//
//
// One core of the AMX host configures palette 1, loads a 16 x 32 bf16 A and
// a VNNI-packed B (K = 32, N = 16), runs TDPBF16PS into a 16 x 16 f32 C and
// stores C -- each step through tf::match, then every refusal kind that
// applies with its exact describe() line.
//
//===----------------------------------------------------------------------===//
#include "site_checks.hpp"

#include "tf/atoms/intel/amx/tdpbf16ps.hpp"
#include "tf/atoms/intel/amx/tile_config.hpp"
#include "tf/atoms/intel/amx/tile_memory.hpp"

namespace tf::test {
namespace {
namespace amx = tf::atoms::intel::amx;
using K = ReasonKind;

const Contract &CFG = amx::tile_config;
const Contract &LOAD = amx::tile_load;
const Contract &STORE = amx::tile_store;
const Contract &DP = amx::tdpbf16ps;

/// Core 3 of the host.
constexpr Mesh core3 = cores.sub(range(3, 4));

Site config_site() {
  Site s;
  s.mesh = core3;
  s.operands = {site_operand("config", {64}, DType::u8, Storage::gmem)};
  s.check_capabilities = true;
  s.capabilities = amx_caps;
  return s;
}

/// TILELOADD of A[16 x 32] bf16 from a row-major 4096 x 4096 A at row 32.
Site load_site() {
  Site s;
  s.mesh = core3;
  s.params = {arg("dtype", DType::bf16)};
  s.operands = {site_operand("src", {16, 32}, DType::bf16, Storage::gmem,
                             composed("(16,32):(4096,1) + 131072")),
                site_operand("dst", {16, 32}, DType::bf16, Storage::amx_tile,
                             composed("(16,32):(32,1)"))};
  s.check_capabilities = true;
  s.capabilities = amx_caps;
  return s;
}

/// TILESTORED of C[16 x 16] f32 into a row-major C with 4096 columns.
Site store_site() {
  Site s;
  s.mesh = core3;
  s.params = {arg("dtype", DType::f32)};
  s.operands = {site_operand("src", {16, 16}, DType::f32, Storage::amx_tile,
                             composed("(16,16):(16,1)")),
                site_operand("dst", {16, 16}, DType::f32, Storage::gmem,
                             composed("(16,16):(4096,1) + 65552"))};
  s.check_capabilities = true;
  s.capabilities = amx_caps;
  return s;
}

/// C (16x16 f32) += A (16x32 bf16) . B (32x16 bf16, VNNI).
Site dp_site() {
  Site s;
  s.mesh = core3;
  s.operands = {
      site_operand("C", {16, 16}, DType::f32, Storage::amx_tile,
                   composed("(16,16):(16,1)")),
      site_operand("A", {16, 32}, DType::bf16, Storage::amx_tile,
                   composed("(16,32):(32,1)")),
      site_operand("B", {32, 16}, DType::bf16, Storage::amx_tile,
                   Layout(amx::vnni_layout(32, 16)))};
  s.check_capabilities = true;
  s.capabilities = amx_caps;
  return s;
}

/// An m x n x k TDPBF16PS with its parameters written.
Site dp_shape(std::int64_t m, std::int64_t n, std::int64_t k) {
  Site s = dp_site();
  s.params = {arg("m", m), arg("n", n), arg("k", k)};
  s.operands = {site_operand("C", {m, n}, DType::f32, Storage::amx_tile,
                             make_layout(IntTuple{m, n})),
                site_operand("A", {m, k}, DType::bf16, Storage::amx_tile,
                             make_layout(IntTuple{m, k})),
                site_operand("B", {k, n}, DType::bf16, Storage::amx_tile,
                             amx::vnni_layout(k, n))};
  return s;
}

/// A tile load of r x c elements of `dtype`.
Site load_shape(std::int64_t r, std::int64_t c, DType t) {
  Site s = load_site();
  set_param(s, arg("dtype", t));
  s.operands = {site_operand("src", {r, c}, t, Storage::gmem,
                             Layout{IntTuple{r, c}, IntTuple{4096, 1}}),
                site_operand("dst", {r, c}, t, Storage::amx_tile,
                             make_layout(IntTuple{r, c}))};
  return s;
}

TEST(AmxSite, TileConfigAccepted) {
  MatchReport r = match(CFG, config_site());
  ASSERT_TRUE(r.accepted) << describe(r, CFG);
  EXPECT_EQ(r.param("palette")->integer, 1);
  EXPECT_EQ(r.param("tiles")->integer, 8);
  EXPECT_EQ(*r.bindings.value("p0"), 3);
  // One core however written.
  Site s = config_site();
  s.mesh = mesh("core", IntTuple{1, 1});
  EXPECT_TRUE(match(CFG, s).accepted) << describe(match(CFG, s), CFG);
  s.mesh = mesh("core", Layout{});
  EXPECT_TRUE(match(CFG, s).accepted) << describe(match(CFG, s), CFG);
}

TEST(AmxSite, TileLoadStoreAccepted) {
  MatchReport r = match(LOAD, load_site());
  ASSERT_TRUE(r.accepted) << describe(r, LOAD);
  EXPECT_EQ(*r.fragment("src")->bindings.value("s"), 4096);
  r = match(STORE, store_site());
  ASSERT_TRUE(r.accepted) << describe(r, STORE);
  // VNNI B comes from memory already packed: 16 rows of 32 bf16.
  EXPECT_TRUE(match(LOAD, load_shape(16, 32, DType::bf16)).accepted);
  // The smallest tile and an i8 tile of 64 bytes a row.
  EXPECT_TRUE(match(LOAD, load_shape(1, 1, DType::u8)).accepted);
  EXPECT_TRUE(match(LOAD, load_shape(16, 64, DType::i8)).accepted);
}

// `r` and `c` bind once per site (test/contracts/engine_test.cpp,
// ShapesBindSymbolsConsistently): src and dst of a tile load have one shape.
// The operand that does not fit has its layout checked alone (no second
// reason from src's `c`).
TEST(AmxSite, TileLoadShapesShared) {
  Site s = load_site();
  operand(s, "dst") = site_operand("dst", {8, 32}, DType::bf16, Storage::amx_tile,
                                   make_layout(IntTuple{8, 32}));
  MatchReport r = match(LOAD, s);
  EXPECT_EQ(all_reasons(r, LOAD),
            "  operand dst: shape (8,32) does not fit (r,c) = (16,32) bound by "
            "operand src\n");
  // The layout of an operand that fits starts from the site's r and c.
  r = match(LOAD, load_site());
  ASSERT_TRUE(r.accepted) << describe(r, LOAD);
  EXPECT_EQ(*r.fragment("dst")->bindings.value("c"), 32);
}

TEST(AmxSite, Tdpbf16psAccepted) {
  MatchReport r = match(DP, dp_site());
  ASSERT_TRUE(r.accepted) << describe(r, DP);
  EXPECT_EQ(r.param("kh")->integer, 16);
  EXPECT_EQ(r.param("n2")->integer, 32);
  EXPECT_EQ(r.repeat.count[0], 1);
  EXPECT_EQ(r.repeat.count[1], 1);
  EXPECT_EQ(r.repeat.count[2], 1);
  for (auto [m, n, k] : {std::array<std::int64_t, 3>{8, 8, 16}, {1, 1, 2},
                         {16, 4, 32}, {3, 16, 6}}) {
    MatchReport q = match(DP, dp_shape(m, n, k));
    EXPECT_TRUE(q.accepted) << m << "x" << n << "x" << k << "\n" << describe(q, DP);
  }
}

const Refusal config_refusals[] = {
    {"CapabilityMissing", &CFG,
     [] {
       Site s = config_site();
       s.capabilities = avx512_caps;
       return s;
     },
     K::capability, "", 
     "capability: amx.tile is not among the target's capabilities"},
    {"MeshTwoCores", &CFG,
     [] {
       Site s = config_site();
       s.mesh = cores.sub(range(2, 4));
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(core, (2):(1) + 2) does not match Mesh(core, (1):(1) + p0): leaf 0 of (2) has extent 2 where (1) has 1"},
    {"MeshGpuThread", &CFG,
     [] {
       Site s = config_site();
       s.mesh = threads.sub(0, range(0, 1));
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(thread, (1):(1), participant) does not match Mesh(core, (1):(1) + p0): level thread is not core"},
    {"PaletteNot1", &CFG,
     [] {
       Site s = config_site();
       set_param(s, arg("palette", 2));
       return s;
     },
     K::param_predicate, "palette", 
     "parameter palette: 2 violates palette in {1}"},
    {"TileCountAbove8", &CFG,
     [] {
       Site s = config_site();
       set_param(s, arg("tiles", 9));
       return s;
     },
     K::param_predicate, "tiles", 
     "parameter tiles: 9 violates tiles <= 8"},
    {"TileCountZero", &CFG,
     [] {
       Site s = config_site();
       set_param(s, arg("tiles", 0));
       return s;
     },
     K::param_predicate, "tiles", 
     "parameter tiles: 0 violates 1 <= tiles"},
    {"RowsAbove16", &CFG,
     [] {
       Site s = config_site();
       set_param(s, arg("rows", 17));
       return s;
     },
     K::param_predicate, "rows", 
     "parameter rows: 17 violates rows <= 16"},
    {"ColsbAbove64", &CFG,
     [] {
       Site s = config_site();
       set_param(s, arg("colsb", 65));
       return s;
     },
     K::param_predicate, "colsb", 
     "parameter colsb: 65 violates colsb <= 64"},
    {"ParamTypeRows", &CFG,
     [] {
       Site s = config_site();
       set_param(s, arg("rows", DType::bf16));
       return s;
     },
     K::param_type, "rows", 
     "parameter rows: bf16 is a dtype, expected an integer"},
    {"ParamUnknown", &CFG,
     [] {
       Site s = config_site();
       set_param(s, arg("start_row", 0));
       return s;
     },
     K::param_unknown, "start_row", 
     "parameter start_row: not a parameter of intel.amx.TileConfig (it has palette, tiles, rows, colsb)"},
    {"OperandMissing", &CFG,
     [] {
       Site s = config_site();
       s.operands.clear();
       return s;
     },
     K::operand_missing, "config", 
     "operand config: missing (expected shape=(64) storage=gmem)"},
    {"OperandUnknown", &CFG,
     [] {
       Site s = config_site();
       s.operands.push_back(site_operand("tile", {16, 32}, DType::bf16,
                                         Storage::amx_tile));
       return s;
     },
     K::operand_unknown, "tile", 
     "operand tile: not an operand of intel.amx.TileConfig"},
    {"OperandShape", &CFG,
     [] {
       Site s = config_site();
       operand(s, "config").shape = IntTuple{48};
       return s;
     },
     K::operand_shape, "config", 
     "operand config: shape (48) does not fit (64)"},
    {"OperandDtype", &CFG,
     [] {
       Site s = config_site();
       operand(s, "config").dtype = DType::i8;
       return s;
     },
     K::operand_dtype, "config", 
     "operand config: dtype i8, expected u8"},
    {"OperandStorage", &CFG,
     [] {
       Site s = config_site();
       operand(s, "config").storage = Storage::amx_tile;
       return s;
     },
     K::operand_storage, "config", 
     "operand config: storage amx_tile, expected gmem"},
};
INSTANTIATE_TEST_SUITE_P(TileConfig, RefusedSite, testing::ValuesIn(config_refusals),
                         refusal_name);

const Refusal load_refusals[] = {
    {"CapabilityMissing", &LOAD,
     [] {
       Site s = load_site();
       s.capabilities = avx512_caps;
       return s;
     },
     K::capability, "", 
     "capability: amx.tile is not among the target's capabilities"},
    {"MeshTwoCores", &LOAD,
     [] {
       Site s = load_site();
       s.mesh = cores.sub(range(2, 4));
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(core, (2):(1) + 2) does not match Mesh(core, (1):(1) + p0): leaf 0 of (2) has extent 2 where (1) has 1"},
    {"ParamDtypeF64", &LOAD, [] { return load_shape(16, 8, DType::f64); },
     K::param_predicate, "dtype", 
     "parameter dtype: f64 violates dtype in {bf16, f16, f32, i8, u8, i32}"},
    {"ParamMissingDtype", &LOAD,
     [] {
       Site s = load_site();
       drop_param(s, "dtype");
       return s;
     },
     K::param_missing, "dtype", 
     "parameter dtype: no value given and no default"},
    {"ParamUnknownStride", &LOAD,
     [] {
       Site s = load_site();
       set_param(s, arg("stride", 8192));
       return s;
     },
     K::param_unknown, "stride", 
     "parameter stride: not a parameter of intel.amx.TileLoad (it has dtype)"},
    {"OperandMissingSrc", &LOAD,
     [] {
       Site s = load_site();
       drop_operand(s, "src");
       return s;
     },
     K::operand_missing, "src", 
     "operand src: missing (expected shape=(r,c) storage=gmem)"},
    {"OperandUnknown", &LOAD,
     [] {
       Site s = load_site();
       s.operands.push_back(site_operand("config", {64}, DType::u8, Storage::gmem));
       return s;
     },
     K::operand_unknown, "config", 
     "operand config: not an operand of intel.amx.TileLoad"},
    {"OperandDtype", &LOAD,
     [] {
       Site s = load_site();
       operand(s, "dst").dtype = DType::f16;
       return s;
     },
     K::operand_dtype, "dst", 
     "operand dst: dtype f16, expected bf16 (dtype=bf16)"},
    {"OperandStorageTileToTile", &LOAD,
     [] {
       Site s = load_site();
       operand(s, "src").storage = Storage::amx_tile;
       return s;
     },
     K::operand_storage, "src", 
     "operand src: storage amx_tile, expected gmem"},
    {"OperandLayoutMemoryColumnMajor", &LOAD,
     [] {
       Site s = load_site();
       operand(s, "src").layout = composed("(16,32):(1,4096)");
       return s;
     },
     K::operand_layout, "src", 
     "operand src: fragment (16,32):(1,4096) does not match (r,c):(s,1) + o: leaf 1 of (1,4096) has stride 4096 where (s,1) has 1"},
    {"OperandLayoutTileNotCompact", &LOAD,
     [] {
       Site s = load_site();
       operand(s, "dst").layout = composed("(16,32):(64,1)");
       return s;
     },
     K::operand_layout, "dst", 
     "operand dst: fragment (16,32):(64,1) does not match (r,c):(c,1): c is bound to 32 but leaf 0 is 64"},
    {"OperandLayoutTileOffset", &LOAD,
     [] {
       Site s = load_site();
       operand(s, "dst").layout = composed("(16,32):(32,1) + 32");
       return s;
     },
     K::operand_layout, "dst", 
     "operand dst: fragment (16,32):(32,1) + 32 does not match (r,c):(c,1): offset 32 is not 0", 2},
    {"LimitRowsAbove16", &LOAD, [] { return load_shape(17, 32, DType::bf16); },
     K::operand_limit, "dst", 
     "operand dst: extent of mode 0 <= 16 fails (found 17) [SDM palette 1 rows]"},
    {"LimitColsbAbove64Bf16", &LOAD, [] { return load_shape(16, 33, DType::bf16); },
     K::operand_limit, "dst", 
     "operand dst: bytes of the innermost mode <= 64 fails (found 66) [SDM palette 1 colsb]"},
    {"LimitColsbAbove64F32", &LOAD, [] { return load_shape(16, 17, DType::f32); },
     K::operand_limit, "dst", 
     "operand dst: bytes of the innermost mode <= 64 fails (found 68) [SDM palette 1 colsb]"},
    {"OperandShapeRank1", &LOAD,
     [] {
       Site s = load_site();
       operand(s, "src") = site_operand("src", {512}, DType::bf16, Storage::gmem,
                                        make_layout(IntTuple{512}));
       return s;
     },
     K::operand_shape, "src",
     "operand src: shape (512) does not fit (r,c)", 2},
    {"LimitRankAbove2", &LOAD,
     [] {
       Site s = load_shape(16, 32, DType::bf16);
       for (SiteOperand &o : s.operands) {
         o.shape = IntTuple{2, 8, 32};
         o.layout.layout = make_layout(IntTuple{2, 8, 32});
       }
       return s;
     },
     K::operand_limit, "dst", 
     "operand dst: rank <= 2 fails (found 3) [SDM 18.2 tiles]", 5},
};
INSTANTIATE_TEST_SUITE_P(TileLoad, RefusedSite, testing::ValuesIn(load_refusals),
                         refusal_name);

const Refusal store_refusals[] = {
    {"CapabilityMissing", &STORE,
     [] {
       Site s = store_site();
       s.capabilities = avx512_caps;
       return s;
     },
     K::capability, "", 
     "capability: amx.tile is not among the target's capabilities"},
    {"MeshAllCores", &STORE,
     [] {
       Site s = store_site();
       s.mesh = cores;
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(core, (16):(1)) does not match Mesh(core, (1):(1) + p0): leaf 0 of (16) has extent 16 where (1) has 1"},
    {"ParamDtypeF64", &STORE,
     [] {
       Site s = store_site();
       set_param(s, arg("dtype", DType::f64));
       for (SiteOperand &o : s.operands)
         o.dtype = DType::f64;
       return s;
     },
     K::param_predicate, "dtype", 
     "parameter dtype: f64 violates dtype in {bf16, f16, f32, i8, u8, i32}", 2},
    {"OperandMissingDst", &STORE,
     [] {
       Site s = store_site();
       drop_operand(s, "dst");
       return s;
     },
     K::operand_missing, "dst", 
     "operand dst: missing (expected shape=(r,c) storage=gmem)"},
    {"OperandUnknown", &STORE,
     [] {
       Site s = store_site();
       s.operands.push_back(site_operand("C", {16, 16}, DType::f32, Storage::amx_tile));
       return s;
     },
     K::operand_unknown, "C", 
     "operand C: not an operand of intel.amx.TileStore"},
    {"OperandDtype", &STORE,
     [] {
       Site s = store_site();
       operand(s, "dst").dtype = DType::bf16;
       return s;
     },
     K::operand_dtype, "dst", 
     "operand dst: dtype bf16, expected f32 (dtype=f32)"},
    {"OperandStorageToSmem", &STORE,
     [] {
       Site s = store_site();
       operand(s, "dst").storage = Storage::smem;
       return s;
     },
     K::operand_storage, "dst", 
     "operand dst: storage smem, expected gmem"},
    {"OperandLayoutMemoryInnerStride", &STORE,
     [] {
       Site s = store_site();
       operand(s, "dst").layout = composed("(16,16):(4096,2)");
       return s;
     },
     K::operand_layout, "dst", 
     "operand dst: fragment (16,16):(4096,2) does not match (r,c):(s,1) + o: leaf 1 of (4096,2) has stride 2 where (s,1) has 1"},
    {"OperandShapeRank3", &STORE,
     [] {
       Site s = store_site();
       operand(s, "dst") = site_operand("dst", {2, 8, 16}, DType::f32, Storage::gmem,
                                        make_layout(IntTuple{2, 8, 16}));
       return s;
     },
     K::operand_shape, "dst",
     "operand dst: shape (2,8,16) does not fit (r,c)", 2},
    {"LimitRowsAbove16", &STORE,
     [] {
       Site s = store_site();
       for (SiteOperand &o : s.operands) {
         o.shape = IntTuple{32, 16};
         o.layout.layout = Layout{IntTuple{32, 16}, IntTuple{o.name == "src" ? 16 : 4096, 1}};
       }
       return s;
     },
     K::operand_limit, "src", 
     "operand src: extent of mode 0 <= 16 fails (found 32) [SDM palette 1 rows]"},
    {"LimitColsbAbove64", &STORE,
     [] {
       Site s = store_site();
       for (SiteOperand &o : s.operands) {
         o.shape = IntTuple{16, 32};
         o.layout.layout = Layout{IntTuple{16, 32}, IntTuple{o.name == "src" ? 32 : 4096, 1}};
       }
       return s;
     },
     K::operand_limit, "src", 
     "operand src: bytes of the innermost mode <= 64 fails (found 128) [SDM palette 1 colsb]"},
    {"OperandShapeDstNotSrc", &STORE,
     [] {
       Site s = store_site();
       operand(s, "dst").shape = IntTuple{16, 8};
       operand(s, "dst").layout = composed("(16,8):(4096,1) + 65552");
       return s;
     },
     K::operand_shape, "dst",
     "operand dst: shape (16,8) does not fit (r,c) = (16,16) bound by operand src"},
};
INSTANTIATE_TEST_SUITE_P(TileStore, RefusedSite, testing::ValuesIn(store_refusals),
                         refusal_name);

const Refusal dp_refusals[] = {
    {"CapabilityMissingBf16", &DP,
     [] {
       Site s = dp_site();
       s.capabilities = amx_int8_caps;
       return s;
     },
     K::capability, "", 
     "capability: amx.bf16 is not among the target's capabilities"},
    {"MeshTwoCores", &DP,
     [] {
       Site s = dp_site();
       s.mesh = cores.sub(range(2, 4));
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(core, (2):(1) + 2) does not match Mesh(core, (1):(1) + p0): leaf 0 of (2) has extent 2 where (1) has 1"},
    {"KOdd", &DP, [] { return dp_shape(16, 16, 31); }, K::param_predicate, "k", 
     "parameter k: 31 violates k % 2 == 0"},
    {"KAbove32", &DP, [] { return dp_shape(16, 16, 34); }, K::param_predicate, "k", 
     "parameter k: 34 violates k <= 32"},
    {"NAbove16", &DP, [] { return dp_shape(16, 17, 32); }, K::param_predicate, "n", 
     "parameter n: 17 violates n <= 16"},
    {"MAbove16", &DP, [] { return dp_shape(17, 16, 32); }, K::param_predicate, "m", 
     "parameter m: 17 violates m <= 16"},
    {"MZero", &DP,
     [] {
       Site s = dp_site();
       set_param(s, arg("m", 0));
       return s;
     },
     K::param_predicate, "m", 
     "parameter m: 0 violates 1 <= m"},
    {"ParamTypeK", &DP,
     [] {
       Site s = dp_site();
       set_param(s, arg("k", DType::bf16));
       return s;
     },
     K::param_type, "k", 
     "parameter k: bf16 is a dtype, expected an integer"},
    {"ParamDerivedKh", &DP,
     [] {
       Site s = dp_site();
       set_param(s, arg("kh", 8));
       return s;
     },
     K::param_derived, "kh", 
     "parameter kh: 8 written, but k=32 derives kh = 16"},
    {"ParamUnknown", &DP,
     [] {
       Site s = dp_site();
       set_param(s, arg("dtype", DType::bf16));
       return s;
     },
     K::param_unknown, "dtype", 
     "parameter dtype: not a parameter of intel.amx.Tdpbf16ps (it has m, n, k, kh, n2)"},
    {"OperandMissingB", &DP,
     [] {
       Site s = dp_site();
       drop_operand(s, "B");
       return s;
     },
     K::operand_missing, "B", 
     "operand B: missing (expected shape=(k,n) storage=amx_tile)"},
    {"OperandUnknown", &DP,
     [] {
       Site s = dp_site();
       s.operands.push_back(site_operand("D", {16, 16}, DType::f32, Storage::amx_tile));
       return s;
     },
     K::operand_unknown, "D", 
     "operand D: not an operand of intel.amx.Tdpbf16ps"},
    {"OperandDtypeA", &DP,
     [] {
       Site s = dp_site();
       operand(s, "A").dtype = DType::f16;
       return s;
     },
     K::operand_dtype, "A", 
     "operand A: dtype f16, expected bf16"},
    {"OperandDtypeC", &DP,
     [] {
       Site s = dp_site();
       operand(s, "C").dtype = DType::bf16;
       return s;
     },
     K::operand_dtype, "C", 
     "operand C: dtype bf16, expected f32"},
    {"OperandStorageB", &DP,
     [] {
       Site s = dp_site();
       operand(s, "B").storage = Storage::gmem;
       return s;
     },
     K::operand_storage, "B", 
     "operand B: storage gmem, expected amx_tile"},
    {"OperandShapeRank", &DP,
     [] {
       Site s = dp_site();
       operand(s, "A").shape = IntTuple{16, 2, 16};
       return s;
     },
     K::operand_shape, "A", 
     "operand A: shape (16,2,16) does not fit (16,32)"},
    {"OperandLayoutBRowMajor", &DP,
     [] {
       Site s = dp_site();
       operand(s, "B").layout.layout = make_layout(IntTuple{32, 16});
       return s;
     },
     K::operand_layout, "B", 
     "operand B: fragment ((16,2),16):((32,16),1) does not match ((kh,2),n):((n2,1),2): leaf 1 of ((32,16),1) has stride 16 where ((n2,1),2) has 1"},
    {"OperandLayoutANotCompact", &DP,
     [] {
       Site s = dp_site();
       operand(s, "A").layout = composed("(16,32):(64,1)");
       return s;
     },
     K::operand_layout, "A", 
     "operand A: fragment (16,32):(64,1) does not match (m,k):(k,1): leaf 0 of (64,1) has stride 64 where (k,1) has 32"},
    {"TileMismatchM", &DP,
     [] {
       Site s = dp_site();
       operand(s, "A") = site_operand("A", {8, 32}, DType::bf16, Storage::amx_tile,
                                      make_layout(IntTuple{8, 32}));
       return s;
     },
     K::tile_mismatch, "A", 
     "tile: operand A has M = 8 but operand C has M = 16"},
    {"TileExtentMSmallerThanAtom", &DP,
     [] {
       Site s = dp_shape(8, 16, 32);
       set_param(s, arg("m", 16));
       return s;
     },
     K::tile_extent, "C", 
     "tile: M = 8 (operand C) is smaller than the atom's M = m = 16"},
    {"RepeatWritten", &DP,
     [] {
       Site s = dp_site();
       s.repeat = {2, 1, 1};
       return s;
     },
     K::repeat, "", 
     "repeat: written (2,1,1), derived (1,1,1)"},
    // A 32-row accumulator is two atoms of 16 rows (the limits read each
    // atom's fragment); the second must start a tile register.
    {"LimitRegisterStart", &DP,
     [] {
       Site s = dp_shape(32, 16, 32);
       set_param(s, arg("m", 16));
       operand(s, "C").layout = composed("((2,16),16):((128,16),1)");
       return s;
     },
     K::operand_limit, "C",
     "operand C: start address % 1024 == 0 fails (found 512) [SDM 18.2 tile register]"},
};
INSTANTIATE_TEST_SUITE_P(Tdpbf16ps, RefusedSite, testing::ValuesIn(dp_refusals),
                         refusal_name);

} // namespace
} // namespace tf::test
