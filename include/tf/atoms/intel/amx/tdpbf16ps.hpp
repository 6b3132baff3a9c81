//===- tf/atoms/intel/amx/tdpbf16ps.hpp - TDPBF16PS contract --------------===//
//
// intel.amx.Tdpbf16ps: TDPBF16PS tmm1, tmm2, tmm3 (Intel SDM Vol. 2,
// TDPBF16PS; Intel Intrinsics Guide, _tile_dpbf16ps):
//   C[m][n] (f32) += sum_k A[m][k] (bf16) * B[k][n] (bf16)
// with C = tmm1 (m rows, 4n bytes), A = tmm2 (m rows, 2k bytes) and B = tmm3
// VNNI-packed: the SDM's operation reads
//   tmp.fp32[n] += A.row[m].bf16[2kk+h] * B.row[kk].bf16[2n+h],  h in {0,1}
// so B's tile has k/2 rows of n pairs (4n bytes), pair n of row kk holding
// B[2kk][n] and B[2kk+1][n]: logical B[k][n] sits at bf16 element
//   (k/2) * 2n_total + 2n + k%2,
// which is the layout ((k/2, 2), n):((2n, 1), 2) in tf's lexicographic
// reading (vnni_layout below, tested element by element).
// Limits (palette 1): m <= 16 rows; 4n <= 64 bytes, so n <= 16; 2k <= 64
// bytes, so k <= 32; k even (bf16 pairs); B has k/2 <= 16 rows.
// The SDM raises #UD unless tmm1.rows == tmm2.rows, tmm1.colsb ==
// tmm3.colsb, tmm2.colsb == 4 * tmm3.rows -- the shapes (m,n), (m,k), (k,n)
// say exactly that.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/atoms/intel/amx/tile_config.hpp"

#include <array>

