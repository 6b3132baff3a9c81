// Compiled, never run (CI has no AMX): with -mamx-tile -mamx-bf16
// -mamx-int8, tiles.hpp selects the native instructions and every wrapper
// instantiates. test/device/amx_exact.sh runs them on the AMX host.
#include "tiled_gemm.hpp"

namespace amx = tf::runtime::amx;

static_assert(amx::implementation == amx::Implementation::native);

void amx_native_build_check(float *c, const std::uint16_t *a,
                            const std::uint16_t *b, std::int32_t *ci,
                            const std::int8_t *ai, const std::int8_t *bi) {
  tiled_gemm::gemm<tiled_gemm::Bf16>(a, b, c, 17, 33, 70, 33);
  tiled_gemm::gemm<tiled_gemm::Int8>(ai, bi, ci, 17, 33, 72, 33);
  amx::TileConfig config;
  amx::tile_storeconfig(config);
  amx::tile_loadconfig(config);
  amx::tile_dpbsud<5, 6, 7>();
  amx::tile_dpbusd<5, 6, 7>();
  amx::tile_dpbuud<5, 6, 7>();
  amx::tile_release();
}
