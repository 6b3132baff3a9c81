//===- test/contracts/mma_test.cpp - mma.sync and fragment layouts --------===//
//
// nv.sm80.Mma and nv.sm89.Mma against sites, and every fragment layout of
// the MMA contracts (WGMMA's included) element by element against the PTX
// ISA's formulas, through the layout library's holders() query.
//
//===----------------------------------------------------------------------===//
#include "helpers.hpp"
#include "seed_site.hpp"

#include "tf/atoms/nv/sm80/mma.hpp"
#include "tf/atoms/nv/sm89/mma.hpp"
#include "tf/atoms/nv/sm90/wgmma.hpp"

#include <functional>

using namespace tf_test;
using tf::ReasonKind;

namespace {

const tf::Contract &W = tf::atoms::nv::sm90::wgmma;
const tf::Contract &M80 = tf::atoms::nv::sm80::mma;
const tf::Contract &M89 = tf::atoms::nv::sm89::mma;

/// Where PTX puts element (row, col): the thread and the register index.
struct Place {
  int thread;
  int reg;
};
using Ptx = std::function<Place(int row, int col)>;

/// The contract's ShardLayout pattern `p` with its symbols bound (`c`, p0 =
/// 0), checked element by element: element (row, col) -- codomain row +
/// rows * col -- is held by exactly PTX's thread, at local index
/// `local(reg)` (the written-order index the ShardLayout gives the register
/// PTX numbers `reg`).
void check_fragment(const tf::LayoutPattern &p, tf::Bindings b, int rows,
                    int cols, const Ptx &ptx,
                    const std::function<int(int)> &local) {
  b.values.push_back({"p0", 0});
  tf::ShardLayout s = p.shard;
  s.layout.shape = *tf::substitute(s.layout.shape, b);
  s.layout.stride = *tf::substitute(s.layout.stride, b);
  s.mesh = *tf::instantiate(s.mesh, b);
  ASSERT_TRUE(tf::check_shard(s).ok());
  for (int col = 0; col < cols; ++col)
    for (int row = 0; row < rows; ++row) {
      tf::Result<tf::HolderList> h = tf::holders(s, row + rows * col);
      ASSERT_TRUE(h.ok()) << h.error().message();
      ASSERT_EQ(h->size(), 1u) << "element (" << row << "," << col << ")";
      Place want = ptx(row, col);
      EXPECT_EQ((*h)[0].unit, want.thread) << "element (" << row << "," << col << ")";
      EXPECT_EQ((*h)[0].local, local(want.reg)) << "element (" << row << "," << col << ")";
    }
}

// PTX 9.7.15.5.1.1, accumulator D of wgmma .m64nNk*: thread t = 32 warp +
// 4 groupID + tig holds rows 16 warp + groupID (+8) and columns
// 8 j + 2 tig + e, register d[4 j + 2 h + e].
Place wgmma_d(int row, int col) {
  int warp = row / 16, h = (row % 16) / 8, g = row % 8;
  int j = col / 8, t = (col % 8) / 2, e = col % 2;
  return {32 * warp + 4 * g + t, 4 * j + 2 * h + e};
}

TEST(Fragments, WgmmaAccumulatorEveryN) {
  for (int n : {8, 16, 64, 136, 256}) {
    tf::Bindings b;
    b.values.push_back({"c", n / 8});
    // The ShardLayout indexes (h, j, e) in written order: h * (n/4) + 2 j + e.
    check_fragment(W.operands[3].layouts[0], b, 64, n, wgmma_d, [n](int reg) {
      int j = reg / 4, h = (reg / 2) % 2, e = reg % 2;
      return h * (n / 4) + 2 * j + e;
    });
  }
}

TEST(Fragments, WgmmaRegisterA) {
  // 16-bit, m64k16: rows as D, col 8 kk + 2 tig + e, a[4 kk + 2 h + e].
  check_fragment(W.operands[1].layouts[0], {}, 64, 16,
                 [](int row, int col) {
                   int warp = row / 16, h = (row % 16) / 8, g = row % 8;
                   int kk = col / 8, t = (col % 8) / 2, e = col % 2;
                   return Place{32 * warp + 4 * g + t, 4 * kk + 2 * h + e};
                 },
                 [](int reg) { return ((reg / 2) % 2) * 4 + (reg / 4) * 2 + reg % 2; });
  // 8-bit, m64k32: col 16 kk + 4 tig + e, a[8 kk + 4 h + e].
  check_fragment(W.operands[1].layouts[1], {}, 64, 32,
                 [](int row, int col) {
                   int warp = row / 16, h = (row % 16) / 8, g = row % 8;
                   int kk = col / 16, t = (col % 16) / 4, e = col % 4;
                   return Place{32 * warp + 4 * g + t, 8 * kk + 4 * h + e};
                 },
                 [](int reg) { return ((reg / 4) % 2) * 8 + (reg / 8) * 4 + reg % 4; });
  // tf32, m64k8: col 4 kk + tig, a[2 kk + h].
  check_fragment(W.operands[1].layouts[2], {}, 64, 8,
                 [](int row, int col) {
                   int warp = row / 16, h = (row % 16) / 8, g = row % 8;
                   int kk = col / 4, t = col % 4;
                   return Place{32 * warp + 4 * g + t, 2 * kk + h};
                 },
                 [](int reg) { return (reg % 2) * 2 + reg / 2; });
}

// mma.m16n8k*: groupID = lane >> 2, tig = lane % 4.
TEST(Fragments, MmaSync16bitK16) {
  // A: a_i, row g + 8 ((i/2)%2), col 2 tig + (i%2) + 8 (i/4).
  check_fragment(M80.operands[0].layouts[0], {}, 16, 16,
                 [](int row, int col) {
                   int h = row / 8, g = row % 8, kk = col / 8, t = (col % 8) / 2, e = col % 2;
                   return Place{4 * g + t, 4 * kk + 2 * h + e};
                 },
                 [](int reg) { return ((reg / 2) % 2) * 4 + (reg / 4) * 2 + reg % 2; });
  // B: b_i, row 2 tig + (i%2) + 8 (i/2), col g: local order is PTX's.
  check_fragment(M80.operands[1].layouts[0], {}, 16, 8,
                 [](int row, int col) {
                   int kk = row / 8, t = (row % 8) / 2, e = row % 2;
                   return Place{4 * col + t, 2 * kk + e};
                 },
                 [](int reg) { return reg; });
  // C: c_i, row g + 8 (i/2), col 2 tig + (i%2): local order is PTX's.
  check_fragment(M80.operands[2].layouts[0], {}, 16, 8,
                 [](int row, int col) {
                   int h = row / 8, g = row % 8, t = col / 2, e = col % 2;
                   return Place{4 * g + t, 2 * h + e};
                 },
                 [](int reg) { return reg; });
}

TEST(Fragments, MmaSync16bitK8AndTf32) {
  // 16-bit m16n8k8 A: row g + 8 (i/2), col 2 tig + (i%2).
  check_fragment(M80.operands[0].layouts[1], {}, 16, 8,
                 [](int row, int col) {
                   int h = row / 8, g = row % 8, t = col / 2, e = col % 2;
                   return Place{4 * g + t, 2 * h + e};
                 },
                 [](int reg) { return reg; });
  // 16-bit m16n8k8 B: row 2 tig + (i%2), col g.
  check_fragment(M80.operands[1].layouts[1], {}, 8, 8,
                 [](int row, int col) {
                   return Place{4 * col + row / 2, row % 2};
                 },
                 [](int reg) { return reg; });
  // tf32 m16n8k8 A: a0 (g, t), a1 (g+8, t), a2 (g, t+4), a3 (g+8, t+4).
  check_fragment(M80.operands[0].layouts[3], {}, 16, 8,
                 [](int row, int col) {
                   int h = row / 8, g = row % 8, kk = col / 4, t = col % 4;
                   return Place{4 * g + t, 2 * kk + h};
                 },
                 [](int reg) { return (reg % 2) * 2 + reg / 2; });
  // tf32 m16n8k8 B: b0 (t, g), b1 (t+4, g).
  check_fragment(M80.operands[1].layouts[3], {}, 8, 8,
                 [](int row, int col) {
                   return Place{4 * col + row % 4, row / 4};
                 },
                 [](int reg) { return reg; });
}

TEST(Fragments, MmaSyncFp8K32) {
  // A: a_i, row g + 8 ((i/4)%2), col 4 tig + (i%4) + 16 (i/8).
  check_fragment(M89.operands[0].layouts[0], {}, 16, 32,
                 [](int row, int col) {
                   int h = row / 8, g = row % 8, kk = col / 16, t = (col % 16) / 4, e = col % 4;
                   return Place{4 * g + t, 8 * kk + 4 * h + e};
                 },
                 [](int reg) { return ((reg / 4) % 2) * 8 + (reg / 8) * 4 + reg % 4; });
  // B: b_i, row 4 tig + (i%4) + 16 (i/4), col g.
  check_fragment(M89.operands[1].layouts[0], {}, 32, 8,
                 [](int row, int col) {
                   int kk = row / 16, t = (row % 16) / 4, e = row % 4;
                   return Place{4 * col + t, 4 * kk + e};
                 },
                 [](int reg) { return reg; });
  check_fragment(M89.operands[2].layouts[0], {}, 16, 8,
                 [](int row, int col) {
                   return Place{4 * (row % 8) + col / 2, 2 * (row / 8) + col % 2};
                 },
                 [](int reg) { return reg; });
}

// A warp-level GEMM: 4 warps as (2,2) over M and N, each 32x16 of C with
// k16 bf16 atoms: repeat (2*2, 2*2, 2) of which (2, 2) spatial. Register
// tiles are atom-blocked: within one atom the codomain is column-major
// (docs/contracts/engine.md), the blocks are 256 (A), 128 (B, C) apart.
constexpr tf::Mesh warps = tf::mesh("thread", tf::IntTuple{2, 2, 8, 4},
                                    "wm", "wn", "g", "t");

tf::Site mma_site() {
  tf::Site s;
  s.mesh = warps;
  s.params = {tf::arg("dtype", tf::DType::bf16)};
  // C 64x32: m = 32 wm + 16 i + 8 h + g, n = 16 wn + 8 j + 2 t + e.
  s.operands = {
      tf::site_operand("A", {64, 32}, tf::DType::bf16, tf::Storage::rmem,
                       shard("(2@wm,2,2,8@g,2,2,4@t,2):(1024,512,8,1,256,128,32,16)", warps)),
      tf::site_operand("B", {32, 32}, tf::DType::bf16, tf::Storage::rmem,
                       shard("(2,2,4@t,2,2@wn,2,8@g):(128,8,2,1,512,256,16)", warps)),
      tf::site_operand("C", {64, 32}, tf::DType::f32, tf::Storage::rmem,
                       shard("(2@wm,2,2,8@g,2@wn,2,4@t,2):(1024,512,8,1,256,128,32,16)", warps)),
  };
  s.repeat = {4, 4, 2};
  return s;
}

TEST(MmaSync, WarpTiledGemmAccepted) {
  tf::MatchReport r = tf::match(M80, mma_site());
  ASSERT_TRUE(r.accepted) << tf::describe(r, M80);
  EXPECT_EQ(r.repeat.count[0], 4);
  EXPECT_EQ(r.repeat.spatial[0], 2);
  EXPECT_EQ(r.repeat.spatial_axis[0], "wm");
  EXPECT_EQ(r.repeat.count[1], 4);
  EXPECT_EQ(r.repeat.spatial[1], 2);
  EXPECT_EQ(r.repeat.spatial_axis[1], "wn");
  EXPECT_EQ(r.repeat.count[2], 2);
  EXPECT_EQ(r.param("k")->integer, 16);
}

TEST(MmaSync, Refusals) {
  // grid.py's CTA mesh.
  tf::Site s = mma_site();
  s.mesh = seed::grid_cta;
  tf::MatchReport r = tf::match(M80, s);
  EXPECT_EQ(line(r, M80, ReasonKind::mesh),
            "mesh: Mesh(cta, (64,68):(68,1), bm, bn) does not match "
            "Mesh(thread, ((*g,8,4)):((*gs,4,1)) + p0): level cta is not "
            "thread");
  r = tf::match(M89, s);
  EXPECT_EQ(line(r, M89, ReasonKind::mesh),
            "mesh: Mesh(cta, (64,68):(68,1), bm, bn) does not match "
            "Mesh(thread, ((*g,8,4)):((*gs,4,1)) + p0): level cta is not "
            "thread");
  // A half warp.
  s = mma_site();
  s.mesh = tf::mesh("thread", tf::IntTuple{4, 4});
  r = tf::match(M80, s);
  EXPECT_TRUE(r.has(ReasonKind::mesh)) << reasons(r, M80);
  // Capability.
  static constexpr tf::Name sm75[] = {"ldmatrix"};
  s = mma_site();
  s.check_capabilities = true;
  s.capabilities = sm75;
  r = tf::match(M80, s);
  EXPECT_EQ(line(r, M80, ReasonKind::capability),
            "capability: mma.sync is not among the target's capabilities");
  // Parameters: tf32 with k = 16; fp8 on sm80.
  s = mma_site();
  set(s, tf::arg("dtype", tf::DType::tf32));
  set(s, tf::arg("k", 16));
  r = tf::match(M80, s);
  EXPECT_EQ(line(r, M80, ReasonKind::param_case, "k"),
            "parameter k: 16, but dtype=tf32 requires 8");
  set(s, tf::arg("dtype", tf::DType::fp8e4m3));
  r = tf::match(M80, s);
  EXPECT_EQ(line(r, M80, ReasonKind::param_predicate, "dtype"),
            "parameter dtype: fp8e4m3 violates dtype in {bf16, f16, tf32}");
  set(s, tf::arg("k", 12));
  r = tf::match(M80, s);
  EXPECT_EQ(line(r, M80, ReasonKind::param_predicate, "k"),
            "parameter k: 12 violates k in {8, 16}");
  // Operands: storage, dtype, shape, layout, missing.
  s = mma_site();
  operand(s, "A").storage = tf::Storage::smem;
  operand(s, "C").dtype = tf::DType::bf16;
  operand(s, "B").shape = tf::IntTuple{32};
  r = tf::match(M80, s);
  EXPECT_EQ(line(r, M80, ReasonKind::operand_storage, "A"),
            "operand A: storage smem, expected rmem");
  EXPECT_EQ(line(r, M80, ReasonKind::operand_dtype, "C"),
            "operand C: dtype bf16, expected f32");
  EXPECT_EQ(line(r, M80, ReasonKind::operand_shape, "B"),
            "operand B: shape (32) does not fit (16,8)");
  s = mma_site();
  operand(s, "B").shard = shard("(2,2,4@t,2,2@wn,2,8@g):(128,8,1,2,512,256,16)", warps);
  r = tf::match(M80, s);
  EXPECT_NE(line(r, M80, ReasonKind::operand_layout, "B").find("does not match"),
            std::string::npos) << reasons(r, M80);
  drop_operand(s, "A");
  r = tf::match(M80, s);
  EXPECT_EQ(line(r, M80, ReasonKind::operand_missing, "A"),
            "operand A: missing (expected shape=(16,k) storage=rmem)");
  // Tiles: M = 24 is not a multiple of 16.
  s = mma_site();
  operand(s, "A").shape = tf::IntTuple{24, 32};
  r = tf::match(M80, s);
  EXPECT_TRUE(r.has(ReasonKind::tile_mismatch) || r.has(ReasonKind::tile_extent))
      << reasons(r, M80);
  // Written repeat.
  s = mma_site();
  s.repeat = {4, 4, 4};
  r = tf::match(M80, s);
  EXPECT_EQ(line(r, M80, ReasonKind::repeat),
            "repeat: written (4,4,4), derived (4,4,2)");
}

TEST(MmaSync, Fp8OnSm89) {
  // One warp, 16x8x64: two k32 atoms.
  constexpr tf::Mesh warp = tf::mesh("thread", tf::IntTuple{8, 4}, "g", "t");
  tf::Site s;
  s.mesh = warp;
  s.params = {tf::arg("dtype", tf::DType::fp8e5m2)};
  s.operands = {
      tf::site_operand("A", {16, 64}, tf::DType::fp8e5m2, tf::Storage::rmem,
                       shard("(2,8@g,2,2,4@t,4):(8,1,512,256,64,16)", warp)),
      tf::site_operand("B", {64, 8}, tf::DType::fp8e5m2, tf::Storage::rmem,
                       shard("(2,2,4@t,4,8@g):(256,16,4,1,32)", warp)),
      tf::site_operand("C", {16, 8}, tf::DType::f32, tf::Storage::rmem,
                       shard("(2,8@g,4@t,2):(8,1,32,16)", warp)),
  };
  tf::MatchReport r = tf::match(M89, s);
  ASSERT_TRUE(r.accepted) << tf::describe(r, M89);
  EXPECT_EQ(r.repeat.count[2], 2);
  // k is derived: 16 is refused.
  set(s, tf::arg("k", 16));
  r = tf::match(M89, s);
  EXPECT_EQ(line(r, M89, ReasonKind::param_derived, "k"),
            "parameter k: 16 written, but dtype=fp8e5m2 derives k = 32");
  // bf16 is not an sm89.Mma dtype.
  s.params = {tf::arg("dtype", tf::DType::bf16)};
  r = tf::match(M89, s);
  EXPECT_EQ(line(r, M89, ReasonKind::param_predicate, "dtype"),
            "parameter dtype: bf16 violates dtype in {fp8e4m3, fp8e5m2}");
}

TEST(MmaSync, GridMeshRefusesEveryMmaAtom) {
  // The grid GEMM's CTA mesh (grid.cpp): all three refused by mesh.
  tf::Site s = seed::gemm_site();
  s.mesh = seed::grid_cta;
  for (const tf::Contract *c : {&W, &M80, &M89}) {
    tf::MatchReport r = tf::match(*c, s);
    EXPECT_FALSE(r.accepted);
    ASSERT_TRUE(r.has(ReasonKind::mesh)) << c->id.view();
    EXPECT_NE(line(r, *c, ReasonKind::mesh).find("Mesh(cta, (64,68):(68,1), bm, bn) does not match Mesh(thread, "),
              std::string::npos);
  }
}

} // namespace
