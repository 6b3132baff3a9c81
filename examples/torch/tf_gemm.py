"""Builds and loads the tf GEMM extension (gemm_extension.cpp) with
torch.utils.cpp_extension.load.

The extension is two sources: gemm_extension.cpp (the torch side, compiled by
the host compiler) and optimal.tf.cu, the CUDA that tf's plugin generated for
examples/gemm/optimal.cpp (compiled by nvcc for sm_90a). The plugin needs
Clang 22, so on a machine without it the .tf.cu is generated elsewhere and
copied: it is looked up in $TF_EMITTED_DIR (default build/emitted/ of the
repository), where `run.sh --emit-only` writes it.
"""
import os
import pathlib

from torch.utils import cpp_extension

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent


def emitted_source():
    """The generated optimal.tf.cu; FileNotFoundError says how to make it."""
    directory = pathlib.Path(os.environ.get("TF_EMITTED_DIR", ROOT / "build" / "emitted"))
    source = directory / "optimal.tf.cu"
    if not source.is_file():
        raise FileNotFoundError(
            f"{source} is missing: generate it with "
            "`bash examples/torch/run.sh --emit-only` where clang++-22 and "
            "build/lib/tf.so exist, and copy it here")
    return source


def load(verbose=False):
    """The extension module; its one function is gemm(a, b)."""
    includes = [ROOT / "include", ROOT / "runtime" / "include", ROOT / "examples" / "gemm"]
    return cpp_extension.load(
        name="tf_gemm",
        sources=[str(HERE / "gemm_extension.cpp"), str(emitted_source())],
        extra_include_paths=[str(p) for p in includes],
        # tf is C++20; [[tf::...]] attributes are the plugin's, unknown to g++.
        extra_cflags=["-std=c++20", "-O2", "-Wno-attributes"],
        extra_cuda_cflags=["-std=c++20", "-O3",
                           "-gencode=arch=compute_90a,code=sm_90a"],
        verbose=verbose)
