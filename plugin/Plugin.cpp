//===- Plugin.cpp - The tf Clang plugin -----------------------------------===//
//
// The plugin action "tf" of tf.so:
//
//   clang++ -fplugin=tf.so [-fplugin-arg-tf-report] ...
//   clang -cc1 -load tf.so -add-plugin tf [-plugin-arg-tf report] ...
//
// It runs before the main action (so code generation still happens), collects
// the tf attribute sites once Sema is done and, for `report`, prints them;
// with `sarif=FILE` it also records every diagnostic and writes them to FILE
// when the source file ends (Sarif.h). Without arguments it only diagnoses
// and writes nothing, which is how clangd runs it (tf-clangd preloads tf.so;
// clangd drops plugin arguments).
//
// Tested by test/plugin/report.cpp, test/plugin/sarif/ and
// test/plugin/diagnostics/err_tf_plugin_unknown_argument.cpp.
//
//===----------------------------------------------------------------------===//

#include "Consumer.h"
#include "Diagnostics.h"
#include "Sarif.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"

using namespace clang;

namespace tf::plugin {
namespace {

class TfAction : public PluginASTAction {
public:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    if (!Opts.SarifFile.empty())
      installSarifWriter(CI, Opts.SarifFile);
    return makeConsumer(Opts, llvm::outs());
  }

  bool ParseArgs(const CompilerInstance &CI,
                 const std::vector<std::string> &Args) override {
    bool OK = true;
    for (const std::string &Arg : Args) {
      if (parseArgument(Arg, Opts))
        continue;
      report(CI.getDiagnostics(), SourceLocation(),
             DiagId::err_tf_plugin_unknown_argument)
          << Arg << knownArguments();
      OK = false;
    }
    return OK;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  Options Opts;
};

} // namespace
} // namespace tf::plugin

static clang::FrontendPluginRegistry::Add<tf::plugin::TfAction>
    TfPlugin("tf", "tf: check and report tf attributes, build the tile IR");
