//===- test/contracts/wgmma_test.cpp - nv.sm90.Wgmma against sites --------===//
//
// The H200 GEMM's site is accepted with repeat (2,1,4); every refusal kind
// is produced and printed; other tiles, forms and dtypes.
//
//===----------------------------------------------------------------------===//
#include "helpers.hpp"
#include "seed_site.hpp"

#include "tf/atoms/nv/sm90/wgmma.hpp"

using namespace tf_test;
using tf::ReasonKind;

namespace {

const tf::Contract &W = tf::atoms::nv::sm90::wgmma;

/// One warpgroup at thread 128: the GEMM's consumer 0.
constexpr tf::Mesh one_group = seed::compute.sub(0);

TEST(Wgmma, SeedGemmAccepted) {
  tf::MatchReport r = tf::match(W, seed::gemm_site());
  ASSERT_TRUE(r.accepted) << tf::describe(r, W);
  EXPECT_TRUE(r.repeat.derived);
  EXPECT_EQ(r.repeat.count[0], 2);
  EXPECT_EQ(r.repeat.count[1], 1);
  EXPECT_EQ(r.repeat.count[2], 4);
  EXPECT_EQ(r.repeat.atom[1], 256);
  EXPECT_EQ(r.repeat.atom[2], 16);
  // The two M repeats run on the two warpgroups (2@group).
  EXPECT_EQ(r.repeat.spatial[0], 2);
  EXPECT_EQ(r.repeat.spatial_axis[0], "group");
  EXPECT_EQ(r.repeat.spatial[2], 1);
  EXPECT_EQ(*r.bindings.value("p0"), 128);
  EXPECT_EQ(*r.bindings.leaves("g"), tf::IntTuple{2});
  ASSERT_NE(r.param("k"), nullptr);
  EXPECT_EQ(r.param("k")->integer, 16);
  const tf::OperandFragment *a = r.fragment("A");
  const tf::OperandFragment *b = r.fragment("B");
  const tf::OperandFragment *c = r.fragment("C");
  ASSERT_TRUE(a && b && c);
  EXPECT_EQ(tf::to_string(a->layout), "((8,8),16):((512,64),1) | Swizzle(3,4,3)");
  EXPECT_EQ(*a->bindings.value("sbo"), 512);
  EXPECT_EQ(tf::to_string(a->rest), "(2,4):(4096,16)");
  // B is N-major with 128-byte swizzle: nb = 4 runs of 64, lbo = 1024.
  EXPECT_EQ(*b->bindings.value("sbo"), 512);
  EXPECT_EQ(*b->bindings.value("lbo"), 1024);
  EXPECT_EQ(*b->bindings.value("nb"), 4);
  EXPECT_EQ(W.operands[2].layouts[b->variant].layout.swizzle,
            tf::swizzle_for(tf::SwizzleMode::bytes128));
  EXPECT_EQ(*c->bindings.value("c"), 32);
  EXPECT_EQ(*c->bindings.value("p0"), 128);
  EXPECT_EQ(tf::to_string(c->shard),
            "(4@warp,2,8@lane8,32,4@lane4,2):(16,8,1,512,128,64) over "
            "Mesh(thread, (4,8,4):(32,4,1) + 128, warp, lane8, lane4)");
  std::string text = tf::describe(r, W);
  EXPECT_NE(text.find("repeat (2,1,4) = tile (128,256,64) / atom (64,256,16); "
                      "M: 2 side by side on group; K: 4 one after another"),
            std::string::npos)
      << text;
}

TEST(Wgmma, SeedDefaultsApply) {
  // form and b_major are defaults (SS, MN for bf16); k is derived.
  tf::Site s = seed::gemm_site();
  drop_param(s, "form");
  drop_param(s, "b_major");
  tf::MatchReport r = tf::match(W, s);
  ASSERT_TRUE(r.accepted) << tf::describe(r, W);
  EXPECT_EQ(r.params[2].source, tf::ParamSource::def_default);
  EXPECT_EQ(r.params[4].source, tf::ParamSource::case_default);
  EXPECT_EQ(r.params[4].value.choice, "MN");
  EXPECT_EQ(r.params[5].source, tf::ParamSource::derived);
}

TEST(Wgmma, SeedBIsNotKMajor) {
  // b_major = K is wrong for this site: the GEMM's B slot is N-major.
  tf::Site s = seed::gemm_site();
  set(s, tf::arg("b_major", tf::choice("K")));
  tf::MatchReport r = tf::match(W, s);
  ASSERT_FALSE(r.accepted);
  ASSERT_EQ(r.reasons.size(), 1u) << reasons(r, W);
  EXPECT_EQ(r.reasons[0].kind, ReasonKind::operand_layout);
  EXPECT_EQ(line(r, W, ReasonKind::operand_layout, "B"),
            "operand B: fragment ((2,8),(4,64)):((512,64),(1024,1)) | "
            "Swizzle(3,4,3) does not match (16,(nb,8)):(1,(sbo,64)) + b0 | "
            "Swizzle(3,4,3) (b_major=K, k=16): the fragment cannot be written "
            "with extent 32 at leaf 0 of the pattern's mode (nearest of 4 "
            "arrangements)")
      << reasons(r, W);
}

TEST(Wgmma, GridMeshRefused) {
  // grid.py: tf.matmul on the CTA mesh (64,68): no thread level.
  tf::Site s = seed::gemm_site();
  s.mesh = seed::grid_cta;
  tf::MatchReport r = tf::match(W, s);
  ASSERT_FALSE(r.accepted);
  EXPECT_EQ(line(r, W, ReasonKind::mesh),
            "mesh: Mesh(cta, (64,68):(68,1), bm, bn) does not match "
            "Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + p0): level cta is not "
            "thread");
}

TEST(Wgmma, MeshPredicateRefused) {
  // A warpgroup starting at thread 64 is not aligned.
  tf::Site s = seed::gemm_site();
  s.mesh = tf::mesh("thread", tf::IntTuple{4, 8, 4});
  s.mesh.offset = 64;
  drop_operand(s, "C");
  tf::MatchReport r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::mesh),
            "mesh: Mesh(thread, (4,8,4):(32,4,1) + 64) does not match "
            "Mesh(thread, ((*g,4,8,4)):((*gs,32,4,1)) + p0): p0 % 128 == 0 "
            "fails: p0 = 64 is not a multiple of 128");
  // A warp is too small.
  s.mesh = tf::mesh("thread", tf::IntTuple{8, 4});
  r = tf::match(W, s);
  EXPECT_NE(line(r, W, ReasonKind::mesh).find("needs at least 3"),
            std::string::npos)
      << reasons(r, W);
}

