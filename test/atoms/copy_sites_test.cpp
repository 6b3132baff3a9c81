//===- test/atoms/copy_sites_test.cpp - TMA, cp.async, ldmatrix, stmatrix -===//
//
// Whole sites through tf::match: a realistic accepted site per atom, then
// every refusal kind that applies, each with its exact describe() line
// (site_checks.hpp). Also the parametrized refusal test all the
// *_sites_test.cpp tables instantiate.
//
//===----------------------------------------------------------------------===//
#include "site_checks.hpp"

#include "tf/atoms/nv/sm80/cp_async.hpp"
#include "tf/atoms/nv/sm80/ldmatrix.hpp"
#include "tf/atoms/nv/sm90/copy_async_tensor.hpp"
#include "tf/atoms/nv/sm90/stmatrix.hpp"

namespace tf::test {

TEST_P(RefusedSite, KindAndLine) {
  const Refusal &t = GetParam();
  const Contract &c = *t.contract;
  MatchReport r = match(c, t.site());
  ASSERT_FALSE(r.accepted) << describe(r, c);
  const Reason *why = find_reason(r, t.kind, t.subject);
  ASSERT_NE(why, nullptr) << "no " << to_string(t.kind) << " reason about '"
                          << t.subject << "' in:\n"
                          << all_reasons(r, c);
  EXPECT_EQ(describe(*why, c), t.line) << all_reasons(r, c);
  EXPECT_EQ(static_cast<int>(r.reasons.size() + r.dropped), t.count)
      << all_reasons(r, c);
}

namespace {
namespace sm80 = tf::atoms::nv::sm80;
namespace sm90 = tf::atoms::nv::sm90;
using K = ReasonKind;

//===- nv.sm90.CopyAsyncTensor ---------------------------------------------===//

const Contract &TMA = sm90::copy_async_tensor;

/// The H200 GEMM's loader: thread 0 of the producer warpgroup, alone.
constexpr Mesh loader = threads.sub(0, range(0, 1));
/// Stage 0 of the A ring: 128 x 64 bf16, K-major, 128-byte swizzle.
constexpr ComposedLayout a_slot =
    composed_layout<"((2,8,8),(4,16)):((4096,512,64),(16,1)) | Swizzle(3,4,3)">;

/// The loader copies the gmem tile a[128x64] of a K-major 4096 x 4096 A
/// (rows 4096 apart; tile (bm=1, k=2) starts at 128*4096 + 2*64) into the
/// smem slot.
Site tma_load() {
  Site s;
  s.mesh = loader;
  s.params = {arg("dtype", DType::bf16), arg("swizzle", choice("bytes128"))};
  s.operands = {
      site_operand("src", {128, 64}, DType::bf16, Storage::gmem,
                   composed("(128,64):(4096,1) + 524416")),
      site_operand("dst", {128, 64}, DType::bf16, Storage::smem, a_slot)};
  s.check_capabilities = true;
  s.capabilities = sm90_caps;
  return s;
}

/// The epilogue's store: the staged 128 x 256 bf16 tile of C back to a
/// row-major 8192 x 17408 C (a 64 x 68 grid of 128 x 256 tiles).
/// 256 bf16 are 512 bytes a row: more than any swizzle span, so unswizzled.
Site tma_store() {
  Site s;
  s.mesh = loader;
  s.params = {arg("direction", choice("store")), arg("dtype", DType::bf16)};
  s.operands = {
      site_operand("src", {128, 256}, DType::bf16, Storage::smem,
                   composed("(128,256):(256,1) + 32768")),
      site_operand("dst", {128, 256}, DType::bf16, Storage::gmem,
                   composed("(128,256):(17408,1)"))};
  s.check_capabilities = true;
  s.capabilities = sm90_caps;
  return s;
}

/// A load of a `rows` x `cols` bf16 box under `swizzle`, smem at `offset`.
Site tma_box(std::int64_t rows, std::int64_t cols, const char *swizzle,
             const char *smem) {
  Site s = tma_load();
  set_param(s, arg("swizzle", choice(swizzle)));
  operand(s, "src") = site_operand("src", {rows, cols}, DType::bf16,
                                   Storage::gmem,
                                   Layout{IntTuple{rows, cols}, IntTuple{4096, 1}});
  operand(s, "dst") =
      site_operand("dst", {rows, cols}, DType::bf16, Storage::smem, composed(smem));
  return s;
}

TEST(CopyAsyncTensorSite, SeedLoadAccepted) {
  MatchReport r = match(TMA, tma_load());
  ASSERT_TRUE(r.accepted) << describe(r, TMA);
  EXPECT_EQ(r.param("direction")->choice, "load");
  EXPECT_EQ(r.param("multicast")->integer, 1);
  EXPECT_EQ(*r.bindings.value("p0"), 0);
  ASSERT_NE(r.fragment("dst"), nullptr);
  EXPECT_EQ(TMA.operands[2].layouts[r.fragment("dst")->variant].layout.swizzle,
            swizzle_for(SwizzleMode::bytes128));
  // Stage 3 of the ring, 3 * 16 KiB on: still 1024-byte aligned.
  Site s = tma_load();
  operand(s, "dst").layout.offset = Int(3 * 8192);
  EXPECT_TRUE(match(TMA, s).accepted);
  // Multicast to the 2 CTAs of a cluster.
  set_param(s, arg("multicast", 2));
  EXPECT_TRUE(match(TMA, s).accepted);
}

TEST(CopyAsyncTensorSite, StagedStoreAccepted) {
  MatchReport r = match(TMA, tma_store());
  ASSERT_TRUE(r.accepted) << describe(r, TMA);
  EXPECT_EQ(r.param("direction")->choice, "store");
  EXPECT_EQ(r.param("swizzle")->choice, "none");
  EXPECT_EQ(r.param("multicast")->integer, 1); // the store's case default
}

TEST(CopyAsyncTensorSite, OperandWithoutLayoutIsNotChecked) {
  // site.hpp: an operand given without a layout has its shape, dtype,
  // storage and shape limits checked, not its layout.
  Site s = tma_load();
  operand(s, "src").kind = OperandLayoutKind::none;
  MatchReport r = match(TMA, s);
  EXPECT_TRUE(r.accepted) << describe(r, TMA);
  EXPECT_EQ(r.fragment("src"), nullptr);
  // Its shape still binds the box for dst and meets the limits.
  operand(s, "src").shape = IntTuple{64, 64};
  r = match(TMA, s);
  EXPECT_EQ(all_reasons(r, TMA),
            "  operand dst: shape (128,64) does not fit (*box) = (64,64) bound "
            "by operand src\n");
}

TEST(CopyAsyncTensorSite, OneThreadHoweverWritten) {
  // One unit is one unit: a mesh of extent-1 leaves, any strides.
  for (const Mesh &m :
       {threads.sub(range(0, 1), range(0, 1)), // (1,1):(128,1)
        mesh("thread", IntTuple{1, 1}), mesh("thread", Layout{IntTuple{1}, IntTuple{0}}),
        mesh("thread", Layout{})}) {
    Site s = tma_load();
    s.mesh = m;
    MatchReport r = match(TMA, s);
    EXPECT_TRUE(r.accepted) << to_string(m) << "\n" << describe(r, TMA);
    EXPECT_EQ(to_string(r.mesh_instance), "Mesh(thread, (1):(1))");
  }
  Site s = tma_load();
  s.mesh = threads.sub(range(2, 3), range(5, 6)); // thread 261
  MatchReport r = match(TMA, s);
  ASSERT_TRUE(r.accepted) << describe(r, TMA);
  EXPECT_EQ(*r.bindings.value("p0"), 261);
}

TEST(CopyAsyncTensorSite, LimitsApplyOnlyUnderTheirSwizzle) {
  // 64 x 128 bf16 rows are 256 bytes: refused under the 128-byte swizzle
  // (below), accepted unswizzled.
  EXPECT_TRUE(match(TMA, tma_box(64, 128, "none", "(64,128):(128,1)")).accepted);
  // 64 bytes of misalignment is fine without a swizzle, not under one.
  EXPECT_FALSE(match(TMA, tma_box(128, 64, "none", "(128,64):(64,1) + 32")).accepted);
  EXPECT_TRUE(match(TMA, tma_box(128, 64, "none", "(128,64):(64,1) + 64")).accepted);
  EXPECT_FALSE(match(TMA, tma_box(128, 64, "bytes128",
                                  "(128,64):(64,1) + 64 | Swizzle(3,4,3)"))
                   .accepted);
  EXPECT_TRUE(match(TMA, tma_box(128, 16, "bytes32",
                                 "(128,16):(16,1) + 128 | Swizzle(1,4,3)"))
                  .accepted);
  EXPECT_TRUE(match(TMA, tma_box(128, 32, "bytes64",
                                 "(128,32):(32,1) + 256 | Swizzle(2,4,3)"))
                  .accepted);
  // The same smem misalignment on the store's src.
  Site st = tma_store();
  operand(st, "src").layout.offset = Int(32);
  EXPECT_FALSE(match(TMA, st).accepted);
}

const Refusal tma_refusals[] = {
    {"CapabilityMissingOnSm80", &TMA,
     [] {
       Site s = tma_load();
       s.capabilities = sm80_caps;
       return s;
     },
     K::capability, "", 
     "capability: cp.async.bulk.tensor is not among the target's capabilities"},
    {"MeshAWarp", &TMA,
     [] {
       Site s = tma_load();
       s.mesh = threads.sub(0, range(0, 32));
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(thread, (32):(1), participant) does not match Mesh(thread, (1):(1) + p0): leaf 0 of (32) has extent 32 where (1) has 1"},
    {"MeshTheWarpgroup", &TMA,
     [] {
       Site s = tma_load();
       s.mesh = threads.sub(0, _).reshape(IntTuple{4, 32});
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(thread, (4,32):(32,1)) does not match Mesh(thread, (1):(1) + p0): shape (4,32) has 2 leaves where (1) needs 1"},
    {"MeshCtaLevel", &TMA,
     [] {
       Site s = tma_load();
       s.mesh = mesh("cta", IntTuple{1});
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(cta, (1):(1)) does not match Mesh(thread, (1):(1) + p0): level cta is not thread"},
    {"ParamUnknown", &TMA,
     [] {
       Site s = tma_load();
       set_param(s, arg("box", 64));
       return s;
     },
     K::param_unknown, "box", 
     "parameter box: not a parameter of nv.sm90.CopyAsyncTensor (it has direction, dtype, swizzle, multicast)"},
    {"ParamTypeSwizzleAsInteger", &TMA,
     [] {
       Site s = tma_load();
       set_param(s, arg("swizzle", 128));
       return s;
     },
     K::param_type, "swizzle", 
     "parameter swizzle: 128 is an integer, expected a choice"},
    {"ParamMissingDtype", &TMA,
     [] {
       Site s = tma_load();
       drop_param(s, "dtype");
       return s;
     },
     K::param_missing, "dtype", 
     "parameter dtype: no value given and no default"},
    {"ParamSwizzleNotAMode", &TMA,
     [] {
       Site s = tma_load();
       set_param(s, arg("swizzle", choice("bytes16")));
       return s;
     },
     K::param_predicate, "swizzle", 
     "parameter swizzle: SwizzleMode.bytes16 violates swizzle in {SwizzleMode.none, SwizzleMode.bytes32, SwizzleMode.bytes64, SwizzleMode.bytes128}"},
    {"ParamDirectionNotAChoice", &TMA,
     [] {
       Site s = tma_load();
       set_param(s, arg("direction", choice("reduce")));
       return s;
     },
     K::param_predicate, "direction", 
     "parameter direction: Direction.reduce violates direction in {Direction.load, Direction.store}"},
    {"ParamMulticastAbove16", &TMA,
     [] {
       Site s = tma_load();
       set_param(s, arg("multicast", 17));
       return s;
     },
     K::param_predicate, "multicast", 
     "parameter multicast: 17 violates multicast <= 16"},
    {"ParamMulticastZero", &TMA,
     [] {
       Site s = tma_load();
       set_param(s, arg("multicast", 0));
       return s;
     },
     K::param_predicate, "multicast", 
     "parameter multicast: 0 violates 1 <= multicast"},
    {"ParamCaseStoreMulticast", &TMA,
     [] {
       Site s = tma_store();
       set_param(s, arg("multicast", 2));
       return s;
     },
     K::param_case, "multicast", 
     "parameter multicast: 2, but direction=store requires 1"},
    {"OperandMissingDst", &TMA,
     [] {
       Site s = tma_load();
       drop_operand(s, "dst");
       return s;
     },
     K::operand_missing, "dst", 
     "operand dst: missing (expected shape=(*box) storage=smem)"},
    {"OperandUnknownBarrier", &TMA,
     [] {
       Site s = tma_load();
       s.operands.push_back(site_operand("mbar", {1}, DType::u8, Storage::smem));
       return s;
     },
     K::operand_unknown, "mbar", 
     "operand mbar: not an operand of nv.sm90.CopyAsyncTensor"},
    {"OperandDtype", &TMA,
     [] {
       Site s = tma_load();
       operand(s, "dst").dtype = DType::f16;
       return s;
     },
     K::operand_dtype, "dst", 
     "operand dst: dtype f16, expected bf16 (dtype=bf16)"},
    {"OperandStorageLoadFromSmem", &TMA,
     [] {
       Site s = tma_load();
       operand(s, "src").storage = Storage::smem;
       return s;
     },
     K::operand_storage, "src", 
     "operand src: storage smem, expected gmem (direction=load)"},
    {"OperandStorageStoreToSmem", &TMA,
     [] {
       Site s = tma_store();
       operand(s, "dst").storage = Storage::smem;
       return s;
     },
     K::operand_storage, "dst", 
     "operand dst: storage smem, expected gmem (direction=store)"},
    {"OperandShapeBoxDstNotSrc", &TMA,
     [] {
       Site s = tma_load();
       operand(s, "src") = site_operand("src", {64, 64}, DType::bf16, Storage::gmem,
                                        composed("(64,64):(4096,1) + 524416"));
       return s;
     },
     K::operand_shape, "dst",
     "operand dst: shape (128,64) does not fit (*box) = (64,64) bound by operand src"},
    {"OperandShapeBoxStore", &TMA,
     [] {
       Site s = tma_store();
       operand(s, "dst") = site_operand("dst", {128, 128}, DType::bf16, Storage::gmem,
                                        composed("(128,128):(17408,1)"));
       return s;
     },
     K::operand_shape, "dst",
     "operand dst: shape (128,128) does not fit (*box) = (128,256) bound by operand src"},
    {"OperandLayoutGmemColumnMajor", &TMA,
     [] {
       Site s = tma_load();
       operand(s, "src").layout = composed("(128,64):(1,4096)");
       return s;
     },
     K::operand_layout, "src", 
     "operand src: fragment (128,64):(1,4096) does not match (*e,w):(*d,1) + o: leaf 1 of (1,4096) has stride 4096 where (*d,1) has 1", 2},
    {"OperandLayoutSmemPaddedRows", &TMA,
     [] { return tma_box(128, 64, "none", "(128,64):(72,1)"); },
     K::operand_layout, "dst", 
     "operand dst: fragment (128,64):(72,1) is not the compact row-major layout of its shape"},
    {"OperandLayoutSmemWrongSwizzle", &TMA,
     [] { return tma_box(128, 32, "bytes64", "(128,32):(32,1) | Swizzle(3,4,3)"); },
     K::operand_layout, "dst", 
     "operand dst: fragment (128,32):(32,1) | Swizzle(3,4,3) has Swizzle(3,4,3) where the row-major layout of the shape | Swizzle(2,4,3) (swizzle=bytes64) has Swizzle(2,4,3)"},
    {"OperandLayoutSmemUnswizzledUnder128", &TMA,
     [] {
       Site s = tma_load();
       operand(s, "dst").layout.swizzle = Swizzle{};
       return s;
     },
     K::operand_layout, "dst", 
     "operand dst: fragment ((2,8,8),(4,16)):((4096,512,64),(16,1)) has Swizzle(0,0,0) where the row-major layout of the shape | Swizzle(3,4,3) (swizzle=bytes128) has Swizzle(3,4,3)"},
    {"LimitRankAbove5", &TMA,
     [] {
       Site s = tma_load();
       set_param(s, arg("swizzle", choice("none")));
       operand(s, "src") = site_operand(
           "src", {2, 2, 2, 2, 2, 64}, DType::bf16, Storage::gmem,
           Layout{IntTuple{2, 2, 2, 2, 2, 64},
                  IntTuple{1 << 20, 1 << 19, 1 << 18, 1 << 17, 4096, 1}});
       operand(s, "dst") = site_operand("dst", {2, 2, 2, 2, 2, 64}, DType::bf16,
                                        Storage::smem,
                                        make_layout(IntTuple{2, 2, 2, 2, 2, 64}));
       return s;
     },
     K::operand_limit, "src", 
     "operand src: rank <= 5 fails (found 6) [cuTensorMapEncodeTiled]"},
    {"LimitBoxExtentAbove256", &TMA,
     [] { return tma_box(512, 64, "bytes128", "(512,64):(64,1) | Swizzle(3,4,3)"); },
     K::operand_limit, "src", 
     "operand src: extent of every mode <= 256 fails (found 512) [cuTensorMapEncodeTiled]"},
    {"LimitInnerBytesNotMultipleOf16", &TMA,
     [] { return tma_box(128, 4, "none", "(128,4):(4,1)"); },
     K::operand_limit, "src", 
     "operand src: bytes of the innermost mode % 16 == 0 fails (found 8) [cuTensorMapEncodeTiled]"},
    {"LimitInnerBytesAboveSpan128", &TMA,
     [] { return tma_box(64, 128, "bytes128", "(64,128):(128,1) | Swizzle(3,4,3)"); },
     K::operand_limit, "src", 
     "operand src: bytes of the innermost mode <= 128 fails (found 256) [cuTensorMapEncodeTiled]"},
    {"LimitInnerBytesAboveSpan64", &TMA,
     [] { return tma_box(128, 64, "bytes64", "(128,64):(64,1) | Swizzle(2,4,3)"); },
     K::operand_limit, "src", 
     "operand src: bytes of the innermost mode <= 64 fails (found 128) [cuTensorMapEncodeTiled]"},
    {"LimitInnerBytesAboveSpan32", &TMA,
     [] { return tma_box(128, 32, "bytes32", "(128,32):(32,1) | Swizzle(1,4,3)"); },
     K::operand_limit, "src", 
     "operand src: bytes of the innermost mode <= 32 fails (found 64) [cuTensorMapEncodeTiled]"},
    {"LimitOuterStrideNotMultipleOf16Bytes", &TMA,
     [] {
       Site s = tma_load();
       operand(s, "src").layout = composed("(128,64):(4100,1)");
       return s;
     },
     K::operand_limit, "src", 
     "operand src: every stride but the innermost, in bytes, % 16 == 0 fails (found 8200) [cuTensorMapEncodeTiled]"},
    {"LimitSmemBaseNone", &TMA,
     [] { return tma_box(128, 64, "none", "(128,64):(64,1) + 32"); },
     K::operand_limit, "dst", 
     "operand dst: start address % 128 == 0 fails (found 64) [PTX bulk tensor copy]"},
    {"LimitSmemBase32", &TMA,
     [] { return tma_box(128, 16, "bytes32", "(128,16):(16,1) + 64 | Swizzle(1,4,3)"); },
     K::operand_limit, "dst", 
     "operand dst: start address % 256 == 0 fails (found 128) [PTX bulk tensor copy]"},
    {"LimitSmemBase64", &TMA,
     [] { return tma_box(128, 32, "bytes64", "(128,32):(32,1) + 128 | Swizzle(2,4,3)"); },
     K::operand_limit, "dst", 
     "operand dst: start address % 512 == 0 fails (found 256) [PTX bulk tensor copy]"},
    {"LimitSmemBase128", &TMA,
     [] {
       Site s = tma_load();
       operand(s, "dst").layout.offset = Int(256); // 512 bytes
       return s;
     },
     K::operand_limit, "dst", 
     "operand dst: start address % 1024 == 0 fails (found 512) [PTX bulk tensor copy]"},
    {"LimitStoreBoxExtentAbove256", &TMA,
     [] {
       Site s = tma_store();
       operand(s, "src") = site_operand("src", {128, 512}, DType::bf16, Storage::smem,
                                        make_layout(IntTuple{128, 512}));
       operand(s, "dst") = site_operand("dst", {128, 512}, DType::bf16, Storage::gmem,
                                        composed("(128,512):(17408,1)"));
       return s;
     },
     K::operand_limit, "dst", 
     "operand dst: extent of every mode <= 256 fails (found 512) [cuTensorMapEncodeTiled]"},
    {"LimitStoreSmemBase", &TMA,
     [] {
       Site s = tma_store();
       operand(s, "src").layout.offset = Int(32);
       return s;
     },
     K::operand_limit, "src", 
     "operand src: start address % 128 == 0 fails (found 64) [PTX bulk tensor copy]"},
};
INSTANTIATE_TEST_SUITE_P(CopyAsyncTensor, RefusedSite,
                         testing::ValuesIn(tma_refusals), refusal_name);

//===- nv.sm80.CpAsync -----------------------------------------------------===//

const Contract &CPA = sm80::cp_async;

/// One thread's 16-byte vector of a 128-thread gmem -> smem tile copy:
/// 8 bf16 from gmem at element 4096 * 3 + 8 to smem element 8 * 5.
Site cp_async_site() {
  Site s;
  s.mesh = mesh("thread", IntTuple{128});
  s.params = {arg("dtype", DType::bf16)};
  s.operands = {site_operand("src", {8}, DType::bf16, Storage::gmem,
                             composed("(8):(1) + 12296")),
                site_operand("dst", {8}, DType::bf16, Storage::smem,
                             composed("(8):(1) + 40"))};
  s.check_capabilities = true;
  s.capabilities = sm80_caps;
  return s;
}

/// `bytes` bytes of bf16 per thread at element offsets `src` and `dst`.
Site cp_async_vector(int bytes, std::int64_t elems, std::int64_t src,
                     std::int64_t dst) {
  Site s = cp_async_site();
  set_param(s, arg("bytes", bytes));
  for (SiteOperand &o : s.operands) {
    o.shape = IntTuple{elems};
    o.layout.layout = Layout{IntTuple{elems}, IntTuple{1}};
    o.layout.offset = Int(o.name == "src" ? src : dst);
  }
  return s;
}

TEST(CpAsyncSite, Accepted) {
  MatchReport r = match(CPA, cp_async_site());
  ASSERT_TRUE(r.accepted) << describe(r, CPA);
  EXPECT_EQ(r.param("bytes")->integer, 16);
  EXPECT_EQ(r.param("cache")->choice, "cg"); // the bytes = 16 case default
  // 8- and 4-byte vectors with .ca (their only case), on the compute mesh.
  Site s = cp_async_vector(8, 4, 4, 12);
  s.mesh = compute;
  r = match(CPA, s);
  ASSERT_TRUE(r.accepted) << describe(r, CPA);
  EXPECT_EQ(r.param("cache")->choice, "ca");
  EXPECT_TRUE(match(CPA, cp_async_vector(4, 2, 2, 6)).accepted);
  // 16 bytes with .ca.
  s = cp_async_site();
  set_param(s, arg("cache", choice("ca")));
  EXPECT_TRUE(match(CPA, s).accepted);
  // One thread alone is a thread mesh too.
  s = cp_async_site();
  s.mesh = threads.sub(1, range(7, 8));
  EXPECT_TRUE(match(CPA, s).accepted);
}

const Refusal cp_async_refusals[] = {
    {"CapabilityMissing", &CPA,
     [] {
       Site s = cp_async_site();
       static constexpr Name sm75[] = {"mma.sync", "ldmatrix"};
       s.capabilities = sm75;
       return s;
     },
     K::capability, "", 
     "capability: cp.async is not among the target's capabilities"},
    {"MeshCtaLevel", &CPA,
     [] {
       Site s = cp_async_site();
       s.mesh = mesh("cta", IntTuple{132});
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(cta, (132):(1)) does not match Mesh(thread, (*g):(*gs) + p0): level cta is not thread"},
    {"ParamBytes12", &CPA, [] { return cp_async_vector(12, 6, 0, 0); },
     K::param_predicate, "bytes", 
     "parameter bytes: 12 violates bytes in {4, 8, 16}"},
    {"ParamTypeBytesAsChoice", &CPA,
     [] {
       Site s = cp_async_site();
       set_param(s, arg("bytes", choice("16")));
       return s;
     },
     K::param_type, "bytes", 
     "parameter bytes: 16 is a choice, expected an integer"},
    {"ParamCacheNotAChoice", &CPA,
     [] {
       Site s = cp_async_site();
       set_param(s, arg("cache", choice("cs")));
       return s;
     },
     K::param_predicate, "cache", 
     "parameter cache: CacheOp.cs violates cache in {CacheOp.ca, CacheOp.cg}", 2},
    {"ParamCaseCgWith8Bytes", &CPA,
     [] {
       Site s = cp_async_vector(8, 4, 0, 0);
       set_param(s, arg("cache", choice("cg")));
       return s;
     },
     K::param_case, "cache", 
     "parameter cache: CacheOp.cg is not allowed; it must be CacheOp.ca"},
    {"ParamMissingDtype", &CPA,
     [] {
       Site s = cp_async_site();
       drop_param(s, "dtype");
       return s;
     },
     K::param_missing, "dtype", 
     "parameter dtype: no value given and no default"},
    {"ParamUnknown", &CPA,
     [] {
       Site s = cp_async_site();
       set_param(s, arg("zfill", 1));
       return s;
     },
     K::param_unknown, "zfill", 
     "parameter zfill: not a parameter of nv.sm80.CpAsync (it has dtype, bytes, cache)"},
    {"OperandMissingSrc", &CPA,
     [] {
       Site s = cp_async_site();
       drop_operand(s, "src");
       return s;
     },
     K::operand_missing, "src", 
     "operand src: missing (expected shape=(v) storage=gmem)"},
    {"OperandUnknown", &CPA,
     [] {
       Site s = cp_async_site();
       s.operands.push_back(site_operand("src_size", {1}, DType::i32, Storage::rmem));
       return s;
     },
     K::operand_unknown, "src_size", 
     "operand src_size: not an operand of nv.sm80.CpAsync"},
    {"OperandDtype", &CPA,
     [] {
       Site s = cp_async_site();
       operand(s, "dst").dtype = DType::f16;
       return s;
     },
     K::operand_dtype, "dst", 
     "operand dst: dtype f16, expected bf16 (dtype=bf16)"},
    {"OperandStorageSmemToSmem", &CPA,
     [] {
       Site s = cp_async_site();
       operand(s, "src").storage = Storage::smem;
       return s;
     },
     K::operand_storage, "src", 
     "operand src: storage smem, expected gmem"},
    {"OperandStorageToRegisters", &CPA,
     [] {
       Site s = cp_async_site();
       operand(s, "dst").storage = Storage::rmem;
       return s;
     },
     K::operand_storage, "dst", 
     "operand dst: storage rmem, expected smem"},
    {"OperandShapeRank2", &CPA,
     [] {
       Site s = cp_async_site();
       operand(s, "src").shape = IntTuple{2, 4};
       operand(s, "src").layout.layout = Layout{IntTuple{2, 4}, IntTuple{4, 1}};
       return s;
     },
     K::operand_shape, "src", 
     "operand src: shape (2,4) does not fit (v)", 3},
    {"OperandLayoutStrided", &CPA,
     [] {
       Site s = cp_async_site();
       operand(s, "src").layout.layout = Layout{IntTuple{8}, IntTuple{2}};
       return s;
     },
     K::operand_layout, "src", 
     "operand src: fragment (8):(2) + 12296 does not match (v):(1) + o: leaf 0 of (2) has stride 2 where (1) has 1"},
    {"LimitTooFewBytes", &CPA, [] { return cp_async_vector(16, 4, 0, 0); },
     K::operand_limit, "src", 
     "operand src: bytes of the innermost mode >= 16 fails (found 8) [PTX cp.async]", 2},
    {"LimitTooManyBytes", &CPA, [] { return cp_async_vector(16, 16, 0, 0); },
     K::operand_limit, "dst", 
     "operand dst: bytes of the innermost mode <= 16 fails (found 32) [PTX cp.async]", 2},
    {"LimitSrcMisaligned16", &CPA, [] { return cp_async_vector(16, 8, 4, 0); },
     K::operand_limit, "src", 
     "operand src: start address % 16 == 0 fails (found 8) [PTX cp.async]"},
    {"LimitDstMisaligned8", &CPA, [] { return cp_async_vector(8, 4, 0, 2); },
     K::operand_limit, "dst", 
     "operand dst: start address % 8 == 0 fails (found 4) [PTX cp.async]"},
    {"LimitDstMisaligned4", &CPA, [] { return cp_async_vector(4, 2, 0, 1); },
     K::operand_limit, "dst", 
     "operand dst: start address % 4 == 0 fails (found 2) [PTX cp.async]"},
};
INSTANTIATE_TEST_SUITE_P(CpAsync, RefusedSite,
                         testing::ValuesIn(cp_async_refusals), refusal_name);

TEST(CpAsyncSite, AlignmentFollowsTheSize) {
  // 8 bytes at element 4 (byte 8): misaligned for 16, aligned for 8.
  EXPECT_FALSE(match(CPA, cp_async_vector(16, 8, 4, 0)).accepted);
  EXPECT_TRUE(match(CPA, cp_async_vector(8, 4, 4, 0)).accepted);
}

//===- nv.sm80.Ldmatrix / nv.sm90.Stmatrix --------------------------------===//

const Contract &LDM = sm80::ldmatrix;
const Contract &STM = sm90::stmatrix;

/// Warp 1 of the H200 GEMM's consumer warpgroup 0: threads 160..191 as (8,4).
constexpr Mesh warp1 = threads.sub(1, range(32, 64)).reshape(IntTuple{8, 4});

/// ldmatrix.x4 of four 8x8 matrices from the K-major 128-byte-swizzled A
/// slot (rows 64 bf16 apart, matrices 8 columns apart, 16-byte rows) into
/// the warp's fragment.
Site ldmatrix_site() {
  Site s;
  s.mesh = warp1;
  s.params = {arg("dtype", DType::bf16)};
  s.operands = {
      site_operand("src", {4, 8, 8}, DType::bf16, Storage::smem,
                   composed("(4,8,8):(8,64,1) + 1024 | Swizzle(3,4,3)")),
      site_operand("dst", {4, 8, 8}, DType::bf16, Storage::rmem,
                   shard("(4,8@0,4@1,2):(64,8,2,1)", warp1))};
  s.check_capabilities = true;
  s.capabilities = sm80_caps;
  return s;
}

/// stmatrix.x4 of the same fragments into a 64-byte-swizzled staging tile
/// of 32-element (64-byte) rows.
Site stmatrix_site() {
  Site s;
  s.mesh = warp1;
  s.params = {arg("dtype", DType::bf16)};
  s.operands = {
      site_operand("src", {4, 8, 8}, DType::bf16, Storage::rmem,
                   shard("(4,8@0,4@1,2):(64,8,2,1)", warp1)),
      site_operand("dst", {4, 8, 8}, DType::bf16, Storage::smem,
                   composed("(4,8,8):(8,32,1) + 512 | Swizzle(2,4,3)"))};
  s.check_capabilities = true;
  s.capabilities = sm90_caps;
  return s;
}

TEST(LdmatrixSite, Accepted) {
  MatchReport r = match(LDM, ldmatrix_site());
  ASSERT_TRUE(r.accepted) << describe(r, LDM);
  EXPECT_EQ(*r.bindings.value("p0"), 160);
  // .x2.trans of an unswizzled, padded tile (rows 72 bf16 = 144 bytes).
  Site s = ldmatrix_site();
  set_param(s, arg("num", 2));
  set_param(s, arg("trans", 1));
  operand(s, "src") = site_operand("src", {2, 8, 8}, DType::f16, Storage::smem,
                                   composed("(2,8,8):(576,72,1)"));
  operand(s, "dst") = site_operand("dst", {2, 8, 8}, DType::f16, Storage::rmem,
                                   shard("(2,8@0,4@1,2):(64,1,16,8)", warp1));
  set_param(s, arg("dtype", DType::f16));
  r = match(LDM, s);
  EXPECT_TRUE(r.accepted) << describe(r, LDM);
}

TEST(StmatrixSite, Accepted) {
  MatchReport r = match(STM, stmatrix_site());
  ASSERT_TRUE(r.accepted) << describe(r, STM);
}

const Refusal ldmatrix_refusals[] = {
    {"CapabilityMissing", &LDM,
     [] {
       Site s = ldmatrix_site();
       static constexpr Name sm70[] = {"mma.sync"};
       s.capabilities = sm70;
       return s;
     },
     K::capability, "", 
     "capability: ldmatrix is not among the target's capabilities"},
    {"MeshSixteenThreads", &LDM,
     [] {
       Site s = ldmatrix_site();
       s.mesh = threads.sub(1, range(32, 48)).reshape(IntTuple{4, 4});
       drop_operand(s, "dst");
       s.operands.push_back(site_operand("dst", {4, 8, 8}, DType::bf16, Storage::rmem));
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(thread, (4,4):(4,1) + 160) does not match Mesh(thread, ((*g,8,4)):((*gs,4,1)) + p0): leaf 0 of (4,4) has extent 4 where ((*g,8,4)) has 8"},
    {"MeshStraddlesTwoWarps", &LDM,
     [] {
       Site s = ldmatrix_site();
       s.mesh = threads.sub(1, range(16, 48)).reshape(IntTuple{8, 4});
       operand(s, "dst").shard = shard("(4,8@0,4@1,2):(64,8,2,1)", s.mesh);
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(thread, (8,4):(4,1) + 144) does not match Mesh(thread, ((*g,8,4)):((*gs,4,1)) + p0): p0 % 32 == 0 fails: p0 = 144 is not a multiple of 32"},
    {"ParamNum3", &LDM,
     [] {
       Site s = ldmatrix_site();
       set_param(s, arg("num", 3));
       return s;
     },
     K::param_predicate, "num", 
     "parameter num: 3 violates num in {1, 2, 4}"},
    {"ParamTrans2", &LDM,
     [] {
       Site s = ldmatrix_site();
       set_param(s, arg("trans", 2));
       return s;
     },
     K::param_predicate, "trans", 
     "parameter trans: 2 violates trans in {0, 1}"},
    {"ParamDtypeF32", &LDM,
     [] {
       Site s = ldmatrix_site();
       set_param(s, arg("dtype", DType::f32));
       return s;
     },
     K::param_predicate, "dtype", 
     "parameter dtype: f32 violates dtype in {bf16, f16}"},
    {"ParamTypeTransAsChoice", &LDM,
     [] {
       Site s = ldmatrix_site();
       set_param(s, arg("trans", choice("trans")));
       return s;
     },
     K::param_type, "trans", 
     "parameter trans: trans is a choice, expected an integer"},
    {"ParamMissingDtype", &LDM,
     [] {
       Site s = ldmatrix_site();
       drop_param(s, "dtype");
       return s;
     },
     K::param_missing, "dtype", 
     "parameter dtype: no value given and no default"},
    {"OperandMissingDst", &LDM,
     [] {
       Site s = ldmatrix_site();
       drop_operand(s, "dst");
       return s;
     },
     K::operand_missing, "dst", 
     "operand dst: missing (expected shape=(num,8,8) storage=rmem)"},
    {"OperandUnknown", &LDM,
     [] {
       Site s = ldmatrix_site();
       s.operands.push_back(site_operand("addr", {32}, DType::i32, Storage::rmem));
       return s;
     },
     K::operand_unknown, "addr", 
     "operand addr: not an operand of nv.sm80.Ldmatrix"},
    {"OperandDtype", &LDM,
     [] {
       Site s = ldmatrix_site();
       operand(s, "src").dtype = DType::f16;
       return s;
     },
     K::operand_dtype, "src", 
     "operand src: dtype f16, expected bf16 (dtype=bf16)"},
    {"OperandStorageFromGmem", &LDM,
     [] {
       Site s = ldmatrix_site();
       operand(s, "src").storage = Storage::gmem;
       return s;
     },
     K::operand_storage, "src", 
     "operand src: storage gmem, expected smem"},
    {"OperandShapeNum", &LDM,
     [] {
       Site s = ldmatrix_site();
       set_param(s, arg("num", 2));
       return s;
     },
     K::operand_shape, "src", 
     "operand src: shape (4,8,8) does not fit (2,8,8)", 4},
    {"OperandLayoutColumnMajorRows", &LDM,
     [] {
       Site s = ldmatrix_site();
       operand(s, "src").layout = composed("(4,8,8):(64,1,8)");
       return s;
     },
     K::operand_layout, "src", 
     "operand src: fragment (4,8,8):(64,1,8) does not match (num,8,8):(sm,sr,1) + o: leaf 2 of (64,1,8) has stride 8 where (sm,sr,1) has 1 (nearest of 4 arrangements)", 2},
    {"OperandLayoutFragmentNotTrans", &LDM,
     [] {
       Site s = ldmatrix_site();
       set_param(s, arg("trans", 1));
       return s;
     },
     K::operand_layout, "dst", 
     "operand dst: fragment (4,8@0,4@1,2):(64,8,2,1) over Mesh(thread, (8,4):(4,1) + 160) does not match (num,8@0,4@1,2):(64,1,16,8) over Mesh(thread, ((8,4)):((4,1)) + p0): leaf 1 of (64,8,2,1) has stride 8 where (64,1,16,8) has 1 (trans=1)"},
    {"OperandLayoutFragmentAsPlainLayout", &LDM,
     [] {
       Site s = ldmatrix_site();
       operand(s, "dst") = site_operand("dst", {4, 8, 8}, DType::bf16, Storage::rmem,
                                        make_layout(IntTuple{4, 8, 8}));
       return s;
     },
     K::operand_layout, "dst", 
     "operand dst: needs a ShardLayout over the execution mesh, found another kind of layout"},
    {"OperandLayoutFragmentOverAnotherWarp", &LDM,
     [] {
       Site s = ldmatrix_site();
       operand(s, "dst").shard = shard("(4,8@0,4@1,2):(64,8,2,1)",
                                       threads.sub(1, range(0, 32)).reshape(IntTuple{8, 4}));
       return s;
     },
     K::operand_layout, "dst", 
     "operand dst: distributed over Mesh(thread, (8,4):(4,1) + 128), not over the site's mesh"},
    {"LimitRowStrideNotMultipleOf16Bytes", &LDM,
     [] {
       Site s = ldmatrix_site();
       operand(s, "src").layout = composed("(4,8,8):(544,66,1)");
       return s;
     },
     K::operand_limit, "src", 
     "operand src: every stride but the innermost, in bytes, % 16 == 0 fails (found 132) [PTX ldmatrix]"},
    {"LimitBaseMisaligned", &LDM,
     [] {
       Site s = ldmatrix_site();
       operand(s, "src").layout.offset = Int(1028); // byte 2056
       return s;
     },
     K::operand_limit, "src", 
     "operand src: start address % 16 == 0 fails (found 2056) [PTX ldmatrix]"},
};
INSTANTIATE_TEST_SUITE_P(Ldmatrix, RefusedSite,
                         testing::ValuesIn(ldmatrix_refusals), refusal_name);

const Refusal stmatrix_refusals[] = {
    {"CapabilityMissingOnSm80", &STM,
     [] {
       Site s = stmatrix_site();
       s.capabilities = sm80_caps;
       return s;
     },
     K::capability, "", 
     "capability: stmatrix is not among the target's capabilities"},
    {"MeshOneThread", &STM,
     [] {
       Site s = stmatrix_site();
       s.mesh = loader;
       drop_operand(s, "src");
       s.operands.push_back(site_operand("src", {4, 8, 8}, DType::bf16, Storage::rmem));
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(thread, (1):(1), participant) does not match Mesh(thread, ((*g,8,4)):((*gs,4,1)) + p0): shape (1) has 1 leaves where ((*g,8,4)) needs at least 2"},
    {"ParamNum8", &STM,
     [] {
       Site s = stmatrix_site();
       set_param(s, arg("num", 8));
       return s;
     },
     K::param_predicate, "num", 
     "parameter num: 8 violates num in {1, 2, 4}"},
    {"ParamMissingDtype", &STM,
     [] {
       Site s = stmatrix_site();
       drop_param(s, "dtype");
       return s;
     },
     K::param_missing, "dtype", 
     "parameter dtype: no value given and no default"},
    {"OperandMissingSrc", &STM,
     [] {
       Site s = stmatrix_site();
       drop_operand(s, "src");
       return s;
     },
     K::operand_missing, "src", 
     "operand src: missing (expected shape=(num,8,8) storage=rmem)"},
    {"OperandUnknown", &STM,
     [] {
       Site s = stmatrix_site();
       s.operands.push_back(site_operand("addr", {32}, DType::i32, Storage::rmem));
       return s;
     },
     K::operand_unknown, "addr", 
     "operand addr: not an operand of nv.sm90.Stmatrix"},
    {"OperandDtype", &STM,
     [] {
       Site s = stmatrix_site();
       operand(s, "dst").dtype = DType::f32;
       return s;
     },
     K::operand_dtype, "dst", 
     "operand dst: dtype f32, expected bf16 (dtype=bf16)"},
    {"OperandStorageToGmem", &STM,
     [] {
       Site s = stmatrix_site();
       operand(s, "dst").storage = Storage::gmem;
       return s;
     },
     K::operand_storage, "dst", 
     "operand dst: storage gmem, expected smem"},
    {"OperandShape", &STM,
     [] {
       Site s = stmatrix_site();
       operand(s, "dst").shape = IntTuple{4, 8, 16};
       operand(s, "dst").layout.layout = make_layout(IntTuple{4, 8, 16});
       return s;
     },
     K::operand_shape, "dst", 
     "operand dst: shape (4,8,16) does not fit (4,8,8)", 2},
    {"OperandLayoutFragmentTrans", &STM,
     [] {
       Site s = stmatrix_site();
       operand(s, "src").shard = shard("(4,8@0,4@1,2):(64,1,16,8)", warp1);
       return s;
     },
     K::operand_layout, "src", 
     "operand src: fragment (4,8@0,4@1,2):(64,1,16,8) over Mesh(thread, (8,4):(4,1) + 160) does not match (num,8@0,4@1,2):(64,8,2,1) over Mesh(thread, ((8,4)):((4,1)) + p0): leaf 1 of (64,1,16,8) has stride 1 where (64,8,2,1) has 8 (trans=0)"},
    {"OperandLayoutSmemColumnMajor", &STM,
     [] {
       Site s = stmatrix_site();
       operand(s, "dst").layout = composed("(4,8,8):(64,1,8)");
       return s;
     },
     K::operand_layout, "dst", 
     "operand dst: fragment (4,8,8):(64,1,8) does not match (num,8,8):(sm,sr,1) + o: leaf 2 of (64,1,8) has stride 8 where (sm,sr,1) has 1 (nearest of 4 arrangements)", 2},
    {"LimitRowStrideNotMultipleOf16Bytes", &STM,
     [] {
       Site s = stmatrix_site();
       operand(s, "dst").layout = composed("(4,8,8):(8,36,1)");
       return s;
     },
     K::operand_limit, "dst", 
     "operand dst: every stride but the innermost, in bytes, % 16 == 0 fails (found 72) [PTX ldmatrix]"},
    {"LimitBaseMisaligned", &STM,
     [] {
       Site s = stmatrix_site();
       operand(s, "dst").layout.offset = Int(516);
       return s;
     },
     K::operand_limit, "dst", 
     "operand dst: start address % 16 == 0 fails (found 1032) [PTX ldmatrix]"},
};
INSTANTIATE_TEST_SUITE_P(Stmatrix, RefusedSite,
                         testing::ValuesIn(stmatrix_refusals), refusal_name);

} // namespace
} // namespace tf::test
