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
// and writes nothing; in clangd, which tf-clangd gives the plugin by
// preloading it, it applies only the arguments that change diagnostics
// (ClangdArguments.h).
//
// Tested by test/plugin/report.cpp, test/plugin/sarif/ and
// test/plugin/diagnostics/err_tf_plugin_unknown_argument.cpp.
//
//===----------------------------------------------------------------------===//

#include "ClangdArguments.h"
#include "Consumer.h"
#include "Diagnostics.h"
#include "Sarif.h"

#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "llvm/ADT/STLExtras.h"

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
    const FrontendOptions &Frontend = CI.getFrontendOpts();
    bool Loaded = !Frontend.Plugins.empty() ||
                  llvm::is_contained(Frontend.AddPluginActions, "tf");
    if (!Loaded) {
      // Preloaded (tf-clangd). In clangd, apply the arguments it dropped
      // that only change diagnostics (clang++ reported the unknown ones; what
      // writes files or prints must not run in an editor, whose stdout is
      // the protocol). In any other tool that parses with tf.so preloaded
      // (clang-tidy, which cannot take plugin diagnostics), stay out.
      std::optional<std::vector<std::string>> Dropped =
          Frontend.Inputs.empty()
              ? std::nullopt
              : argumentsDroppedByClangd(Frontend.Inputs[0].getFile());
      if (!Dropped)
        return false;
      Options Given;
      for (const std::string &Arg : *Dropped)
        parseArgument(Arg, Given);
      Opts.Warnings = std::move(Given.Warnings);
      Opts.TargetsDir = std::move(Given.TargetsDir);
      return true;
    }
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