TEST(Wgmma, CapabilityMissing) {
  static constexpr tf::Name sm80_caps[] = {"mma.sync", "cp.async"};
  tf::Site s = seed::gemm_site();
  s.capabilities = sm80_caps;
  tf::MatchReport r = tf::match(W, s);
  ASSERT_FALSE(r.accepted);
  ASSERT_EQ(r.reasons.size(), 1u);
  EXPECT_EQ(line(r, W, ReasonKind::capability),
            "capability: wgmma.mma_async is not among the target's "
            "capabilities");
  s.check_capabilities = false; // absent: not checked
  EXPECT_TRUE(tf::match(W, s).accepted);
}

TEST(Wgmma, ParameterPredicates) {
  tf::Site s = seed::gemm_site();
  set(s, tf::arg("n", 260));
  tf::MatchReport r = tf::match(W, s);
  ASSERT_FALSE(r.accepted);
  // Both predicates fail; with n invalid the tile is not decomposed.
  EXPECT_EQ(reasons(r, W), "parameter n: 260 violates n <= 256\n"
                           "parameter n: 260 violates n % 8 == 0\n");
  EXPECT_EQ(line(r, W, ReasonKind::param_predicate, "n"),
            "parameter n: 260 violates n <= 256");
  set(s, tf::arg("n", 4));
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::param_predicate, "n"),
            "parameter n: 4 violates 8 <= n");
  set(s, tf::arg("n", 256));
  set(s, tf::arg("dtype", tf::DType::i8));
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::param_predicate, "dtype"),
            "parameter dtype: i8 violates dtype in {bf16, f16, fp8e4m3, "
            "fp8e5m2, tf32}");
  set(s, tf::arg("dtype", tf::DType::bf16));
  set(s, tf::arg("form", tf::choice("SR")));
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::param_predicate, "form"),
            "parameter form: Form.SR violates form in {Form.SS, Form.RS}");
}

