// examples/amx/gemm.cpp with its MMA undecided: tf::matmul on the tile
// registers, for test/cli/candidates/amx.test.
#include <tf/tf.hpp>

namespace gemm {
inline constexpr tf::Mesh core = tf::mesh("core", tf::layout<"(16)">, "persistent");
using Acc = tf::Tensor<float, "((2,16),(2,16)):((512,16),(256,1))", tf::amx_tile>;
using LhsTiles = tf::Tensor<tf::bf16, "((2,16),32):((512,32),1)", tf::amx_tile>;
using RhsTiles = tf::Tensor<tf::bf16, "((16,2),(2,16)):((32,1),(512,2))", tf::amx_tile>;
using Matrix = tf::Tensor<tf::bf16, "(?,?)">;
using Packed = tf::Tensor<tf::bf16, "((?,2),?):((?,1),2)">;
using Out = tf::Tensor<float, "(?,?)">;

[[tf::kernel(tf::target("intel.xeon_amx"), tf::topology("core", 16))]]
void gemm(Matrix a, Packed b, Out out) {
  auto lhs_tiles = tf::empty<LhsTiles>();
  auto rhs_tiles = tf::empty<RhsTiles>();
  for (auto [m, n] : tf::persistent_tiles(core, tf::ceil_div(a.extent(0), 32), tf::ceil_div(b.extent(1), 32))) {
    auto acc = tf::zeros<Acc>();
    for (std::int64_t k : tf::tile_offsets(a.extent(1), 32)) {
      auto lhs = tf::schedule<tf::intel::amx::TileLoad>(a.tile<32, 32>(m * 32, k), lhs_tiles);
      auto rhs = tf::schedule<tf::intel::amx::TileLoad>(b.tile<32, 32>(k, n * 32), rhs_tiles);
      tf::matmul(acc, lhs, rhs);
    }
    tf::schedule<tf::intel::amx::TileStore>(acc, out.tile<32, 32>(m * 32, n * 32));
  }
}
} // namespace gemm
