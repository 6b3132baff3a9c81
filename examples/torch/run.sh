#!/usr/bin/env bash
# examples/torch/run.sh [--emit-only] - the PyTorch extension of README.md:
# builds it (torch.utils.cpp_extension), runs test_gemm.py, then prints the
# timing lines of bench_gemm.py (tf beside torch.matmul at 8192^3 and at
# 1000 x 1544 x 1000). Exits non-zero on any failure.
#
# The extension compiles optimal.tf.cu, which the plugin generates from
# examples/gemm/optimal.cpp. It is taken from $TF_EMITTED_DIR (default
# build/emitted/); when missing it is generated there with clang++-22 and
# $TF_PLUGIN (default build/lib/tf.so). A machine without Clang 22 (the GPU
# machine) gets the file from one that has it:
#
#   bash examples/torch/run.sh --emit-only     # where tf is built: writes build/emitted/optimal.tf.cu
#   bash examples/torch/run.sh                 # on the GPU machine, build/emitted/ copied there
#
# The extension's build directory is torch's (~/.cache/torch_extensions;
# $TORCH_EXTENSIONS_DIR overrides it).
set -euo pipefail
cd "$(dirname "$0")/../.."
emitted_dir=$(realpath -m "${TF_EMITTED_DIR:-build/emitted}")
export TF_EMITTED_DIR=$emitted_dir

emit() {
  local plugin=${TF_PLUGIN:-build/lib/tf.so}
  local clang=${CLANGXX:-$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang++)}
  if [[ ! -f $plugin || ! -x $clang ]]; then
    echo "run.sh: no $emitted_dir/optimal.tf.cu, and no clang++-22 with $plugin to" \
         "generate it; run 'bash examples/torch/run.sh --emit-only' where tf is built" \
         "and copy $emitted_dir here" >&2
    exit 1
  fi
  mkdir -p "$emitted_dir"
  "$clang" -std=c++20 -Iinclude -fsyntax-only -fplugin="$plugin" \
    -fplugin-arg-tf-emit="$emitted_dir" examples/gemm/optimal.cpp
  echo "generated $emitted_dir/optimal.tf.cu"
}

case ${1:-} in
  --emit-only) emit; exit 0 ;;
  "") ;;
  *) echo "usage: $0 [--emit-only]" >&2; exit 2 ;;
esac
[[ -f $emitted_dir/optimal.tf.cu ]] || emit

cd examples/torch
python3 -c 'import tf_gemm; tf_gemm.load(verbose=True)'
python3 test_gemm.py -v
python3 bench_gemm.py
