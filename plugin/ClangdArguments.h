//===- ClangdArguments.h - Plugin arguments clangd drops --------*- C++ -*-===//
//
// clangd parses with the plugin arguments of a compile command removed
// (-fplugin-arg-tf-*), and tf-clangd brings the plugin by preloading it.
// Preloaded, tf.so also sees every compiler invocation clangd creates
// (ClangdArguments.cpp) and remembers its tf arguments per main file, so that
// the plugin action applies them there too.
//
//===----------------------------------------------------------------------===//
#ifndef TF_PLUGIN_CLANGDARGUMENTS_H
#define TF_PLUGIN_CLANGDARGUMENTS_H

#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>
#include <vector>

namespace tf::plugin {

/// The tf plugin arguments of the last invocation created for \p MainFile
/// in this process by clang::createInvocation (clangd's way) before clangd
/// removed them; nullopt when no invocation for it was created that way.
std::optional<std::vector<std::string>>
argumentsDroppedByClangd(llvm::StringRef MainFile);

} // namespace tf::plugin

#endif // TF_PLUGIN_CLANGDARGUMENTS_H