TEST(Wgmma, ParameterCases) {
  tf::Site s = seed::gemm_site();
  set(s, tf::arg("dtype", tf::DType::fp8e4m3));
  set(s, tf::arg("a_major", tf::choice("MN")));
  tf::MatchReport r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::param_case, "a_major"),
            "parameter a_major: Major.MN, but dtype=fp8e4m3 requires Major.K");
  EXPECT_EQ(line(r, W, ReasonKind::param_case, "b_major"),
            "parameter b_major: Major.MN, but dtype=fp8e4m3 requires Major.K");
  // The operands are bf16 while dtype says fp8e4m3.
  EXPECT_EQ(line(r, W, ReasonKind::operand_dtype, "A"),
            "operand A: dtype bf16, expected fp8e4m3 (dtype=fp8e4m3)");
  // RS with M-major A.
  s = seed::gemm_site();
  set(s, tf::arg("form", tf::choice("RS")));
  set(s, tf::arg("a_major", tf::choice("MN")));
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::param_case, "a_major"),
            "parameter a_major: Major.MN, but dtype=bf16, form=RS requires "
            "Major.K");
  EXPECT_EQ(line(r, W, ReasonKind::operand_storage, "A"),
            "operand A: storage smem, expected rmem (form=RS)");
}

TEST(Wgmma, ParameterNamesKindsAndDerived) {
  tf::Site s = seed::gemm_site();
  set(s, tf::arg("m", 64));
  set(s, tf::arg("k", 32));
  tf::MatchReport r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::param_unknown, "m"),
            "parameter m: not a parameter of nv.sm90.Wgmma (it has n, dtype, "
            "form, a_major, b_major, k)");
  EXPECT_EQ(line(r, W, ReasonKind::param_derived, "k"),
            "parameter k: 32 written, but dtype=bf16 derives k = 16");
  s = seed::gemm_site();
  set(s, tf::arg("n", tf::DType::bf16));
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::param_type, "n"),
            "parameter n: bf16 is a dtype, expected an integer");
  drop_param(s, "n");
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::param_missing, "n"),
            "parameter n: no value given and no default");
}

TEST(Wgmma, OperandPresenceDtypeStorage) {
  tf::Site s = seed::gemm_site();
  drop_operand(s, "B");
  tf::MatchReport r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::operand_missing, "B"),
            "operand B: missing (expected shape=(k,n) storage=smem)");
  s = seed::gemm_site();
  operand(s, "A").storage = tf::Storage::rmem;
  operand(s, "C").dtype = tf::DType::f16;
  operand(s, "B").dtype = tf::DType::f16;
  s.operands.push_back(tf::site_operand("D", {128, 256}, tf::DType::f32, tf::Storage::rmem));
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::operand_storage, "A"),
            "operand A: storage rmem, expected smem (form=SS)");
  EXPECT_EQ(line(r, W, ReasonKind::operand_dtype, "C"),
            "operand C: dtype f16, expected f32");
  EXPECT_EQ(line(r, W, ReasonKind::operand_dtype, "B"),
            "operand B: dtype f16, expected bf16 (dtype=bf16)");
  EXPECT_EQ(line(r, W, ReasonKind::operand_unknown, "D"),
            "operand D: not an operand of nv.sm90.Wgmma");
}

