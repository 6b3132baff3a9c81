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

# A test that runs this long has hung (no input may hang the compiler:
# test/plugin/malformed/): lit stops it and reports a timeout. Generous:
# examples/schedule_checks.neg.cpp alone took over 600 s on a loaded
# 2-core machine. $TF_LIT_TIMEOUT overrides it. lit needs psutil for it
# (python3-psutil, .ci/setup.sh).
try:
    import psutil  # noqa: F401
    lit_config.maxIndividualTestTime = int(
        os.environ.get("TF_LIT_TIMEOUT", "1800"))
except ImportError:
    lit_config.note("python3-psutil is missing: no per-test timeout")


def preload_sanitizer(runtime):
    """In the sanitized build tf.so is instrumented but clang is not: clang
    runs through wrappers that preload the ASan runtime (which holds UBSan's
    too). Leak checking is off for every command: clang -cc1 frees nothing
    on purpose (-disable-free), and the tf tool's compiles end the process
    the same way; the GoogleTest suites and two of the fuzzers check leaks.
    The quarantine of freed memory is 32 MB, not ASan's 256: clang's own
    allocations pass through it too, and the default one's cache misses
    make each compile about a quarter slower (5.1 s against 4.0 s for the
    example GEMM), while a use after free in the plugin's short-lived data
    is caught long before 32 MB more are freed. Manual poisoning is off
    (allow_user_poisoning=0, as test/sanitize.sh sets for every test): LLVM's
    BumpPtrAllocator poisons a new slab in the instrumented copy of its
    inline code that tf's code carries, while clang's uninstrumented copy
    hands out pieces of that slab without unpoisoning them, so tf reading
    clang's AST nodes would be reported as a use after poison."""
    config.environment["ASAN_OPTIONS"] = (
        "detect_leaks=0:quarantine_size_mb=32:allow_user_poisoning=0")
    config.environment["UBSAN_OPTIONS"] = "print_stacktrace=1"
    wrappers = os.path.join(config.tf_obj_root, "test", "sanitized-clang")
    os.makedirs(wrappers, exist_ok=True)
    for driver in ("clang", "clang++"):
        path = os.path.join(wrappers, driver)
        with open(path, "w") as f:
            f.write("#!/bin/sh\nLD_PRELOAD={} exec {} \"$@\"\n".format(
                        runtime, os.path.join(config.llvm_tools_dir, driver)))
        os.chmod(path, 0o755)
    real = os.path.join(config.llvm_tools_dir, "clang")
    config.substitutions = [
        (pattern, value.replace(real, os.path.join(wrappers, "clang")))
        for pattern, value in config.substitutions]


if config.tf_sanitizer_runtime:
    preload_sanitizer(config.tf_sanitizer_runtime)

include_dir = os.path.join(config.tf_src_root, "include")
config.substitutions.append(("%tf_plugin", config.tf_plugin))
config.substitutions.append(("%tf_include", include_dir))
config.substitutions.append(("%gxx", config.gxx))


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
# The sanitized build checks tf, not the CUDA it emits: no nvcc there.
if nvcc and not config.tf_sanitizer_runtime:
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
# tf's version, project() in CMakeLists.txt.
config.substitutions.append(("%tf_version", config.tf_version))

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
