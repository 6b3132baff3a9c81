//===- tf/tf.hpp - Everything of the kernel language -----------------------===//
//
// One include for kernels: element types, tensors, ops, and (where present)
// kernels, launch, tile schedulers and tf::schedule with its atom types.
//
//===----------------------------------------------------------------------===//
#pragma once

// tf is C++20 (concepts, class-type template arguments): an older standard
// gets this one error, not hundreds from the headers below. (GCC 10 reports
// its C++20 as 201709; MSVC reports the standard in _MSVC_LANG.)
#if defined(_MSVC_LANG) ? _MSVC_LANG <= 201703L : __cplusplus <= 201703L
#error "tf needs C++20: compile with -std=c++20 (in CMake, link tf::headers, which requires cxx_std_20)"
#else

#include "tf/dtype.hpp"
#include "tf/element.hpp"
#include "tf/layout/layout.hpp"
#include "tf/layout/mesh.hpp"
#include "tf/layout/mesh_literal.hpp"
#include "tf/layout/text.hpp"
#include "tf/layout/topology.hpp"
#include "tf/ops/broadcast.hpp"
#include "tf/ops/buffer.hpp"
#include "tf/ops/common.hpp"
#include "tf/ops/elementwise.hpp"
#include "tf/ops/matmul.hpp"
#include "tf/ops/reduce.hpp"
#include "tf/ops/slice.hpp"
#include "tf/tensor.hpp"

#if __has_include("tf/kernel.hpp")
#include "tf/kernel.hpp"
#endif
#if __has_include("tf/launch.hpp")
#include "tf/launch.hpp"
#endif
#if __has_include("tf/scheduler/tile_offsets.hpp")
#include "tf/scheduler/tile_offsets.hpp"
#endif
#if __has_include("tf/scheduler/grid_tiles.hpp")
#include "tf/scheduler/grid_tiles.hpp"
#endif
#if __has_include("tf/scheduler/persistent_tiles.hpp")
#include "tf/scheduler/persistent_tiles.hpp"
#endif
#if __has_include("tf/schedule.hpp")
#include "tf/schedule.hpp"
#endif

#endif // C++20