TEST(Wgmma, OperandShape) {
  tf::Site s = seed::gemm_site();
  operand(s, "A").shape = tf::IntTuple{2, 64, 64};
  tf::MatchReport r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::operand_shape, "A"),
            "operand A: shape (2,64,64) does not fit (64,16)");
}

TEST(Wgmma, OperandLayouts) {
  // A with a 64-byte swizzle: the rows are 128 bytes apart.
  tf::Site s = seed::gemm_site();
  operand(s, "A").layout.swizzle = tf::swizzle_for(tf::SwizzleMode::bytes64);
  tf::MatchReport r = tf::match(W, s);
  ASSERT_EQ(r.reasons.size(), 1u) << reasons(r, W);
  EXPECT_EQ(line(r, W, ReasonKind::operand_layout, "A"),
            "operand A: fragment ((8,8),16):((512,64),1) | Swizzle(2,4,3) does "
            "not match ((8,8),16):((sbo,32),1) + a0 | Swizzle(2,4,3) "
            "(a_major=K, k=16): leaf 1 of ((512,64),1) has stride 64 where "
            "((sbo,32),1) has 32 (nearest of 4 arrangements)");
  // The accumulator with the lanes swapped.
  s = seed::gemm_site();
  operand(s, "C").shard = shard(
      "(2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,64,128)",
      seed::compute);
  r = tf::match(W, s);
  ASSERT_TRUE(find(r, ReasonKind::operand_layout, "C")) << reasons(r, W);
  EXPECT_NE(line(r, W, ReasonKind::operand_layout, "C").find("does not match"),
            std::string::npos);
  // A register accumulator given as a plain layout.
  s = seed::gemm_site();
  operand(s, "C") = tf::site_operand("C", {128, 256}, tf::DType::f32,
                                     tf::Storage::rmem, tf::layout<"(128,256)">);
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::operand_layout, "C"),
            "operand C: needs a ShardLayout over the execution mesh, found "
            "another kind of layout");
  // A distributed over another mesh than the site's.
  s = seed::gemm_site();
  operand(s, "C").shard = shard(
      "(2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,128,64)",
      tf::mesh("thread", tf::IntTuple{2, 4, 8, 4}, "group", "warp", "lane8",
               "lane4"));
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::operand_layout, "C"),
            "operand C: distributed over Mesh(thread, (2,4,8,4):(128,32,4,1), "
            "group, warp, lane8, lane4), not over the site's mesh");
}

TEST(Wgmma, OperandLimit) {
  // A fragment start 8 bytes into the buffer.
  tf::Site s = seed::gemm_site();
  operand(s, "A").layout.offset = 4;
  tf::MatchReport r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::operand_limit, "A"),
            "operand A: start address % 16 == 0 fails (found 8) "
            "[PTX 9.7.15.5.1]");
}

TEST(Wgmma, TilesThatDoNotDecompose) {
  tf::Site s = seed::gemm_site();
  operand(s, "A").shape = tf::IntTuple{100, 64};
  operand(s, "C").shape = tf::IntTuple{100, 256};
  tf::MatchReport r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::tile_extent),
            "tile: M = 100 (operand A) is not a multiple of the atom's M = 64");
  EXPECT_FALSE(r.repeat.derived);
  s = seed::gemm_site();
  operand(s, "A").shape = tf::IntTuple{128, 72};
  operand(s, "B").shape = tf::IntTuple{72, 256};
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::tile_extent),
            "tile: K = 72 (operand A) is not a multiple of the atom's K = k = 16");
  s = seed::gemm_site();
  operand(s, "C").shape = tf::IntTuple{64, 256};
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::tile_mismatch),
            "tile: operand C has M = 64 but operand A has M = 128");
  // N = 260 with n = 256.
  s = seed::gemm_site();
  operand(s, "B").shape = tf::IntTuple{64, 260};
  operand(s, "C").shape = tf::IntTuple{128, 260};
  r = tf::match(W, s);
  EXPECT_EQ(line(r, W, ReasonKind::tile_extent),
            "tile: N = 260 (operand B) is not a multiple of the atom's N = n = 256");
}

