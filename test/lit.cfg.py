# lit configuration for tf: plugin diagnostics (-verify), emitted code and CLI
# output (FileCheck). Run through ctest, or: lit -sv build/test/<suite>
import os

import lit.formats
import lit.llvm
from lit.llvm import llvm_config

lit.llvm.initialize(lit_config, config)

config.name = "tf"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.excluded_from_discovery = ["Inputs"]
config.test_source_root = os.path.join(config.tf_src_root, "test")
config.test_exec_root = os.path.join(config.tf_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.use_clang(use_installed=True)

include_dir = os.path.join(config.tf_src_root, "include")
config.substitutions.append(("%tf_plugin", config.tf_plugin))
config.substitutions.append(("%tf_include", include_dir))
config.substitutions.append(("%host_cxx", config.host_cxx))
# %tf-cc1: a syntax-only clang run with the plugin loaded, for -verify tests.
config.substitutions.append(
    ("%tf-cc1",
     "%clang_cc1 -std=c++20 -fsyntax-only -load {} -add-plugin tf -I {}".format(
         config.tf_plugin, include_dir)))
config.substitutions.append(("%tf ", config.tf_tool + " "))
