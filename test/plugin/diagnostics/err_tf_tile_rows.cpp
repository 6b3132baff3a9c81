// TILELOADD reads a tile register's rows from memory: each row's elements
// contiguous, the rows one stride apart. The plugin reads a tile copy in the
// register's row order (its leaves sorted by their place in the register)
// and checks the memory side there; where the memory side's strides are
// run-time values, which the contract engine does not read, a memory side
// that is not rows of contiguous elements is err_tf_tile_rows at the memory
// operand. (examples/amx/gemm.cpp is the accepted case: B packed in VNNI
// pairs, "((?,2),?):((?,1),2)", into VNNI-packed tile registers.)
// RUN: %clangxx -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin -Xclang -verify %s
#include <tf/tf.hpp>

namespace amx_test {
using Dot = tf::intel::amx::Tdpbf16ps<16, 16, 32>;
inline constexpr tf::Mesh core = tf::mesh("core", tf::layout<"(16)">, "persistent");
using Acc = tf::Tensor<float, "((2,16),(2,16)):((512,16),(256,1))", tf::amx_tile>;
using LhsTiles = tf::Tensor<tf::bf16, "((2,16),32):((512,32),1)", tf::amx_tile>;
using RhsTiles = tf::Tensor<tf::bf16, "((16,2),(2,16)):((32,1),(512,2))", tf::amx_tile>;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;
using Packed = tf::Tensor<tf::bf16, "((?,2),?):((?,1),2)">;
using ColMajor = tf::Tensor<tf::bf16, "(?,?):(1,?)">;
using Out = tf::Tensor<float, "(?,?)">;
} // namespace amx_test

// B row-major (K x N, N contiguous) loaded into VNNI-packed registers: a
// register row holds k = 2kh and 2kh + 1 of 16 columns side by side, which
// are N elements apart in memory.
namespace row_major_b {
using namespace amx_test;
[[tf::kernel(tf::target("intel.xeon_amx"), tf::topology("core", 16))]]
void gemm(Matrix a, Matrix b, Out out) {
  auto lhs_tiles = tf::empty<LhsTiles>();
  auto rhs_tiles = tf::empty<RhsTiles>();
  for (auto [m, n] : tf::persistent_tiles(core, tf::ceil_div(a.extent(0), 32), tf::ceil_div(b.extent(1), 32))) {
    auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 32)) {
      auto lhs = tf::schedule<tf::intel::amx::TileLoad>(a.tile<32, 32>(m * 32, k), lhs_tiles);
      auto rhs = tf::schedule<tf::intel::amx::TileLoad>(b.tile<32, 32>(k, n * 32), rhs_tiles); // expected-error {{intel.amx.TileLoad cannot move a tile of 'b' in rows of a tile register: in the register's row order its memory layout is (16,16,2):(?,1,?), not rows of contiguous elements one stride apart ((r,c):(s,1)); store the tensor so that each register row is contiguous (a TDPBF16PS B operand in VNNI pairs: ((K/2,2),N):((2N,1),2)), or give the tile registers the memory's order}}
      acc = tf::schedule<tf::TiledMma<Dot>, tf::Repeat<2, 2, 1>>(acc, lhs, rhs);
    }
    tf::schedule<tf::intel::amx::TileStore>(acc, out.tile<32, 32>(m * 32, n * 32));
  }
}
} // namespace row_major_b

// A stored column by column (M x K, M contiguous) loaded into row-major A
// registers: a register row's 32 k are a column's stride apart.
namespace column_major_a {
using namespace amx_test;
[[tf::kernel(tf::target("intel.xeon_amx"), tf::topology("core", 16))]]
void gemm(ColMajor a, Packed b, Out out) {
  auto lhs_tiles = tf::empty<LhsTiles>();
  auto rhs_tiles = tf::empty<RhsTiles>();
  for (auto [m, n] : tf::persistent_tiles(core, tf::ceil_div(a.extent(0), 32), tf::ceil_div(b.extent(1), 32))) {
    auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 32)) {
      auto lhs = tf::schedule<tf::intel::amx::TileLoad>(a.tile<32, 32>(m * 32, k), lhs_tiles); // expected-error {{intel.amx.TileLoad cannot move a tile of 'a' in rows of a tile register: in the register's row order its memory layout is (16,32):(1,?), not rows of contiguous elements one stride apart ((r,c):(s,1)); store the tensor so that each register row is contiguous (a TDPBF16PS B operand in VNNI pairs: ((K/2,2),N):((2N,1),2)), or give the tile registers the memory's order}}
      auto rhs = tf::schedule<tf::intel::amx::TileLoad>(b.tile<32, 32>(k, n * 32), rhs_tiles);
      acc = tf::schedule<tf::TiledMma<Dot>, tf::Repeat<2, 2, 1>>(acc, lhs, rhs);
    }
    tf::schedule<tf::intel::amx::TileStore>(acc, out.tile<32, 32>(m * 32, n * 32));
  }
}
} // namespace column_major_a