TEST(Wgmma, WrittenRepeatMustBeDerived) {
  tf::Site s = seed::gemm_site();
  s.repeat = {2, 2, 4};
  tf::MatchReport r = tf::match(W, s);
  ASSERT_EQ(r.reasons.size(), 1u) << reasons(r, W);
  const tf::Reason *why = find(r, ReasonKind::repeat);
  ASSERT_TRUE(why);
  EXPECT_EQ(why->expected_shape, (tf::IntTuple{2, 1, 4}));
  EXPECT_EQ(tf::describe(*why, W), "repeat: written (2,2,4), derived (2,1,4)");
}

TEST(Wgmma, RepeatWithHalfN) {
  // n = 128: the 256 columns are two sequential N atoms; c = 16.
  tf::Site s = seed::gemm_site();
  set(s, tf::arg("n", 128));
  s.repeat = {2, 2, 4};
  tf::MatchReport r = tf::match(W, s);
  ASSERT_TRUE(r.accepted) << tf::describe(r, W);
  EXPECT_EQ(r.repeat.count[1], 2);
  EXPECT_EQ(r.repeat.spatial[1], 1);
  EXPECT_EQ(*r.fragment("C")->bindings.value("c"), 16);
  EXPECT_EQ(*r.fragment("B")->bindings.value("nb"), 2);
}

TEST(Wgmma, SingleAtom) {
  // One warpgroup, 64x64x16: repeat (1,1,1); M-major A, 64-byte swizzle.
  tf::Site s;
  s.mesh = one_group;
  s.params = {tf::arg("n", 64), tf::arg("dtype", tf::DType::f16),
              tf::arg("a_major", tf::choice("MN"))};
  s.operands = {
      tf::site_operand("A", {64, 16}, tf::DType::f16, tf::Storage::smem,
                       smem("((2,32),(2,8)):((512,1),(256,32)) | Swizzle(2,4,3)")),
      tf::site_operand("B", {16, 64}, tf::DType::f16, tf::Storage::smem,
                       smem("((2,8),64):((512,64),1) | Swizzle(3,4,3)")),
      tf::site_operand("C", {64, 64}, tf::DType::f32, tf::Storage::rmem,
                       shard("(4@warp,2,8@lane8,8,4@lane4,2):(16,8,1,512,128,64)",
                             one_group)),
  };
  tf::MatchReport r = tf::match(W, s);
  ASSERT_TRUE(r.accepted) << tf::describe(r, W);
  EXPECT_EQ(r.repeat.count[0] * r.repeat.count[1] * r.repeat.count[2], 1);
  EXPECT_EQ(*r.fragment("A")->bindings.value("mb"), 2);
  EXPECT_EQ(*r.fragment("A")->bindings.value("lbo"), 512);
  EXPECT_EQ(*r.fragment("A")->bindings.value("sbo"), 256);
  EXPECT_EQ(*r.bindings.leaves("g"), tf::IntTuple{});
}

