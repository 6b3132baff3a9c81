#!/usr/bin/env bash
# test/gpu/launch_gemm/build.sh BUILD_DIR - builds BUILD_DIR/launch_gemm from
# the user's program and the stand-in for the emitted .cu; run.sh calls it
# from the repository root with NVCC set.
set -euo pipefail
build=$1
here=test/gpu/launch_gemm
NVCC=${NVCC:-nvcc}
includes=(-Iinclude -Iruntime/include -Itest/gpu)
"$NVCC" -std=c++20 -O2 "${includes[@]}" -Xcompiler -Wno-attributes \
  -c "$here/user.cpp" -o "$build/launch_gemm_user.o"
# The plugin will write the mangled name; here the user's object tells it.
symbol=$(nm "$build/launch_gemm_user.o" | awk '$2 == "T" && $3 ~ /^_ZN9gemm_test4gemmE/ {print $3}')
[[ -n $symbol ]] || { echo "no gemm_test::gemm symbol in user.o" >&2; exit 1; }
sed "s/@KERNEL_SYMBOL@/$symbol/" "$here/gemm.tf.cu.in" >"$build/gemm.tf.cu"
"$NVCC" -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a "${includes[@]}" \
  -Xptxas -v -c "$build/gemm.tf.cu" -o "$build/gemm.tf.o"
"$NVCC" "$build/launch_gemm_user.o" "$build/gemm.tf.o" -o "$build/launch_gemm"
