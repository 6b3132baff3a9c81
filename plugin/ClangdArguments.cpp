//===- ClangdArguments.cpp - Plugin arguments clangd drops ----------------===//
//
// clangd builds each file's CompilerInvocation with clang::createInvocation
// and then clears FrontendOptions::PluginArgs. With tf.so preloaded
// (tf-clangd), the definition below comes before libclang-cpp's: it calls
// libclang-cpp's and records the tf arguments per main file first. Loaded
// with -fplugin= instead, libclang-cpp's definition stays the one in use and
// nothing is recorded, as nothing is dropped.
//
//===----------------------------------------------------------------------===//

#include "ClangdArguments.h"

#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Driver/CreateInvocationFromArgs.h"
#include "llvm/ADT/StringMap.h"

#include <dlfcn.h>
#include <mutex>

namespace tf::plugin {
namespace {

struct Dropped {
  std::mutex Lock;
  llvm::StringMap<std::vector<std::string>> ByMainFile;
};

Dropped &dropped() {
  static Dropped D;
  return D;
}

} // namespace

std::optional<std::vector<std::string>>
argumentsDroppedByClangd(llvm::StringRef MainFile) {
  Dropped &D = dropped();
  std::lock_guard<std::mutex> Guard(D.Lock);
  auto It = D.ByMainFile.find(MainFile);
  if (It == D.ByMainFile.end())
    return std::nullopt;
  return It->second;
}

} // namespace tf::plugin

std::unique_ptr<clang::CompilerInvocation>
clang::createInvocation(llvm::ArrayRef<const char *> Args,
                        CreateInvocationOptions Opts) {
  using CreateInvocation = std::unique_ptr<CompilerInvocation> (*)(
      llvm::ArrayRef<const char *>, CreateInvocationOptions);
  static const auto Next = reinterpret_cast<CreateInvocation>(dlsym(
      RTLD_NEXT, "_ZN5clang16createInvocationEN4llvm8ArrayRefIPKcEENS_"
                 "23CreateInvocationOptionsE"));
  std::unique_ptr<CompilerInvocation> CI = Next(Args, std::move(Opts));
  if (!CI || CI->getFrontendOpts().Inputs.empty())
    return CI;
  auto &D = tf::plugin::dropped();
  std::lock_guard<std::mutex> Guard(D.Lock);
  D.ByMainFile[CI->getFrontendOpts().Inputs[0].getFile()] =
      CI->getFrontendOpts().PluginArgs["tf"];
  return CI;
}