TEST(Wgmma, RegisterA) {
  // Form RS: A is a register fragment of the warpgroup; B K-major 128-byte.
  tf::Site s;
  s.mesh = one_group;
  s.params = {tf::arg("n", 64), tf::arg("dtype", tf::DType::bf16),
              tf::arg("form", tf::choice("RS")), tf::arg("b_major", tf::choice("K"))};
  s.operands = {
      tf::site_operand("A", {64, 32}, tf::DType::bf16, tf::Storage::rmem,
                       shard("(4@warp,2,8@lane8,2,2,4@lane4,2):(16,8,1,1024,512,128,64)",
                             one_group)),
      tf::site_operand("B", {32, 64}, tf::DType::bf16, tf::Storage::smem,
                       smem("(32,(8,8)):(1,(512,64)) | Swizzle(3,4,3)")),
      tf::site_operand("C", {64, 64}, tf::DType::f32, tf::Storage::rmem,
                       shard("(4@warp,2,8@lane8,8,4@lane4,2):(16,8,1,512,128,64)",
                             one_group)),
  };
  tf::MatchReport r = tf::match(W, s);
  ASSERT_TRUE(r.accepted) << tf::describe(r, W);
  EXPECT_EQ(r.repeat.count[2], 2);
  EXPECT_EQ(tf::to_string(r.fragment("A")->rest), "(1,2):(0,1024)");
}

TEST(Wgmma, Fp8KMajor) {
  tf::Site s;
  s.mesh = seed::compute;
  s.params = {tf::arg("n", 256), tf::arg("dtype", tf::DType::fp8e4m3)};
  s.operands = {
      tf::site_operand("A", {128, 128}, tf::DType::fp8e4m3, tf::Storage::smem,
                       smem("((2,8,8),128):((8192,1024,128),1) | Swizzle(3,4,3)")),
      tf::site_operand("B", {128, 256}, tf::DType::fp8e4m3, tf::Storage::smem,
                       smem("(128,(32,8)):(1,(1024,128)) | Swizzle(3,4,3)")),
      tf::site_operand("C", {128, 256}, tf::DType::f32, tf::Storage::rmem,
                       seed::acc_layout()),
  };
  s.repeat = {2, 1, 4};
  tf::MatchReport r = tf::match(W, s);
  ASSERT_TRUE(r.accepted) << tf::describe(r, W);
  EXPECT_EQ(r.param("k")->integer, 32);
  EXPECT_EQ(r.param("a_major")->choice, "K");
  EXPECT_EQ(*r.fragment("A")->bindings.value("sbo"), 1024);
  EXPECT_EQ(*r.fragment("B")->bindings.value("sbo"), 1024);
}

// Which B dtypes go with an A dtype (what the runtime's wrapper generator
// enumerates): the two fp8 types mix, every other dtype pairs with itself.
TEST(Wgmma, BDtypes) {
  using tf::DType;
  using tf::ParamValue;
  using tf::atoms::nv::sm90::wgmma_b_dtypes;
  const tf::ParamValues fp8 = {ParamValue::of(DType::fp8e4m3),
                               ParamValue::of(DType::fp8e5m2)};
  EXPECT_EQ(wgmma_b_dtypes(DType::fp8e4m3), fp8);
  EXPECT_EQ(wgmma_b_dtypes(DType::fp8e5m2), fp8);
  for (DType t : {DType::bf16, DType::f16, DType::tf32})
    EXPECT_EQ(wgmma_b_dtypes(t), tf::ParamValues{ParamValue::of(t)}) << tf::name(t);
  static_assert(wgmma_b_dtypes(DType::bf16).size() == 1);
}

TEST(Wgmma, EveryReasonAtOnce) {
  tf::Site s = seed::gemm_site();
  s.mesh = seed::grid_cta;
  set(s, tf::arg("n", 260));
  operand(s, "A").storage = tf::Storage::gmem;
  static constexpr tf::Name none[] = {"cp.async"};
  s.capabilities = none;
  tf::MatchReport r = tf::match(W, s);
  EXPECT_TRUE(r.has(ReasonKind::capability));
  EXPECT_TRUE(r.has(ReasonKind::mesh));
  EXPECT_TRUE(r.has(ReasonKind::param_predicate, "n"));
  EXPECT_TRUE(r.has(ReasonKind::operand_storage, "A"));
  std::string text = tf::describe(r, W);
  EXPECT_EQ(text.rfind("refused  nv.sm90.Wgmma  n=260, dtype=bf16", 0), 0u) << text;
}

} // namespace
