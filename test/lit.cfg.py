# lit configuration for tf: plugin diagnostics (-verify), emitted code and CLI
# output (FileCheck). Run through ctest, or: lit -sv build/test/<suite>
import os
import subprocess

import lit.formats
import lit.llvm

# lit.llvm reads the triples; an installed LLVM does not provide them.
config.host_triple = config.target_triple = subprocess.check_output(
    [os.path.join(config.llvm_tools_dir, "clang"), "-print-target-triple"],
    text=True).strip()
lit.llvm.initialize(lit_config, config)
# llvm_config exists only after initialize().
from lit.llvm import llvm_config

config.name = "tf"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cpp", ".test"]
config.excludes = ["Inputs"]
config.test_source_root = os.path.join(config.tf_src_root, "test")
config.test_exec_root = os.path.join(config.tf_obj_root, "test")

llvm_config.use_default_substitutions()
llvm_config.use_clang(use_installed=True)

include_dir = os.path.join(config.tf_src_root, "include")
config.substitutions.append(("%tf_plugin", config.tf_plugin))
config.substitutions.append(("%tf_include", include_dir))
config.substitutions.append(("%host_cxx", config.host_cxx))


def cc1_system_includes():
    """The header search arguments the driver gives -cc1 for C++ (-cc1 alone
    finds neither the C++ standard library nor Clang's own headers)."""
    out = subprocess.run(
        [os.path.join(config.llvm_tools_dir, "clang++"), "-###", "-std=c++20",
         "-fsyntax-only", "-x", "c++", os.devnull],
        capture_output=True, text=True).stderr
    import shlex
    cc1 = next(l for l in out.splitlines() if '"-cc1"' in l)
    args = shlex.split(cc1)
    keep = []
    for i, a in enumerate(args):
        if a in ("-resource-dir", "-internal-isystem",
                 "-internal-externc-isystem"):
            keep += [a, shlex.quote(args[i + 1])]
    return " ".join(keep)


# %tf-cc1: a syntax-only clang -cc1 run with the plugin loaded, for -verify
# tests. -fgnuc-version is what the driver passes: libstdc++'s <atomic> needs
# the __GCC_ATOMIC_* macros it defines. First in the list, so that the %clang_cc1 it expands to is expanded
# after it.
config.substitutions.insert(0, (
    "%tf-cc1",
    "%clang_cc1 {} -std=c++20 -fgnuc-version=4.2.1 -fsyntax-only -load {} -add-plugin tf -I {}".format(
        cc1_system_includes(), config.tf_plugin, include_dir)))
config.substitutions.append(("%tf ", config.tf_tool + " "))
# The tool's precompiled prefix headers (plugin/cli/PrefixHeader.h) go to the
# build tree, shared by the tests, never to the user's cache.
config.environment["TF_CACHE_DIR"] = os.path.join(config.tf_obj_root, "test",
                                                  "tf-cache")

# nvcc (CUDA 13 at /usr/local/cuda on the development and CI machines): the
# emitted CUDA is compiled for sm_90a where it exists (REQUIRES: nvcc) and
# those tests are unsupported elsewhere.
nvcc = os.environ.get("NVCC") or next(
    (p for p in ("/usr/local/cuda/bin/nvcc",) if os.access(p, os.X_OK)), None)
if nvcc:
    config.available_features.add("nvcc")
    config.substitutions.append(("%nvcc", nvcc))
# cuobjdump and nvdisasm for the SASS checks (test/gpu/check_ptxas.py looks
# here first): .ci/setup.sh installs them into the build's cuda-tools/bin.
config.environment["TF_CUDA_TOOLS"] = os.path.join(config.tf_obj_root,
                                                   "cuda-tools", "bin")
config.substitutions.append(("%tf_runtime_include",
                             os.path.join(config.tf_src_root, "runtime",
                                          "include")))
config.substitutions.append(("%tf_src", config.tf_src_root))

# clangd (Debian's clangd-22) for the editor tests: tf-clangd runs it with
# the plugin preloaded (test/editor).
clangd = os.path.join(config.llvm_tools_dir, "clangd")
if os.access(clangd, os.X_OK):
    config.available_features.add("clangd")
    config.substitutions.append(("%clangd", clangd))
clang_tidy = os.path.join(config.llvm_tools_dir, "clang-tidy")
if os.access(clang_tidy, os.X_OK):
    config.available_features.add("clang-tidy")
    config.substitutions.append(("%clang_tidy", clang_tidy))
config.substitutions.append(("%tf_clangd", os.path.join(
    os.path.dirname(config.tf_tool), "tf-clangd")))
config.substitutions.append(("%clangxx_driver",
                             os.path.join(config.llvm_tools_dir, "clang++")))
