#!/usr/bin/env bash
# bench/rows/build.sh [BUILD_DIR] - builds BUILD_DIR/libtf_rows.so (default
# build-bench-rows/): the four examples of examples/rows with their kernels
# exported (bench/rows/<example>.cpp) and linked with the CUDA backend's
# <example>.tf.cu, for bench.py to load. The .tf.cu files come from
# $TF_EMITTED_DIR (default BUILD_DIR/emitted), generated with clang++ and
# the plugin where missing (test/gpu/emit_example.sh; the GPU machine has no
# clang, so emit them beforehand there). The compilations run in parallel.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-bench-rows}
emitted=${TF_EMITTED_DIR:-$build/emitted}
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
examples=(add_bias softmax rmsnorm layernorm)
mkdir -p "$build"
flags=(-std=c++20 -O3 -Iinclude -Iruntime/include -Iexamples/rows -Xcompiler -fPIC)
pids=()
for example in "${examples[@]}"; do
  test/gpu/emit_example.sh "examples/rows/$example.cpp" examples/rows \
    "$emitted/$example.tf.cu"
  "$NVCC" "${flags[@]}" -Xcompiler -Wno-attributes -c "bench/rows/$example.cpp" \
    -o "$build/${example}_export.o" & pids+=($!)
  "$NVCC" "${flags[@]}" -gencode=arch=compute_90a,code=sm_90a -Xptxas -v \
    -c "$emitted/$example.tf.cu" -o "$build/$example.tf.o" \
    2>"$build/$example.ptxas" & pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
objects=()
for example in "${examples[@]}"; do
  objects+=("$build/${example}_export.o" "$build/$example.tf.o")
done
"$NVCC" -shared "${objects[@]}" -o "$build/libtf_rows.so"
