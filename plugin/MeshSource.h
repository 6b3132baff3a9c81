//===- MeshSource.h - Where a mesh's numbers are written --------*- C++ -*-===//
//
// A mesh is a constant the attribute `[[tf::mesh(compute)]]` names; its
// value is what the checks read, but an edit that changes it -- a fix-it
// giving the consumer mesh one warpgroup instead of two -- is an edit of the
// declarations that compute it. These functions walk from the attribute's
// argument to those declarations and record where their numbers are
// written, for the one idiom the kernels use to carve consumer groups out
// of a thread mesh:
//
//   inline constexpr tf::Mesh threads =
//       tf::mesh("thread", tf::layout<"(3,128)">, "warpgroup", "participant");
//   inline constexpr tf::Mesh compute = threads.sub(tf::range(1, 3), tf::_)
//       .reshape<"(2,4,8,4)">("group", "warp", "lane8", "lane4");
//
// Anything else (a computed bound, a mesh built in a function) is left
// unrecorded, and no such fix-it is offered.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_MESHSOURCE_H
#define TF_PLUGIN_MESHSOURCE_H

#include "hir/HIR.h"

#include <optional>

namespace clang {
class ASTContext;
class Expr;
} // namespace clang

namespace tf::plugin {

/// How the mesh \p E (an attribute's argument) is written, when it is the
/// last groups of a declared mesh with its bounds, shapes and group counts
/// written as numbers.
std::optional<hir::MeshGroupsSource> meshGroupsSource(const clang::Expr *E,
                                                      clang::ASTContext &Ctx);

/// Where the extent of `tf::topology(LEVEL, EXTENT)` \p E is written, when
/// it is written as a number; invalid otherwise.
hir::SourceRange topologyExtentRange(const clang::Expr *E,
                                     clang::ASTContext &Ctx);

} // namespace tf::plugin

#endif // TF_PLUGIN_MESHSOURCE_H
