#!/usr/bin/env bash
# test/gpu/gemm_f16/build.sh BUILD_DIR - builds BUILD_DIR/gemm_f16: examples/gemm/f16.cpp
# with this folder's main (user.cpp), linked with the CUDA backend's
# f16.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and where
# the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" f16 gemm_f16 "$@"
