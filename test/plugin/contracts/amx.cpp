// The AMX GEMM's sites against intel.amx.TileLoad, TileStore and Tdpbf16ps
// (examples/amx/gemm.cpp), once accepted and once per refusal kind the
// kernel language can express. Inside the tile loop over cores each op runs
// on one core, the contracts' execution mesh. A tile tensor spanning several
// tile registers is split into one TILELOADD / TILESTORED per register (its
// leaves whose stride reaches a whole 1 KiB register pick it), each matched
// in the register's row order: B's VNNI-packed registers are rows of 64
// bytes. Refused: a register of 32 rows; an accumulator whose registers are
// column-major (TDPBF16PS writes rows); an A tile of 32 x 64 bf16 (128-byte
// rows); a tile on a thread mesh; a generic.Copy on a core.
//
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify=ok %s
// RUN: %clangxx %{tf} -Xclang -verify=rows -DROWS %s
// RUN: %clangxx %{tf} -Xclang -verify=acc -DACC_COLUMNS %s
// RUN: %clangxx %{tf} -Xclang -verify=wide -DWIDE %s
// RUN: %clangxx %{tf} -Xclang -verify=copy -DCOPY %s
#include <tf/tf.hpp>

namespace t {
using Dot = tf::intel::amx::Tdpbf16ps<16, 16, 32>;
inline constexpr tf::Mesh core = tf::mesh("core", tf::layout<"(16)">, "persistent");
#if defined(ACC_COLUMNS)
using Acc = tf::Tensor<float, "((2,16),(2,16)):((512,1),(256,16))", tf::amx_tile>;
#else
using Acc = tf::Tensor<float, "((2,16),(2,16)):((512,16),(256,1))", tf::amx_tile>;
#endif
#if defined(ROWS)
using LhsTiles = tf::Tensor<tf::bf16, "(32,32):(32,1)", tf::amx_tile>;
#else
using LhsTiles = tf::Tensor<tf::bf16, "((2,16),32):((512,32),1)", tf::amx_tile>;
#endif
using RhsTiles = tf::Tensor<tf::bf16, "((16,2),(2,16)):((32,1),(512,2))", tf::amx_tile>;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;
using Packed = tf::Tensor<tf::bf16, "((?,2),?):((?,1),2)">;
using Out = tf::Tensor<float, "(?,?)">;

// ok-no-diagnostics
[[tf::kernel(tf::target("intel.xeon_amx"), tf::topology("core", 16))]]
void gemm(Matrix a, Packed b, Out out) {
  auto lhs_tiles = tf::empty<LhsTiles>();
  auto rhs_tiles = tf::empty<RhsTiles>();
  for (auto [m, n] : tf::persistent_tiles(core, tf::ceil_div(a.extent(0), 32), tf::ceil_div(b.extent(1), 32))) {
    auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 32)) {
#if defined(ROWS)
      auto lhs = tf::schedule<tf::intel::amx::TileLoad>(a.tile<32, 32>(m * 32, k), lhs_tiles); // rows-error {{operand dst ('lhs_tiles') does not fit intel.amx.TileLoad: extent of mode 0 <= 16 fails (found 32) [SDM palette 1 rows]}} rows-note {{contract intel.amx.TileLoad, operand dst: extent of mode 0 <= 16 fails (found 32) [SDM palette 1 rows]}}
#else
      auto lhs = tf::schedule<tf::intel::amx::TileLoad>(a.tile<32, 32>(m * 32, k), lhs_tiles);
#endif
      auto rhs = tf::schedule<tf::intel::amx::TileLoad>(b.tile<32, 32>(k, n * 32), rhs_tiles);
#if defined(ACC_COLUMNS)
      acc = tf::schedule<tf::TiledMma<Dot>, tf::Repeat<2, 2, 1>>(acc, lhs, rhs); // acc-error {{intel.amx.Tdpbf16ps cannot read operand C ('acc') in this layout: fragment (16,16):(1,16) does not match (m,n):(n,1): leaf 0 of (1,16) has stride 1 where (n,1) has 16}} acc-note {{contract intel.amx.Tdpbf16ps, operand C: fragment (16,16):(1,16) does not match (m,n):(n,1): leaf 0 of (1,16) has stride 1 where (n,1) has 16}}
#else
      acc = tf::schedule<tf::TiledMma<Dot>, tf::Repeat<2, 2, 1>>(acc, lhs, rhs);
#endif
    }
#if defined(ACC_COLUMNS)
    tf::schedule<tf::intel::amx::TileStore>(acc, out.tile<32, 32>(m * 32, n * 32)); // acc-error {{intel.amx.TileStore cannot move a tile of 'out' in rows of a tile register: in the register's row order its memory layout is (16,16):(1,?), not rows of contiguous elements one stride apart ((r,c):(s,1)); store the tensor so that each register row is contiguous (a TDPBF16PS B operand in VNNI pairs: ((K/2,2),N):((2N,1),2)), or give the tile registers the memory's order}}
#else
    tf::schedule<tf::intel::amx::TileStore>(acc, out.tile<32, 32>(m * 32, n * 32));
#endif
  }
}

#if defined(WIDE)
// 64 bf16 per register row is 128 bytes; palette 1 has 64.
using WideTiles = tf::Tensor<tf::bf16, "((2,16),64):((1024,64),1)", tf::amx_tile>;
[[tf::kernel(tf::target("intel.xeon_amx"), tf::topology("core", 16))]]
void wide(Matrix a) {
  auto tiles = tf::empty<WideTiles>();
  for (auto [m, k] : tf::persistent_tiles(core, tf::ceil_div(a.extent(0), 32), tf::ceil_div(a.extent(1), 64)))
    tf::schedule<tf::intel::amx::TileLoad>(a.tile<32, 64>(m * 32, k * 64), tiles); // wide-error {{operand dst ('tiles') does not fit intel.amx.TileLoad: bytes of the innermost mode <= 64 fails (found 128) [SDM palette 1 colsb]}} wide-note {{contract intel.amx.TileLoad, operand dst: bytes of the innermost mode <= 64 fails (found 128) [SDM palette 1 colsb]}}
}
#endif

#if defined(COPY)
// A copy by ordinary loads and stores is generic.Copy, whose execution mesh
// is threads: not yet a core's.
[[tf::kernel(tf::target("intel.xeon_amx"), tf::topology("core", 16))]]
void pack(Matrix b, Packed packed) {
  for (auto [k, n] : tf::persistent_tiles(core, tf::ceil_div(b.extent(0), 32), tf::ceil_div(b.extent(1), 32)))
    tf::schedule<tf::Copy>(b.tile<32, 32>(k * 32, n * 32), packed.tile<32, 32>(k * 32, n * 32)); // copy-error {{generic.Copy cannot be issued from mesh Mesh(core, (1):(1)) (one unit of the tile loop's mesh), which does not match its execution mesh Mesh(thread, (*g):(*gs) + p0): level core is not thread}} copy-note {{contract generic.Copy, mesh: Mesh(core, (1):(1)) does not match Mesh(thread, (*g):(*gs) + p0): level core is not thread}}
}
#endif
} // namespace t
