#!/usr/bin/env bash
# test/gpu/gemm_fp8/build.sh BUILD_DIR - builds BUILD_DIR/gemm_fp8: examples/gemm/fp8.cpp
# with this folder's main (user.cpp), linked with the CUDA backend's
# fp8.tf.cu and cuBLAS (test/gpu/gemm_example_build.sh says how, and where
# the .cu comes from).
exec "$(dirname "$0")/../gemm_example_build.sh" fp8 gemm_fp8 "$@"
