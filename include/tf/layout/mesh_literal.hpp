//===- tf/layout/mesh_literal.hpp - Mesh shapes from string literals ------===//
//
// `Mesh::reshape<"(2,4,8,4)">(names...)`, as examples/gemm/optimal.cpp writes:
//   constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_)
//                                    .reshape<"(2,4,8,4)">("group", "warp",
//                                                          "lane8", "lane4");
// The shape is parsed while compiling by parse_int_tuple, and a malformed one
// stops compilation with the parser's message, as `tf::layout<"...">` does.
// This lives apart from mesh.hpp because the parser includes mesh.hpp
// (through shard_layout.hpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "tf/layout/mesh.hpp"
#include "tf/layout/text/literal.hpp"

namespace tf {

/// The IntTuple written in `Text`, parsed at compile time:
/// `tf::int_tuple<"(2,(4,8))">`. Axis bindings are errors.
template <FixedString Text>
inline constexpr IntTuple int_tuple =
    detail::parsed_literal<Text, parse_int_tuple>::value;

template <FixedString Shape, class... Names>
constexpr Mesh Mesh::reshape(Names... names) const {
  // A malformed shape is the literal's one error (instantiating its check
  // reports it, here or through the plugin); the mesh stays as it was.
  if constexpr (!parse_int_tuple(Shape.view()).ok()) {
    (void)int_tuple<Shape>;
    return *this;
  }
  else
    return reshape(int_tuple<Shape>, names...);
}

} // namespace tf
