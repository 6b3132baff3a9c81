//===- examples/amx/gemm.cpp - A bf16 GEMM on Intel AMX --------------------===//
//
// out (M x N, f32) = a (M x K, bf16) . b (K x N, bf16) on the AMX host's 16
// cores, written with the same decisions as the H200 GEMM
// (examples/gemm/optimal.cpp): a mesh of persistent cores over 32 x 32
// output tiles, the accumulator in tile registers, TILELOADD for the
// operands, TDPBF16PS as the instruction. B is packed once, in a prepare
// step, into TDPBF16PS's VNNI layout (pairs of consecutive k of one column
// side by side); its packed form serves every call. Without the
// plugin the same source runs on the CPU (header-only execution) and is
// checked against a naive reference: `gemm [M N K]`.
//
//===----------------------------------------------------------------------===//
#include <tf/tf.hpp>

#include "../gemm/check.hpp"

namespace gemm {

constexpr int BM = 32, BN = 32, BK = 32, CORES = 16;

// (1) The instruction: TDPBF16PS on palette 1's largest tiles, 16 x 16 x 32.
using Dot = tf::intel::amx::Tdpbf16ps<16, 16, 32>;

// The core mesh: 16 persistent cores, one worker each.
inline constexpr tf::Mesh core = tf::mesh("core", tf::layout<"(16)">, "persistent");

// (3) The accumulator: 32 x 32 f32 in four tile registers, 2 x 2 blocks of
// 16 rows x 16 f32 (64 bytes), each block a tile of 256 elements.
using Acc = tf::Tensor<float, "((2,16),(2,16)):((512,16),(256,1))", tf::amx_tile>;
// (4) A's tile: 32 x 32 bf16 in two tile registers of 16 rows x 64 bytes.
using LhsTiles = tf::Tensor<tf::bf16, "((2,16),32):((512,32),1)", tf::amx_tile>;
// B's tile: 32 x 32 bf16 in two tile registers, each 16 rows of 16 VNNI
// pairs (row kh holds k = 2 kh and 2 kh + 1 of each column).
using RhsTiles = tf::Tensor<tf::bf16, "((16,2),(2,16)):((32,1),(512,2))", tf::amx_tile>;

using Matrix = tf::Tensor<tf::bf16, "(?,?)">;            // row-major
using Packed = tf::Tensor<tf::bf16, "((?,2),?):((?,1),2)">; // B in VNNI pairs
using Out = tf::Tensor<float, "(?,?)">;

// The prepare step, once per weight matrix: b (K x N, row-major) into
// Packed's VNNI layout, the K rows padded with zeros to whole pairs. The two
// tensor types decide where each element goes; every call reuses the result.
inline void pack(Matrix b, Packed packed) {
  for (std::int64_t k = 0; k < packed.extent(0); ++k)
    for (std::int64_t n = 0; n < packed.extent(1); ++n)
      packed(k, n) = k < b.extent(0) ? b(k, n) : tf::bf16(0.0f);
}

[[tf::kernel(tf::target("intel.xeon_amx"), tf::topology("core", CORES))]]
void gemm(Matrix a, Packed b, Out out) { // a: M x K, b: K x N packed, out: M x N
  auto lhs_tiles = tf::empty<LhsTiles>();                               // (4)
  auto rhs_tiles = tf::empty<RhsTiles>();
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(b.extent(1), BN);
  for (auto [m, n] : tf::persistent_tiles(core, GM, GN)) {
    auto acc = tf::zeros<Acc>();                                       // (3)
    for (std::int64_t k : tf::tile_offsets(a.extent(1), BK)) {
      auto lhs = tf::schedule<tf::intel::amx::TileLoad>(a.tile<BM, BK>(m * BM, k),
                                                        lhs_tiles);
      auto rhs = tf::schedule<tf::intel::amx::TileLoad>(b.tile<BK, BN>(k, n * BN),
                                                        rhs_tiles);
      acc = tf::schedule<tf::TiledMma<Dot>, tf::Repeat<2, 2, 1>>(acc, lhs, rhs);
    }
    tf::schedule<tf::intel::amx::TileStore>(acc, out.tile<BM, BN>(m * BM, n * BN));
  }
}

} // namespace gemm

int main(int argc, char **argv) {
  const gemm_example::Shape s = gemm_example::parse_shape(argc, argv);
  std::vector<tf::bf16> a = gemm_example::random_bf16(s.M * s.K, 1);
  std::vector<tf::bf16> b = gemm_example::random_bf16(s.K * s.N, 2);
  // K rounded up to pairs: the packed form's rows hold whole pairs.
  const std::int64_t KP = (s.K + 1) / 2 * 2;
  std::vector<tf::bf16> packed(KP * s.N);
  std::vector<float> out = gemm_example::poisoned_output<float>(s.M * s.N);
  gemm::pack(gemm::Matrix(b.data(), {s.K, s.N}),
             gemm::Packed(packed.data(), {KP / 2, s.N}, {2 * s.N}));
  tf::launch(gemm::gemm, tf::grid(tf::topology("core", gemm::CORES)),
             gemm::Matrix(a.data(), {s.M, s.K}),
             gemm::Packed(packed.data(), {KP / 2, s.N}, {2 * s.N}),
             gemm::Out(out.data(), {s.M, s.N}));
  return gemm_example::report("amx", s, a, b, out);
}
