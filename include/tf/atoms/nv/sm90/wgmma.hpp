//===- tf/atoms/nv/sm90/wgmma.hpp - The WGMMA contract --------------------===//
//
// nv.sm90.Wgmma: wgmma.mma_async.sync.aligned.m64nNkK, D = A x B + D, issued
// by one warpgroup (128 threads), A from shared memory (form SS) or
// registers (RS), B from shared memory, the f32 accumulator in registers.
// `tf facts nv.sm90.Wgmma` prints this contract.
//
// Sources (PTX ISA 8.x, "Asynchronous Warpgroup Level Matrix Multiply-
// Accumulate Instructions", section 9.7.15 -- numbers as in PTX ISA 8.5):
//  - 9.7.15.2  matrix shapes: m64nNk16 for .f16/.bf16 (N = 8..256 step 8),
//    m64nNk32 for .e4m3/.e5m2, m64nNk8 for .tf32;
//  - 9.7.15.5.1.1 register fragments: A (.m64nNk16 / k32 / k8) and the
//    accumulator D; 9.7.15.5.1.2 shared memory matrix layout: the canonical
//    K-major and MN-major layouts for no swizzle ("interleave") and the
//    32/64/128-byte swizzle modes, LBO and SBO; start addresses 16-byte
//    aligned; "imm-trans" (MN-major) only for .f16/.bf16;
//  - 9.7.15.5.2 wgmma.mma_async: A from registers is K-major only.
// Cross-checked with CuTe (cute/atom/mma_traits_sm90_gmma.hpp: CLayout_64xN,
// ALayout_64x16/64x32/64x8; cute/arch/mma_sm90_desc.hpp: the canonical
// layouts in units of 16 bytes; Layout_K_SW128_Atom etc.) through φ.
//
// Conventions (docs/contracts/engine.md):
//  - fragments are ShardLayouts from the operand's logical coordinate to a
//    codomain index that is column-major *within one atom*: element (m, j)
//    of the 64 x N accumulator is m + 64 * j, element (m, kk) of A is
//    m + 64 * kk. Thread t = 32 * warp + 4 * lane8 + lane4 of the execution
//    mesh ((4,8,4)):((32,4,1)) + p0 holds D rows 16 warp + 8 h + lane8 and
//    columns 8 j + 2 lane4 + e (h, e < 2; j < N/8): the layout
//    (4,2,8,c,4,2):(16,8,1,512,128,64) with leaves 0, 2, 4 bound to the
//    mesh and c = N/8. Its local leaves are (h, j, e) in written order; PTX
//    numbers the registers d[4 j + 2 h + e], which c_regs states as the
//    register strides (2, 4, 1) (LayoutPattern::register_strides).
//  - shared-memory layouts are tf layouts (lexicographic) of the operand's
//    logical shape, A (M,K) and B (K,N), in elements, under a swizzle on
//    byte offsets; `sbo`/`lbo` (element strides) and the start `a0`/`b0`
//    bind by unification; T = 16 bytes / element size, the atom's K is 2T.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/nv/mma_patterns.hpp"
#include "tf/contract/contract.hpp"
#include "tf/layout/mesh_predicate.hpp"
#include "tf/layout/swizzle.hpp"

