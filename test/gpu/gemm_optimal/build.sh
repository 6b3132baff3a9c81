#!/usr/bin/env bash
# test/gpu/gemm_optimal/build.sh BUILD_DIR - builds BUILD_DIR/gemm_optimal:
# examples/gemm/optimal.cpp with this folder's main (user.cpp), linked with
# the CUDA backend's optimal.tf.cu and cuBLAS (the reference). run.sh and
# check_ptxas.py call it from the repository root with NVCC set.
#
# The .cu comes from $TF_EMITTED (default BUILD_DIR/emitted/optimal.tf.cu).
# When that file is missing it is generated with clang++ and the plugin
# ($TF_PLUGIN, default build/lib/tf.so); the GPU machine has no clang, so
# there the file is generated beforehand and copied (docs/gpu.md).
set -euo pipefail
build=$1
here=test/gpu/gemm_optimal
NVCC=${NVCC:-nvcc}
emitted=${TF_EMITTED:-$build/emitted/optimal.tf.cu}
if [[ ! -f $emitted ]]; then
  plugin=${TF_PLUGIN:-build/lib/tf.so}
  clang=${CLANGXX:-$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang++)}
  [[ -f $plugin && -x $clang ]] || {
    echo "no $emitted, and no clang++ with $plugin to emit it" >&2; exit 1; }
  mkdir -p "$(dirname "$emitted")"
  "$clang" -std=c++20 -Iinclude -fsyntax-only -fplugin="$plugin" \
    -fplugin-arg-tf-emit="$(dirname "$emitted")" examples/gemm/optimal.cpp
fi
includes=(-Iinclude -Iruntime/include -Itest/gpu)
"$NVCC" -std=c++20 -O2 "${includes[@]}" -Xcompiler -Wno-attributes \
  -c "$here/user.cpp" -o "$build/gemm_optimal_user.o"
"$NVCC" -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a "${includes[@]}" \
  -Xptxas -v -c "$emitted" -o "$build/optimal.tf.o"
"$NVCC" "$build/gemm_optimal_user.o" "$build/optimal.tf.o" -lcublas \
  -o "$build/gemm_optimal"
