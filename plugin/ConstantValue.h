//===- ConstantValue.h - Clang constants as tf values -----------*- C++ -*-===//
//
// Clang's constant evaluator hands the plugin an APValue; the tf algebra works
// on tf::Layout, tf::Mesh and friends. The decoders here rebuild the tf value
// from the APValue by walking the record's fields by name, so the plugin runs
// the same algebra and printing code as the headers and the CLI.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_CONSTANTVALUE_H
#define TF_PLUGIN_CONSTANTVALUE_H

#include "tf/layout/composed_layout.hpp"
#include "tf/layout/mesh.hpp"
#include "tf/layout/shard_layout.hpp"
#include "tf/kernel.hpp"
#include "tf/layout/topology.hpp"
#include "tf/schedule/contract_facts.hpp"

#include "clang/AST/TemplateBase.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace clang {
class APValue;
class ASTContext;
class QualType;
} // namespace clang

namespace tf::plugin {

/// The tf::Layout that \p V (of type \p T) holds; nothing when \p T is not
/// tf::Layout or the value does not fit (a header and plugin out of sync).
std::optional<Layout> decodeLayout(const clang::APValue &V, clang::QualType T);
std::optional<ComposedLayout> decodeComposedLayout(const clang::APValue &V,
                                                   clang::QualType T);
std::optional<ShardLayout> decodeShardLayout(const clang::APValue &V,
                                             clang::QualType T);
std::optional<Mesh> decodeMesh(const clang::APValue &V, clang::QualType T);
std::optional<Topology> decodeTopology(const clang::APValue &V,
                                       clang::QualType T);
std::optional<Target> decodeTarget(const clang::APValue &V, clang::QualType T);
std::optional<ResidentCtas> decodeResidentCtas(const clang::APValue &V,
                                               clang::QualType T);
/// A tf::Name's text ("nv.sm90.Wgmma").
std::optional<std::string> decodeName(const clang::APValue &V,
                                      clang::QualType T);
/// An atom's `params` member (tf::detail::AtomParams): the contract's
/// parameter names with their values.
std::optional<detail::AtomParams> decodeAtomParams(const clang::APValue &V,
                                                   clang::QualType T);

/// \p V printed for people: tf's notation for tf values
/// ("Mesh thread (3,128):(128,1) [warpgroup,participant]"), Clang's APValue
/// printer for anything else.
std::string describeConstant(const clang::APValue &V, clang::QualType T,
                             const clang::ASTContext &Ctx);

/// The characters of a FixedString template argument (a structural value:
/// a struct whose one member `text` is a char array): the text of
/// `tf::Tensor<T, "...">` or `tf::layout<"...">`.
std::optional<std::string> fixedStringText(const clang::TemplateArgument &A);

/// A layout string that tf's parser refused: its message and the byte offset
/// into the text where the problem is.
struct LayoutTextError {
  std::string Message;
  unsigned Position = 0;
};

/// Parses \p Text with tf's layout parser; the error when it is malformed.
std::optional<LayoutTextError> checkLayoutText(llvm::StringRef Text);

/// A layout string and what tf's parser reads in it:
/// "(3,128)" = (3,128):(128,1). @pre !checkLayoutText(Text)
std::string describeLayoutText(llvm::StringRef Text);

} // namespace tf::plugin

#endif // TF_PLUGIN_CONSTANTVALUE_H
