//===- test/atoms/generic_sites_test.cpp - Copy, Cast, Binary at sites ----===//
//
// The H200 GEMM's epilogue through tf::match: the accumulator cast to bf16 in
// registers (generic.Cast), an element-wise add (generic.Binary) and the copy
// of the result to shared memory (generic.Copy); then every refusal kind that
// applies (no capability and no limits: these atoms have none).
//
//===----------------------------------------------------------------------===//
#include "site_checks.hpp"

#include "tf/atoms/generic/copy.hpp"
#include "tf/atoms/generic/elementwise.hpp"

namespace tf::test {
namespace {
namespace generic = tf::atoms::generic;
using K = ReasonKind;

const Contract &COPY = generic::copy;
const Contract &CAST = generic::cast;
const Contract &BIN = generic::binary;

/// The H200 GEMM's accumulator over the compute mesh (128 x 256 f32).
constexpr ShardLayout acc =
    shard("(2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,128,64)",
          compute);
/// The epilogue's copy of the bf16 tile from registers to the staging slot.
Site copy_site() {
  Site s;
  s.mesh = compute;
  s.params = {arg("dtype", DType::bf16)};
  s.operands = {site_operand("src", {128, 256}, DType::bf16, Storage::rmem, acc),
                site_operand("dst", {128, 256}, DType::bf16, Storage::smem,
                             composed("(128,256):(256,1) + 32768"))};
  s.check_capabilities = true;
  s.capabilities = sm90_caps;
  return s;
}

/// The epilogue's `cast<bf16>(acc)`.
Site cast_site() {
  Site s;
  s.mesh = compute;
  s.params = {arg("from", DType::f32), arg("to", DType::bf16)};
  s.operands = {site_operand("src", {128, 256}, DType::f32, Storage::rmem, acc),
                site_operand("dst", {128, 256}, DType::bf16, Storage::rmem, acc)};
  return s;
}

/// acc + bias, both distributed alike.
Site binary_site() {
  Site s;
  s.mesh = compute;
  s.params = {arg("op", choice("add")), arg("dtype", DType::f32)};
  s.operands = {site_operand("lhs", {128, 256}, DType::f32, Storage::rmem, acc),
                site_operand("rhs", {128, 256}, DType::f32, Storage::rmem, acc),
                site_operand("out", {128, 256}, DType::f32, Storage::rmem, acc)};
  return s;
}

TEST(CopySite, EpilogueAccepted) {
  MatchReport r = match(COPY, copy_site());
  ASSERT_TRUE(r.accepted) << describe(r, COPY);
  // The chosen alternatives: src in registers, dst in shared memory.
  EXPECT_EQ(COPY.operands[r.fragment("src")->pattern].storage, Storage::rmem);
  EXPECT_EQ(COPY.operands[r.fragment("dst")->pattern].storage, Storage::smem);
  // No capability needed: an empty capability list still accepts.
  Site s = copy_site();
  s.capabilities = {};
  EXPECT_TRUE(match(COPY, s).accepted);
  // gmem -> rmem and smem -> gmem, with and without layouts.
  s = copy_site();
  operand(s, "src").storage = Storage::gmem;
  operand(s, "dst").storage = Storage::rmem;
  EXPECT_TRUE(match(COPY, s).accepted);
  s = copy_site();
  operand(s, "src") = site_operand("src", {128, 256}, DType::bf16, Storage::smem);
  operand(s, "dst") = site_operand("dst", {128, 256}, DType::bf16, Storage::gmem);
  EXPECT_TRUE(match(COPY, s).accepted);
}

// `(*s)` binds once per site (test/contracts/engine_test.cpp,
// ShapesBindSymbolsConsistently): src and dst of a copy have one shape.
TEST(CopySite, ShapesShared) {
  Site s = copy_site();
  operand(s, "dst") = site_operand("dst", {256, 128}, DType::bf16, Storage::smem);
  MatchReport r = match(COPY, s);
  EXPECT_EQ(all_reasons(r, COPY),
            "  operand dst: shape (256,128) does not fit (*s) = (128,256) "
            "bound by operand src\n");
  // The same shape written twice, one without a layout: accepted.
  operand(s, "dst").shape = IntTuple{128, 256};
  EXPECT_TRUE(match(COPY, s).accepted) << describe(match(COPY, s), COPY);
}

TEST(CastSite, SeedCastAccepted) {
  MatchReport r = match(CAST, cast_site());
  ASSERT_TRUE(r.accepted) << describe(r, CAST);
  Site s = cast_site(); // i32 -> f32, one thread
  s.mesh = threads.sub(0, range(0, 1));
  s.params = {arg("from", DType::i32), arg("to", DType::f32)};
  s.operands = {site_operand("src", {4}, DType::i32, Storage::rmem, make_layout(IntTuple{4})),
                site_operand("dst", {4}, DType::f32, Storage::rmem, make_layout(IntTuple{4}))};
  EXPECT_TRUE(match(CAST, s).accepted) << describe(match(CAST, s), CAST);
}

TEST(BinarySite, AddAccepted) {
  MatchReport r = match(BIN, binary_site());
  ASSERT_TRUE(r.accepted) << describe(r, BIN);
  for (const char *op : {"sub", "mul", "max", "min"}) {
    Site s = binary_site();
    set_param(s, arg("op", choice(op)));
    EXPECT_TRUE(match(BIN, s).accepted) << op;
  }
}

const Refusal copy_refusals[] = {
    {"MeshCtaLevel", &COPY,
     [] {
       Site s = copy_site();
       s.mesh = mesh("cta", IntTuple{64, 68}, "bm", "bn");
       operand(s, "src").kind = OperandLayoutKind::none;
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(cta, (64,68):(68,1), bm, bn) does not match Mesh(thread, (*g):(*gs) + p0): level cta is not thread"},
    {"ParamMissingDtype", &COPY,
     [] {
       Site s = copy_site();
       drop_param(s, "dtype");
       return s;
     },
     K::param_missing, "dtype", 
     "parameter dtype: no value given and no default"},
    {"ParamTypeDtypeAsInteger", &COPY,
     [] {
       Site s = copy_site();
       set_param(s, arg("dtype", 16));
       return s;
     },
     K::param_type, "dtype", 
     "parameter dtype: 16 is an integer, expected a dtype"},
    {"ParamUnknown", &COPY,
     [] {
       Site s = copy_site();
       set_param(s, arg("vector", 8));
       return s;
     },
     K::param_unknown, "vector", 
     "parameter vector: not a parameter of generic.Copy (it has dtype)"},
    {"OperandMissingDst", &COPY,
     [] {
       Site s = copy_site();
       drop_operand(s, "dst");
       return s;
     },
     K::operand_missing, "dst", 
     "operand dst: missing (expected shape=(*s) storage=gmem, smem or rmem)"},
    {"OperandUnknown", &COPY,
     [] {
       Site s = copy_site();
       s.operands.push_back(site_operand("mask", {128, 256}, DType::u8, Storage::rmem));
       return s;
     },
     K::operand_unknown, "mask", 
     "operand mask: not an operand of generic.Copy"},
    {"OperandDtypeIsACast", &COPY,
     [] {
       Site s = copy_site();
       operand(s, "src").dtype = DType::f32;
       return s;
     },
     K::operand_dtype, "src", 
     "operand src: dtype f32, expected bf16 (dtype=bf16)"},
    {"OperandStorageAmxTile", &COPY,
     [] {
       Site s = copy_site();
       operand(s, "dst").storage = Storage::amx_tile;
       return s;
     },
     K::operand_storage, "dst", 
     "operand dst: storage amx_tile, expected gmem, smem or rmem"},
    {"OperandShapeDstNotSrc", &COPY,
     [] {
       Site s = copy_site();
       operand(s, "dst") = site_operand("dst", {128, 128}, DType::bf16, Storage::smem,
                                        composed("(128,128):(128,1) + 32768"));
       return s;
     },
     K::operand_shape, "dst",
     "operand dst: shape (128,128) does not fit (*s) = (128,256) bound by operand src"},
};
INSTANTIATE_TEST_SUITE_P(Copy, RefusedSite, testing::ValuesIn(copy_refusals),
                         refusal_name);

const Refusal cast_refusals[] = {
    {"MeshCtaLevel", &CAST,
     [] {
       Site s = cast_site();
       s.mesh = mesh("cta", IntTuple{64, 68}, "bm", "bn");
       for (SiteOperand &o : s.operands) { // no ShardLayout over CTAs
         o.kind = OperandLayoutKind::layout;
         o.layout = ComposedLayout{{}, Int(0), make_layout(IntTuple{128, 256})};
       }
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(cta, (64,68):(68,1), bm, bn) does not match Mesh(thread, (*g):(*gs) + p0): level cta is not thread"},
    {"ParamFromFp8", &CAST,
     [] {
       Site s = cast_site();
       set_param(s, arg("from", DType::fp8e4m3));
       operand(s, "src").dtype = DType::fp8e4m3;
       return s;
     },
     K::param_predicate, "from", 
     "parameter from: fp8e4m3 violates from in {f64, f32, tf32, bf16, f16, i32, i8, u8}"},
    {"ParamToFp8", &CAST,
     [] {
       Site s = cast_site();
       set_param(s, arg("to", DType::fp8e5m2));
       operand(s, "dst").dtype = DType::fp8e5m2;
       return s;
     },
     K::param_predicate, "to", 
     "parameter to: fp8e5m2 violates to in {f64, f32, tf32, bf16, f16, i32, i8, u8}"},
    {"ParamMissingTo", &CAST,
     [] {
       Site s = cast_site();
       drop_param(s, "to");
       return s;
     },
     K::param_missing, "to", 
     "parameter to: no value given and no default"},
    {"ParamTypeToAsChoice", &CAST,
     [] {
       Site s = cast_site();
       set_param(s, arg("to", choice("bf16")));
       return s;
     },
     K::param_type, "to", 
     "parameter to: bf16 is a choice, expected a dtype"},
    {"ParamUnknownRounding", &CAST,
     [] {
       Site s = cast_site();
       set_param(s, arg("rounding", choice("rz")));
       return s;
     },
     K::param_unknown, "rounding", 
     "parameter rounding: not a parameter of generic.Cast (it has from, to)"},
    {"OperandMissingDst", &CAST,
     [] {
       Site s = cast_site();
       drop_operand(s, "dst");
       return s;
     },
     K::operand_missing, "dst", 
     "operand dst: missing (expected shape=(*s) storage=rmem)"},
    {"OperandUnknown", &CAST,
     [] {
       Site s = cast_site();
       s.operands.push_back(site_operand("scale", {1}, DType::f32, Storage::rmem));
       return s;
     },
     K::operand_unknown, "scale", 
     "operand scale: not an operand of generic.Cast"},
    {"OperandDtypeDst", &CAST,
     [] {
       Site s = cast_site();
       operand(s, "dst").dtype = DType::f16;
       return s;
     },
     K::operand_dtype, "dst", 
     "operand dst: dtype f16, expected bf16 (to=bf16)"},
    {"OperandStorageSmem", &CAST,
     [] {
       Site s = cast_site();
       const Layout tile = make_layout(IntTuple{128, 256});
       operand(s, "src") = site_operand("src", {128, 256}, DType::f32, Storage::smem, tile);
       operand(s, "dst") = site_operand("dst", {128, 256}, DType::bf16, Storage::rmem, tile);
       return s;
     },
     K::operand_storage, "src", 
     "operand src: storage smem, expected rmem"},
    {"OperandLayoutDiffers", &CAST,
     [] {
       Site s = cast_site();
       operand(s, "dst").shard =
           shard("(2@group,4@warp,2,8@lane8,32,4@lane4,2):(8192,16,8,1,512,128,64)",
                 compute);
       return s;
     },
     K::operand_layout, "dst", 
     "operand dst: its layout differs from operand src's"},
    {"OperandShapeDstNotSrc", &CAST,
     [] {
       Site s = cast_site();
       operand(s, "dst") = site_operand("dst", {256, 128}, DType::bf16, Storage::rmem);
       return s;
     },
     K::operand_shape, "dst",
     "operand dst: shape (256,128) does not fit (*s) = (128,256) bound by operand src"},
};
INSTANTIATE_TEST_SUITE_P(Cast, RefusedSite, testing::ValuesIn(cast_refusals),
                         refusal_name);

const Refusal binary_refusals[] = {
    {"MeshCoreLevel", &BIN,
     [] {
       Site s = binary_site();
       s.mesh = cores;
       for (SiteOperand &o : s.operands) { // no ShardLayout over cores
         o.kind = OperandLayoutKind::layout;
         o.layout = ComposedLayout{{}, Int(0), make_layout(IntTuple{128, 256})};
       }
       return s;
     },
     K::mesh, "", 
     "mesh: Mesh(core, (16):(1)) does not match Mesh(thread, (*g):(*gs) + p0): level core is not thread"},
    {"ParamOpDiv", &BIN,
     [] {
       Site s = binary_site();
       set_param(s, arg("op", choice("div")));
       return s;
     },
     K::param_predicate, "op", 
     "parameter op: BinaryOp.div violates op in {BinaryOp.add, BinaryOp.sub, BinaryOp.mul, BinaryOp.max, BinaryOp.min}"},
    {"ParamDtypeI8", &BIN,
     [] {
       Site s = binary_site();
       set_param(s, arg("dtype", DType::i8));
       for (SiteOperand &o : s.operands)
         o.dtype = DType::i8;
       return s;
     },
     K::param_predicate, "dtype", 
     "parameter dtype: i8 violates dtype in {f64, f32, bf16, f16, i32}"},
    {"ParamTypeOpAsDtype", &BIN,
     [] {
       Site s = binary_site();
       set_param(s, arg("op", DType::f32));
       return s;
     },
     K::param_type, "op", 
     "parameter op: f32 is a dtype, expected a choice"},
    {"ParamMissingOp", &BIN,
     [] {
       Site s = binary_site();
       drop_param(s, "op");
       return s;
     },
     K::param_missing, "op", 
     "parameter op: no value given and no default"},
    {"ParamUnknown", &BIN,
     [] {
       Site s = binary_site();
       set_param(s, arg("saturate", 1));
       return s;
     },
     K::param_unknown, "saturate", 
     "parameter saturate: not a parameter of generic.Binary (it has op, dtype)"},
    {"OperandMissingRhs", &BIN,
     [] {
       Site s = binary_site();
       drop_operand(s, "rhs");
       return s;
     },
     K::operand_missing, "rhs", 
     "operand rhs: missing (expected shape=(*s) storage=rmem)"},
    {"OperandUnknown", &BIN,
     [] {
       Site s = binary_site();
       s.operands.push_back(site_operand("bias", {256}, DType::f32, Storage::rmem));
       return s;
     },
     K::operand_unknown, "bias", 
     "operand bias: not an operand of generic.Binary"},
    {"OperandDtypeRhs", &BIN,
     [] {
       Site s = binary_site();
       operand(s, "rhs").dtype = DType::bf16;
       return s;
     },
     K::operand_dtype, "rhs", 
     "operand rhs: dtype bf16, expected f32 (dtype=f32)"},
    {"OperandStorageOut", &BIN,
     [] {
       Site s = binary_site();
       operand(s, "out").storage = Storage::smem;
       return s;
     },
     K::operand_storage, "out", 
     "operand out: storage smem, expected rmem"},
    {"OperandLayoutRhsOnOtherUnits", &BIN,
     [] {
       Site s = binary_site();
       operand(s, "rhs").shard =
           shard("(2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,128,64)",
                 threads.sub(range(0, 2), _).reshape(IntTuple{2, 4, 8, 4}, "group",
                                                     "warp", "lane8", "lane4"));
       return s;
     },
     K::operand_layout, "rhs", 
     "operand rhs: distributed over Mesh(thread, (2,4,8,4):(128,32,4,1), group, warp, lane8, lane4), not over the site's mesh"},
    {"OperandLayoutOutDiffers", &BIN,
     [] {
       Site s = binary_site();
       operand(s, "out").shard =
           shard("(2@group,4@warp,2,8@lane8,32,4@lane4,2):(16384,16,8,1,512,64,128)",
                 compute);
       return s;
     },
     K::operand_layout, "out", 
     "operand out: its layout differs from operand lhs's"},
    {"OperandShapeRhsNotLhs", &BIN,
     [] {
       Site s = binary_site();
       operand(s, "rhs") = site_operand("rhs", {128, 1}, DType::f32, Storage::rmem);
       return s;
     },
     K::operand_shape, "rhs",
     "operand rhs: shape (128,1) does not fit (*s) = (128,256) bound by operand lhs"},
    {"OperandShapeOutNotLhs", &BIN,
     [] {
       Site s = binary_site();
       operand(s, "out") = site_operand("out", {128, 256, 2}, DType::f32, Storage::rmem);
       return s;
     },
     K::operand_shape, "out",
     "operand out: shape (128,256,2) does not fit (*s) = (128,256) bound by operand lhs"},
    {"OperandShapeLhsWithoutLayoutStillBinds", &BIN,
     [] {
       Site s = binary_site();
       operand(s, "lhs") = site_operand("lhs", {64, 256}, DType::f32, Storage::rmem);
       return s;
     },
     K::operand_shape, "rhs",
     "operand rhs: shape (128,256) does not fit (*s) = (64,256) bound by operand lhs", 2},
};
INSTANTIATE_TEST_SUITE_P(Binary, RefusedSite, testing::ValuesIn(binary_refusals),
                         refusal_name);

} // namespace
} // namespace tf::test
