// The copies of a GEMM epilogue and its loads against nv.sm90.CopyAsyncTensor
// (TMA) and generic.Copy, once accepted and once per refusal kind the kernel
// language can express: TMA's one-thread execution mesh, its capability,
// its box limits (an operand) and its box order (a column-major slot under a
// row-major tensor); the Copy's thread-level execution mesh and its element
// types (an operand). A copy that is not one TMA box but splits into valid
// boxes (512 rows: two boxes of 256) is accepted; a limit no split can meet
// (rows of 8 bytes) is not.
//
// DEFINE: %{tf} = -std=c++20 -fsyntax-only -I %tf_include -fplugin=%tf_plugin
// RUN: %clangxx %{tf} -Xclang -verify=ok %s
// RUN: %clangxx %{tf} -Xclang -verify=tmamesh -DTMA_MESH %s
// RUN: %clangxx %{tf} -Xclang -verify=tmacap -DTMA_CAPABILITY %s
// RUN: %clangxx %{tf} -Xclang -verify=ok -DTMA_BOXES %s
// RUN: %clangxx %{tf} -Xclang -verify=tmaoperand -DTMA_OPERAND %s
// RUN: %clangxx %{tf} -Xclang -verify=tmalayout -DTMA_LAYOUT %s
// RUN: %clangxx %{tf} -Xclang -verify=copymesh -DCOPY_MESH %s
// RUN: %clangxx %{tf} -Xclang -verify=copyoperand -DCOPY_OPERAND %s
// The copy of a ring slot into the staged tile is legal for generic.Copy
// but not lowerable by the H200's backend, which is an error at check time
// (legal means lowerable).
#include <tf/tf.hpp>

namespace t {
inline constexpr tf::Mesh cta = tf::mesh("cta", tf::layout<"(132)">, "persistent");
inline constexpr tf::Mesh threads =
    tf::mesh("thread", tf::layout<"(2,128)">, "warpgroup", "participant");
#ifdef TMA_MESH
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 32));
#else
inline constexpr tf::Mesh loader = threads.sub(0, tf::range(0, 1));
#endif
inline constexpr tf::Mesh workers = threads.sub(1, tf::_);

#if defined(TMA_BOXES)
// A TMA box has at most 256 rows: 512 rows are copied as two boxes.
#define TILE "(512,64):(64,1) | Swizzle(3,4,3)"
constexpr int BM = 512, BN = 64;
#elif defined(TMA_OPERAND)
// A TMA box row is a multiple of 16 bytes; 4 bf16 are 8, in every box.
#define TILE "(128,4):(4,1)"
constexpr int BM = 128, BN = 4;
#else
#define TILE "(128,64):(64,1) | Swizzle(3,4,3)"
constexpr int BM = 128, BN = 64;
#endif
#ifdef TMA_LAYOUT
using Slot = tf::Tensor<tf::bf16, "(128,64):(1,128)", tf::smem>; // column-major tmalayout-note {{the shared-memory side is contiguous in dimension 0 here}}
#else
using Slot = tf::Tensor<tf::bf16, TILE, tf::smem>;
#endif
#ifdef COPY_OPERAND
using Staged = tf::Tensor<tf::f16, TILE, tf::smem>;
#else
using Staged = tf::Tensor<tf::bf16, TILE, tf::smem>;
#endif
// A column-major slot under a row-major global tensor is one error at the
// global tensor's layout: the box cannot be ordered for both.
using Matrix = tf::Tensor<tf::bf16, "(?,?)">; // tmalayout-error {{nv.sm90.CopyAsyncTensor cannot box a tile of 'a': 'a' ((?,?):(?,1)) is contiguous in dimension 1, which its TMA box has innermost and writes contiguously into shared memory; the shared-memory side ((128,64):(1,128)) is contiguous in dimension 0: give 'a' stride 1 in dimension 0 or the shared-memory side stride 1 in dimension 1}}
using OutMatrix = tf::Tensor<Staged::element_type, "(?,?)">;

#ifdef TMA_CAPABILITY
#define TARGET "nvidia.a100_sxm"
#else
#define TARGET "nvidia.h200_sxm"
#endif

[[tf::kernel(tf::target(TARGET), tf::topology("cta", 132),
             tf::topology("thread", 256))]]