namespace tf::atoms::nv::sm90 {

namespace wgmma_detail {

using namespace tf::atoms::nv::mma;

inline constexpr Swizzle none = swizzle_for(SwizzleMode::none);
inline constexpr Swizzle sw32 = swizzle_for(SwizzleMode::bytes32);
inline constexpr Swizzle sw64 = swizzle_for(SwizzleMode::bytes64);
inline constexpr Swizzle sw128 = swizzle_for(SwizzleMode::bytes128);

/// One warpgroup: 128 consecutive threads, 4 warps x 8 x 4, starting at a
/// multiple of 128; `*g` are further warpgroups running further atoms.
/// PTX 9.7.15.1 (warpgroup: four contiguous warps, the first warp's rank a
/// multiple of 4).
inline constexpr Mesh execution_mesh =
    mesh_pattern("thread", "((*g,4,8,4)):((*gs,32,4,1)) + p0");
/// One warpgroup, as the fragments are distributed over it.
inline constexpr Mesh warpgroup =
    mesh_pattern("thread", "((4,8,4)):((32,4,1)) + p0");

//===- Parameters ----------------------------------------------------------===//

inline constexpr ParamCase a_major_cases[] = {
    either({is("dtype", DType::bf16), is("form", "SS")}, {value("MN"), value("K")}, value("MN")),
    only({is("dtype", DType::bf16), is("form", "RS")}, {value("K")}),
    either({is("dtype", DType::f16), is("form", "SS")}, {value("MN"), value("K")}, value("MN")),
    only({is("dtype", DType::f16), is("form", "RS")}, {value("K")}),
    only({is("dtype", DType::fp8e4m3)}, {value("K")}),
    only({is("dtype", DType::fp8e5m2)}, {value("K")}),
    only({is("dtype", DType::tf32)}, {value("K")}),
};

inline constexpr ParamCase b_major_cases[] = {
    either({is("dtype", DType::bf16)}, {value("MN"), value("K")}, value("MN")),
    either({is("dtype", DType::f16)}, {value("MN"), value("K")}, value("MN")),
    only({is("dtype", DType::fp8e4m3)}, {value("K")}),
    only({is("dtype", DType::fp8e5m2)}, {value("K")}),
    only({is("dtype", DType::tf32)}, {value("K")}),
};

/// K of one instruction: 32 bytes of A's row. PTX 9.7.15.2.
inline constexpr ParamCase k_cases[] = {
    only({is("dtype", DType::bf16)}, {value(std::int64_t(16))}),
    only({is("dtype", DType::f16)}, {value(std::int64_t(16))}),
    only({is("dtype", DType::fp8e4m3)}, {value(std::int64_t(32))}),
    only({is("dtype", DType::fp8e5m2)}, {value(std::int64_t(32))}),
    only({is("dtype", DType::tf32)}, {value(std::int64_t(8))}),
};

/// B's dtype beside A's. The contract gives A and B the one `dtype`
/// (operand B's rule is dtype_of("dtype")), and that is what tf::schedule
/// and the matching engine check. The instruction also multiplies the two
/// 8-bit float types with each other (PTX 9.7.15.2: .atype and .btype are
/// each .e4m3 or .e5m2); these cases say which dtypes B may have when A has
/// `dtype`, for programs that enumerate the instruction's forms (the
/// runtime's wrapper generator, runtime/tools/gen_wgmma.cpp). Where no case
/// holds, B has A's dtype. Read through wgmma_b_dtypes() below.
inline constexpr ParamCase b_dtype_cases[] = {
    only({is("dtype", DType::fp8e4m3)}, {value(DType::fp8e4m3), value(DType::fp8e5m2)}),
    only({is("dtype", DType::fp8e5m2)}, {value(DType::fp8e4m3), value(DType::fp8e5m2)}),
};

constexpr ParamDef n_param() {
  ParamDef d;
  d.name = "n";
  d.kind = ParamKind::integer;
  d.has_range = true;
  d.lo = 8;
  d.hi = 256;
  d.step = 8;
  return d;
}

constexpr ParamDef form_param() {
  ParamDef d;
  d.name = "form";
  d.kind = ParamKind::choice;
  d.choice_type = "Form";
  d.allowed = {value("SS"), value("RS")};
  d.has_default = true;
  d.default_value = value("SS");
  return d;
}

constexpr ParamDef major_param(Name name, List<ParamCase> cases) {
  ParamDef d;
  d.name = name;
  d.kind = ParamKind::choice;
  d.choice_type = "Major";
  d.allowed = {value("MN"), value("K")};
  d.cases = cases;
  return d;
}

constexpr ParamDef k_param() {
  ParamDef d;
  d.name = "k";
  d.kind = ParamKind::integer;
  d.cases = k_cases;
  d.derived = true;
  return d;
}

inline constexpr ParamDef params[] = {
    n_param(),
    ParamDef::dtype("dtype", {value(DType::bf16), value(DType::f16),
                              value(DType::fp8e4m3), value(DType::fp8e5m2),
                              value(DType::tf32)}),
    form_param(),
    major_param("a_major", a_major_cases),
    major_param("b_major", b_major_cases),
    k_param(),
};

//===- Shared-memory layouts (PTX 9.7.15.5.1.2) ----------------------------===//
//
// CuTe's canonical GMMA layouts (colexicographic, T = elements per 16 B)
//   K-major   INTERLEAVE ((8,m),(T,2k)):((1T,SBO),(1,LBO))
//             SW32/64/128 ((8,m),(T,2k)):((2T|4T|8T,SBO),(1,T))
//   MN-major  INTERLEAVE ((T,1,m),(8,k)):((1,T,SBO),(1T,LBO))
//             SW32/64/128 ((T,2|4|8,m),(8,k)):((1,T,LBO),(2T|4T|8T,SBO))
// read through φ (reverse every tuple) and written for the operand's logical
// shape: A (M,K) = (64,2T), B (K,N) = (2T,n). In a K-major swizzled layout
// rows of K are 32/64/128 bytes apart (2T/4T/8T elements) and 8 rows form
// one swizzle atom, the next 8 rows `sbo` further; without swizzle each
// 8x16-byte core matrix is dense, the next along K `lbo` further. MN-major
// runs are 32/64/128 bytes of M (or N), the next run `lbo` further, and 8
// rows of K are one atom, the next 8 `sbo` further. `mb`/`nb` count the
// runs (solved from the mode's size).

#define TF_WGMMA_K_MAJOR(op, kv, T, T2, T4, T8, start)                          \
  smem("((8,8),(2," #T ")):((sbo," #T "),(lbo,1))", none, start,               \
       {is(op "_major", "K"), is("k", std::int64_t(kv))}, "PTX 9.7.15.5.1.2"), \
      smem("((8,8)," #T2 "):((sbo," #T2 "),1)", sw32, start,                  \
           {is(op "_major", "K"), is("k", std::int64_t(kv))},                  \
           "PTX 9.7.15.5.1.2 SW32"),                                           \
      smem("((8,8)," #T2 "):((sbo," #T4 "),1)", sw64, start,                  \
           {is(op "_major", "K"), is("k", std::int64_t(kv))},                  \
           "PTX 9.7.15.5.1.2 SW64"),                                           \
      smem("((8,8)," #T2 "):((sbo," #T8 "),1)", sw128, start,                 \
           {is(op "_major", "K"), is("k", std::int64_t(kv))},                  \
           "PTX 9.7.15.5.1.2 SW128")

#define TF_WGMMA_K_MAJOR_B(kv, T, T2, T4, T8)                                   \
  smem("((2," #T "),(nb,8)):((lbo,1),(sbo," #T "))", none, "b0",               \
       {is("b_major", "K"), is("k", std::int64_t(kv))}, "PTX 9.7.15.5.1.2"),   \
      smem("(" #T2 ",(nb,8)):(1,(sbo," #T2 "))", sw32, "b0",                  \
           {is("b_major", "K"), is("k", std::int64_t(kv))},                    \
           "PTX 9.7.15.5.1.2 SW32"),                                           \
      smem("(" #T2 ",(nb,8)):(1,(sbo," #T4 "))", sw64, "b0",                  \
           {is("b_major", "K"), is("k", std::int64_t(kv))},                    \
           "PTX 9.7.15.5.1.2 SW64"),                                           \
      smem("(" #T2 ",(nb,8)):(1,(sbo," #T8 "))", sw128, "b0",                 \
           {is("b_major", "K"), is("k", std::int64_t(kv))},                    \
           "PTX 9.7.15.5.1.2 SW128")

/// A (M,K) = (64,k) in shared memory.
inline constexpr LayoutPattern a_smem[] = {
    // K-major, 16-bit (T = 8): ((8,8),16):((sbo,64),1) | Swizzle(3,4,3) ...
    TF_WGMMA_K_MAJOR("a", 16, 8, 16, 32, 64, "a0"),
    // K-major, 8-bit (T = 16).
    TF_WGMMA_K_MAJOR("a", 32, 16, 32, 64, 128, "a0"),
    // K-major, tf32 (T = 4).
    TF_WGMMA_K_MAJOR("a", 8, 4, 8, 16, 32, "a0"),
    // M-major (16-bit only): runs of M.
    smem("((mb,64),(2,8)):((lbo,1),(sbo,64))", sw128, "a0", {is("a_major", "MN")}, "PTX 9.7.15.5.1.2 SW128"),
    smem("((mb,32),(2,8)):((lbo,1),(sbo,32))", sw64, "a0", {is("a_major", "MN")}, "PTX 9.7.15.5.1.2 SW64"),
    smem("((mb,16),(2,8)):((lbo,1),(sbo,16))", sw32, "a0", {is("a_major", "MN")}, "PTX 9.7.15.5.1.2 SW32"),
    smem("((mb,8),(2,8)):((sbo,1),(lbo,8))", none, "a0", {is("a_major", "MN")}, "PTX 9.7.15.5.1.2"),
};

/// B (K,N) = (k,n) in shared memory.
inline constexpr LayoutPattern b_smem[] = {
    TF_WGMMA_K_MAJOR_B(16, 8, 16, 32, 64),
    TF_WGMMA_K_MAJOR_B(32, 16, 32, 64, 128),
    TF_WGMMA_K_MAJOR_B(8, 4, 8, 16, 32),
    // N-major (16-bit only): the H200 GEMM's B tile
    // ((4,2,8),(4,64)):((4096,512,64),(1024,1)) | Swizzle(3,4,3) is this with
    // nb = 4, sbo = 512, lbo = 1024.
    smem("((2,8),(nb,64)):((sbo,64),(lbo,1))", sw128, "b0", {is("b_major", "MN")}, "PTX 9.7.15.5.1.2 SW128"),
    smem("((2,8),(nb,32)):((sbo,32),(lbo,1))", sw64, "b0", {is("b_major", "MN")}, "PTX 9.7.15.5.1.2 SW64"),
    smem("((2,8),(nb,16)):((sbo,16),(lbo,1))", sw32, "b0", {is("b_major", "MN")}, "PTX 9.7.15.5.1.2 SW32"),
    smem("((2,8),(nb,8)):((lbo,8),(sbo,1))", none, "b0", {is("b_major", "MN")}, "PTX 9.7.15.5.1.2"),
};

#undef TF_WGMMA_K_MAJOR
#undef TF_WGMMA_K_MAJOR_B

//===- Register fragments (PTX 9.7.15.5.1.1) -------------------------------===//

/// A in registers (form RS, K-major): each warp holds 16 rows, thread
/// (lane8, lane4) rows lane8 and lane8 + 8, columns as in mma.m16n8k*:
///  16-bit: col 8 kk + 2 lane4 + e  -> (4,2,8,2,4,2):(16,8,1,512,128,64)
///  8-bit:  col 16 kk + 4 lane4 + e -> (4,2,8,2,4,4):(16,8,1,1024,256,64)
///  tf32:   col 4 kk + lane4        -> (4,2,8,2,4):(16,8,1,256,64)
/// (codomain m + 64 * col).
inline constexpr LayoutPattern a_regs[] = {
    fragment("(4@0,2,8@1,2,4@2,2):(16,8,1,512,128,64)", warpgroup,
             {is("k", std::int64_t(16))}, "PTX 9.7.15.5.1.1 A k16"),
    fragment("(4@0,2,8@1,2,4@2,4):(16,8,1,1024,256,64)", warpgroup,
             {is("k", std::int64_t(32))}, "PTX 9.7.15.5.1.1 A k32"),
    fragment("(4@0,2,8@1,2,4@2):(16,8,1,256,64)", warpgroup,
             {is("k", std::int64_t(8))}, "PTX 9.7.15.5.1.1 A k8"),
};

/// The accumulator D (64 x n, f32), in make_shard_modes' form
/// ShardLayout(Layout((4,2,8,c,4,2),(16,8,1,512,128,64)), (S(0),S(2),S(4)), ...).
///
/// Its registers: the layout's local leaves are (h, j, e) -- row 8 h, column
/// 8 j + e of the thread's base -- and the shard's own local index, read in
/// written order, would be h * 2c + j * 2 + e. PTX lists the instruction's
/// d operands the other way (the figure "WGMMA .m64nNk16 register fragment
/// layout for accumulator matrix D", the same for k8 and k32): thread
/// (warp, lane8, lane4) holds d[4 j + 2 h + e] at row 16 warp + 8 h + lane8,
/// column 8 j + 2 lane4 + e -- two adjacent columns, then the row 8 lower,
/// then the next 8 columns (CuTe's CLayout_64xN agrees: its value mode
/// (2,2,N/8):(64,8,512) is colexicographic over (e, h, j)). So the register
/// numbering is data here, strides (2, 4, 1) over (h, j, e), rather than the
/// modes reordered to (j, h, e): the written order is what `tf facts`, the
/// HIR and the lowered form print for every accumulator.
inline constexpr LayoutPattern c_regs[] = {
    fragment("(4@0,2,8@1,c,4@2,2):(16,8,1,512,128,64)", warpgroup, {},
             "PTX 9.7.15.5.1.1 D", {2, 4, 1}),
};

//===- Operands ------------------------------------------------------------===//

constexpr OperandPattern operand(Name name, Conditions when, Access access,
                                 std::string_view shape_text, DTypeRule dtype,
                                 Storage storage, List<LayoutPattern> layouts,
                                 FixedVector<int, 4> atom_modes) {
  OperandPattern o;
  o.name = name;
  o.when = when;
  o.access = access;
  o.shape = shape(shape_text);
  o.dtype = dtype;
  o.storage = storage;
  o.layouts = layouts;
  o.atom_modes = atom_modes;
  return o;
}

inline constexpr OperandPattern operands[] = {
    operand("A", {is("form", "SS")}, Access::read, "(64,k)", dtype_of("dtype"),
            Storage::smem, a_smem, {0, 2}),
    operand("A", {is("form", "RS")}, Access::read, "(64,k)", dtype_of("dtype"),
            Storage::rmem, a_regs, {0, 2}),
    operand("B", {}, Access::read, "(k,n)", dtype_of("dtype"), Storage::smem,
            b_smem, {2, 1}),
    operand("C", {}, Access::read_write, "(64,n)", dtype_fixed(DType::f32),
            Storage::rmem, c_regs, {0, 1}),
};

/// Shared-memory matrix start addresses are 16-byte aligned (PTX
/// 9.7.15.5.1: "their starting addresses must be aligned to 16 bytes"),
/// for every atom's fragment of a tile.
inline constexpr OperandLimit limits[] = {
    {"A", OperandLimit::Kind::base_align_bytes, 0, 16, {}, "PTX 9.7.15.5.1"},
    {"B", OperandLimit::Kind::base_align_bytes, 0, 16, {}, "PTX 9.7.15.5.1"},
};

constexpr Contract make() {
  Contract c;
  c.id = "nv.sm90.Wgmma";
  c.kind = AtomKind::mma;
  c.capability = "wgmma.mma_async";
  c.execution_mesh.mesh = execution_mesh;
  c.execution_mesh.predicates = {no_backward_step(), each_slot_once(),
                                 offset_multiple_of(128, "p0")};
  c.params = params;
  c.operands = operands;
  c.limits = limits;
  c.atom_shape = IntTuple{64, Int::symbolic("n"), Int::symbolic("k")};
  return c;
}

} // namespace wgmma_detail

/// The contract of nv.sm90.Wgmma.
inline constexpr Contract wgmma = wgmma_detail::make();

/// The dtypes operand B of wgmma.mma_async may have when A has dtype `a`
/// (the contract's `dtype` parameter): the first of
/// wgmma_detail::b_dtype_cases whose conditions on `dtype` hold, else `a`.
constexpr ParamValues wgmma_b_dtypes(DType a) {
  for (const ParamCase &c : wgmma_detail::b_dtype_cases) {
    bool holds = true;
    for (const Condition &w : c.when)
      holds = holds && w.param == "dtype" && w.value == ParamValue::of(a);
    if (holds)
      return c.allowed;
  }
  return {ParamValue::of(a)};
}

} // namespace tf::atoms::nv::sm90