namespace tf::atoms::intel::amx {

/// The VNNI layout of a bf16 B tile of logical shape (k, n):
/// ((k/2,2),n):((2n,1),2). vnni_layout(4, 3) maps (k=3, n=2) to 1*6+4+1 = 11.
/// @pre k even
constexpr Layout vnni_layout(std::int64_t k, std::int64_t n) {
  Layout l;
  l.shape.push_back(IntTuple{k / 2, 2});
  l.shape.push_back(IntTuple(n));
  l.stride.push_back(IntTuple{2 * n, 1});
  l.stride.push_back(IntTuple(2));
  return l;
}

/// Largest TDPBF16PS shape (palette 1).
inline constexpr int tdpbf16ps_max_m = max_rows;          // 16
inline constexpr int tdpbf16ps_max_n = max_colsb / 4;     // 16 f32 per row
inline constexpr int tdpbf16ps_max_k = max_colsb / 2;     // 32 bf16 per row

namespace tdpbf16ps_detail {
using namespace tf::atoms::detail;

/// kh = k / 2, one case per even k.
inline constexpr std::array<ParamCase, tdpbf16ps_max_k / 2> kh_cases = [] {
  std::array<ParamCase, tdpbf16ps_max_k / 2> out{};
  for (int i = 0; i < tdpbf16ps_max_k / 2; ++i) {
    out[i].when = {when_int("k", 2 * (i + 1))};
    out[i].allowed = {ParamValue::of(i + 1)};
  }
  return out;
}();

/// n2 = 2 n: bf16 elements per row of B's tile.
inline constexpr std::array<ParamCase, tdpbf16ps_max_n> n2_cases = [] {
  std::array<ParamCase, tdpbf16ps_max_n> out{};
  for (int i = 0; i < tdpbf16ps_max_n; ++i) {
    out[i].when = {when_int("n", i + 1)};
    out[i].allowed = {ParamValue::of(2 * (i + 1))};
  }
  return out;
}();

constexpr ParamDef derived_param(Name name, List<ParamCase> cases) {
  ParamDef p;
  p.name = name;
  p.kind = ParamKind::integer;
  p.cases = cases;
  p.derived = true;
  return p;
}

inline constexpr ParamDef params[] = {
    amx_detail::int_param("m", 1, tdpbf16ps_max_m, 1, tdpbf16ps_max_m),
    amx_detail::int_param("n", 1, tdpbf16ps_max_n, 1, tdpbf16ps_max_n),
    amx_detail::int_param("k", 2, tdpbf16ps_max_k, 2, tdpbf16ps_max_k),
    derived_param("kh", kh_cases),
    derived_param("n2", n2_cases)};

inline constexpr LayoutPattern c_layouts[] = {layout_pattern(
    pattern_composed("(m,n):(n,1)", {}, Int(0)), cite("SDM TDPBF16PS"))};
inline constexpr LayoutPattern a_layouts[] = {layout_pattern(
    pattern_composed("(m,k):(k,1)", {}, Int(0)), cite("SDM TDPBF16PS"))};
inline constexpr LayoutPattern b_layouts[] = {
    layout_pattern(pattern_composed("((kh,2),n):((n2,1),2)", {}, Int(0)),
                   cite("SDM TDPBF16PS VNNI"))};

/// `modes`: the atom modes (0 = m, 1 = n, 2 = k of atom_shape) the
/// operand's two modes span; without them the engine has no tile to check.
constexpr OperandPattern operand(Name name, Access access, std::string_view shape,
                                 DType dtype, List<LayoutPattern> layouts,
                                 int mode0, int mode1) {
  OperandPattern o;
  o.name = name;
  o.access = access;
  o.shape = pattern_shape(shape);
  o.dtype = dtype_fixed(dtype);
  o.storage = Storage::amx_tile;
  o.layouts = layouts;
  o.atom_modes = {mode0, mode1};
  return o;
}

inline constexpr OperandPattern operands[] = {
    operand("C", Access::read_write, "(m,n)", DType::f32, c_layouts, 0, 1),
    operand("A", Access::read, "(m,k)", DType::bf16, a_layouts, 0, 2),
    operand("B", Access::read, "(k,n)", DType::bf16, b_layouts, 2, 1)};

/// Palette 1 on the row-major tiles (B's rows are checked through kh), each
/// operand one whole tile register from its first byte.
constexpr FixedVector<OperandLimit, 7> tile_limits() {
  using K = OperandLimit::Kind;
  constexpr Name whole = cite("SDM 18.2 tile register");
  return {
      limit("C", K::mode_extent_max, max_rows, cite("SDM palette 1 rows"), {}, 0),
      limit("C", K::inner_bytes_max, max_colsb, cite("SDM palette 1 colsb")),
      limit("A", K::mode_extent_max, max_rows, cite("SDM palette 1 rows"), {}, 0),
      limit("A", K::inner_bytes_max, max_colsb, cite("SDM palette 1 colsb")),
      limit("C", K::base_align_bytes, tile_bytes, whole),
      limit("A", K::base_align_bytes, tile_bytes, whole),
      limit("B", K::base_align_bytes, tile_bytes, whole)};
}
inline constexpr auto limit_storage = tile_limits();

} // namespace tdpbf16ps_detail

/// intel.amx.Tdpbf16ps: C (f32, m x n) += A (bf16, m x k) . B (bf16, VNNI).
inline constexpr Contract tdpbf16ps{
    .id = "intel.amx.Tdpbf16ps",
    .kind = AtomKind::mma,
    .capability = "amx.bf16",
    .execution_mesh = amx_detail::one_core,
    .params = tdpbf16ps_detail::params,
    .operands = tdpbf16ps_detail::operands,
    .limits = List<OperandLimit>(tdpbf16ps_detail::limit_storage.items,
                                 tdpbf16ps_detail::limit_storage.size()),
    .atom_shape = detail::pattern_shape("(m,n,k)"),
};

} // namespace tf::atoms::intel::amx