void copy_tiles(Matrix a, OutMatrix out) {
  tf::Ring<Slot, 2> ring;
  auto staged_tile = tf::empty<Staged>();
  const std::int64_t GM = tf::ceil_div(a.extent(0), BM);
  const std::int64_t GN = tf::ceil_div(a.extent(1), BN);
  for (auto [m, n] : tf::persistent_tiles(cta, GM, GN, {.group_m = 8})) {
#if defined(TMA_MESH)
    [[tf::mesh(loader)]] auto tile = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BN>(m * BM, n * BN), ring); // tmamesh-error {{nv.sm90.CopyAsyncTensor cannot be issued from mesh Mesh(thread, (32):(1), participant) ('loader'), which does not match its execution mesh Mesh(thread, (1):(1) + p0): leaf 0 of (32) has extent 32 where (1) has 1}} tmamesh-note {{contract nv.sm90.CopyAsyncTensor, mesh: Mesh(thread, (32):(1), participant) does not match Mesh(thread, (1):(1) + p0)}}
#elif defined(TMA_CAPABILITY)
    [[tf::mesh(loader)]] auto tile = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BN>(m * BM, n * BN), ring); // tmacap-error {{nv.sm90.CopyAsyncTensor needs capability 'cp.async.bulk.tensor', which target 'nvidia.a100_sxm' lacks}} tmacap-note {{contract nv.sm90.CopyAsyncTensor, capability: cp.async.bulk.tensor is not among the target's capabilities}}
#elif defined(TMA_OPERAND)
    [[tf::mesh(loader)]] auto tile = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BN>(m * BM, n * BN), ring); // tmaoperand-error {{operand src (a tile of 'a') does not fit nv.sm90.CopyAsyncTensor: bytes of the innermost mode % 16 == 0 fails (found 8)}} tmaoperand-note {{contract nv.sm90.CopyAsyncTensor, operand src: bytes of the innermost mode % 16 == 0 fails (found 8)}}
#elif defined(TMA_LAYOUT)
    [[tf::mesh(loader)]] auto tile = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BN>(m * BM, n * BN), ring); // tmalayout-note {{'a' is copied here into a slot of 'ring'}}
#else
    [[tf::mesh(loader)]] auto tile = tf::schedule<tf::nv::CopyAsyncTensor>(a.tile<BM, BN>(m * BM, n * BN), ring);
#endif
#if defined(COPY_MESH)
    auto staged = tf::schedule<tf::Copy>(tile, staged_tile); // copymesh-error {{generic.Copy cannot be issued from mesh Mesh(cta, (1):(1)) (one unit of the tile loop's mesh), which does not match its execution mesh Mesh(thread, (*g):(*gs) + p0): level cta is not thread}} copymesh-note {{contract generic.Copy, mesh: Mesh(cta, (1):(1)) does not match Mesh(thread, (*g):(*gs) + p0): level cta is not thread}}
#elif defined(COPY_OPERAND)
    [[tf::mesh(workers)]] auto staged = tf::schedule<tf::Copy>(tile, staged_tile); // copyoperand-error {{operand dst ('staged_tile') does not fit generic.Copy: dtype f16, expected bf16 (dtype=bf16)}} copyoperand-note {{contract generic.Copy, operand dst: dtype f16, expected bf16 (dtype=bf16)}}
#else
    [[tf::mesh(workers)]] auto staged = tf::schedule<tf::Copy>(tile, staged_tile); // ok-error {{tf.schedule as generic.Copy cannot be lowered by the cuda_sm90 backend: cuda_sm90 lowers generic.Copy only from a register tensor into a shared-memory buffer (the staged epilogue); this one copies smem into smem (a global tile goes into shared memory by nv.sm90.CopyAsyncTensor, TMA)}} tmamesh-error {{cannot be lowered by the cuda_sm90 backend}} tmaoperand-error {{cannot be lowered by the cuda_sm90 backend}} tmalayout-error {{cannot be lowered by the cuda_sm90 backend}}
#endif
    [[tf::mesh(loader)]] tf::schedule<tf::nv::CopyAsyncTensor>(staged, out.tile<BM, BN>(m * BM, n * BN)); // tmamesh-error {{cannot be issued from mesh}} tmamesh-note {{contract nv.sm90.CopyAsyncTensor, mesh}} tmacap-error {{needs capability}} tmacap-note {{contract nv.sm90.CopyAsyncTensor, capability}} tmaoperand-error {{operand dst (a tile of 'out') does not fit nv.sm90.CopyAsyncTensor: bytes of the innermost mode % 16 == 0 fails (found 8)}} tmaoperand-note {{contract nv.sm90.CopyAsyncTensor, operand dst: bytes of the innermost mode % 16 == 0 fails (found 8)}}
  }
}
} // namespace t
