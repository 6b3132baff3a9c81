#!/usr/bin/env bash
# test/gpu/rows_example_build.sh EXAMPLE TEST BUILD_DIR - builds
# BUILD_DIR/TEST: examples/rows/EXAMPLE.cpp with the main of
# test/gpu/TEST/user.cpp (the example's own main renamed; the host side is
# rows_harness.hpp), linked with the CUDA backend's EXAMPLE.tf.cu. The
# build.sh of every rows_*/ folder calls it.
#
# The .cu comes from $TF_EMITTED_DIR (default BUILD_DIR/emitted)/EXAMPLE.tf.cu,
# emitted there where missing (emit_example.sh).
set -euo pipefail
example=$1 test=$2 build=$3
NVCC=${NVCC:-nvcc}
emitted=${TF_EMITTED_DIR:-$build/emitted}/$example.tf.cu
"$(dirname "$0")/emit_example.sh" "examples/rows/$example.cpp" examples/rows "$emitted"
# examples/rows for check.hpp and rows.hpp, test/gpu for rows_harness.hpp.
includes=(-Iinclude -Iruntime/include -Itest/gpu -Iexamples/rows)
"$NVCC" -std=c++20 -O2 "${includes[@]}" -Xcompiler -Wno-attributes \
  -c "test/gpu/$test/user.cpp" -o "$build/${test}_user.o"
"$NVCC" -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a "${includes[@]}" \
  -Xptxas -v -c "$emitted" -o "$build/${test}.tf.o"
"$NVCC" "$build/${test}_user.o" "$build/${test}.tf.o" -o "$build/$test"
