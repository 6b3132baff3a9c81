#!/usr/bin/env bash
# test/gpu/gemm_example_build.sh EXAMPLE TEST BUILD_DIR - builds
# BUILD_DIR/TEST: examples/gemm/EXAMPLE.cpp with the main of
# test/gpu/TEST/user.cpp (the example's own main renamed; the host side is
# gemm_harness.hpp), linked with the CUDA backend's EXAMPLE.tf.cu, cuBLAS and
# cuBLASLt (the references and baselines). The build.sh of every gemm_*/
# folder calls it; run.sh and check_ptxas.py call those from the repository
# root with NVCC set.
#
# EXAMPLE may be a variant of examples/gemm/variants.py (f16_nt, fp8_e5m2,
# ...): its source is then written to BUILD_DIR/variants/EXAMPLE.cpp, and
# TEST's main from the main of the test of the example it comes from, with
# the same substitutions (variants.py write-gpu); TEST has no user.cpp.
#
# The .cu comes from $TF_EMITTED_DIR (default BUILD_DIR/emitted)/EXAMPLE.tf.cu,
# emitted there where missing (emit_example.sh).
set -euo pipefail
example=$1 test=$2 build=$3
source=examples/gemm/$example.cpp
user=test/gpu/$test/user.cpp
if [[ ! -f $source ]]; then
  mkdir -p "$build/variants"
  source=$build/variants/$example.cpp
  user=$build/variants/${test}_user.cpp
  python3 examples/gemm/variants.py write "$example" "$source"
  python3 examples/gemm/variants.py write-gpu "$example" "$user" "$source"
fi
NVCC=${NVCC:-nvcc}
emitted=${TF_EMITTED_DIR:-$build/emitted}/$example.tf.cu
"$(dirname "$0")/emit_example.sh" "$source" examples/gemm "$emitted"
# examples/gemm for a variant's check.hpp, test/gpu for gemm_harness.hpp.
includes=(-Iinclude -Iruntime/include -Itest/gpu -Iexamples/gemm)
"$NVCC" -std=c++20 -O2 "${includes[@]}" -Xcompiler -Wno-attributes \
  -c "$user" -o "$build/${test}_user.o"
"$NVCC" -std=c++20 -O3 -gencode=arch=compute_90a,code=sm_90a "${includes[@]}" \
  -Xptxas -v -c "$emitted" -o "$build/${test}.tf.o"
"$NVCC" "$build/${test}_user.o" "$build/${test}.tf.o" -lcublasLt -lcublas \
  -o "$build/$test"
