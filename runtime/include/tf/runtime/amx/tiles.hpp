//===- tf/runtime/amx/tiles.hpp - The tile API generated code calls -------===//
//
// tf::runtime::amx::tile_loadconfig, tile_loadd<T>, tile_dpbf16ps<C, A, B>,
// ... : the instructions (native.hpp) when the translation unit is compiled
// for AMX -- with -mamx-tile -mamx-bf16 -mamx-int8, the flags native code
// needs anyway -- and their exact emulation (emulated.hpp) otherwise. The
// same generated source thus runs on an AMX host and, bit for bit the same,
// on a machine without AMX; `implementation` says which one a build got.
//
// Why the compiler's target flags select: a header-only runtime has only
// the compile command to learn a build's choice from, and the target flags
// are already part of it (native code cannot be built without them), so no
// project-defined macro or generated configuration header is needed. The
// test on `__AMX_TILE__`/`__AMX_BF16__`/`__AMX_INT8__` -- the compiler's own
// predefined macros for those flags -- is the only preprocessor condition in
// the runtime. Code that wants one implementation whatever the flags names
// its namespace (`emulated::`, `native::`) directly.
//
//===----------------------------------------------------------------------===//
#pragma once

namespace tf::runtime::amx {

enum class Implementation { native, emulated };

} // namespace tf::runtime::amx

#if defined(__AMX_TILE__) && defined(__AMX_BF16__) && defined(__AMX_INT8__)
#include "tf/runtime/amx/native.hpp"
namespace tf::runtime::amx {
namespace selected = native;
inline constexpr Implementation implementation = Implementation::native;
} // namespace tf::runtime::amx
#else
#include "tf/runtime/amx/emulated.hpp"
namespace tf::runtime::amx {
namespace selected = emulated;
inline constexpr Implementation implementation = Implementation::emulated;
} // namespace tf::runtime::amx
#endif

namespace tf::runtime::amx {

using selected::tile_dpbf16ps;
using selected::tile_dpbssd;
using selected::tile_dpbsud;
using selected::tile_dpbusd;
using selected::tile_dpbuud;
using selected::tile_loadconfig;
using selected::tile_loadd;
using selected::tile_release;
using selected::tile_storeconfig;
using selected::tile_stored;
using selected::tile_zero;

} // namespace tf::runtime::amx
