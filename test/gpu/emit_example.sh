#!/usr/bin/env bash
# test/gpu/emit_example.sh SOURCE INCLUDE_DIR EMITTED - makes sure EMITTED
# (DIR/NAME.tf.cu), the CUDA backend's output for SOURCE, exists: when it is
# missing it is generated with clang++ and the plugin ($TF_PLUGIN, default
# build/lib/tf.so), SOURCE compiled with -Iinclude -IINCLUDE_DIR. The GPU
# machine has no clang, so there the files are generated beforehand and
# copied (docs/gpu.md). gemm_example_build.sh and rows_example_build.sh call
# it from the repository root.
set -euo pipefail
source=$1 include_dir=$2 emitted=$3
[[ -f $emitted ]] && exit 0
plugin=${TF_PLUGIN:-build/lib/tf.so}
clang=${CLANGXX:-$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang++)}
[[ -f $plugin && -x $clang ]] || {
  echo "no $emitted, and no clang++ with $plugin to emit it" >&2; exit 1; }
mkdir -p "$(dirname "$emitted")"
"$clang" -std=c++20 -Iinclude -I"$include_dir" -fsyntax-only -fplugin="$plugin" \
  -fplugin-arg-tf-emit="$(dirname "$emitted")" "$source"
