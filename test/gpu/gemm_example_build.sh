#!/usr/bin/env bash
# test/gpu/gemm_example_build.sh EXAMPLE TEST BUILD_DIR - builds
# BUILD_DIR/TEST: examples/gemm/EXAMPLE.cpp with the main of
# test/gpu/TEST/user.cpp (the example's own main renamed; the host side is
# gemm_harness.hpp), linked with the CUDA backend's EXAMPLE.tf.cu, cuBLAS and
# cuBLASLt (the references and baselines). The build.sh of gemm_optimal/,
# gemm_relu/ and gemm_f16/ call it; run.sh and check_ptxas.py call those from
# the repository root with NVCC set.
#
# The .cu comes from $TF_EMITTED_DIR (default BUILD_DIR/emitted)/EXAMPLE.tf.cu.
# When that file is missing it is generated with clang++ and the plugin
# ($TF_PLUGIN, default build/lib/tf.so); the GPU machine has no clang, so
# there the files are generated beforehand and copied (docs/gpu.md).
set -euo pipefail
example=$1 test=$2 build=$3
here=test/gpu/$test
NVCC=${NVCC:-nvcc}
emitted_dir=${TF_EMITTED_DIR:-$build/emitted}
emitted=$emitted_dir/$example.tf.cu
if [[ ! -f $emitted ]]; then
  plugin=${TF_PLUGIN:-build/lib/tf.so}
  clang=${CLANGXX:-$(command -v clang++-22 || echo /usr/lib/llvm-22/bin/clang++)}
  [[ -f $plugin && -x $clang ]] || {
    echo "no $emitted, and no clang++ with $plugin to emit it" >&2; exit 1; }
  mkdir -p "$emitted_dir"
  "$clang" -std=c++20 -Iinclude -fsyntax-only -fplugin="$plugin" \
    -fplugin-arg-tf-emit="$emitted_dir" "examples/gemm/$example.cpp"
fi
includes=(-Iinclude -Iruntime/include -Itest/gpu)
"$NVCC" -std=c++20 -O2 "${includes[@]}" -Xcompiler -Wno-attributes \
  -c "$here/user.cpp" -o "$build/${test}_user.o"
"$NVCC" -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a "${includes[@]}" \
  -Xptxas -v -c "$emitted" -o "$build/${test}.tf.o"
"$NVCC" "$build/${test}_user.o" "$build/${test}.tf.o" -lcublasLt -lcublas \
  -o "$build/$test"
